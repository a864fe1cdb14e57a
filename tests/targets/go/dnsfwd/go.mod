module example.com/dnsfwd

go 1.19
