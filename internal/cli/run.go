package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/gobt/bt"
)

// run implements "bt run": load a file, tick its main tree, print the statuses and the
// root blackboard (the contract of the conformance cases).
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bt run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ticks := fs.Int("ticks", 100, "tick at most `N` times")
	exactly := fs.Bool("exactly-once", false, "tick the root exactly once per tick (TickExactlyOnce) instead of TickOnce")
	main := fs.String("main", "", "run the tree `ID` instead of the document's main tree")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: bt run [flags] FILE.xml

Loads FILE.xml, ticks its main tree until it completes (or N times) and prints one line
"tick <i> <STATUS>" per tick, then "blackboard <json>" with the root blackboard. A tree
still RUNNING after the last tick is halted first. Errors print "error <message>".

Example:

	bt run --ticks 20 examples/sniper.xml

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stdout, "error %s\n", oneLine(err))
		return exitError
	}
	f := bt.NewFactory()
	if err := f.LoadFile(fs.Arg(0)); err != nil {
		return fail(err)
	}
	tree, err := f.NewTree(*main)
	if err != nil {
		return fail(err)
	}
	tick := tree.TickOnce
	if *exactly {
		tick = tree.TickExactlyOnce
	}
	status := bt.Idle
	for i := 1; i <= *ticks; i++ {
		if status, err = tick(); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "tick %d %s\n", i, status)
		if status != bt.Running {
			break
		}
	}
	if status == bt.Running {
		if err := tree.Halt(); err != nil {
			return fail(err)
		}
	}
	js, err := tree.Blackboard().MarshalJSON()
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "blackboard %s\n", js)
	return exitOK
}

// oneLine joins a multi-line error (a list of problems) into one line.
func oneLine(err error) string {
	b := []byte(err.Error())
	for i, c := range b {
		if c == '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}
