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
// a wrong command line. "bt run" follows the contract of the conformance cases
// (../shared/conformance/README.md): its stdout lines "tick", "blackboard" and "error"
// are read by the checker; everything else it prints is ignored there.
package cli
