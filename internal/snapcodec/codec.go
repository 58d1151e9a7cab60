// Package snapcodec reads and writes the two encodings of a bt snapshot: JSON, for
// people, and a compact binary one. It works on plain structs (Snapshot, Node, Field,
// Scope); package bt fills them from a tree (Tree.Snapshot) and gives them back to one
// (Tree.Restore), and knows nothing of the bytes.
//
// The JSON encoding is a document with one line per node that has a status or state
// and one per blackboard entry, every field named. The binary one is the same content
// without names but the fields', and a CRC-32 at the end that catches corruption. Both
// start with what identifies them ("format": "bt snapshot" and the version; the bytes
// "BTSNAP\x00" and the version), so that Decode tells them apart and refuses a newer
// version before reading on.
//
// The readers take input they cannot trust: they answer in time linear in its size,
// and the memory they take is bounded by what the bytes can encode.
package snapcodec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gobt/bt/blackboard"
)

// Version is the version of the snapshots this package writes, and the newest it reads.
const Version = 1

// Head is what identifies a snapshot: Decode hands it over before it reads the rest.
type Head struct {
	Version     int
	Tree        string // the ID of the tree's definition
	Fingerprint string // the hash of the definition (Tree.fingerprint)
	Nodes       int    // the number of nodes of the tree
}

// Snapshot is the content of a snapshot.
type Snapshot struct {
	Head
	Taken   time.Time // the tree's clock when it was taken
	Aborted bool      // an error stopped the last tick: the next one halts first
	Wakeups uint32    // pending wake-ups that no node asked for (Tree.WakeUp)
	Restart []string  // the paths of the nodes that start afresh when restored
	States  []Node    // the nodes with a status or state, in UID order
	Scopes  []Scope   // the blackboards: the root's, then the subtree instances'
}

// Node is the saved status and state of one node.
type Node struct {
	UID    uint16
	Path   string // for people, and checked when given ("" in a snapshot taken: see Paths)
	Status uint8  // bt.Status
	Fields []Field
}

// Scope is the saved content of one blackboard of the tree.
type Scope struct {
	UID     uint16 // the SubTree node of the instance that owns it; 0: the tree's root blackboard
	Path    string // the path prefix of the instance's nodes ("" for the root)
	Entries []blackboard.EntryState
}

// ScopeName names a blackboard in errors: the root one, or a subtree instance's.
func ScopeName(uid uint16, path string) string {
	if uid == 0 {
		return "the root blackboard"
	}
	return fmt.Sprintf("the blackboard of subtree %s", path)
}

// Kind is the shape of a field's value.
type Kind uint8

const (
	Int  Kind = iota + 1 // Num
	Bool                 // Num is 1 (false is not written)
	Text                 // Text
	Raw                  // Text holds bytes: JSON of a node's own, or a user's state
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "an integer"
	case Bool:
		return "true"
	case Text:
		return "a string"
	}
	return "JSON"
}

// Field is one named value of a node's state.
type Field struct {
	Name string
	Kind Kind
	Num  int64
	Text string
}

// JSON returns the field's value as JSON (as it was read, or its equal: a field of a
// JSON snapshot has the kind of its JSON).
func (f *Field) JSON() string {
	switch f.Kind {
	case Raw:
		return f.Text
	case Text:
		js, _ := json.Marshal(f.Text)
		return string(js)
	case Bool:
		return strconv.FormatBool(f.Num == 1)
	}
	return strconv.FormatInt(f.Num, 10)
}

// Paths gives the JSON encoding the paths of the nodes of a snapshot taken of a tree
// (a snapshot read holds its nodes' paths).
type Paths interface {
	Path(uid uint16) string
}

// statusNames are the names of the statuses, as BehaviorTree.CPP spells them and as
// package bt's Status prints them: the JSON encoding's, which a test of package bt
// keeps equal to Status.String and ParseStatus.
var statusNames = [...]string{"IDLE", "RUNNING", "SUCCESS", "FAILURE", "SKIPPED"}

// StatusName returns the name of status s ("RUNNING").
func StatusName(s uint8) string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", s)
}

// ParseStatus reads the name of a status.
func ParseStatus(name string) (uint8, error) {
	for i, n := range statusNames {
		if n == name {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a status (want IDLE, RUNNING, SUCCESS, FAILURE or SKIPPED)", name)
}

// MaxFields bounds the fields of a node's state: more than any node writes (each
// writes each of its fields once, and memberNames holds every name they use), so that
// reading a node's line, which compares each field's name with those before it, takes
// time linear in its length, and a binary snapshot cannot make a list of fields bigger.
const MaxFields = 64

var errCorrupt = errors.New("bt: the snapshot is corrupt")

// Decode reads a snapshot in either encoding into s; head, if not nil, is given the
// snapshot's head once it is read, and refuses the rest with an error.
func (s *Snapshot) Decode(data []byte, head func(*Head) error) error {
	switch json := bytes.TrimLeft(data, " \t\r\n"); {
	case bytes.HasPrefix(data, binaryMagic):
		return s.DecodeBinary(data, head)
	case len(json) > 0 && json[0] == '{':
		return s.DecodeJSON(data, head)
	}
	return checkVersion(false, 0)
}

// checkVersion refuses what is not a snapshot, or one of a version this bt cannot read.
func checkVersion(isSnapshot bool, version int) error {
	switch {
	case !isSnapshot:
		return errors.New(`bt: not a bt snapshot (a JSON snapshot says "format": "bt snapshot"; a binary one starts with BTSNAP)`)
	case version > Version:
		return fmt.Errorf("bt: the snapshot is of version %d, newer than this bt reads (%d): restore it with a newer bt", version, Version)
	case version < 1:
		return fmt.Errorf("%w: version %d", errCorrupt, version)
	}
	return nil
}
