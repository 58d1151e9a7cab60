module github.com/gobt/bt

go 1.25.0
