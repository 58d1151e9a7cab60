package btxml

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// detectFormat decides the format of a document without a BTCPP_format
// attribute: 3 if it uses something only format 3 has, else 4.
func detectFormat(d *Document) int {
	for _, t := range d.Trees {
		if usesV3(t.Root) {
			return 3
		}
	}
	for _, m := range d.Models {
		if v3Rename(m.ID) != "" {
			return 3
		}
	}
	return 4
}

// v3Rename returns the format-4 name of a renamed format-3 node type, or "".
func v3Rename(id string) string {
	switch id {
	case "SequenceStar":
		return "SequenceWithMemory"
	case "RetryUntilSuccesful":
		return "RetryUntilSuccessful"
	}
	return ""
}

// usesV3 reports whether a tree uses a format-3 construct.
func usesV3(e *Element) bool {
	if e == nil {
		return false
	}
	switch e.ID {
	case "SequenceStar", "FallbackStar", "RetryUntilSuccesful",
		"BlackboardCheckInt", "BlackboardCheckDouble", "BlackboardCheckString":
		return true
	case "Parallel":
		if attrIndex(e.Attrs, "success_threshold") >= 0 || attrIndex(e.Attrs, "failure_threshold") >= 0 {
			return true
		}
	}
	if e.Tag == "SubTreePlus" {
		return true
	}
	for _, a := range e.Attrs {
		if a.Name == "__shared_blackboard" || a.Name == "__autoremap" || isDollarPointer(a.Value) {
			return true
		}
	}
	for _, c := range e.Children {
		if e.Tag == "SubTree" && c != nil && c.Tag == "remap" || usesV3(c) {
			return true
		}
	}
	return false
}

// isDollarPointer reports whether v is a blackboard pointer in the ${key}
// spelling of early versions.
func isDollarPointer(v string) bool {
	return len(v) > 3 && strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}")
}

// isPointer reports whether v is a blackboard pointer, {key}.
func isPointer(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) >= 3 && v[0] == '{' && v[len(v)-1] == '}'
}

// Upgrade rewrites the format-3 trees of d (those whose Format is 3) to format
// 4, in place, as BehaviorTree.CPP's convert_v3_to_v4.py intends, and sets the
// formats to 4. Positions are kept; new attributes take the position of the
// attribute they replace. It changes:
//
//   - SequenceStar to SequenceWithMemory, RetryUntilSuccesful to
//     RetryUntilSuccessful (compact and explicit forms, and models);
//   - <SubTreePlus> to <SubTree>, and its __autoremap to _autoremap;
//   - a format-3 <SubTree>, whose attributes are blackboard keys: port="key"
//     becomes port="{key}", <remap internal="a" external="b"/> children
//     become a="{b}", __shared_blackboard="true" becomes _autoremap="true"
//     (with a note: autoremapping is not quite sharing the blackboard) and
//     __shared_blackboard="false" is dropped;
//   - a compact reference to a tree of d, <Walk/>, to <SubTree ID="Walk"/>;
//   - Parallel's success_threshold and failure_threshold to success_count
//     and failure_count;
//   - BlackboardCheckInt, BlackboardCheckDouble and BlackboardCheckString
//     with simple operands to Precondition, with a note;
//   - ${key} values, an early spelling, to {key}.
//
// It leaves FallbackStar and ManualSelector (no format-4 equivalent) and
// attributes that format 4 reads as pre- and post-condition scripts (_skipIf
// and the like) unchanged, with a note. Upgrade does nothing to a document
// without format-3 trees.
func Upgrade(d *Document) []Note {
	if d == nil {
		return nil
	}
	u := upgrader{trees: make(map[string]bool, len(d.Trees))}
	for _, t := range d.Trees {
		if t != nil {
			u.trees[t.ID] = true
		}
	}
	any := d.Format == 3
	for _, t := range d.Trees {
		if t != nil && (t.Format == 3 || t.Format == 0 && d.Format == 3) {
			any = true
			u.tree = t.ID
			u.element(t.Root)
		}
	}
	if !any {
		return nil
	}
	for _, m := range d.Models {
		if m == nil {
			continue
		}
		if id := v3Rename(m.ID); id != "" {
			m.ID = id
		}
	}
	for _, t := range d.Trees {
		if t != nil {
			t.Format = 4
		}
	}
	d.Format = 4
	return u.notes
}

type upgrader struct {
	trees map[string]bool // tree IDs of the document
	tree  string          // the ID of the tree being upgraded
	notes []Note
}

func (u *upgrader) note(pos Pos, format string, args ...any) {
	u.notes = append(u.notes, Note{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (u *upgrader) element(e *Element) {
	if e == nil {
		return
	}
	for i, a := range e.Attrs {
		if isDollarPointer(a.Value) {
			e.Attrs[i].Value = a.Value[1:]
		}
		if isScriptAttr(a.Name) {
			u.note(a.Pos, "attribute %s is a condition script in format 4; rename it if it was a port", a.Name)
		}
	}
	if id := v3Rename(e.ID); id != "" {
		rename(e, id)
	}
	switch {
	case e.Tag == "SubTreePlus":
		e.Tag = "SubTree"
		if i := attrIndex(e.Attrs, "__autoremap"); i >= 0 {
			e.Attrs[i].Name = "_autoremap"
		}
	case e.Tag == "SubTree":
		u.subTree(e)
	case !e.Explicit() && u.trees[e.ID] && e.ID != u.tree && len(e.Children) == 0:
		// A tree cannot instantiate itself, nor a subtree have children: such an
		// element is a node type that shares the tree's name (Nav2's <BackUp/> in the
		// tree BackUp).
		u.note(e.Pos, "<%s/> refers to a tree: written <SubTree ID=%q/>", e.ID, e.ID)
		e.Tag = "SubTree"
		u.subTree(e)
	case e.ID == "Parallel":
		renameAttr(e, "success_threshold", "success_count")
		renameAttr(e, "failure_threshold", "failure_count")
	case e.ID == "BlackboardCheckInt", e.ID == "BlackboardCheckDouble", e.ID == "BlackboardCheckString":
		u.blackboardCheck(e)
	case e.ID == "FallbackStar":
		u.note(e.IDPos(), "FallbackStar has no format-4 equivalent (a Fallback that remembers its running child); left unchanged")
	case e.ID == "ManualSelector":
		u.note(e.IDPos(), "ManualSelector does not exist in format 4; left unchanged")
	}
	for _, c := range e.Children {
		u.element(c)
	}
}

// rename changes the node type of e, in the form it is written in.
func rename(e *Element, id string) {
	if !e.Explicit() {
		e.Tag = id
	}
	e.ID = id
}

func renameAttr(e *Element, from, to string) {
	if i := attrIndex(e.Attrs, from); i >= 0 {
		e.Attrs[i].Name = to
	}
}

func isScriptAttr(name string) bool {
	switch name {
	case "_failureIf", "_successIf", "_skipIf", "_while",
		"_onSuccess", "_onFailure", "_onHalted", "_post":
		return true
	}
	return false
}

// subTree converts a format-3 <SubTree>: its attributes name blackboard keys
// of the parent, and <remap> children say the same.
func (u *upgrader) subTree(e *Element) {
	attrs := e.Attrs[:0:0]
	for _, a := range e.Attrs {
		switch {
		case a.Name == "name":
		case a.Name == "__shared_blackboard":
			if b, err := strconv.ParseBool(a.Value); err != nil || !b {
				if err != nil {
					u.note(a.ValuePos(), "__shared_blackboard=%q is not a boolean; dropped", a.Value)
				}
				continue
			}
			u.note(a.Pos, "__shared_blackboard became _autoremap: the subtree sees the parent's keys by name, but writes to keys that start with '_' stay local")
			a.Name, a.Value = "_autoremap", "true"
		case strings.HasPrefix(a.Name, "_"):
		case isPointer(a.Value):
		case strings.TrimSpace(a.Value) == "":
			u.note(a.ValuePos(), "remapping of %s to an empty key left unchanged", a.Name)
		default:
			a.Value = "{" + strings.TrimSpace(a.Value) + "}"
		}
		attrs = append(attrs, a)
	}
	var kids []*Element
	for _, c := range e.Children {
		if c == nil || c.Tag != "remap" {
			kids = append(kids, c)
			continue
		}
		in, okIn := c.Attr("internal")
		ext, okExt := c.Attr("external")
		if !okIn || !okExt || in.Value == "" || ext.Value == "" {
			u.note(c.Pos, "<remap> needs internal and external attributes; left unchanged")
			kids = append(kids, c)
			continue
		}
		if !isXMLName(in.Value) { // it would become the name of an attribute
			u.note(in.ValuePos(), "<remap internal=%q>: a port name must be an XML name; left unchanged", in.Value)
			kids = append(kids, c)
			continue
		}
		if slices.ContainsFunc(attrs, func(a Attr) bool { return a.Name == in.Value }) {
			u.note(in.ValuePos(), "<remap internal=%q>: the SubTree sets port %s already; left unchanged", in.Value, in.Value)
			kids = append(kids, c)
			continue
		}
		v := ext.Value
		if !isPointer(v) {
			v = "{" + strings.TrimSpace(v) + "}"
		}
		attrs = append(attrs, Attr{Name: in.Value, Value: v, Pos: in.ValuePos(), valueLine: ext.valueLine, valueCol: ext.valueCol})
		keepComments(e, c.Comments)
	}
	e.Attrs, e.Children = attrs, kids
	if len(e.Attrs) == 0 {
		e.Attrs = nil
	}
}

// keepComments moves the comments of a <remap> that became an attribute of the
// SubTree e before e.
func keepComments(e *Element, c *Comments) {
	if c == nil {
		return
	}
	if e.Comments == nil {
		e.Comments = &Comments{}
	}
	for _, list := range [][]Comment{c.Before, c.After, c.Inside} {
		e.Comments.Before = append(e.Comments.Before, list...)
	}
}

// blackboardCheck turns <BlackboardCheckInt value_A=".." value_B=".."
// return_on_mismatch=".."> into <Precondition if="A == B" else="..">.
func (u *upgrader) blackboardCheck(e *Element) {
	ops, why := checkOperands(e)
	if why != "" {
		u.note(e.IDPos(), "%s left unchanged: %s; write a <Precondition if=\"...\" else=\"...\"> instead", e.ID, why)
		return
	}
	var attrs []Attr
	for _, at := range e.Attrs {
		switch at.Name {
		case "name":
			attrs = append(attrs, at)
		case "value_A":
			attrs = append(attrs, Attr{Name: "if", Value: ops[0] + " == " + ops[1], Pos: at.Pos, valueLine: at.valueLine, valueCol: at.valueCol})
		case "return_on_mismatch":
			at.Name = "else"
			attrs = append(attrs, at)
		}
	}
	u.note(e.IDPos(), "%s became Precondition, which checks once when its child starts, not on every tick", e.ID)
	rename(e, "Precondition")
	e.Attrs = attrs
}

// checkOperands returns the script operands of a BlackboardCheck, or why it
// cannot be converted.
func checkOperands(e *Element) (ops [2]string, why string) {
	kind := strings.TrimPrefix(e.ID, "BlackboardCheck")
	for _, at := range e.Attrs {
		switch at.Name {
		case "name", "value_A", "value_B", "return_on_mismatch":
		default:
			return ops, "unexpected attribute " + at.Name
		}
	}
	for i, name := range []string{"value_A", "value_B"} {
		a, ok := e.Attr(name)
		if !ok {
			return ops, "no " + name
		}
		if ops[i], ok = scriptOperand(a.Value, kind); !ok {
			return ops, fmt.Sprintf("%s=%q is neither {key} nor %s", name, a.Value, literalName(kind))
		}
	}
	return ops, ""
}

func literalName(kind string) string {
	switch kind {
	case "Int":
		return "an integer"
	case "Double":
		return "a number"
	}
	return "a string without quotes"
}

// scriptOperand writes a BlackboardCheck operand as a script operand: {key}
// becomes key, a number stays as it is for Int and Double, other text becomes
// a quoted string for String. It fails for what the script cannot spell.
func scriptOperand(v, kind string) (string, bool) {
	v = strings.TrimSpace(v)
	if isPointer(v) {
		key := strings.TrimSpace(v[1 : len(v)-1])
		return key, isIdent(key)
	}
	switch kind {
	case "Int":
		_, err := strconv.ParseInt(v, 10, 64)
		return v, err == nil
	case "Double":
		return v, isDecimal(v)
	case "String":
		return "'" + v + "'", !strings.ContainsAny(v, "'\n")
	}
	return "", false
}

// isIdent reports whether s is a script identifier.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '@' && i == 0
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// isDecimal reports whether s is a plain decimal number: -?digits(.digits)?(e±digits)?
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits := func() bool {
		n := 0
		for n < len(s) && '0' <= s[n] && s[n] <= '9' {
			n++
		}
		s = s[n:]
		return n > 0
	}
	if !digits() {
		return false
	}
	if strings.HasPrefix(s, ".") {
		s = s[1:]
		if !digits() {
			return false
		}
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		if !digits() {
			return false
		}
	}
	return s == ""
}
