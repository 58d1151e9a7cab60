module github.com/gobt/bt/cmd/bt

go 1.26.0

require (
	github.com/go-zeromq/zmq4 v0.17.0
	github.com/gobt/bt v0.0.0-00010101000000-000000000000
	github.com/gobt/bt/btsqlite v0.0.0-00010101000000-000000000000
	github.com/gobt/bt/groot2 v0.0.0-00010101000000-000000000000
)

require (
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	github.com/ncruces/go-sqlite3 v0.37.0 // indirect
	github.com/ncruces/go-sqlite3-wasm/v6 v6.5.35401 // indirect
	github.com/ncruces/julianday v1.0.0 // indirect
	golang.org/x/sync v0.7.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.15.0 // indirect
)
