module example.com/whole

go 1.19
