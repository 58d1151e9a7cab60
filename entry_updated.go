package bt

import (
	"errors"
	"math"

	"github.com/gobt/bt/blackboard"
)

// SkipUnlessUpdated ticks its child only when the blackboard entry named by "entry" was
// written since this node last looked (the first look counts as an update if the entry
// was ever written). entry is a key, written "key" or "{key}".
//
//	entry missing, or not written since the last look → Skipped
//	entry written since → tick the child; its status
//	child Running → Running; the next ticks go on with the child without looking again
//	halted        → halt the child; the next tick looks at the entry again
//
// An update is a write: a node compares the entry's write count (blackboard.Entry.Seq)
// with the count it saw last. XML:
//
//	<SkipUnlessUpdated entry="{goal}">
//	    <PlanPath/>
//	</SkipUnlessUpdated>
func SkipUnlessUpdated(entry string, child *Spec) *Spec {
	return skipUnlessUpdatedModel.Spec(child).With("entry", entry)
}

var skipUnlessUpdatedModel = &Model{
	ID: "SkipUnlessUpdated", Kind: KindDecorator,
	Description: "Ticks the child only if the entry was written since the last look; otherwise SKIPPED.",
	Ports:       []PortDef{entryPort()},
	build:       decorates(storeThenReset, func(c *NodeConfig) (decorator, error) { return newEntryUpdated(c, Skipped) }),
}

// WaitValueUpdate waits until the blackboard entry named by "entry" is written, then
// ticks its child; as SkipUnlessUpdated, but it returns Running instead of Skipped. It
// does not yield: with TickOnce each call returns Running until the entry is written.
//
//	entry missing, or not written since the last look → Running
//	entry written since → tick the child; its status
//	child Running → Running; the next ticks go on with the child without looking again
//	halted        → halt the child; the next tick looks at the entry again
//
// XML:
//
//	<WaitValueUpdate entry="{battery_level}">
//	    <CheckBattery/>
//	</WaitValueUpdate>
func WaitValueUpdate(entry string, child *Spec) *Spec {
	return waitValueUpdateModel.Spec(child).With("entry", entry)
}

var waitValueUpdateModel = &Model{
	ID: "WaitValueUpdate", Kind: KindDecorator,
	Description: "Waits (RUNNING) until the entry is written, then ticks the child.",
	Ports:       []PortDef{entryPort()},
	build:       decorates(storeThenReset, func(c *NodeConfig) (decorator, error) { return newEntryUpdated(c, Running) }),
}

// WasEntryUpdated is an action that tells whether the blackboard entry named by
// "entry" was written since this node last looked (the first look counts as an update
// if the entry was ever written). entry is a key, written "key" or "{key}".
//
//	entry written since the last look → Success
//	entry not written since, or missing → Failure
//
// XML:
//
//	<WasEntryUpdated entry="{target}"/>
func WasEntryUpdated(entry string) *Spec { return wasEntryUpdatedModel.Spec().With("entry", entry) }

var wasEntryUpdatedModel = &Model{
	ID: "WasEntryUpdated", Kind: KindAction,
	Description: "Succeeds if the entry was written since this node last looked, else fails.",
	Ports:       []PortDef{entryPort()},
	build: func(c *NodeConfig) (ticker, error) {
		e, err := watched(c)
		return &wasUpdated{entryWatch{entry: e}}, err
	},
}

// entryPort is the port of the nodes that watch an entry: the key, not its value.
func entryPort() PortDef {
	p := InputPort[any]("entry", "the blackboard key to watch").Require().untyped()
	p.TypeName = "BT::Any"
	return p
}

// watched resolves the entry a node watches: the key written in its "entry" port.
func watched(c *NodeConfig) (*blackboard.Entry, error) {
	text, _, set, err := portText(c, "entry")
	if err != nil {
		return nil, err
	}
	key := text
	if k, ok := blackboardKey(text, "entry"); ok {
		key = k
	}
	if !set || key == "" {
		return nil, errors.New(`port "entry" is not set: name the blackboard entry to watch`)
	}
	return c.node.Blackboard().Resolve(key)
}

// entryWatch remembers the write count of an entry that a node saw last.
type entryWatch struct {
	entry *blackboard.Entry
	seq   uint64
}

// updated reports whether the entry exists and was written since the last call.
func (w *entryWatch) updated() bool {
	if !w.entry.Exists() {
		return false
	}
	seq := w.entry.Seq()
	prev := w.seq
	w.seq = seq
	return seq != prev
}

// entryUpdated implements SkipUnlessUpdated and WaitValueUpdate.
type entryUpdated struct {
	entryWatch
	otherwise Status // when the entry was not updated
	running   bool   // the child is running: tick it without looking
}

func newEntryUpdated(c *NodeConfig, otherwise Status) (decorator, error) {
	e, err := watched(c)
	return &entryUpdated{entryWatch: entryWatch{entry: e}, otherwise: otherwise}, err
}

func (u *entryUpdated) decorate(n *Node) Status {
	if !u.running && !u.updated() {
		return u.otherwise
	}
	s := n.Child(0).Tick()
	u.running = s == Running
	// BehaviorTree.CPP's EntryUpdatedDecorator leaves its child to executeTick, which
	// resets it after storing the node's status.
	return s
}

func (u *entryUpdated) Halt(*Node) { u.running = false }

// wasUpdated implements WasEntryUpdated.
type wasUpdated struct{ entryWatch }

func (w *wasUpdated) tick(*Node) Status { return statusOf(w.updated()) }

// saveState saves the write count of the entry seen last ("seen") and whether the
// child runs.
func (u *entryUpdated) saveState(n *Node, w *stateWriter) {
	u.entryWatch.saveState(n, w)
	w.flag("running", u.running)
}

func (u *entryUpdated) restoreState(n *Node, r *stateReader) {
	u.entryWatch.restoreState(n, r)
	running := r.flag("running")
	if r.applying() {
		u.running = running
	}
}

// saveState saves the write count of the entry seen last. (The entry's own count is
// in the blackboard's part of the snapshot.)
func (w *entryWatch) saveState(_ *Node, sw *stateWriter) { sw.int("seen", int64(w.seq)) }

func (w *entryWatch) restoreState(_ *Node, r *stateReader) {
	seq := r.int("seen", 0, math.MaxInt64)
	if r.applying() {
		w.seq = uint64(seq)
	}
}
