module upft.test/dots

go 1.19
