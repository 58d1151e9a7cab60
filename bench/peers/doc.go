// Package peers compares bt with the other Go behavior-tree libraries on the same
// shapes, each tree built with each library's own API, and with a bare interface walk
// that keeps no engine state (the floor).
//
// Shapes lists the comparison. Each shape's trees count their leaves' visits, and the
// benchmarks check, outside their timed loops, that every library visited exactly the
// leaves the shape's semantics ask for, so that no library wins by doing less. The
// tests run the same checks without -bench.
//
// The command peerbench (go run ./cmd/peerbench) runs every benchmark in rounds, one
// library after another, and prints the medians and each library's ratio to bt.
// bench/README.md (section Peers) describes the shapes and records the figures.
package peers
