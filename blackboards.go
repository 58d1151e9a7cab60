package bt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gobt/bt/blackboard"
)

// Subtree is one blackboard scope of a tree: the main tree's, or a subtree instance's
// (BehaviorTree.CPP's Tree::Subtree).
type Subtree struct {
	// InstanceName is the path of the subtree instance, as its nodes' paths begin
	// ("nav" for <SubTree ID="Navigate" name="nav"/>, "Navigate::3" for one without a
	// name, "nav/arm" inside it); "" for the main tree.
	InstanceName string
	// TreeID is the ID of the tree the scope instantiates.
	TreeID     string
	Blackboard *blackboard.Blackboard
}

// name is the scope's name in ExportTreeToJSON: its instance name, or its tree ID for
// the main tree.
func (s Subtree) name() string {
	if s.InstanceName == "" {
		return s.TreeID
	}
	return s.InstanceName
}

// Subtrees returns the blackboard scopes of the tree: the main tree's first, then those
// of the subtree instances in UID order (BehaviorTree.CPP's tree.subtrees), so that
// tree.Subtrees()[1].Blackboard.Dump(os.Stdout) shows the first subtree's entries
// and remappings.
func (t *Tree) Subtrees() []Subtree {
	var list []Subtree
	for sc := range t.scopes() {
		s := Subtree{TreeID: t.ID(), Blackboard: sc.bb}
		if sc.uid != 0 {
			s.InstanceName = strings.TrimSuffix(sc.path, "/")
			s.TreeID = t.Node(sc.uid).typeID()
		}
		list = append(list, s)
	}
	return list
}

// BlackboardBackup copies every blackboard scope of the tree, in the order of
// Subtrees (BehaviorTree.CPP's BlackboardBackup): entries with their types, values,
// write counts and stamps. BlackboardRestore puts the copy back.
func BlackboardBackup(t *Tree) []*blackboard.Blackboard {
	var backup []*blackboard.Blackboard
	for sc := range t.scopes() {
		backup = append(backup, sc.bb.Clone())
	}
	return backup
}

// BlackboardRestore gives each blackboard scope of the tree the entries of its copy in
// backup, made by BlackboardBackup of this tree or of one built from the same
// definition: entries of the copy are written (type and value), entries that the copy
// does not have are unset. Handles stay valid, so the tree's ports and scripts see the
// restored values. A backup of another number of scopes is an error, and nothing is
// restored then. Call it between ticks.
func BlackboardRestore(backup []*blackboard.Blackboard, t *Tree) error {
	scopes := t.Subtrees()
	if len(backup) != len(scopes) {
		return fmt.Errorf("bt: BlackboardRestore: the backup has %d blackboards, the tree %d", len(backup), len(scopes))
	}
	for i, s := range scopes {
		backup[i].CopyInto(s.Blackboard)
	}
	return nil
}

// ExportTreeToJSON writes every blackboard scope of the tree as one JSON object
// (BehaviorTree.CPP's ExportTreeToJSON, tutorial 17): each scope's name — the main
// tree's ID, a subtree instance's name (Subtree.InstanceName) — with its entries as
// Blackboard.MarshalJSON writes them, or null for a scope without entries. Keys are
// sorted, as BehaviorTree.CPP's JSON writes them.
func ExportTreeToJSON(t *Tree) ([]byte, error) {
	scopes := t.Subtrees()
	slices.SortFunc(scopes, func(a, b Subtree) int { return strings.Compare(a.name(), b.name()) })
	buf := []byte{'{'}
	for i, s := range scopes {
		if i > 0 {
			if s.name() == scopes[i-1].name() {
				return nil, fmt.Errorf("bt: ExportTreeToJSON: two blackboards named %q", s.name())
			}
			buf = append(buf, ',')
		}
		name, _ := json.Marshal(s.name())
		buf = append(append(buf, name...), ':')
		if len(s.Blackboard.Keys()) == 0 {
			buf = append(buf, "null"...)
			continue
		}
		data, err := s.Blackboard.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("bt: ExportTreeToJSON: %s: %w", s.name(), err)
		}
		buf = append(buf, data...)
	}
	return append(buf, '}'), nil
}

// ImportTreeFromJSON writes the entries of JSON made by ExportTreeToJSON into the
// blackboard scopes of the same names (BehaviorTree.CPP's ImportTreeFromJSON), each as
// Blackboard.UnmarshalJSON does; a null scope has nothing to import. The JSON must
// name each scope of the tree once, and no other: otherwise nothing is imported and
// the error says which names differ. Errors of single entries are joined.
func ImportTreeFromJSON(data []byte, t *Tree) error {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("bt: ImportTreeFromJSON: %w", err)
	}
	if doc == nil {
		return errors.New("bt: ImportTreeFromJSON: want an object of blackboards, got null")
	}
	scopes := t.Subtrees()
	var missing, unknown []string
	for _, s := range scopes {
		if _, ok := doc[s.name()]; !ok {
			missing = append(missing, s.name())
		}
	}
	for name := range doc {
		if !slices.ContainsFunc(scopes, func(s Subtree) bool { return s.name() == name }) {
			unknown = append(unknown, name)
		}
	}
	if len(missing) > 0 || len(unknown) > 0 {
		slices.Sort(unknown)
		return fmt.Errorf("bt: ImportTreeFromJSON: the blackboards do not match the tree's: missing %q, unknown %q", missing, unknown)
	}
	var errs []error
	for _, s := range scopes {
		raw := doc[s.name()]
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		if err := s.Blackboard.UnmarshalJSON(raw); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name(), err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("bt: ImportTreeFromJSON: %w", err)
	}
	return nil
}
