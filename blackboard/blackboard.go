package blackboard

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Blackboard is one scope of a tree's data: the root scope made by New, or the scope
// of a subtree instance made by NewChild. A scope owns the entries stored in it and
// reaches its parent's entries through remapping. It is safe for concurrent use; its
// mutex guards only the map of entries, which is used when handles are taken, never
// when values are read or written through a handle.
type Blackboard struct {
	// A crowd of small trees keeps a blackboard per tree, often never written: the
	// scope is kept to 64 bytes (its root is found through the parents, which are few)
	// and its map is made at the first entry.
	parent *Blackboard
	env    *options

	mu      sync.RWMutex
	storage map[string]*Entry // nil until the first entry
	remaps  map[string]string // internal key → key in the parent
	made    atomic.Int32      // len(storage), for Len without the lock
	auto    bool
}

// options are shared by every scope of a tree and by their entries.
type options struct {
	enums func(string) (int64, bool)
	now   func() time.Time
}

// Option configures New.
type Option func(*options)

// WithEnums gives the lookup that converts enum names into integers when a string is
// converted into an integer-kinded type (Get, Set on a typed entry, Parse).
func WithEnums(lookup func(name string) (int64, bool)) Option {
	return func(o *options) { o.enums = lookup }
}

// WithClock stamps every write with now(). Without a clock (the default) no time is
// ever read and Stamp returns the zero time.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// New returns an empty root scope.
func New(opts ...Option) *Blackboard {
	o := &options{}
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	return &Blackboard{env: o}
}

// NewChild returns a scope whose parent is b, for a subtree instance. With autoRemap
// every key not starting with '_' that is not stored in the child resolves in the
// parent (BT.CPP's _autoremap). The child shares the root's enums and clock.
func (b *Blackboard) NewChild(autoRemap bool) *Blackboard {
	return &Blackboard{parent: b, env: b.env, auto: autoRemap}
}

// Remap makes the child key internal resolve to the parent's key external (a SubTree
// port written "{external}"). Set remappings before taking handles: resolution is
// meant to be static once a tree is built.
func (b *Blackboard) Remap(internal, external string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.remaps == nil {
		b.remaps = make(map[string]string)
	}
	b.remaps[internal] = external
}

// Parent returns the parent scope, nil for a root.
func (b *Blackboard) Parent() *Blackboard { return b.parent }

// Root returns the root scope (b itself for a root).
func (b *Blackboard) Root() *Blackboard {
	for b.parent != nil {
		b = b.parent
	}
	return b
}

// Entry returns the handle for key, resolved in this order:
//
//  1. "@key" is key in the root scope;
//  2. an entry stored in this scope (existing, or reserved by an earlier Entry call);
//  3. a Remap of key: the parent's entry for the remapped key (resolved by the same rules);
//  4. with autoRemap, a key not starting with '_': the parent's entry for key;
//  5. otherwise a new entry in this scope, reserved (absent) until declared or written.
//
// So writes land where reads look, and a write through a remapped key creates the
// entry in the parent, as in BT.CPP. Entry never returns nil: for an invalid key ("",
// "@", "@@x") it returns a detached handle that stays absent and whose writes fail;
// use Resolve to get the error.
func (b *Blackboard) Entry(key string) *Entry {
	e, _ := b.find(key, true)
	return e
}

// Resolve is Entry with an error (wrapping ErrInvalidKey) for an invalid key.
func (b *Blackboard) Resolve(key string) (*Entry, error) {
	return b.find(key, true)
}

// Lookup resolves key like Entry and returns the entry only if it exists. It reserves
// nothing.
func (b *Blackboard) Lookup(key string) (*Entry, bool) {
	e, err := b.find(key, false)
	if err != nil || e == nil || !e.Exists() {
		return nil, false
	}
	return e, true
}

// Local returns the handle for key in this scope's own storage, ignoring remapping
// and autoRemap, reserving it if needed: what a SubTree literal attribute writes.
// "@key" is the root scope's own key.
func (b *Blackboard) Local(key string) *Entry {
	if err := checkKey(key); err != nil {
		return newEntry(key, nil)
	}
	if key[0] == '@' {
		return b.Root().local(key[1:], true)
	}
	return b.local(key, true)
}

func checkKey(key string) error {
	if key == "" || key == "@" || strings.HasPrefix(key, "@@") {
		return errorf(ErrInvalidKey, nil, "invalid blackboard key %q", key)
	}
	return nil
}

func (b *Blackboard) find(key string, create bool) (*Entry, error) {
	if err := checkKey(key); err != nil {
		return newEntry(key, nil), err
	}
	if key[0] == '@' {
		return b.Root().local(key[1:], create), nil
	}
	b.mu.RLock()
	e := b.storage[key]
	ext, remapped := b.remaps[key]
	b.mu.RUnlock()
	switch {
	case e != nil:
		return e, nil
	case b.parent != nil && remapped:
		return b.parent.find(ext, create)
	case b.parent != nil && b.auto && key[0] != '_':
		return b.parent.find(key, create)
	}
	return b.local(key, create), nil
}

// local returns (and, if create, reserves) the entry stored in b itself.
func (b *Blackboard) local(key string, create bool) *Entry {
	b.mu.RLock()
	e := b.storage[key]
	b.mu.RUnlock()
	if e != nil || !create {
		return e
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if e = b.storage[key]; e == nil {
		e = newEntry(key, b.env)
		if b.storage == nil {
			b.storage = make(map[string]*Entry)
		}
		b.storage[key] = e
		b.made.Store(int32(len(b.storage)))
	}
	return e
}

// Unset makes key absent in this scope's own storage (BT.CPP's unset: no remapping;
// "@key" is the root's key). Handles stay valid. To unset whatever a key resolves to,
// use Entry(key).Unset().
func (b *Blackboard) Unset(key string) {
	if checkKey(key) != nil {
		return
	}
	s := b
	if key[0] == '@' {
		s, key = b.Root(), key[1:]
	}
	if e := s.local(key, false); e != nil {
		e.Unset()
	}
}

// Keys returns the sorted keys of the existing entries stored in this scope.
func (b *Blackboard) Keys() []string {
	b.mu.RLock()
	keys := make([]string, 0, len(b.storage))
	for k, e := range b.storage {
		if e.Exists() {
			keys = append(keys, k)
		}
	}
	b.mu.RUnlock()
	slices.Sort(keys)
	return keys
}

// entries returns this scope's own entries, sorted by key.
func (b *Blackboard) entries() []*Entry { return b.AppendEntries(nil) }

// AppendEntries appends this scope's own entries (not its parent's), sorted by key, to
// dst and returns the extended slice; entries that do not exist (declared, or unset)
// are included, as Entry.Exists tells. It allocates nothing when dst has room: a
// program that watches a scope between ticks (a monitor) reuses one slice.
func (b *Blackboard) AppendEntries(dst []*Entry) []*Entry {
	start := len(dst)
	b.mu.RLock()
	for _, e := range b.storage {
		dst = append(dst, e)
	}
	b.mu.RUnlock()
	slices.SortFunc(dst[start:], compareKeys)
	return dst
}

// Len returns the number of entries stored in this scope, including those that do not
// exist (declared, or unset): an entry, once made, stays, so Len only grows, and a
// program that keeps the list of AppendEntries needs it again only when Len changed.
func (b *Blackboard) Len() int { return int(b.made.Load()) }

func compareKeys(a, b *Entry) int { return strings.Compare(a.Key(), b.Key()) }

// Clone returns a new scope with the same parent, remappings, autoRemap and options,
// holding a copy of this scope's existing entries (types, values, Seq and stamps).
// Handles taken from b do not see the copy. Together with CopyInto it backs up and
// restores a tree's data (BT.CPP's BlackboardBackup and BlackboardRestore).
func (b *Blackboard) Clone() *Blackboard {
	c := &Blackboard{parent: b.parent, env: b.env, auto: b.auto, storage: make(map[string]*Entry)}
	b.mu.RLock()
	if b.remaps != nil {
		c.remaps = make(map[string]string, len(b.remaps))
		for k, v := range b.remaps {
			c.remaps[k] = v
		}
	}
	b.mu.RUnlock()
	for _, src := range b.entries() {
		if e := src.clone(); e.Exists() {
			c.storage[src.Key()] = e
			c.made.Store(int32(len(c.storage)))
		}
	}
	return c
}

// CopyInto makes dst's own entries equal to b's: each existing entry of b is copied
// (type and value) into dst's entry of the same key, as a write; dst's own entries
// that do not exist in b are unset. Handles into dst stay valid, which is what
// restoring a backup needs.
func (b *Blackboard) CopyInto(dst *Blackboard) {
	if b == dst {
		return
	}
	keep := make(map[string]bool)
	for _, src := range b.entries() {
		if src.Exists() {
			keep[src.Key()] = true
			dst.local(src.Key(), true).copyFrom(src)
		}
	}
	for _, e := range dst.entries() {
		if !keep[e.Key()] {
			e.Unset()
		}
	}
}
