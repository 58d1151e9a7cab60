package bt_test

import (
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
)

// The tests of package bt_test are written with package bttest, which imports bt and so
// cannot be imported by bt's own (internal) tests. They dot-import bt, as tests that
// cannot be part of their package for that reason may, and reach the few internals they
// need through export_test.go.

// epoch is where the tests' clocks start.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// woken checks, before a step, whether a wake-up is pending, and consumes it.
func woken(want bool) func(t *testing.T, tree *Tree) {
	return func(t *testing.T, tree *Tree) {
		t.Helper()
		if got := TakeWakeUp(tree); got != want {
			t.Errorf("wake-up pending: %v, want %v", got, want)
		}
	}
}

// tickError ticks a tree built from spec once and checks the error it stops with.
func tickError(t *testing.T, spec *Spec, want string) {
	t.Helper()
	tree, err := NewTree(spec)
	if err == nil {
		_, err = tree.TickOnce()
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got error %v, want one containing %q", err, want)
	}
}

// builtin returns the model of the builtin node id, to build specs as XML sets them.
func builtin(id string) *Model {
	m, ok := NewFactory().Model(id)
	if !ok {
		panic("no builtin " + id)
	}
	return m
}
