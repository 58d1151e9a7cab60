package bt

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobt/bt/internal/snapcodec"
)

// A node's state in a snapshot, and Restore's two passes: see docs/architecture.md, "Snapshots".

// stateKeeper is implemented by the builtin nodes (tickers) that keep state between
// ticks.
type stateKeeper interface {
	saveState(n *Node, w *stateWriter)
	restoreState(n *Node, r *stateReader)
}

// stateWriter collects the fields of the nodes being saved: each node appends its own
// (see Tree.Snapshot).
type stateWriter struct {
	fields []snapcodec.Field
	err    error // the first failure, which fails the snapshot
	tree   *Tree
	now    time.Time // the tree's clock when the snapshot began: timers are saved relative to it
	claims uint32    // the pending wake-ups that nodes saved as theirs (see wakeClaim.saveState)
	// restart and halt are set by a node of yours whose work restarts when the tree is
	// restored: an async action's, or one restored halted (halt), with its subtree.
	restart, halt bool
}

// fail records the failure of the node being saved.
func (w *stateWriter) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *stateWriter) int(name string, v int64) {
	if v != 0 {
		w.fields = append(w.fields, snapcodec.Field{Name: name, Kind: snapcodec.Int, Num: v})
	}
}

// index writes an index that may be 0; a negative one (none) is not written.
func (w *stateWriter) index(name string, v int) {
	if v >= 0 {
		w.fields = append(w.fields, snapcodec.Field{Name: name, Kind: snapcodec.Int, Num: int64(v)})
	}
}

func (w *stateWriter) flag(name string, v bool) {
	if v {
		w.fields = append(w.fields, snapcodec.Field{Name: name, Kind: snapcodec.Bool, Num: 1})
	}
}

func (w *stateWriter) text(name string, v string) {
	if v != "" {
		w.fields = append(w.fields, snapcodec.Field{Name: name, Kind: snapcodec.Text, Text: v})
	}
}

// status writes a completed status by name.
func (w *stateWriter) status(name string, s Status) {
	if s != Idle {
		w.text(name, s.String())
	}
}

// bits writes a set of flags as a string of 0s and 1s, one per flag ("0110"); nothing
// when every flag is false.
func (w *stateWriter) bits(name string, flags []bool) {
	if !slices.Contains(flags, true) {
		return
	}
	b := make([]byte, len(flags))
	for i, f := range flags {
		b[i] = '0'
		if f {
			b[i] = '1'
		}
	}
	w.text(name, string(b))
}

// raw writes bytes: JSON goes into a JSON snapshot as it is, other bytes in base64.
func (w *stateWriter) raw(name string, data []byte) {
	if len(data) > 0 {
		w.fields = append(w.fields, snapcodec.Field{Name: name, Kind: snapcodec.Raw, Text: string(data)})
	}
}

// stateReader hands the fields of one node to its restoreState.
type stateReader struct {
	n         *Node
	statusOf  func(n *Node) Status // the status a node is restored with
	cleanTick bool                 // the statuses are those of a tick that did not fail
	fields    []snapcodec.Field
	used      []bool
	errs      []error
	apply     bool        // the apply pass: restoreState assigns what it read
	now       time.Time   // the tree's clock when the apply pass began: timers restart from it
	users     []userState // the states for the nodes of yours, put aside by the check pass
	restarts  []func()    // the async actions to start again, at the end of the apply pass
}

// beginNode makes r read the fields of n.
func (r *stateReader) beginNode(n *Node, fields []snapcodec.Field) {
	r.n, r.fields = n, fields
	r.used = append(r.used[:0], make([]bool, len(fields))...)
}

// applying reports whether restoreState must assign what it read: in the apply pass.
func (r *stateReader) applying() bool { return r.apply }

// fail records a problem of the node's state.
func (r *stateReader) fail(format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf("node %s: %s", r.n.Path(), fmt.Sprintf(format, args...)))
}

// finish reports the fields restoreState did not read: a snapshot of another version,
// or a corrupt one.
func (r *stateReader) finish() {
	for i, f := range r.fields {
		if !r.used[i] {
			r.fail("unknown field %q", f.Name)
		}
	}
}

// get returns the field name and marks it read, or nil. A field of another kind is a
// problem, but for raw, which takes any.
func (r *stateReader) get(name string, kind snapcodec.Kind) *snapcodec.Field {
	for i := range r.fields {
		if f := &r.fields[i]; f.Name == name {
			r.used[i] = true
			if f.Kind != kind && kind != snapcodec.Raw {
				r.fail("field %q: want %s", name, kind)
				return nil
			}
			return f
		}
	}
	return nil
}

// int returns the integer field name, which must be in [lo, hi]; 0 when it is absent.
func (r *stateReader) int(name string, lo, hi int64) int64 { return r.intOr(name, 0, lo, hi) }

// intOr is int with def for an absent field.
func (r *stateReader) intOr(name string, def, lo, hi int64) int64 {
	f := r.get(name, snapcodec.Int)
	if f == nil {
		return def
	}
	if f.Num < lo || f.Num > hi {
		r.fail("field %q: %d is not in [%d, %d]", name, f.Num, lo, hi)
		return def
	}
	return f.Num
}

// index reads an index in [0, hi) written by stateWriter.index; -1 when it is absent.
func (r *stateReader) index(name string, hi int) int {
	return int(r.intOr(name, -1, 0, int64(hi)-1))
}

func (r *stateReader) flag(name string) bool {
	f := r.get(name, snapcodec.Bool)
	return f != nil && f.Num == 1
}

func (r *stateReader) text(name string) string {
	if f := r.get(name, snapcodec.Text); f != nil {
		return f.Text
	}
	return ""
}

// status reads a status field: a completed status (Success or Failure) by name, or
// Idle when it is absent.
func (r *stateReader) status(name string) Status {
	t := r.text(name)
	if t == "" {
		return Idle
	}
	s, err := ParseStatus(t)
	if err != nil || !s.Completed() {
		r.fail("field %q: %q is not SUCCESS or FAILURE", name, t)
		return Idle
	}
	return s
}

// duration reads a duration field (time.Duration's text), and whether it is there.
func (r *stateReader) duration(name string) (time.Duration, bool) {
	t := r.text(name)
	if t == "" {
		return 0, false
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		r.fail("field %q: %v", name, err)
		return 0, false
	}
	return d, true
}

// bits reads n flags written by stateWriter.bits (all false when the field is absent)
// and returns them with the number that are set.
func (r *stateReader) bits(name string, n int) ([]bool, int) {
	flags := make([]bool, n)
	t := r.text(name)
	if t == "" {
		return flags, 0
	}
	if len(t) != n || strings.Trim(t, "01") != "" {
		r.fail("field %q: want %d digits 0 or 1, not %q", name, n, t)
		return flags, 0
	}
	set := 0
	for i := range flags {
		if flags[i] = t[i] == '1'; flags[i] {
			set++
		}
	}
	return flags, set
}

// raw reads the bytes written by stateWriter.raw, or nil.
func (r *stateReader) raw(name string) []byte {
	if f := r.get(name, snapcodec.Raw); f != nil {
		return []byte(f.JSON())
	}
	return nil
}
