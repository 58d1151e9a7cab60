package bt

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gobt/bt/blackboard"
)

// Switch returns a SwitchN node (N = len(cases), 2 to 6): it ticks the child whose
// case equals the variable, or the last child (the default) when none does. The
// variable and the cases are port texts: literals or "{key}".
//
// On every tick the variable is read and compared with case_1 … case_N in order. Two
// values are equal when their texts are equal, or both are integers (enum names
// count) and equal, or both are numbers within float epsilon. A text is a number only
// when the whole of it reads as one: "5" matches case "5.0", but "5 " and "5abc" do
// not match case "5".
//
//	variable not set or empty → the default child
//	a different child was running → halt it
//	selected child Running    → Running
//	selected child Skipped    → Skipped (the default child is not tried)
//	selected child completed  → reset the children; its status
//
// It needs N+1 children. XML (Switch3):
//
//	<Switch3 variable="{mode}" case_1="walk" case_2="run" case_3="fly">
//	    <Walk/>
//	    <Run/>
//	    <Fly/>
//	    <Stand/>
//	</Switch3>
func Switch(variable string, cases []string, children ...*Spec) *Spec {
	if len(cases) < 2 || len(cases) > 6 {
		s := switchModels[0].Spec(children...)
		s.fail(fmt.Errorf("a Switch has 2 to 6 cases, not %d", len(cases)))
		return s
	}
	s := switchModels[len(cases)-2].Spec(children...).With("variable", variable)
	for i, c := range cases {
		s.With("case_"+strconv.Itoa(i+1), c)
	}
	return s
}

// switchModels are Switch2 … Switch6.
var switchModels = [5]*Model{switchModel(2), switchModel(3), switchModel(4), switchModel(5), switchModel(6)}

func switchModel(cases int) *Model {
	ports := []PortDef{InputPort[string]("variable", "the value to compare with the cases")}
	for i := 1; i <= cases; i++ {
		ports = append(ports, InputPort[string]("case_"+strconv.Itoa(i), "the value that selects child "+strconv.Itoa(i)))
	}
	id := "Switch" + strconv.Itoa(cases)
	return &Model{
		ID: id, Kind: KindControl, Ports: ports,
		Description: "Ticks the child whose case equals the variable, else the last child.",
		build: func(c *NodeConfig) (ticker, error) {
			if c.NumChildren() != cases+1 {
				return nil, fmt.Errorf("%s needs %d children (%d cases and a default), found %d", id, cases+1, cases, c.NumChildren())
			}
			return newSwitch(c, cases)
		},
	}
}

type switchNode struct {
	variable In[string]
	cases    []switchCase
	running  int // the child left Running, or -1
	enums    func(string) (int64, bool)

	last   caseValue // the variable's text, parsed, as of write seq of its entry
	seq    uint64
	cached bool
}

// switchCase is a case port; a literal is parsed once.
type switchCase struct {
	port In[string]
	lit  caseValue
}

func newSwitch(c *NodeConfig, cases int) (*switchNode, error) {
	sw := &switchNode{cases: make([]switchCase, cases), running: -1, enums: c.node.Tree().cfg.enums}
	if err := sw.variable.bind(c, "variable"); err != nil {
		return nil, err
	}
	for i := range sw.cases {
		sc := &sw.cases[i]
		if err := sc.port.bind(c, "case_"+strconv.Itoa(i+1)); err != nil {
			return nil, err
		}
		if sc.port.entry == nil && sc.port.set {
			sc.lit = parseCase(sc.port.val, sw.enums)
		}
	}
	return sw, nil
}

func (sw *switchNode) tick(n *Node) Status {
	match := len(sw.cases) // the default child
	if v, ok := sw.value(); ok {
		for i := range sw.cases {
			if c, ok := sw.caseAt(i); ok && v.equal(c) {
				match = i
				break
			}
		}
	}
	if sw.running >= 0 && sw.running != match {
		n.Child(sw.running).Halt()
	}
	s := n.Child(match).Tick()
	switch s {
	case Skipped:
		sw.running = -1
	case Running:
		sw.running = match
	default:
		n.resetChildren(0)
		sw.running = -1
	}
	return s
}

func (sw *switchNode) Halt(*Node) { sw.running = -1 }

// value reads the variable without formatting numbers as text. A text value is parsed
// once per write of the entry, so an unchanged variable costs no parsing.
func (sw *switchNode) value() (caseValue, bool) {
	e := sw.variable.entry
	if e == nil {
		if !sw.variable.set {
			return caseValue{}, false
		}
		return parseCase(sw.variable.val, sw.enums), true
	}
	v, seq, _ := e.LoadStamped()
	switch v.Kind() {
	case blackboard.KindString:
		if !sw.cached || seq != sw.seq {
			sw.last, sw.seq, sw.cached = parseCase(v.Str(), sw.enums), seq, true
		}
		return sw.last, true
	case blackboard.KindInt:
		return caseValue{i: v.Int(), iok: true, f: float64(v.Int()), fok: true}, true
	case blackboard.KindFloat:
		return caseValue{f: v.Float(), fok: true}, true
	case blackboard.KindBool:
		b := int64(0)
		if v.Bool() {
			b = 1
		}
		return caseValue{text: strconv.FormatBool(v.Bool()), hasText: true, i: b, iok: true, f: float64(b), fok: true}, true
	}
	return caseValue{}, false
}

func (sw *switchNode) caseAt(i int) (caseValue, bool) {
	c := &sw.cases[i]
	if c.port.entry == nil {
		return c.lit, c.port.set
	}
	s, err := c.port.Get()
	if err != nil {
		return caseValue{}, false
	}
	return parseCase(s, sw.enums), true
}

// caseValue is a value as text, and as an integer and a real number when it parses as one.
type caseValue struct {
	text     string
	hasText  bool
	i        int64
	iok, fok bool
	f        float64
}

// parseCase reads a variable's text or a case. It is a number only when the whole
// text reads as one, as BehaviorTree.CPP's CheckStringEquality reads it with
// std::from_chars: no blanks around it, no '+' sign, no hex and no digit separators.
func parseCase(s string, enums func(string) (int64, bool)) caseValue {
	c := caseValue{text: s, hasText: true}
	t := s
	if enums != nil {
		if v, ok := enums(t); ok {
			c.i, c.iok = v, true
		}
	}
	if !mayBeNumber(t) {
		return c // a word: parsing it as a number would fail (and allocate the error)
	}
	if !c.iok {
		if v, err := strconv.ParseInt(t, 10, 64); err == nil {
			c.i, c.iok = v, true
		}
	}
	if v, err := strconv.ParseFloat(t, 64); err == nil {
		c.f, c.fok = v, true
	}
	return c
}

// floatEpsilon is the tolerance BehaviorTree.CPP uses to compare reals (float's epsilon).
const floatEpsilon = 1.1920928955078125e-07

func (a caseValue) equal(b caseValue) bool {
	return a.hasText && b.hasText && a.text == b.text ||
		a.iok && b.iok && a.i == b.i ||
		a.fok && b.fok && math.Abs(a.f-b.f) <= floatEpsilon
}

// mayBeNumber reports whether t may be a number as std::from_chars reads one: an
// optional '-', then digits or a '.', or inf, infinity or nan. strconv, which then
// reads it, also takes a '+' sign, hex and '_' between digits, which are refused here.
func mayBeNumber(t string) bool {
	if strings.HasPrefix(t, "-") {
		t = t[1:]
	}
	if t == "" {
		return false
	}
	switch c := t[0]; {
	case '0' <= c && c <= '9', c == '.':
		return !strings.ContainsAny(t, "xX_")
	}
	l := strings.ToLower(t)
	return l == "inf" || l == "infinity" || l == "nan"
}

// saveState saves the child left Running ("child"), if any. What the node caches of
// its variable is not state: it is read again after a restore.
func (sw *switchNode) saveState(_ *Node, w *stateWriter) { w.index("child", sw.running) }

func (sw *switchNode) restoreState(n *Node, r *stateReader) {
	running := r.index("child", n.NumChildren())
	if r.applying() {
		sw.running, sw.cached = running, false
	}
}
