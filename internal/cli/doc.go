// Package cli is the bt command: it runs, checks, draws and converts BehaviorTree.CPP
// XML files without writing Go. cmd/bt only calls Main.
//
// Each subcommand is one file: run.go, check.go, nodes.go (nodes and models),
// graph.go and convert.go; cli.go dispatches and holds what they share (flag parsing
// that allows flags after the file names, help texts, loading files and reporting
// their errors with paths as the user wrote them).
//
// Exit statuses are 0 when the command did its job, 1 when it ran and failed (a bad
// file, a tree that could not be built or ticked, problems found by check) and 2 for
// a wrong command line. "bt run --ticks N" follows the contract of the conformance
// cases bt is tested against: its stdout lines "tick", "blackboard" and "error" are
// read by the checker; everything else it prints, and stderr, is ignored there.
// Without --ticks, run ticks as BehaviorTree.CPP's tickWhileRunning does. Time-based
// behaviour is tested in testing/synctest bubbles (the golden cases), never by
// sleeping.
package cli
