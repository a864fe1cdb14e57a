module example.com/nums

go 1.19
