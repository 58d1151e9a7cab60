package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/gobt/bt/btlog"
)

var replayHelp = help{
	usage: "bt replay [flags] FILE.btlog|FILE.db3",
	text: `Replay prints the status changes recorded in FILE.btlog as "bt run --log" printed
them while the tree ran: a line per change, "[seconds]: name PREV -> NEW", the time
counted from the start of the recording, the names padded to the longest. The file
may come from "bt run --btlog", from a Go program (btlog.CreateFile) or from
BehaviorTree.CPP's FileLogger2; the node names are read from the tree XML it holds.
--paths prints each node's path in the tree instead, and --uids adds its UID, as "bt
run --log" does with the same flags. A file recorded by "bt run --btlog --log"
replays to the lines that run printed.

--stats adds, after the changes, the table "bt run --stats" prints: per node, its
transitions, successes, failures, last result and last status.

FILE.db3 (or .btdb) is a SQLite database of "bt run --sqlite" or of
BehaviorTree.CPP's SqliteLogger: a file that holds several sessions (runs appended
to it) needs --session ID, and without it the command lists them.

An interrupt (Ctrl-C) stops a long replay: the status is 1, and stderr says
"bt: interrupted".

A file that is not a .btlog, or is damaged, is an error naming the byte where the
problem is ("bt: run.btlog: byte 18: …" on stderr; exit status 1). A file cut short
(a run that was killed) first prints the changes before the cut.
`,
	example: `bt replay examples/sniper/sniper.btlog
bt replay --stats --absolute examples/sniper/sniper.btlog
bt replay --session 2 runs.db3`,
}

// replay implements "bt replay".
func (c *cmd) replay(args []string) int {
	fs := flags("replay")
	stats := fs.Bool("stats", false, "print a table of statistics per node after the changes")
	paths := fs.Bool("paths", false, "name each node by its path in the tree (Main/Patrol/Move) instead of its name")
	uids := fs.Bool("uids", false, "add each node's UID to its name (Move::7), as Groot2 and the .btlog file number nodes")
	session := fs.Int64("session", 0, "replay the session `ID` of a database (.db3) that holds several")
	absolute := fs.Bool("absolute", false, "print times in seconds since the Unix epoch (StdCoutLogger's default) instead of since the recording started")
	files, code, ok := c.parse(fs, replayHelp, args)
	switch {
	case !ok:
		return code
	case len(files) != 1:
		return c.usageError(replayHelp, "replay needs one FILE.btlog or FILE.db3, got %d arguments", len(files))
	}
	log, err := c.readLog(files[0], *session)
	if log != nil { // complete, or cut short: what was read before the cut
		out := interruptible{c.ctx, c.stdout}
		opts := &btlog.ConsoleOptions{Color: c.color, Paths: *paths, UIDs: *uids, Absolute: *absolute}
		werr := log.WriteConsole(out, opts)
		if *stats && werr == nil {
			werr = log.Stats().WriteTable(out)
		}
		if errors.Is(werr, errInterrupted) {
			c.fail(errInterrupted)
			return exitError
		}
		if werr != nil {
			err = errors.Join(werr, err)
		}
	}
	if err != nil {
		return c.readFailed(err)
	}
	return exitOK
}

// readError says what went wrong reading a file as run says it of the tree's file:
// "FILE: no such file or directory".
func readError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

var errInterrupted = errors.New("interrupted")

// interruptible is an output that a long command stops writing to at an interrupt:
// once ctx is done, its writes fail with errInterrupted.
type interruptible struct {
	ctx context.Context
	w   io.Writer
}

func (i interruptible) Write(p []byte) (int, error) {
	if i.ctx.Err() != nil {
		return 0, errInterrupted
	}
	return i.w.Write(p)
}
