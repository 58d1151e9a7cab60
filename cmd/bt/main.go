// Command bt runs, checks, draws and converts BehaviorTree.CPP XML files.
//
//	bt run [flags] FILE.xml
//
// Run bt help for the list of commands.
package main

import (
	"os"

	"github.com/gobt/bt/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
