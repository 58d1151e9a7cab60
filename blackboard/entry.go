package blackboard

import (
	"math"
	"reflect"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

// Entry is one blackboard slot, reached through a handle that stays valid for the life
// of its scope: entries are never removed from their scope, Unset only marks them
// absent. All methods are safe for concurrent use.
//
// # Concurrency: a seqlock made of atomics
//
// An entry's state — meta (kind, Go type code, existence), 64 bits of payload, a pointer
// to an immutable payload box (string, KindOther value, or the reflect.Type of a named
// scalar type) and a pointer to the immutable declared type — lives in separate atomic
// words guarded by the word head, which holds a version count, the meta and a lock bit:
//
//   - a reader loads head, then the other words, then head again, and retries if the
//     lock bit was set (a writer was inside) or head changed. Reads take no lock and
//     allocate nothing, and the meta comes with the version;
//   - a writer loads a consistent snapshot the same way, computes the new state from it
//     (type checks, conversions, parsing happen here, outside any critical section), then
//     claims the entry by setting the lock bit with CompareAndSwap: that fails if anyone
//     wrote since the snapshot, and the writer starts over. Holding the lock it stores the
//     new words, and releases with a head that has the next version and the new meta.
//     The critical section is a handful of stores.
//
// The version doubles as the write count: every critical section adds one, so Seq is
// the version minus the number of critical sections that were not writes (Declare,
// Unset), counted in silent. Numbers and bools of the basic Go types need no box, so
// writing them allocates nothing; a string or other value brings the box made with its
// Value (String, ValueOf), which the entry shares. Only sync/atomic is used, so the
// scheme is visible to the race detector.
//
// An entry is 64 bytes, a size class of Go's allocator: hence the meta in head, the key
// kept as its bytes and length, and silent in 32 bits (an entry would have to be unset
// and declared again four billion times for it to wrap, and only Seq would be off).
type Entry struct {
	head   atomic.Uint64 // version<<headVersion | meta<<headMeta | headLock
	bits   atomic.Uint64
	box    atomic.Pointer[payload]
	decl   atomic.Pointer[declared] // nil: generic
	stamp  atomic.Int64             // UnixNano of the last write; noStamp if none
	env    *options                 // shared by every scope of one tree; nil for an invalid key
	key    *byte                    // the key's bytes (see Key)
	keyLen uint32
	silent atomic.Uint32 // critical sections that were not writes
}

// The meta of an entry: Kind | tcode<<8 | metaExists, 17 bits.
const (
	metaExists = 1 << 16
	metaMask   = 1<<17 - 1
	noStamp    = math.MinInt64
)

// The fields of Entry.head.
const (
	headLock    = 1 // a writer is inside
	headMeta    = 1 // the meta's shift
	headVersion = 18
)

func metaOf(head uint64) uint64 { return head >> headMeta & metaMask }

// version returns the count of critical sections that head follows.
func version(head uint64) uint64 { return head >> headVersion }

// state is one consistent view of an entry.
type state struct {
	meta uint64
	bits uint64
	box  *payload
	decl *declared
}

func newEntry(key string, env *options) *Entry {
	e := &Entry{key: unsafe.StringData(key), keyLen: uint32(len(key)), env: env}
	e.stamp.Store(noStamp)
	return e
}

func (s *state) exists() bool { return s.meta&metaExists != 0 }

// value rebuilds the Value held in s.
func (s *state) value() Value {
	return Value{kind: Kind(s.meta), tc: tcode(s.meta >> 8), bits: s.bits, p: s.box}
}

// setValue stores v (which must not be empty) and marks the entry existing. The
// payload box is shared with v: both are immutable.
func (s *state) setValue(v Value) {
	s.meta = uint64(v.kind) | uint64(v.tc)<<8 | metaExists
	s.bits = v.bits
	s.box = v.p
}

// spin waits a little for a writer to leave its critical section.
func spin(i int) {
	if i > 16 {
		runtime.Gosched()
	}
}

// load returns the current value and meta word, without the declared type.
func (e *Entry) load() (Value, uint64) {
	for i := 0; ; i++ {
		h := e.head.Load()
		if h&headLock == 0 {
			bits, box := e.bits.Load(), e.box.Load()
			if e.head.Load() == h {
				s := state{meta: metaOf(h), bits: bits, box: box}
				return s.value(), s.meta
			}
		}
		spin(i)
	}
}

// snapshot returns the full state and the head it was read with.
func (e *Entry) snapshot() (state, uint64) {
	for i := 0; ; i++ {
		h := e.head.Load()
		if h&headLock == 0 {
			s := state{meta: metaOf(h), bits: e.bits.Load(), box: e.box.Load(), decl: e.decl.Load()}
			if e.head.Load() == h {
				return s, h
			}
		}
		spin(i)
	}
}

// swapState replaces the state cur, read with head h, by next, unless someone wrote
// since. A write (as opposed to Declare or Unset) also stamps the entry.
// Words that do not change are not stored: every atomic store is a full barrier.
//
// A caller that already holds the lock (Update) passes the head it locked, lock bit
// included: swapState then stores and releases.
func (e *Entry) swapState(h uint64, cur, next state, write bool, stamp int64) bool {
	if h&headLock == 0 && !e.head.CompareAndSwap(h, h|headLock) {
		return false
	}
	if next.bits != cur.bits {
		e.bits.Store(next.bits)
	}
	if next.box != cur.box {
		e.box.Store(next.box)
	}
	if next.decl != cur.decl {
		e.decl.Store(next.decl)
	}
	switch {
	case !write:
		e.silent.Add(1)
	case e.env.now != nil:
		e.stamp.Store(stamp)
	}
	e.head.Store((version(h)+1)<<headVersion | next.meta<<headMeta)
	return true
}

func (e *Entry) enums() func(string) (int64, bool) {
	if e.env == nil {
		return nil
	}
	return e.env.enums
}

// Key returns the key of the entry in the scope that owns it (after remapping: a
// child's "{x}" port remapped to the parent's "y" is the entry "y").
func (e *Entry) Key() string { return unsafe.String(e.key, e.keyLen) }

// Exists reports whether the entry has been created (by Declare or a write) and not
// unset since. An existing entry may still be empty.
func (e *Entry) Exists() bool { return metaOf(e.head.Load())&metaExists != 0 }

// Type returns the entry's fixed type, or nil for a generic entry, which accepts any
// type.
func (e *Entry) Type() reflect.Type {
	if d := e.decl.Load(); d != nil {
		return d.t
	}
	return nil
}

// Load returns the current value: KindEmpty when the entry is absent or empty. It
// takes no lock and does not allocate.
func (e *Entry) Load() Value {
	v, _ := e.load()
	return v
}

// LoadStamped returns the current value together with its Seq and Stamp, all from the
// same write.
func (e *Entry) LoadStamped() (v Value, seq uint64, stamp time.Time) {
	for i := 0; ; i++ {
		h := e.head.Load()
		if h&headLock == 0 {
			s := state{meta: metaOf(h), bits: e.bits.Load(), box: e.box.Load()}
			silent, ns := e.silent.Load(), e.stamp.Load()
			if e.head.Load() == h {
				return s.value(), version(h) - uint64(silent), stampTime(ns)
			}
		}
		spin(i)
	}
}

// Seq returns the number of successful writes (Set, Assign, Put, JSON import) since
// the entry was created: 0 means never written. Declare and Unset do not count, so a
// node watching Seq does not see an unset as an update; writing again after an unset
// continues the count.
func (e *Entry) Seq() uint64 {
	for i := 0; ; i++ {
		h := e.head.Load()
		if h&headLock == 0 {
			silent := e.silent.Load()
			if e.head.Load() == h {
				return version(h) - uint64(silent)
			}
		}
		spin(i)
	}
}

// Stamp returns the time of the last write, read from the clock given with WithClock;
// the zero time when there is no clock or no write yet.
func (e *Entry) Stamp() time.Time { return stampTime(e.stamp.Load()) }

func stampTime(ns int64) time.Time {
	if ns == noStamp {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

func (e *Entry) invalid() error {
	return errorf(ErrInvalidKey, nil, "invalid blackboard key %q", e.Key())
}

// Declare creates the entry, empty, with type t if it is absent (nil or the empty
// interface: generic). If it exists its type is kept; declaring a different type is an
// error when both types are fixed, unless the existing type is string (strings are
// universal donors: they convert on read).
func (e *Entry) Declare(t reflect.Type) error {
	if e.env == nil {
		return e.invalid()
	}
	d := declOf(t)
	for {
		cur, h := e.snapshot()
		if cur.exists() {
			if cur.decl != nil && d != nil && !declarable(cur.decl.t, d.t) {
				return errorf(ErrType, nil, "entry %q: declared as %s, now as %s (once declared, the type shall not change)",
					e.Key(), cur.decl.t, d.t)
			}
			return nil
		}
		next := state{meta: metaExists, decl: d}
		if e.swapState(h, cur, next, false, 0) {
			return nil
		}
	}
}

// declarable reports whether an entry declared as held may be declared as t too: the
// same type; a string entry (strings are universal donors); or types of which one is
// assignable to the other — any, or an interface and a type implementing it, so that an
// output port of type *Cat and an input port of type Animal share an entry (BT.CPP's
// polymorphic ports). The entry keeps its first type.
func declarable(held, t reflect.Type) bool {
	return held == t || held == stringType || t.AssignableTo(held) || held.AssignableTo(t)
}

// Unset makes the entry absent: Exists reports false and Load gives the empty Value.
// The handle stays valid; the next write recreates the entry with a type chosen as for
// a new entry. Seq is not bumped.
func (e *Entry) Unset() {
	if e.env == nil {
		return
	}
	for {
		cur, h := e.snapshot()
		if !cur.exists() || e.swapState(h, cur, state{}, false, 0) {
			return
		}
	}
}

// Set writes v with the semantics of BT.CPP's Blackboard::set, used for output ports,
// SetBlackboard and the Go API:
//
//   - an absent entry is created, typed after v; a plain string leaves it generic;
//   - a generic entry stores v and adopts v's type (a plain string keeps it generic);
//   - an entry of type T stores v converted into T: a value of type T as is; a string
//     parsed into T; a number or bool when the value survives exactly (100 into uint8, 2.0
//     into int, true into int as 1, 1 into bool); a value of a type assignable to an
//     interface T. Anything else is an error naming the key and both types — unless the
//     entry holds no value yet: then v is stored and the entry typed after it.
func (e *Entry) Set(v Value) error {
	return e.write(v, false)
}

// Assign writes v with the semantics of a script assignment (BT.CPP's ExprAssignment
// and Any::copyInto):
//
//   - an absent entry is created generic (it stays generic) and stores v;
//   - an existing, empty, generic entry stores v;
//   - an existing, empty entry of a fixed type stores v as it is and becomes generic,
//     except for a plain string, which is parsed into the type;
//   - an entry of a fixed type that holds a value converts v as Set does;
//   - a generic entry that holds a value keeps the type of that value: numbers and bools
//     are converted into it exactly (an int entry accepts 10.0 and stores 10, but not
//     2.5; a bool entry accepts 0 and 1), strings replace strings, KindOther values need
//     the same Go type; a string into a number is read as a number first ("12", "2.5",
//     "true" as 1, an enum name), and is an error if it is none; a number into a string
//     is an error.
func (e *Entry) Assign(v Value) error {
	return e.write(v, true)
}

func (e *Entry) write(v Value, assign bool) error {
	if e.env == nil {
		return e.invalid()
	}
	if v.kind == KindEmpty {
		return e.emptyWrite()
	}
	stamp, stamped := int64(0), false
	for {
		cur, h := e.snapshot()
		next := cur
		if d := cur.decl; d != nil && v.tc == d.tc && d.tc != tcNamed && cur.exists() {
			next.setValue(v) // the common case: a value of the entry's own basic type
		} else if err := e.apply(&next, v, assign); err != nil {
			return err
		}
		if !stamped && e.env.now != nil { // read the clock once, for a write that will happen
			stamp, stamped = e.env.now().UnixNano(), true
		}
		if e.swapState(h, cur, next, true, stamp) {
			return nil
		}
	}
}

func (e *Entry) emptyWrite() error {
	return errorf(ErrEmpty, nil, "entry %q: cannot write an empty value", e.Key())
}

// apply changes the state s into the one that writing v (not empty) into it makes.
func (e *Entry) apply(s *state, v Value, assign bool) error {
	switch {
	case !s.exists():
		s.decl = nil
		if !assign && !v.isPlainString() {
			s.decl = declOf(v.Type())
		}
	case s.decl != nil && Kind(s.meta) == KindEmpty && !v.isPlainString() && s.decl != anyDecl:
		e.firstWrite(s, v, assign)
		return nil
	case s.decl != nil:
		return e.coerce(s, v, s.decl, assign)
	case assign && Kind(s.meta) != KindEmpty:
		return e.assignHeld(s, s.value(), v)
	case !assign && !v.isPlainString():
		s.decl = declOf(v.Type())
	}
	s.setValue(v)
	return nil
}

func opName(assign bool) string {
	if assign {
		return "assign"
	}
	return "set"
}

// firstWrite stores v, which is not text, into an entry that has a fixed type but holds
// no value yet: a port declared it when the tree was built, and nothing wrote it since.
// Such an entry takes the type of its first write. Assign stores v as it is and leaves
// the entry generic, as BT.CPP's scripts do; Set converts v into the declared type when
// it can (BT.CPP's Blackboard::set) and otherwise types the entry after v.
func (e *Entry) firstWrite(s *state, v Value, assign bool) {
	if !assign && e.coerce(s, v, s.decl, false) == nil {
		return
	}
	s.decl = nil
	if !assign {
		s.decl = declOf(v.Type())
	}
	s.setValue(v)
}

// coerce converts v into the fixed type d and stores it in s.
func (e *Entry) coerce(s *state, v Value, d *declared, assign bool) error {
	if v.tc == d.tc && d.tc != tcNamed { // the same basic type, the common case
		s.setValue(v)
		return nil
	}
	vt := v.Type()
	switch {
	case vt == d.t, d == anyDecl: // an entry of type any holds anything, and stays of type any
	case v.kind == KindString:
		c, handled, err := parseBasic(v.s(), d, e.enums())
		if !handled {
			var x any
			x, err = Parse(v.s(), d.t, e.enums())
			c = ValueOf(x)
		}
		if err != nil {
			return errorf(ErrType, err, "entry %q: %v", e.Key(), err)
		}
		v = c
	case vt.AssignableTo(d.t):
		if d.t.Kind() != reflect.Interface { // e.g. []int into a named slice type
			v = ValueOf(reflect.ValueOf(v.Any()).Convert(d.t).Interface())
		}
	case isScalar(v) && isScalarKind(scalarKind(d.tc, d.t)):
		c, ok := castScalar(v, d)
		if !ok {
			return errorf(ErrType, nil, "entry %q: cannot %s %s to %s", e.Key(), opName(assign), v.describe(), d.t)
		}
		v = c
	case isJSONObjectFor(v, d.t): // a JSON object imported into a struct entry
		m, _ := jsonObject(v)
		x, err := decodeObject(m, d.t)
		if err != nil {
			return errorf(ErrType, err, "entry %q: %v", e.Key(), err)
		}
		v = ValueOf(x)
	default:
		return errorf(ErrType, nil, "entry %q: cannot %s %s to %s (once declared, the type shall not change)",
			e.Key(), opName(assign), v.describe(), d.t)
	}
	s.setValue(v)
	return nil
}

// assignHeld converts v into the type of the value a generic entry holds.
func (e *Entry) assignHeld(s *state, held, v Value) error {
	ht := held.Type()
	ok := false
	switch held.kind {
	case KindInt, KindUint, KindFloat, KindBool:
		if v.kind == KindString {
			n, isNumber := number(v.s(), e.enums())
			if !isNumber {
				return errorf(ErrType, nil, "entry %q: cannot assign %s to an entry holding %s (not a number)", e.Key(), v.describe(), typeName(ht))
			}
			v = n
		}
		if isScalar(v) {
			d := declared{t: ht, tc: held.tc, p: held.p}
			var c Value
			if c, ok = castScalar(v, &d); ok {
				v = c
			}
		}
	case KindString:
		if v.kind == KindString {
			d := declared{t: ht, tc: held.tc, p: held.p}
			v, ok = scalar(KindString, 0, v.s(), &d), true
		}
	case KindOther:
		ok = v.Type() == ht
	}
	if !ok {
		return errorf(ErrType, nil, "entry %q: cannot assign %s to an entry holding %s", e.Key(), v.describe(), typeName(ht))
	}
	s.setValue(v)
	return nil
}

// clone returns a detached copy of e: state, Seq and stamp from one consistent read.
func (e *Entry) clone() *Entry {
	c := &Entry{key: e.key, keyLen: e.keyLen, env: e.env}
	for i := 0; ; i++ {
		h := e.head.Load()
		if h&headLock == 0 {
			s := state{meta: metaOf(h), bits: e.bits.Load(), box: e.box.Load(), decl: e.decl.Load()}
			silent, stamp := e.silent.Load(), e.stamp.Load()
			if e.head.Load() == h {
				c.bits.Store(s.bits)
				c.box.Store(s.box)
				c.decl.Store(s.decl)
				c.head.Store((version(h)-uint64(silent))<<headVersion | s.meta<<headMeta)
				c.stamp.Store(stamp)
				return c
			}
		}
		spin(i)
	}
}

// copyFrom gives e the type and value of src (as a write), or unsets e when src is
// absent.
func (e *Entry) copyFrom(src *Entry) {
	s, _ := src.snapshot()
	if !s.exists() {
		e.Unset()
		return
	}
	stamp := int64(noStamp)
	if e.env.now != nil {
		stamp = e.env.now().UnixNano()
	}
	for {
		cur, h := e.snapshot()
		if e.swapState(h, cur, s, true, stamp) {
			return
		}
	}
}
