module github.com/gobt/bt/bench/peers

go 1.25.6

require (
	github.com/askft/go-behave v0.0.0-20200603190557-1fef2510d574
	github.com/gobt/bt v0.0.0
	github.com/joeycumines/go-behaviortree v1.11.0
)

require (
	github.com/fatih/color v1.7.0 // indirect
	github.com/joeycumines/go-bigbuff v1.21.0 // indirect
	github.com/mattn/go-colorable v0.1.2 // indirect
	github.com/mattn/go-isatty v0.0.8 // indirect
	github.com/pkg/errors v0.8.1 // indirect
	golang.org/x/sys v0.0.0-20190222072716-a9d3bda3a223 // indirect
)

replace github.com/gobt/bt => ../..
