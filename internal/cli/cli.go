// Package cli is the bt command: cmd/bt only calls Main.
package cli

import (
	"fmt"
	"io"
)

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1 // the command ran and failed (bad file, failing tree …)
	exitUsage = 2 // the command line is wrong
)

// Main runs the bt command with args (without the program name) and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return run(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	fmt.Fprintf(stderr, "bt: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `bt runs BehaviorTree.CPP XML files.

Usage:

	bt run [--ticks N] [--exactly-once] [--main ID] FILE.xml

Run "bt run --help" for the flags.
`)
}
