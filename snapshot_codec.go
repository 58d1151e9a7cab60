package bt

import (
	"fmt"

	"github.com/gobt/bt/internal/snapcodec"
)

// The encodings of a Snapshot are package internal/snapcodec's, which reads and writes
// the plain structs a Snapshot holds; what is here hands it what only bt knows: the
// paths of a tree's nodes.

// ReadSnapshot reads a snapshot written by MarshalJSON or MarshalBinary. It refuses a
// snapshot of a newer version than this bt writes, and input that is not a whole
// snapshot, with an error that says so.
//
// It reads input it cannot trust in time linear in its size, and the memory it takes
// is bounded by what the bytes can encode: a count that the bytes left could not hold
// is refused before anything is made for it (a binary snapshot's checksum is checked
// first, too). To refuse a snapshot of another tree before reading more than its head,
// use Tree.ReadSnapshot.
func ReadSnapshot(data []byte) (*Snapshot, error) { return readSnapshot(data, nil) }

// ReadSnapshot reads a snapshot for t, as the function ReadSnapshot does, but refuses
// one of another tree definition, as Restore does, once it has read its head (format,
// version, tree and fingerprint), before the rest.
func (t *Tree) ReadSnapshot(data []byte) (*Snapshot, error) {
	if t.root == nil {
		return nil, ErrEmptyTree
	}
	return readSnapshot(data, func(h *snapcodec.Head) error {
		if err := t.checkDefinition(h); err != nil {
			return fmt.Errorf("bt: %w", err)
		}
		return nil
	})
}

func readSnapshot(data []byte, head func(*snapcodec.Head) error) (*Snapshot, error) {
	s := new(Snapshot)
	if err := s.data.Decode(data, head); err != nil {
		return nil, err
	}
	return s, nil
}

// MarshalJSON writes the snapshot as an indented JSON document, one line per node
// and per blackboard entry. (json.Marshal of a Snapshot compacts it.)
func (s *Snapshot) MarshalJSON() ([]byte, error) {
	if s.of == nil {
		return s.data.EncodeJSON(nil)
	}
	return s.data.EncodeJSON(nodePaths{s.of})
}

// UnmarshalJSON reads a snapshot written by MarshalJSON.
func (s *Snapshot) UnmarshalJSON(data []byte) error {
	return s.read(s.data.DecodeJSON(data, nil))
}

// MarshalBinary writes the snapshot in the compact binary encoding.
func (s *Snapshot) MarshalBinary() ([]byte, error) { return s.data.EncodeBinary(), nil }

// UnmarshalBinary reads a snapshot written by MarshalBinary.
func (s *Snapshot) UnmarshalBinary(data []byte) error { return s.read(s.data.DecodeBinary(data, nil)) }

// read ends the reading of s, which err failed if not nil: a snapshot read is of no
// tree of this process.
func (s *Snapshot) read(err error) error {
	if err == nil {
		s.of = nil
	}
	return err
}

// nodePaths gives the JSON encoding the paths of a tree's nodes.
type nodePaths struct{ tree *Tree }

func (p nodePaths) Path(uid uint16) string { return p.tree.Node(uid).Path() }
