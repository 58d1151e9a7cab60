package bt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/internal/snapcodec"
)

// Snapshot is the state of a running tree, saved between two ticks: enough to go on
// ticking, in another tree built from the same definition — after a crash, in a saved
// game, in another process — as the tree would have gone on. Take one with
// Tree.Snapshot, write it with MarshalJSON (for people) or MarshalBinary (compact),
// read it with ReadSnapshot (or Tree.ReadSnapshot, which refuses a snapshot of another
// tree before it reads more than its head), and give it to Tree.Restore.
//
// It holds every node's status and the state each builtin node keeps between ticks
// (a control's current child, counters, latches, a LoopInt's queue, Switch's running
// child, …); timers as the time left until their deadlines on the tree's clock; the
// wake-ups the tree has not acted on; the blackboards of the tree and of its subtree
// instances, with typed values; the state of your nodes that implement StateSaver;
// and the result of an async action's work that is done but not yet collected. It
// does not hold the tree's observers, nor what they were shown (a control that
// returned Skipped, which observers see Running until its parent resets it: a restored
// tree's observers start afresh), tick functions (SetPreTick), functions given to Do, a
// Stop not acted on yet, or the goroutine of async work under way: that work starts
// again (Restarts lists it).
//
// Its encodings are versioned: a bt reads the snapshots of its version and the older
// ones.
type Snapshot struct {
	data snapcodec.Snapshot // what the encodings write (package internal/snapcodec)
	of   *Tree              // the tree it was taken of, for the paths of the nodes (nil: read)
}

// TreeID returns the ID of the definition the tree was built from ("" for NewTree).
func (s *Snapshot) TreeID() string { return s.data.Tree }

// Restarts returns the paths of the nodes that start afresh when the snapshot is
// restored: async actions whose work was under way (their goroutine did not come
// along: Restore starts the work again), and Running nodes of yours whose behavior
// does not implement StateSaver (restored halted, with the nodes under them; their
// next tick starts them).
func (s *Snapshot) Restarts() []string { return slices.Clone(s.data.Restart) }

// Taken returns the time of the tree's clock when the snapshot was taken.
func (s *Snapshot) Taken() time.Time { return s.data.Taken }

var (
	errSnapshotTicking = errors.New("bt: Snapshot during a tick or a halt: take it between ticks (from Tree.Do, for a tree that another goroutine ticks)")
	errRestoreTicking  = errors.New("bt: Restore during a tick or a halt: restore between ticks")
)

// Snapshot saves the state of the tree (see Snapshot). It must be called by the
// goroutine that ticks the tree, between ticks — or, for a tree that another goroutine
// ticks, from a function given to Tree.Do — and fails during a tick. A blackboard
// value that cannot be encoded, or a StateSaver that fails, is an error naming the
// entry or the node.
func (t *Tree) Snapshot() (*Snapshot, error) {
	switch {
	case t.root == nil:
		return nil, ErrEmptyTree
	case t.ticking:
		return nil, errSnapshotTicking
	}
	w := stateWriter{tree: t, now: t.cfg.clock.Now()}
	s := &Snapshot{of: t, data: snapcodec.Snapshot{
		Head:  snapcodec.Head{Version: snapcodec.Version, Tree: t.ID(), Fingerprint: t.fingerprint(), Nodes: len(t.nodes)},
		Taken: w.now, Aborted: t.attention.Load()&attnAborted != 0}}
	skipTo := uint16(0) // the nodes up to this UID are under a node restored halted
	for n := range t.Nodes() {
		// The nodes' fields share one slice: each node's are the ones it appended.
		start := len(w.fields)
		w.restart, w.halt = false, false
		if k, ok := n.core().(stateKeeper); ok {
			k.saveState(n, &w)
		}
		if w.err != nil {
			return nil, fmt.Errorf("bt: Snapshot: node %s: %w", n.Path(), w.err)
		}
		uid := n.UID()
		switch {
		case uid <= skipTo:
			w.fields = w.fields[:start]
			continue // restored as built: Idle, no state
		case w.restart:
			s.data.Restart = append(s.data.Restart, n.Path())
		}
		if w.halt {
			w.fields, skipTo = w.fields[:start], lastUID(n)
			continue
		}
		if st := n.Status(); st != Idle || len(w.fields) > start {
			s.data.States = append(s.data.States, snapcodec.Node{UID: uid, Status: uint8(st), Fields: w.fields[start:len(w.fields):len(w.fields)]})
		}
	}
	pending := uint32(t.wakes.Load())
	s.data.Wakeups = pending - min(w.claims, pending)
	for sc := range t.scopes() {
		entries, err := sc.bb.SaveState()
		if err != nil {
			return nil, fmt.Errorf("bt: Snapshot: %s: %w", sc.name(), err)
		}
		s.data.Scopes = append(s.data.Scopes, snapcodec.Scope{UID: sc.uid, Path: sc.path, Entries: entries})
	}
	return s, nil
}

// lastUID returns the greatest UID of the nodes under n (n's own if it has none): the
// UIDs of a node and the nodes under it are consecutive.
func lastUID(n *Node) uint16 {
	for n.NumChildren() > 0 {
		n = n.Child(n.NumChildren() - 1)
	}
	return n.UID()
}

// treeScope is one blackboard of a tree: its root blackboard, or a subtree instance's.
type treeScope struct {
	uid  uint16 // the SubTree node; 0 for the root blackboard
	path string // the prefix of the instance's paths
	bb   *blackboard.Blackboard
}

func (sc treeScope) name() string { return snapcodec.ScopeName(sc.uid, sc.path) }

// scopes returns the blackboards of the tree: the root one, then those of the subtree
// instances in UID order.
func (t *Tree) scopes() func(yield func(treeScope) bool) {
	return func(yield func(treeScope) bool) {
		if !yield(treeScope{bb: t.bb}) {
			return
		}
		for n := range t.Nodes() {
			if n.Kind() == KindSubTree && n.NumChildren() == 1 {
				sc := n.Child(0).meta.scope
				if !yield(treeScope{uid: n.UID(), path: sc.prefix, bb: sc.bb}) {
					return
				}
			}
		}
	}
}

// Restore gives the tree the state of snapshot s, taken of a tree built from the same
// definition: ticking it goes on as ticking the tree of the snapshot would have gone
// on. Timers get the time that was left on their deadlines, from the tree's clock now;
// the tree's observers are told of the statuses that change; the blackboards are
// replaced, entries and all (a root blackboard given with WithBlackboard too).
//
// Nodes start afresh where the snapshot could not keep them (see Snapshot.Restarts):
// the work of an async action that was under way is started again, now, in a new
// goroutine, for the same activation — with its StateSaver's state, if it has one (an
// async action whose work was done gets its result, and does not restart); a Running
// node of yours without StateSaver is restored halted, with the nodes under it, and
// starts again when next ticked.
//
// Restore is all or nothing: it checks the whole snapshot — the definition it was
// taken of (a fingerprint of every node, port and script), each node's state, each
// blackboard entry — before it changes anything, and on any problem returns an error
// saying what is wrong and leaves the tree as it was; a StateSaver of yours that fails
// or panics is undone with the others. The tree must be idle — freshly built, or
// halted (Halt) — and Restore must not be called during a tick; from a function given
// to Do it may, and the tick that follows goes on from the restored state. The
// observers are told last, once the tree holds the snapshot's state: one that panics
// makes Restore return the panic as an error naming the node, the tree restored all
// the same (as Halt does).
//
// Types of blackboard values that no port of the tree declares must be given with
// WithTypes (see blackboard.Blackboard.PrepareRestore).
func (t *Tree) Restore(s *Snapshot) error {
	switch {
	case s == nil:
		return errors.New("bt: Restore: no snapshot")
	case t.root == nil:
		return ErrEmptyTree
	case t.ticking:
		return errRestoreTicking
	}
	if err := t.checkDefinition(&s.data.Head); err != nil {
		return fmt.Errorf("bt: Restore: %w", err)
	}
	if err := t.idle(); err != nil {
		return err
	}
	r := stateReader{}
	statuses, err := t.check(s, &r)
	if err != nil {
		return err
	}
	applies, err := t.prepareScopes(s)
	if err != nil {
		return fmt.Errorf("bt: Restore: %w", err)
	}
	if err := restoreUsers(r.users); err != nil {
		return err
	}
	for _, apply := range applies {
		apply()
	}
	return t.apply(s, statuses, &r)
}

// checkDefinition refuses a snapshot of another definition than the tree's, or one
// whose head is corrupt.
func (t *Tree) checkDefinition(s *snapcodec.Head) error {
	fp := t.fingerprint()
	if s.Fingerprint == fp && s.Nodes != len(t.nodes) {
		return fmt.Errorf("the snapshot is corrupt: it counts %d nodes, where its tree definition has %d", s.Nodes, len(t.nodes))
	}
	if s.Fingerprint != fp {
		what := "another tree definition"
		if s.Tree != t.ID() {
			what = fmt.Sprintf("tree %q, not of %q", s.Tree, t.ID())
		}
		return fmt.Errorf("the snapshot is of %s (its fingerprint is %s, this tree's %s)", what, s.Fingerprint, fp)
	}
	return nil
}

// prepareScopes checks the blackboards of s against the tree's and returns the
// functions that restore them.
func (t *Tree) prepareScopes(s *Snapshot) ([]func(), error) {
	var applies []func()
	var errs []error
	byUID := make(map[uint16]int, len(s.data.Scopes)) // the snapshot's, by the UID of their SubTree
	for i, sc := range s.data.Scopes {
		byUID[sc.UID] = i
	}
	for sc := range t.scopes() {
		i, ok := byUID[sc.uid]
		if !ok {
			errs = append(errs, fmt.Errorf("the snapshot is corrupt: %s is missing", sc.name()))
			continue
		}
		apply, err := sc.bb.PrepareRestore(s.data.Scopes[i].Entries, t.types)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", sc.name(), err))
			continue
		}
		applies = append(applies, apply)
	}
	if len(errs) == 0 && len(s.data.Scopes) != len(applies) {
		errs = append(errs, errors.New("the snapshot is corrupt: it has blackboards of no subtree instance of this tree"))
	}
	return applies, errors.Join(errs...)
}

// idle reports why the tree cannot be restored into, if it cannot: a node runs, or
// an error stopped the last tick.
func (t *Tree) idle() error {
	if t.attention.Load()&attnAborted != 0 {
		return errors.New("bt: Restore: an error stopped the tree's last tick: halt it first (Halt)")
	}
	for n := range t.Nodes() {
		if n.Status() == Running {
			return fmt.Errorf("bt: Restore: node %s is RUNNING: restore into an idle tree (freshly built, or halted with Halt)", n.Path())
		}
	}
	return nil
}

// check is Restore's check pass: it reads every node's state without changing
// anything, and returns the statuses to restore, by node index, and what is wrong.
func (t *Tree) check(s *Snapshot, r *stateReader) ([]Status, error) {
	if s.data.Wakeups > maxPending {
		return nil, fmt.Errorf("bt: Restore: the snapshot is corrupt: %d pending wake-ups, more than a tree keeps (%d)", s.data.Wakeups, maxPending)
	}
	statuses := make([]Status, len(t.nodes))
	j := 0 // the next state of s to match
	prev := uint16(0)
	for _, st := range s.data.States {
		if st.UID <= prev || int(st.UID) > len(t.nodes) {
			return nil, fmt.Errorf("bt: Restore: the snapshot is corrupt: node UID %d out of order or out of range", st.UID)
		}
		prev = st.UID
		if n := t.Node(st.UID); st.Path != "" && st.Path != n.Path() {
			return nil, fmt.Errorf("bt: Restore: the snapshot is corrupt: node %d is %s, not %s", st.UID, n.Path(), st.Path)
		}
		if Status(st.Status) > Failure {
			return nil, fmt.Errorf("bt: Restore: node %s: status %s cannot be stored", t.Node(st.UID).Path(), Status(st.Status))
		}
	}
	for _, st := range s.data.States {
		statuses[t.byUID()[st.UID-1]] = Status(st.Status)
	}
	r.statusOf = func(n *Node) Status { return statuses[t.byUID()[n.UID()-1]] }
	r.cleanTick = !s.data.Aborted
	for n := range t.Nodes() {
		var fields []snapcodec.Field
		if j < len(s.data.States) && s.data.States[j].UID == n.UID() {
			fields = s.data.States[j].Fields
			j++
		}
		r.beginNode(n, fields)
		if k, ok := n.core().(stateKeeper); ok {
			k.restoreState(n, r)
		}
		r.finish()
	}
	if !s.data.Aborted { // between ticks that did not fail, the statuses are those a tick leaves
		for n := range t.Nodes() {
			r.errs = append(r.errs, t.checkRunning(n, statuses)...)
		}
	}
	if len(r.errs) > 0 { // each its own line, as every error of bt says where it is
		errs := make([]error, min(len(r.errs), maxRestoreErrors))
		for i := range errs {
			errs[i] = fmt.Errorf("bt: Restore: %w", r.errs[i])
		}
		if more := len(r.errs) - len(errs); more > 0 { // a snapshot of another bt, or made up
			errs = append(errs, fmt.Errorf("bt: Restore: and %d more problems", more))
		}
		return nil, errors.Join(errs...)
	}
	return statuses, nil
}

// maxRestoreErrors bounds the problems Restore lists: a made-up snapshot may have one
// per field of every node.
const maxRestoreErrors = 100

// checkRunning returns what is wrong with the statuses of n's children, as a tick that
// did not fail leaves them: a node runs only under one that does. (Which children of a
// running node may run is the node's to check, in its restoreState: the Sequences and
// the reactive controls run one, the Parallels several, and so does WhileDoElse, whose
// condition may run while a branch does.)
func (t *Tree) checkRunning(n *Node, statuses []Status) []error {
	var errs []error
	parent := statuses[t.byUID()[n.UID()-1]]
	for i := range n.NumChildren() {
		c := n.Child(i)
		if statuses[t.byUID()[c.UID()-1]] == Running && parent != Running {
			errs = append(errs, fmt.Errorf("node %s: RUNNING under %s, which is %s", c.Path(), n.Path(), parent))
		}
	}
	return errs
}

// restoreUsers gives the nodes of yours their state. When one fails, or panics,
// those restored before it get back the state they had.
func restoreUsers(users []userState) error {
	backups := make([][]byte, len(users))
	for i, u := range users {
		var b []byte
		err := contained(func() (err error) { b, err = u.saver.SaveState(u.n); return err })
		if err != nil {
			return fmt.Errorf("bt: Restore: node %s: SaveState (kept to undo a failed restore): %w", u.n.Path(), err)
		}
		backups[i] = b
	}
	for i, u := range users {
		err := contained(func() error { return u.saver.RestoreState(u.n, u.state) })
		if err == nil {
			continue
		}
		errs := []error{fmt.Errorf("bt: Restore: node %s: RestoreState: %w", u.n.Path(), err)}
		for k := range i {
			if backups[k] == nil {
				continue
			}
			if err := contained(func() error { return users[k].saver.RestoreState(users[k].n, backups[k]) }); err != nil {
				errs = append(errs, fmt.Errorf("node %s: RestoreState of its former state: %w", users[k].n.Path(), err))
			}
		}
		return errors.Join(errs...)
	}
	return nil
}

// contained calls f, a method of a StateSaver, and returns its error, or its panic as
// a *PanicError: Restore changes nothing, or undoes what it changed, whatever user code
// does.
func contained(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = newPanicError(r)
		}
	}()
	return f()
}

// apply is Restore's apply pass, once everything was checked: the statuses, the nodes'
// own states, the wake-ups, the async actions started again, and the observers told.
func (t *Tree) apply(s *Snapshot, statuses []Status, r *stateReader) error {
	t.woken() // the wake-ups of the tree as it was are not the snapshot's
	if s.data.Aborted {
		t.attention.Or(attnAborted)
	} else {
		t.attention.And(^uint32(attnAborted))
	}
	prev := make([]Status, len(t.status))
	for i, b := range t.status {
		prev[i] = b.status()
		t.status[i].restore(statuses[i])
	}
	r.apply, r.now, r.statusOf = true, t.cfg.clock.Now(), (*Node).Status
	j := 0
	for n := range t.Nodes() {
		var fields []snapcodec.Field
		if j < len(s.data.States) && s.data.States[j].UID == n.UID() {
			fields = s.data.States[j].Fields
			j++
		}
		r.beginNode(n, fields)
		if k, ok := n.core().(stateKeeper); ok {
			k.restoreState(n, r)
		}
	}
	if s.data.Wakeups > 0 {
		t.postN(s.data.Wakeups)
	}
	for _, restart := range r.restarts {
		restart()
	}
	if t.obs == nil {
		return nil
	}
	// Observers hear of the statuses that changed as of a Halt: in a batch of their own.
	t.beginBatch(false)
	var errs []error
	for n := range t.Nodes() {
		i := t.byUID()[n.UID()-1]
		if prev[i] != statuses[i] {
			errs = appendErr(errs, t.tell(n, prev[i], statuses[i]))
		}
	}
	return t.endBatch(false, joinErrors(errs))
}

// tell tells the observers of a status that Restore changed; one that panics is an
// error naming the node.
func (t *Tree) tell(n *Node, prev, s Status) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = n.errorf(newPanicError(r))
		}
	}()
	t.notify(n, prev, s)
	return nil
}

// WithTypes gives the types of blackboard values that Restore must know and that no
// port of the tree declares: values of your types that your code writes. See
// blackboard.Blackboard.PrepareRestore for the types that need none.
func WithTypes(types ...reflect.Type) Option {
	return func(t *Tree) {
		for _, typ := range types {
			if typ != nil {
				c := t.config()
				if c.typeNames == nil {
					c.typeNames = map[string]reflect.Type{}
				}
				c.typeNames[typ.String()] = typ
			}
		}
	}
}

// types finds the type a saved blackboard value names among those given WithTypes.
func (t *Tree) types(name string) reflect.Type { return t.cfg.typeNames[name] }

// fingerprint returns the fingerprint of the tree's definition: a hash of what every
// node is, in UID order — its type, name, children, ports and pre/post conditions,
// and the subtrees it instantiates. Trees built from one definition share it, in any
// process; a change to the definition changes it. It is computed once per definition.
func (t *Tree) fingerprint() string {
	if t.def != nil {
		if fp := t.def.fp.Load(); fp != nil {
			return *fp
		}
	}
	h := sha256.New()
	var buf []byte
	for n := range t.Nodes() {
		buf = n.appendPrint(buf[:0])
		h.Write(append(buf, '\n'))
	}
	fp := "sha256:" + hex.EncodeToString(h.Sum(nil)[:16])
	if t.def != nil {
		t.def.fp.Store(&fp)
	}
	return fp
}

// appendPrint appends to buf what the fingerprint takes of the node: its type, name,
// number of children, ports and pre/post conditions. Reload compares them too.
func (n *Node) appendPrint(buf []byte) []byte {
	d, r := n.def()
	buf = append(buf, byte(n.Kind()))
	buf = appendField(buf, n.typeID())
	buf = appendField(buf, d.models[r.model].ID)
	buf = appendField(buf, d.names[r.name])
	buf = strconv.AppendUint(buf, uint64(n.NumChildren()), 10)
	ports := d.portsOf(r)
	byName := func(a, b portValue) int { return strings.Compare(a.name, b.name) }
	if !slices.IsSortedFunc(ports, byName) {
		ports = slices.Clone(ports)
		slices.SortFunc(ports, byName)
	}
	for _, p := range ports {
		buf = appendField(appendField(buf, p.name), fingerprintText(p))
	}
	if m := d.moreOf(r); m != nil {
		if m.conds != nil {
			for k, hd := range m.conds {
				switch {
				case hd.script != "":
					buf = appendField(appendField(buf, Cond(k).String()), hd.script)
				case hd.bind != nil:
					buf = appendField(appendField(buf, Cond(k).String()), "(a Go function)")
				}
			}
		}
		buf = strconv.AppendBool(buf, m.autoRemap)
	}
	return buf
}

// fingerprintText is what the fingerprint takes of a port's value: its text, or for a Go
// value (Spec.WithValue) its type and, unless it is an address, its value.
func fingerprintText(p portValue) string {
	if p.lit == nil {
		return p.value
	}
	v := reflect.ValueOf(p.lit.v)
	switch v.Kind() {
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return v.Type().String()
	case reflect.Pointer:
		switch v.Type().Elem().Kind() {
		case reflect.Struct, reflect.Array, reflect.Slice, reflect.Map: // printed as &{…}
		default:
			return v.Type().String()
		}
	}
	return v.Type().String() + " " + p.value
}

// appendField appends s to buf, length first, so that no two lists of fields make the
// same bytes.
func appendField(buf []byte, s string) []byte {
	buf = strconv.AppendInt(append(buf, ' '), int64(len(s)), 10)
	return append(append(buf, ':'), s...)
}
