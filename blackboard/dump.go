package blackboard

import (
	"io"
	"maps"
	"slices"
	"strings"
)

// Dump writes what this scope holds, one line each, sorted — BT.CPP's debugMessage,
// with values: the scope's own existing entries with their types, then its
// remappings, with the type and value of the parent's entry when it exists, then
// whether it remaps automatically (_autoremap):
//
//	move_goal (main.Pose2D) = {1 2 3}
//	[target] remapped to port of parent tree [move_goal] (main.Pose2D) = {1 2 3}
//
// An entry's type is its fixed type, or for a generic entry the type of its value
// ("any" when it holds none); a value is shown as Value.String shows it (strings
// quoted, long values shortened, <empty>).
func (b *Blackboard) Dump(w io.Writer) error {
	var s strings.Builder
	for _, e := range b.entries() {
		if e.Exists() {
			s.WriteString(e.Key())
			dumpEntry(&s, e)
		}
	}
	remaps := b.Remappings()
	for _, in := range slices.Sorted(maps.Keys(remaps)) {
		s.WriteString("[" + in + "] remapped to port of parent tree [" + remaps[in] + "]")
		if b.parent != nil {
			if e, ok := b.parent.Lookup(remaps[in]); ok {
				dumpEntry(&s, e)
				continue
			}
		}
		s.WriteByte('\n')
	}
	if b.auto {
		s.WriteString("_autoremap: keys not stored here and not starting with '_' are the parent tree's\n")
	}
	_, err := io.WriteString(w, s.String())
	return err
}

// dumpEntry writes " (type) = value" and the end of the line.
func dumpEntry(s *strings.Builder, e *Entry) {
	v := e.Load()
	t := e.Type()
	if t == nil {
		t = v.Type()
	}
	s.WriteString(" (" + typeName(t) + ") = " + v.String() + "\n")
}

// Remappings returns a copy of this scope's remappings (Remap): each internal key
// with the parent's key it resolves to.
func (b *Blackboard) Remappings() map[string]string {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return maps.Clone(b.remaps)
}

// AutoRemap reports whether keys not stored in this scope (and not starting with
// '_') resolve in its parent (NewChild(true), BT.CPP's _autoremap).
func (b *Blackboard) AutoRemap() bool { return b.auto }
