// Package btcpp holds BehaviorTree.CPP 4.10's tutorials (its examples/t01 … t19, with
// the XML they load and the nodes of its sample_nodes folder) ported to Go as a user
// migrating from C++ would write them with bt's public API.
//
// Each tutorial is a file, tNN_…_test.go, of runnable examples whose "Output:" is
// what the reference prints: the expected output its comments give or, where a
// comment is missing or stale, what its code prints, read from the reference's source
// (each such place says so). Tutorial 4's output has two blank lines in a row, which
// an example's comment cannot hold, so it is a test. The package has no code of its
// own: go test ./examples/btcpp runs every tutorial and checks its output.
// sample_nodes_test.go holds the nodes several tutorials share (SaySomething,
// MoveBase, CrossDoor …). The tutorials that wait or sleep run on a manual clock
// (bttest.Clock) instead.
//
// Where a tutorial shows a C++-only idea (a plugin loaded from a shared library, an
// argument passed by reference, a pointer into the blackboard), its file says why
// and ports what makes sense. Where bt prints something else on purpose (Go type
// names in a blackboard dump, numbers read into a string port without the six
// decimals of std::to_string), the example says what the reference prints.
package btcpp
