// Command bt runs, checks, draws and converts BehaviorTree.CPP XML files, and
// replays their runs:
//
//	bt run [flags] FILE.xml         tick a tree; print its statuses and its blackboard
//	bt replay [flags] FILE.btlog    print the status changes of a .btlog file
//	bt check [flags] FILE.xml...    validate files without running them
//	bt nodes [flags] [ID...]        list the node types with their ports
//	bt models [flags]               write the TreeNodesModel XML of the node types
//	bt graph [flags] FILE.xml       draw a tree as Graphviz DOT, Mermaid or text
//	bt convert [flags] FILE.xml     upgrade a format-3 file to format 4
//
// Run "bt help" for the list of commands and "bt <command> --help" for the flags of
// one, with an example. The exit status is 0 on success, 1 when the command failed
// and 2 for a wrong command line.
//
// "bt run --groot2" publishes the run to Groot2, and "bt run --sqlite" records it in
// a SQLite database that "bt replay" and "bt view" read back. For them the command is
// a module of its own, which requires the groot2 and btsqlite modules, so that the
// library's module keeps no dependency but the standard library; in the repository,
// go.work ties the modules together.
package main

import (
	"io"
	"os"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/btsqlite"
	"github.com/gobt/bt/groot2"
	"github.com/gobt/bt/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr, cli.WithGroot2(publish), cli.WithSQLite(sqlite)))
}

// sqlite is the btsqlite module's logger and reader, for "bt run --sqlite" and the
// databases "bt replay" and "bt view" read.
var sqlite = cli.SQLite{
	Create: func(tree *bt.Tree, name string, appending bool) (io.Closer, error) {
		return btsqlite.Create(tree, name, &btsqlite.Options{Append: appending})
	},
	Sessions: func(name string) ([]cli.SQLiteSession, error) {
		sessions, err := btsqlite.Sessions(name)
		out := make([]cli.SQLiteSession, len(sessions))
		for i, s := range sessions {
			out[i] = cli.SQLiteSession(s)
		}
		return out, err
	},
	Read: func(name string, session int64) (*btlog.Log, error) { return btsqlite.Read(name, session) },
}

// publish serves tree to Groot2 on the port and the next one of the host that o
// gives, as BehaviorTree.CPP's Groot2Publisher does.
func publish(tree *bt.Tree, o cli.Groot2Options) (io.Closer, error) {
	return groot2.New(tree, &groot2.Options{Host: o.Host, Port: o.Port, ReadOnly: o.ReadOnly})
}
