package btlog

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobt/bt"
)

// Log is a .btlog file read back: one written by File, or by BehaviorTree.CPP's
// FileLogger2.
type Log struct {
	// XML is the tree as the file holds it: XML with node UIDs (see WriteTreeXML).
	XML []byte
	// Start is the file's first timestamp, to the microsecond.
	Start time.Time
	// Nodes are the nodes the XML describes, sorted by UID.
	Nodes []NodeInfo
	// Transitions are the recorded changes in file order. The file stores only the new
	// status; Previous is the status the node's last transition left (IDLE at first).
	Transitions []Transition
}

// Node returns the node whose UID is uid, or nil.
func (l *Log) Node(uid uint16) *NodeInfo {
	i, ok := slices.BinarySearchFunc(l.Nodes, uid, func(n NodeInfo, uid uint16) int { return int(n.UID) - int(uid) })
	if !ok {
		return nil
	}
	return &l.Nodes[i]
}

// FormatError is a problem of a .btlog file, at a byte offset from its start.
type FormatError struct {
	File   string // the name given ReadFile; "" for Read
	Offset int64
	Msg    string
}

func (e *FormatError) Error() string {
	name := e.File
	if name == "" {
		name = "btlog"
	}
	return fmt.Sprintf("%s: byte %d: %s", name, e.Offset, e.Msg)
}

// ReadFile reads the .btlog file name (see Read).
func ReadFile(name string) (*Log, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("btlog: %w", err)
	}
	l, err := parse(data)
	var fe *FormatError
	if errors.As(err, &fe) {
		fe.File = name
	}
	return l, err
}

// Read reads a .btlog file from r (see File for the format). A file that is not one,
// or is cut or damaged, gives a *FormatError with the offset of the first bad byte.
// A file cut inside its records — a run that was killed — gives the transitions before
// the cut along with the error, and so does a record with an unknown UID or status.
func Read(r io.Reader) (*Log, error) {
	if r == nil {
		return nil, errors.New("btlog: nil reader")
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("btlog: %w", err)
	}
	return parse(data)
}

// The offsets of the header's fields.
const (
	offProtocol = len(headerMagic)
	offXMLLen   = offProtocol + 1
	offXML      = offXMLLen + 4
)

func parse(data []byte) (*Log, error) {
	bad := func(off int, format string, args ...any) error {
		return &FormatError{Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case !bytes.HasPrefix(data, []byte(headerMagic)):
		return nil, bad(0, "not a .btlog file: it does not start with %q", headerMagic)
	case len(data) == offProtocol:
		return nil, bad(offProtocol, "the file ends before the protocol version")
	case data[offProtocol] != protocol:
		return nil, bad(offProtocol, "protocol version %d; this reader knows version %d", data[offProtocol], protocol)
	case len(data) < offXML:
		return nil, bad(len(data), "the file ends inside the length of the XML")
	}
	n := int64(int32(binary.LittleEndian.Uint32(data[offXMLLen:])))
	if n < 0 {
		return nil, bad(offXMLLen, "the length of the XML is negative (%d)", n)
	}
	if left := int64(len(data) - offXML); n > left {
		return nil, bad(len(data), "the file ends inside the XML, announced as %d bytes (%d are there)", n, left)
	}
	end := offXML + int(n)
	l := &Log{XML: data[offXML:end:end]}
	nodes, err := xmlNodes(l.XML)
	if err != nil {
		var se *xmlError
		if errors.As(err, &se) {
			return nil, bad(offXML+int(se.offset), "in the XML: %s", se.msg)
		}
		return nil, err
	}
	l.Nodes = nodes
	if len(data)-end < 8 {
		return nil, bad(len(data), "the file ends inside the first timestamp")
	}
	l.Start = time.UnixMicro(int64(binary.LittleEndian.Uint64(data[end:])))
	return l, l.records(data, end+8, bad)
}

// records reads the records from off on.
func (l *Log) records(data []byte, off int, bad func(int, string, ...any) error) error {
	byUID := map[uint16]bt.Status{} // the last status of each node
	for _, n := range l.Nodes {
		byUID[n.UID] = bt.Idle
	}
	l.Transitions = make([]Transition, 0, (len(data)-off)/recordSize)
	for ; off < len(data); off += recordSize {
		if len(data)-off < recordSize {
			return bad(off, "the file ends inside a record (%d of %d bytes)", len(data)-off, recordSize)
		}
		r := data[off : off+recordSize]
		us := uint64(r[0]) | uint64(r[1])<<8 | uint64(r[2])<<16 | uint64(r[3])<<24 | uint64(r[4])<<32 | uint64(r[5])<<40
		uid := binary.LittleEndian.Uint16(r[6:])
		s := bt.Status(r[8])
		prev, ok := byUID[uid]
		switch {
		case !ok:
			return bad(off+6, "UID %d is not a node of the tree", uid)
		case s > bt.Skipped:
			return bad(off+8, "%d is not a status", r[8])
		}
		byUID[uid] = s
		l.Transitions = append(l.Transitions, Transition{Offset: time.Duration(us) * time.Microsecond, UID: uid, Previous: prev, Status: s})
	}
	return nil
}

// xmlError is a problem of the XML, at a byte offset in it.
type xmlError struct {
	offset int64
	msg    string
}

func (e *xmlError) Error() string { return e.msg }

// xmlNodes describes the nodes of a tree written with UIDs, as WriteTreeXML and
// BehaviorTree.CPP's WriteTreeToXML write it: each element with a _uid attribute in a
// <BehaviorTree _fullpath=".."> is a node; a <SubTree> is the parent of the root of the
// tree whose _fullpath is its own. The TreeNodesModel gives the kinds; the builtin
// nodes' are known anyway.
func xmlNodes(data []byte) ([]NodeInfo, error) {
	x := newXMLReader(data)
	if err := x.read(); err != nil {
		return nil, err
	}
	return x.finish(), nil
}

func newXMLReader(data []byte) *xmlReader {
	x := &xmlReader{d: xml.NewDecoder(bytes.NewReader(data)), kinds: map[string]bt.Kind{}, seen: map[uint16]bool{}}
	x.d.Strict = true
	return x
}

type xmlReader struct {
	d      *xml.Decoder
	nodes  []NodeInfo
	kinds  map[string]bt.Kind // from the TreeNodesModel
	subs   map[string]uint16  // the UID of the SubTree node of each _fullpath
	seen   map[uint16]bool    // the UIDs read
	trees  []int32            // by node index: the index of the root of its tree
	roots  []treeRoot         // the root of each <BehaviorTree>
	models bool               // inside <TreeNodesModel>

	linkSteps int // the steps finish took to link the subtrees (see forest)
}

type treeRoot struct {
	path string
	node int // index in nodes; -1: none
}

// frame is an open element: the node it is (-1: not a node).
type frame struct{ node int }

// syntax reports an error of the decoder, at the byte it stopped on.
func (x *xmlReader) syntax(err error) error {
	off := x.d.InputOffset()
	var se *xml.SyntaxError
	if !errors.As(err, &se) {
		return &xmlError{offset: off, msg: err.Error()}
	}
	if se.Msg != "unexpected EOF" {
		off-- // the decoder has read the byte it stopped on
	}
	return &xmlError{offset: off, msg: se.Msg}
}

func (x *xmlReader) read() error {
	var stack []frame
	var tree *treeRoot // the <BehaviorTree> being read
	for {
		off := x.d.InputOffset()
		tok, err := x.d.Token()
		if err == io.EOF {
			return nil // the decoder reports elements left open
		}
		if err != nil {
			return x.syntax(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			f := frame{node: -1}
			switch {
			case len(stack) == 1 && t.Name.Local == "BehaviorTree":
				x.roots = append(x.roots, treeRoot{path: attr(t, "_fullpath"), node: -1})
				tree = &x.roots[len(x.roots)-1]
			case len(stack) == 1 && t.Name.Local == "TreeNodesModel":
				x.models = true
			case len(stack) == 2 && x.models:
				if k, err := bt.ParseKind(t.Name.Local); err == nil {
					x.kinds[attr(t, "ID")] = k
				}
			case tree != nil && len(stack) >= 2:
				i, err := x.node(t, tree, stack[len(stack)-1].node, off)
				if err != nil {
					return err
				}
				f.node = i
			}
			stack = append(stack, f)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if len(stack) == 1 {
				tree, x.models = nil, false
			}
		}
	}
}

// node adds the node element t, child of the node parent (-1: t is the root of tree).
func (x *xmlReader) node(t xml.StartElement, tree *treeRoot, parent int, off int64) (int, error) {
	uidText, ok := attrOK(t, "_uid")
	if !ok {
		return -1, &xmlError{offset: off, msg: fmt.Sprintf("<%s> has no _uid", t.Name.Local)}
	}
	uid, err := strconv.ParseUint(uidText, 10, 16)
	if err != nil || uid == 0 {
		return -1, &xmlError{offset: off, msg: fmt.Sprintf("<%s> has _uid %q, not a number from 1 to 65535", t.Name.Local, uidText)}
	}
	if x.seen[uint16(uid)] {
		return -1, &xmlError{offset: off, msg: fmt.Sprintf("two nodes have _uid %d", uid)}
	}
	x.seen[uint16(uid)] = true
	n := NodeInfo{UID: uint16(uid), ID: t.Name.Local, Name: attr(t, "name")}
	explicit, err := bt.ParseKind(t.Name.Local)
	if err == nil { // <Action ID="..">, <SubTree ID="..">
		n.ID, n.Kind = attr(t, "ID"), explicit
	}
	prefix := tree.path
	if prefix != "" {
		prefix += "/"
	}
	if explicit == bt.KindSubTree {
		// The node's type is SubTree and its name the tree's ID, unless the path's last
		// element was an instance name.
		tid := n.ID
		n.ID, n.Path = "SubTree", attr(t, "_fullpath")
		if n.Path == "" {
			n.Path = prefix + tid + "::" + uidText
		}
		if last := n.Path[strings.LastIndexByte(n.Path, '/')+1:]; n.Name == "" && last != tid+"::"+uidText {
			n.Name = last
		}
		if n.Name == "" {
			n.Name = tid
		}
		if x.subs == nil {
			x.subs = map[string]uint16{}
		}
		x.subs[n.Path] = n.UID
		// A SubTree named like its tree has a path that ends in ::UID, and its tree the
		// path without it (the instance's name): found that way unless a path is that.
		if named, ok := strings.CutSuffix(n.Path, "::"+uidText); ok && n.Name == tid {
			if _, taken := x.subs[named]; !taken {
				x.subs[named] = n.UID
			}
		}
	} else {
		if n.Name == "" {
			n.Name = n.ID
		}
		n.Path = prefix + n.Name
		if n.Name == n.ID {
			n.Path += "::" + uidText
		}
	}
	i := len(x.nodes)
	root := int32(i)
	if parent >= 0 {
		n.Parent = x.nodes[parent].UID
		root = x.trees[parent]
	} else if tree.node < 0 {
		tree.node = i
	}
	x.nodes = append(x.nodes, n)
	x.trees = append(x.trees, root)
	return i, nil
}

// finish links the roots of subtrees to their SubTree nodes, fills in the kinds and
// sorts the nodes by UID.
func (x *xmlReader) finish() []NodeInfo {
	index := make(map[uint16]int, len(x.nodes))
	for i, n := range x.nodes {
		index[n.UID] = i
	}
	linked := newForest(x.trees)
	for _, r := range x.roots {
		sub, ok := x.subs[r.path]
		if !ok || r.node < 0 || r.path == "" {
			continue
		}
		// A damaged file could make a SubTree its own ancestor: its tree's root goes
		// below it only if the SubTree is not already below that root.
		if s := index[sub]; linked.join(int32(s), int32(r.node)) {
			x.nodes[r.node].Parent = sub
		}
	}
	x.linkSteps = linked.steps
	var builtins *bt.Factory
	for i := range x.nodes {
		n := &x.nodes[i]
		if n.Kind != 0 {
			continue
		}
		if k, ok := x.kinds[n.ID]; ok {
			n.Kind = k
			continue
		}
		if builtins == nil {
			builtins = bt.NewFactory()
		}
		if m, ok := builtins.Model(n.ID); ok {
			n.Kind = m.Kind
		}
	}
	slices.SortFunc(x.nodes, func(a, b NodeInfo) int { return int(a.UID) - int(b.UID) })
	return x.nodes
}

// forest tells which nodes are linked, through their parents, to the same top node:
// a union-find of the trees of the file, joined as the roots of subtrees are linked to
// their SubTree nodes. A root of a subtree has no parent until it is linked, so it is
// the top of its set, and a SubTree in that set is below it. Each question costs
// O(α(n)) steps (union by size, path halving): reading a file whose subtrees chain
// below each other takes linear time.
type forest struct {
	up    []int32 // a node of the same set, up to the set's representative
	size  []int32 // the nodes of each representative's set
	steps int     // taken up the sets, for a test
}

// newForest makes the forest of the trees of a file: tree[i] is the index of the root
// of node i's tree.
func newForest(tree []int32) *forest {
	f := &forest{up: append([]int32(nil), tree...), size: make([]int32, len(tree))}
	for _, root := range tree {
		f.size[root]++
	}
	return f
}

func (f *forest) find(i int32) int32 {
	for f.up[i] != i {
		f.up[i] = f.up[f.up[i]]
		i = f.up[i]
		f.steps++
	}
	return i
}

// join links the set of root, a node with no parent, below the node sub: false if sub
// is in it (below root already).
func (f *forest) join(sub, root int32) bool {
	a, b := f.find(sub), f.find(root)
	if a == b {
		return false
	}
	if f.size[a] < f.size[b] {
		a, b = b, a
	}
	f.up[b] = a
	f.size[a] += f.size[b]
	return true
}

func attr(t xml.StartElement, name string) string {
	v, _ := attrOK(t, name)
	return v
}

func attrOK(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}
