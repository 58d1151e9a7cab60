// Package cli is the bt command: it runs, checks, draws and converts BehaviorTree.CPP
// XML files, and replays their runs, without writing Go. cmd/bt only calls Main.
//
// Each subcommand is one file: run.go, replay.go, check.go, nodes.go (nodes and
// models), graph.go and convert.go, and serve.go holds "bt view" and what --serve
// needs (package monitor on a loopback listener); cli.go dispatches and holds what they share (flag
// parsing that allows flags after the file names, help texts, loading files and
// reporting their errors with paths as the user wrote them). observers.go holds what
// watches a run — the loggers of package btlog behind --log, --btlog, --trace, --jsonl
// and --stats, and the monitor of --serve — attached in one place and closed in one
// place. custom.go holds what the commands do about node types bt does not know — a
// program's own nodes: the hint that says once what to do (--models, --mock-all), and
// the models --mock-all infers from the file. escape.go keeps what files say from
// acting on the terminal: every command's output goes through an escaper. The
// commands that serve a page (view, run --serve) print its address and serve until interrupted; their tests drive them as a person
// does.
//
// Exit statuses are 0 when the command did its job, 1 when it ran and failed (a bad
// file, a tree that could not be built or ticked, problems found by check) and 2 for
// a wrong command line. "bt run --ticks N" follows the contract of the conformance
// cases bt is tested against: its stdout lines "tick", "blackboard" and "error" are
// read by the checker; everything else it prints, and stderr, is ignored there. The
// lines of --log ("[0.012]: name PREV -> NEW", which the transition streams compare)
// and the table of --stats (after the blackboard line, each row starting with a UID)
// share stdout with them; run flushes the console logger before each line of its own,
// so that the lines come in the order things happened. Without --ticks, run ticks as
// BehaviorTree.CPP's tickWhileRunning does. Time-based behaviour is tested in
// testing/synctest bubbles (the golden cases), never by sleeping.
package cli
