module calls

go 1.19
