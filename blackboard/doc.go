// Package blackboard is the data store of a behavior tree: scoped, typed entries that
// nodes read and write through ports and scripts, with BehaviorTree.CPP 4.x semantics.
//
// # Scopes and handles
//
// New makes the root scope of a tree; NewChild makes the scope of a subtree instance.
// Entry(key) returns a handle (*Entry) that stays valid for the life of the scope:
// entries are never removed, Unset only marks them absent. The engine resolves every
// port and script variable to a handle when it builds a tree, so a read during a tick
// is a pointer hop — no map lookup, no lock, no allocation.
//
// # Resolution
//
// Entry, Resolve and Lookup resolve a key in this order:
//
//  1. "@key" is key in the root scope, from any depth;
//  2. an entry stored in this scope (existing, or reserved by an earlier call) — so a
//     SubTree literal written with Local shadows any remapping;
//  3. an explicit Remap(key, ext): the parent's entry for ext, resolved by the same rules;
//  4. with autoRemap (NewChild(true)) and a key not starting with '_': the parent's
//     entry for key;
//  5. otherwise a new entry in this scope, reserved (absent) until declared or written.
//
// Writes therefore create entries where reads look for them: a subtree writing its
// remapped output creates the entry in the parent, as in BT.CPP. Resolution is meant
// to be static once a tree is built: set remappings and literals before taking handles.
// Invalid keys ("", "@", "@@x") give a detached handle that never exists and whose
// writes fail with ErrInvalidKey; Resolve returns that error directly.
//
// # Values
//
// A Value is a small immutable snapshot: a Kind (KindEmpty, KindInt, KindUint,
// KindFloat, KindBool, KindString, KindOther), 64 bits of payload and a shared box for
// strings and other Go values. It remembers its Go type: ValueOf(uint8(7)) is a KindInt
// of type uint8, ValueOf(time.Second) a KindInt of type time.Duration, a named enum
// type stays that type. Int, Float, Bool and String make int64, float64, bool and
// string values. KindUint only holds unsigned integers above math.MaxInt64.
//
// # Typing
//
// An entry is typed (Type() != nil) or generic. A plain Go string is a universal donor:
// it can be written into, and read as, any type it parses into.
//
//   - Declare(t): an absent entry becomes existing and empty with type t (nil:
//     generic; the empty interface: any, see below). An existing entry keeps its type;
//     declaring another fixed type is an error unless the existing type is string or
//     one of the two types is assignable to the other — any, or an interface and a
//     type that implements it, so that an output port of type *Cat and an input port
//     of type Animal share an entry (BT.CPP's polymorphic ports). Such an entry keeps
//     its first type: declared Animal, it holds any animal, and Get[*Cat] reads it
//     while it holds a *Cat and otherwise fails naming both types.
//   - An entry of type any (a port of type any declared it: BT.CPP's BT::Any) holds
//     values of any type: Set and Assign store what they are given, and no write fixes
//     its type. A generic entry, by contrast, takes the type of its first write.
//   - Set (BT.CPP Blackboard::set; output ports, SetBlackboard, Go code): an absent
//     entry is created typed after the value (a plain string leaves it generic); a
//     generic entry adopts the value's type (again, not for plain strings); a typed
//     entry converts the value — see Conversions — or reports an error naming the key
//     and both types.
//   - Assign (script assignment, BT.CPP ExprAssignment and Any::copyInto): an absent
//     entry is created generic and stays generic; an empty generic entry stores
//     anything; a typed entry converts like Set; a generic entry holding a value keeps
//     that value's type: numbers convert into it exactly (int 7 accepts 8.0 but not 3.5),
//     bools and numbers convert through 1/0, strings replace strings, other values need
//     the same Go type; a string assigned to a number is read as one ("12", "2.5",
//     "true" as 1, an enum name) and converted the same way, anything else is an
//     error naming the key; a number assigned to a string is an error.
//   - A typed entry that holds no value yet — a port declared it when the tree was
//     built, and nothing wrote it since — takes the type of its first write: a plain
//     string is still parsed into the declared type, but any other value is accepted.
//     Assign stores it as it is and leaves the entry generic (BT.CPP's scripts store
//     into an empty entry whatever its port said); Set converts it into the declared
//     type when it can and otherwise types the entry after it. So a script's
//     "state := 1" fills an entry that a string port declared, and the port reads "1".
//   - Unset: the entry becomes absent; the next write types it afresh.
//
// Every successful write bumps Seq and, with WithClock, stamps the entry. Declare and
// Unset are not writes: a node watching Seq (WasEntryUpdated, SkipUnlessUpdated) does
// not see an unset as an update, and a write after an unset continues the count.
//
// # Conversions
//
// Between numbers and bools (Set and Assign into typed entries, Get):
//
//   - into an integer type: the exact value, in range — 2.0 into int is 2; 2.5, -1 into
//     uint8, 300 into int8 are errors;
//   - into a float type: an integer only when exactly representable (2^53+1 is not a
//     float64); a float64 into float32 rounds to the nearest, unless it overflows;
//   - into bool: exactly 0 or 1; a bool into a number is 1 or 0.
//
// Get[T] reads the entry as T: the held value when its type is T (or implements an
// interface T); numbers and bools by the rules above; strings through Parse (with the
// enums given to New); numbers and bools into string types formatted with strconv
// (floats in their shortest form); other values by type assertion. Absent and empty
// entries are errors wrapping ErrNotExist and ErrEmpty. Put[T] writes with Set.
//
// Parse converts text into any type: integers (decimal or 0x hex, fully consumed,
// range-checked, enum names first), floats, BT.CPP's bool spellings, durations
// (time.ParseDuration syntax or bare milliseconds), encoding.TextUnmarshaler types,
// ';'-separated slices, and "json:"-prefixed JSON for everything else.
//
// # JSON
//
// MarshalJSON exports a scope's own existing entries as BT.CPP's blackboard JSON: a
// sorted object of key → value, null for empty entries. UnmarshalJSON imports such an
// object with Set semantics; JSON integers become int64 and other numbers float64, so
// floats are exported with a fraction ("15.0") to survive the round trip. An object is
// imported as a map[string]any, and Get[T] decodes it into T when T is a struct or a
// pointer to one (through encoding/json, so json tags apply); written into an entry of
// such a type, it is stored as that type. Clone and CopyInto back up and restore a
// scope without invalidating handles.
//
// # Looking inside
//
// Dump writes a scope's entries with their types and values, and its remappings with
// the parent entries they reach (BT.CPP's debugMessage):
//
//	move_goal (main.Pose2D) = {1 2 3}
//	[target] remapped to port of parent tree [move_goal] (main.Pose2D) = {1 2 3}
//
// Keys, Remappings and AutoRemap give the same as data.
//
// # Saved state
//
// SaveState returns a scope's own entries with everything that decides what they do
// next — each value's Go type, the entry's fixed type, its write count (Seq) and stamp,
// entries unset since they were written — and PrepareRestore checks such a list
// against a scope and returns the function that restores it, so that a tree's scopes
// are restored all or nothing (bt's Tree.Snapshot and Tree.Restore use them). Values
// travel as JSON that keeps every bit (MarshalTyped, UnmarshalTyped): numbers exactly,
// floats that are not finite as "NaN", "+Inf" and "-Inf", strings that are not UTF-8
// in base64, values of other types through their own JSON or text marshalling (a type
// that reads itself from text but has no MarshalText, as a type ported from
// BehaviorTree.CPP with only convertFromString, travels as the JSON of its exported
// fields, and is read back the same way). A type
// is found again by its name: the basic types and their slices are known, others are
// those that the scope's entry of that key has (a port declared it) or that the
// caller gives.
//
// # Concurrency
//
// Everything is safe for concurrent use. A scope's mutex guards only its map and is
// used when handles are taken. Entries use a seqlock built from sync/atomic (described
// on Entry): reads never lock or allocate, writes of numbers and bools never allocate,
// and a reader never sees half of one write and half of another.
//
// Update is a read-modify-write that loses no concurrent update (BT.CPP's
// getLockedPortContent): it holds the entry while its function computes the new value
// from the old, so other writers, and readers, wait for it:
//
//	err := blackboard.Update(e, func(n int) int { return n + 1 })
//
// # Differences from BehaviorTree.CPP
//
//   - An entry of type any stays of type any whatever writes it; BT.CPP types a BT::Any
//     entry after the first set<T> of a typed value.
//   - Assignable types (an interface and its implementations) share an entry without
//     registerPolymorphicCast; concrete types do not convert into each other, since Go
//     has no inheritance.
//   - JSON import needs no registered types: an object becomes a map, decoded into
//     the struct that Get asks for or that the entry was declared with. BT.CPP
//     converts objects whose "__type" names a type registered with its JsonExporter,
//     and skips the others.
//   - MarshalJSON of a scope without entries writes {} (it is Go's json.Marshaler, and
//     UnmarshalJSON reads it back); BT.CPP's ExportBlackboardToJSON writes null, as
//     bt.ExportTreeToJSON does for such a scope.
//   - Update takes a function where getLockedPortContent returns a locked reference:
//     the entry cannot be left locked, and the function must not read or write it.
//   - Dump shows values as well as types, sorts its lines, and says whether the scope
//     autoremaps; debugMessage prints types only, in hash order.
package blackboard
