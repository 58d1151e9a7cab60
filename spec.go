package bt

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/script"
)

// Spec is the definition of one node of a tree: its Model, instance name, port values,
// pre/post conditions and children. A Spec is built once and instantiated into any
// number of trees; it must not be modified once a tree was built from it (NewTree keeps
// what it made of a root: a later tree would not see the change).
//
// Specs come from the builder functions of this package (Sequence, Fallback, Action,
// …), from Model.Spec, or from XML through a Factory.
type Spec struct {
	// Specs are the builder's form of a definition: NewTree flattens them into records
	// (see defs), and a Factory keeps the trees it loads as records only, making specs
	// when they are asked for (Node.Spec, Factory.Definition). A spec keeps to the
	// fields most nodes set; the rest is in more.
	model     *Model
	name      string
	ports     []portValue
	children  []*Spec
	line, col int32     // where the node is written, for specs from XML (the file is in more)
	more      *specMore // nil for a spec built in Go that has none of it

	// flat is the definition NewTree made of the tree rooted here, kept for the next
	// NewTree of this root: a spec is not modified once a tree was built from it.
	flat atomic.Pointer[treeDef]
}

// clone returns a copy of s, without what NewTree kept of it.
func (s *Spec) clone() *Spec {
	return &Spec{model: s.model, name: s.name, ports: s.ports, children: s.children, line: s.line, col: s.col, more: s.more}
}

// specMore is what few specs and few records (defs.extras) have. It is never changed
// once a spec points to it — a setter gives the spec a changed copy (edit) — so that the
// specs of one XML file share one that only names the file, and a copied Spec (see
// substitution.go) shares it safely.
type specMore struct {
	file      string             // of the position, for specs from XML
	conds     *[numConds]condDef // nil when the node has none; never changed either
	errs      []error            // problems found while the spec was assembled, reported by NewTree
	sub       *treeDef           // the tree a SubTree instantiates (see link.go)
	subID     string             // the ID of that tree, for a SubTree read from XML
	attrs     []attribute        // the attributes that are not ports (Node.Attribute)
	autoRemap bool               // SubTree's _autoremap
}

// attribute is an attribute of a node that is neither a port nor one the engine reads
// (name, the pre/post conditions, _autoremap): BehaviorTree.CPP's other_attributes,
// such as "_description" or Groot2's "_uid", kept for the program to read.
type attribute struct{ name, value string }

// attributeIn returns the value of the attribute name in attrs.
func attributeIn(attrs []attribute, name string) (string, bool) {
	for _, a := range attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// eachAttribute yields attrs, name and value, in the order they were written.
func eachAttribute(attrs []attribute) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for _, a := range attrs {
			if !yield(a.name, a.value) {
				return
			}
		}
	}
}

// edit gives s a specMore of its own to change: a copy of the one it has, which may be
// shared.
func (s *Spec) edit() *specMore {
	m := new(specMore)
	if s.more != nil {
		*m = *s.more
	}
	s.more = m
	return m
}

// fail records a problem of the spec, reported when a tree is built from it.
func (s *Spec) fail(err error) {
	m := s.edit()
	m.errs = append(slices.Clip(m.errs), err) // the old errs may be shared
}

// setCond attaches a pre- or post-condition.
func (s *Spec) setCond(h Cond, d condDef) {
	m := s.edit()
	conds := new([numConds]condDef)
	if m.conds != nil {
		*conds = *m.conds
	}
	conds[h] = d
	m.conds = conds
}

// subtree returns the tree a SubTree spec instantiates, or nil.
func (s *Spec) subtree() *treeDef {
	if s.more == nil {
		return nil
	}
	return s.more.sub
}

// Pos returns where the node is written in XML (an invalid Pos for specs built in Go).
func (s *Spec) Pos() btxml.Pos {
	if s.more == nil {
		return btxml.Pos{Line: s.line, Col: s.col}
	}
	return btxml.Pos{File: s.more.file, Line: s.line, Col: s.col}
}

// portValue is a port's text in a spec; parsed caches the script of a port that holds
// one, parsed once per definition; lit is the Go value of a port set with WithValue
// (value is then only its text for display).
type portValue struct {
	name, value string
	parsed      *script.Script
	lit         *literal
}

// Named sets the instance name (XML attribute name) and returns s.
func (s *Spec) Named(name string) *Spec {
	s.name = name
	return s
}

// With sets a port's value as it would be written in XML — a literal ("3", "hello") or a
// blackboard reference ("{key}") — and returns s. As in XML, the attributes that are
// not ports work too: "name" sets the instance name, "_skipIf", "_onSuccess" … attach a
// script as a pre- or post-condition, and "_autoremap" sets a SubTree's AutoRemap.
//
// An attribute whose name starts with "_" and that the engine does not read
// ("_description") is kept for the program to read (Attribute, Node.Attribute), as XML
// keeps it; one that looks like a misspelt pre- or post-condition ("_skipif") is an
// error.
//
// NewTree checks every port as the loader checks XML: a port the node's model does not
// declare, a literal that is not of the port's type or out of its range, a literal on
// an output port and a script that does not parse are errors naming the node.
func (s *Spec) With(port, value string) *Spec {
	if h, ok := CondByName(port); ok {
		return s.withCondScript(h, value)
	}
	switch port {
	case "name":
		return s.Named(value)
	case "_autoremap":
		on, err := strconv.ParseBool(value)
		if err != nil {
			s.fail(fmt.Errorf("_autoremap must be true or false, not %q", value))
		}
		return s.AutoRemap(on)
	}
	if _, misspelt := nearCond(port); strings.HasPrefix(port, "_") && !misspelt {
		return s.setAttribute(port, value)
	}
	return s.setPort(portValue{name: port, value: value})
}

// setAttribute sets an attribute that is not a port, replacing the value it had.
func (s *Spec) setAttribute(name, value string) *Spec {
	m := s.edit()
	attrs := slices.Clone(m.attrs) // the old ones may be shared
	if i := slices.IndexFunc(attrs, func(a attribute) bool { return a.name == name }); i >= 0 {
		attrs[i].value = value
	} else {
		attrs = append(attrs, attribute{name, value})
	}
	m.attrs = attrs
	return s
}

// WithValue sets a port to a Go value and returns s: no need to format numbers as text.
// NewTree checks the value against the port's declared type and converts it as writing
// it to a blackboard entry of that type would: 3 into a float64 port is 3.0, a string
// is parsed as XML text is, and 2.5 into an int port, -1 into a uint32 port or a
// string into a bool port that does not parse is an error naming the node. The value
// is a literal, never a blackboard reference: WithValue("message", "{x}") sets the text
// "{x}". Output ports take blackboard entries only: set them with With(port, "{key}").
// A SubTree's WithValue sets an entry of the subtree's blackboard to the value.
func (s *Spec) WithValue(port string, v any) *Spec {
	if v == nil {
		s.fail(fmt.Errorf("port %q: WithValue of nil", port))
		return s
	}
	return s.setPort(portValue{name: port, value: fmt.Sprint(v), lit: &literal{v}})
}

// setPort sets a port, replacing the value it had.
func (s *Spec) setPort(p portValue) *Spec {
	for i := range s.ports {
		if s.ports[i].name == p.name {
			s.ports[i] = p
			return s
		}
	}
	s.ports = append(s.ports, p)
	return s
}

// withCondScript attaches a script as a pre- or post-condition, as the XML attribute h
// does.
func (s *Spec) withCondScript(h Cond, code string) *Spec {
	parsed, err := script.Parse(code)
	if err != nil {
		s.fail(fmt.Errorf("%s: %w", h, err))
		return s
	}
	s.setCond(h, scriptCond(h, parsed))
	return s
}

// Pre attaches a Go pre-condition (FailureIf, SuccessIf, SkipIf or While) and returns s.
func (s *Spec) Pre(h Cond, cond func(n *Node) bool) *Spec {
	switch {
	case !h.IsPre():
		s.fail(fmt.Errorf("%s is not a pre-condition", h))
		return s
	case cond == nil:
		s.fail(fmt.Errorf("%s: no function", h))
		return s
	}
	s.setCond(h, condDef{bind: func(n *Node) (condFunc, error) {
		return func() (ok bool, err error) {
			defer n.guardCond(h, &err)
			return cond(n), nil
		}, nil
	}})
	return s
}

// Post attaches a Go post-condition action (OnSuccess, OnFailure, Post or OnHalted) and
// returns s.
func (s *Spec) Post(h Cond, fn func(n *Node)) *Spec {
	switch {
	case h.IsPre() || h >= numConds:
		s.fail(fmt.Errorf("%s is not a post-condition", h))
		return s
	case fn == nil:
		s.fail(fmt.Errorf("%s: no function", h))
		return s
	}
	s.setCond(h, condDef{bind: func(n *Node) (condFunc, error) {
		return func() (ok bool, err error) {
			defer n.guardCond(h, &err)
			fn(n)
			return true, nil
		}, nil
	}})
	return s
}

// Model returns the node type.
func (s *Spec) Model() *Model { return s.model }

// Name returns the instance name ("" when none was set).
func (s *Spec) Name() string { return s.name }

// Children returns the child definitions. The slice belongs to s.
func (s *Spec) Children() []*Spec { return s.children }

// Port returns the value set for a port with With (or XML), if any.
func (s *Spec) Port(name string) (string, bool) {
	for _, p := range s.ports {
		if p.name == name {
			return p.value, true
		}
	}
	return "", false
}

// Ports returns the ports set with With (or XML), name and value, in the order they
// were set. For a SubTree they are its remappings.
func (s *Spec) Ports() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for _, p := range s.ports {
			if !yield(p.name, p.value) {
				return
			}
		}
	}
}

// Attribute returns the value of an attribute of the node that is neither a port nor
// one the engine reads (name, the pre/post conditions, _autoremap), as XML or With
// set it: "_description", Groot2's "_uid", a tool's own annotation.
// BehaviorTree.CPP keeps them in NodeConfig::other_attributes.
func (s *Spec) Attribute(name string) (string, bool) {
	if s.more == nil {
		return "", false
	}
	return attributeIn(s.more.attrs, name)
}

// Attributes returns the attributes of the node that Attribute reads, name and value,
// in the order they were written.
func (s *Spec) Attributes() iter.Seq2[string, string] {
	var attrs []attribute
	if s.more != nil {
		attrs = s.more.attrs
	}
	return eachAttribute(attrs)
}

// CondScript returns the script of the pre- or post-condition h, when the spec has one
// written in the scripting language (XML or Script); a Go function (Pre, Post) has no
// text, and ok is false for it.
func (s *Spec) CondScript(h Cond) (script string, ok bool) {
	if s.more == nil || s.more.conds == nil || h >= numConds {
		return "", false
	}
	d := s.more.conds[h]
	return d.script, d.script != ""
}

// SubTreeID returns the ID of the tree a SubTree spec instantiates, or "" for any
// other spec.
func (s *Spec) SubTreeID() string {
	if s.model == nil || s.model.Kind != KindSubTree {
		return "" // a SubTree that a substitution rule replaced
	}
	return s.more.treeID()
}

// treeID returns the ID of the tree a SubTree instantiates, or "".
func (m *specMore) treeID() string {
	switch {
	case m == nil:
		return ""
	case m.sub != nil:
		return m.sub.id
	}
	return m.subID
}

// msecText is a duration as the text of a port in milliseconds, rounded away from
// zero: a duration under a millisecond stays one (Timeout(500*time.Microsecond) must
// not mean "no limit"), and a negative one stays negative, which the ports that take
// no negative duration report.
func msecText(d time.Duration) string {
	ms := d / time.Millisecond
	if d%time.Millisecond > 0 {
		ms++
	} else if d%time.Millisecond < 0 {
		ms--
	}
	return strconv.FormatInt(int64(ms), 10)
}
