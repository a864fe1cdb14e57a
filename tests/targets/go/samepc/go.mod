module samepc

go 1.19
