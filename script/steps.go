package script

import (
	"math"
	"strings"
)

// The steps and evaluators that lower.go builds. The methods that read two
// operands or do arithmetic in place are in steps_gen.go, written by
// gen_steps.go from templates.

//go:generate go run gen_steps.go

// stepBase is what every step knows: its instruction (for the operator
// and the position), its operands, its result's slot, and where to go on.
type stepBase struct {
	in         *instr
	x, y       operand
	dst        int // -1: no result, or it is fused into its reader
	next, jump int
}

// result stores the value of a step, or returns the error.
func (s *stepBase) result(p *Program, v Value, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	p.scr[s.dst] = v
	return s.next, nil
}

type (
	moveStep     struct{ stepBase }
	binaryStep   struct{ stepBase }
	unaryStep    struct{ stepBase }
	truthStep    struct{ stepBase }
	branchStep   struct{ stepBase }
	jumpStep     struct{ stepBase }
	existsStep   struct{ stepBase }
	storeStep    struct{ stepBase }
	compoundStep struct{ stepBase }
)

func (s *moveStep) eval(p *Program) (Value, error) {
	if s.x.m == mVar {
		v, err := p.handles[s.x.i].Load()
		if err != nil {
			return Value{}, p.loadError(s.x.i, err)
		}
		return v, nil
	}
	return s.x.get(p)
}

func (s *moveStep) run(p *Program) (int, error) {
	v, err := s.eval(p)
	return s.result(p, v, err)
}

func (s *unaryStep) eval(p *Program) (Value, error) {
	var a Value
	var err error
	if s.x.m == mVar {
		if a, err = p.handles[s.x.i].Load(); err != nil {
			return Value{}, p.loadError(s.x.i, err)
		}
	} else if a, err = s.x.get(p); err != nil {
		return Value{}, err
	}
	if s.in.sub == opNot && a.kind == KindBool {
		return Bool(a.n == 0), nil
	}
	return unary(s.in.sub, int(s.in.pos), a)
}

func (s *unaryStep) run(p *Program) (int, error) {
	v, err := s.eval(p)
	return s.result(p, v, err)
}

// truthStep does vmTest (the left operand of && ||, which may decide) and
// vmTruth (the right one).
func (s *truthStep) test(p *Program) (bool, error) {
	a, err := s.x.get(p)
	if err != nil {
		return false, err
	}
	side := "right"
	if s.in.op == vmTest {
		side = "left"
	}
	return truth(s.in.sub, int(s.in.pos), side, a)
}

func (s *truthStep) eval(p *Program) (Value, error) {
	ok, err := s.test(p)
	return Bool(ok), err
}

func (s *truthStep) run(p *Program) (int, error) {
	ok, err := s.test(p)
	if err != nil {
		return 0, err
	}
	setBool(&p.scr[s.dst], ok)
	if s.in.op == vmTest && ok == (s.in.sub == opOr) {
		return s.jump, nil
	}
	return s.next, nil
}

// choice evaluates c ? a : b (see unit).
type choice struct {
	cond      tester
	when      bool // the outcome of cond that selects els
	then, els evaler
}

func (c *choice) eval(p *Program) (Value, error) {
	ok, err := c.cond.test(p)
	if err != nil {
		return Value{}, err
	}
	if ok == c.when {
		return c.els.eval(p)
	}
	return c.then.eval(p)
}

// sequence runs steps that jump nowhere, then evaluates last.
type sequence struct {
	pre  []step
	last evaler
}

func (s *sequence) eval(p *Program) (Value, error) {
	for _, st := range s.pre {
		if _, err := st.run(p); err != nil {
			return Value{}, err
		}
	}
	return s.last.eval(p)
}

// logical evaluates a short-circuit construct (see unit). Its right side
// is a tester too when it can be, which saves a call.
type logical struct {
	left   tester
	when   bool
	right  evaler
	rightT tester
}

func (e *logical) eval(p *Program) (Value, error) {
	ok, err := e.left.test(p)
	if err != nil {
		return Value{}, err
	}
	if ok != e.when {
		if e.rightT == nil {
			return e.right.eval(p)
		}
		ok, err = e.rightT.test(p)
	}
	return Bool(ok), err
}

// test is eval for a logical whose right side is a tester (see buildUnit).
func (e *logical) test(p *Program) (bool, error) {
	ok, err := e.left.test(p)
	if err != nil || ok == e.when {
		return ok, err
	}
	return e.rightT.test(p)
}

func (s *branchStep) test(p *Program) (bool, error) {
	a, err := s.x.get(p)
	if err != nil {
		return false, err
	}
	return condition(int(s.in.pos), a)
}

func (s *branchStep) run(p *Program) (int, error) {
	ok, err := s.test(p)
	if err != nil {
		return 0, err
	}
	if !ok {
		return s.jump, nil
	}
	return s.next, nil
}

func (s jumpStep) run(*Program) (int, error) { return s.jump, nil }

func (s *existsStep) run(p *Program) (int, error) {
	if !p.handles[s.x.i].Exists() {
		return 0, p.missing(s.in, s.x.i)
	}
	return s.next, nil
}

func (s *storeStep) run(p *Program) (int, error) {
	if s.in.check && !p.handles[s.y.i].Exists() {
		return 0, p.missing(s.in, s.y.i)
	}
	a, err := s.x.get(p)
	if err != nil {
		return 0, err
	}
	if a.kind == KindNil {
		return 0, notInitialised(int(s.in.pos), "right", s.in.sub)
	}
	return s.next, p.store(s.in, s.y.i, s.dst, a)
}

func (s *binaryStep) run(p *Program) (int, error) {
	v, err := s.eval(p)
	return s.result(p, v, err)
}

// binaryVars is a binaryStep on two variables (a + b).
type binaryVars struct{ binaryStep }

func (s *binaryVars) run(p *Program) (int, error) {
	v, err := s.eval(p)
	return s.result(p, v, err)
}

// The outcomes of a comparison, as bits: a comparison step holds the mask
// of those that make it true. Numbers that are not ordered (NaN) give
// cmpNone, and so do numbers or strings that differ when only == and !=
// ask.
const (
	cmpLess uint8 = 1 << iota
	cmpEqual
	cmpGreater
	cmpNone
)

var cmpMasks = [...]uint8{
	opEq: cmpEqual,
	opNe: cmpLess | cmpGreater | cmpNone,
	opLt: cmpLess,
	opLe: cmpLess | cmpEqual,
	opGt: cmpGreater,
	opGe: cmpGreater | cmpEqual,
}

type compareBase struct {
	stepBase
	mask     uint8 // the outcomes that make it true
	when     bool  // go to jump when the result is this
	equality bool  // == or !=
}

// compare compares the long way, for the mixes the steps do not handle in
// place.
func (s *compareBase) compare(p *Program, a, b Value) (bool, error) {
	ok, err := compare(p.env, s.in.sub, int(s.in.pos), a, b)
	if err != nil && s.in.negated {
		// The same operands fail the same way with the operator as
		// written, whose name the error should have.
		_, err = compare(p.env, opEq+opNe-s.in.sub, int(s.in.pos), a, b)
	}
	return ok, err
}

// done stores the outcome of a comparison and says where to go.
func (s *compareBase) done(p *Program, ok bool) int {
	setBool(&p.scr[s.dst], ok)
	if ok == s.when {
		return s.jump
	}
	return s.next
}

// compareStep runs a comparison: Ints, strings and numbers in place, any
// other mix through compare.
type compareStep struct{ compareBase }

func (s *compareStep) eval(p *Program) (Value, error) {
	ok, err := s.test(p)
	return Bool(ok), err
}

// compareConst compares with a constant on the right, the common case
// (x < 3, s == 'idle'), which it has converted beforehand.
type compareConst struct {
	compareBase
	kind   Kind
	number bool
	i      int64
	f      float64
	s      string
}

func newCompareConst(c compareBase) *compareConst {
	k := *c.y.k
	return &compareConst{compareBase: c, kind: k.kind, number: k.isNumber(), i: int64(k.n), f: k.Float(), s: k.s}
}

func (s *compareConst) eval(p *Program) (Value, error) {
	ok, err := s.test(p)
	return Bool(ok), err
}

// compareVarConst is a compareConst of a variable (battery < 20).
type compareVarConst struct{ compareConst }

func (s *compareVarConst) eval(p *Program) (Value, error) {
	ok, err := s.test(p)
	return Bool(ok), err
}

func cmpInts(a, b int64) uint8 {
	c := cmpEqual
	if a < b {
		c = cmpLess
	}
	if a > b {
		c = cmpGreater
	}
	return c
}

// cmpFloats compares two numbers: with the epsilon tolerance for == and
// !=, exactly for the ordering operators.
func cmpFloats(a, b float64, equality bool) uint8 {
	if equality {
		if math.Abs(a-b) <= epsilon {
			return cmpEqual
		}
		return cmpNone
	}
	switch {
	case a < b:
		return cmpLess
	case a > b:
		return cmpGreater
	case a == b:
		return cmpEqual
	}
	return cmpNone
}

// cmpStrings compares two strings bytewise, or only for equality.
func cmpStrings(a, b string, equality bool) uint8 {
	if equality {
		if equalStrings(a, b) {
			return cmpEqual
		}
		return cmpNone
	}
	return cmpInts(int64(strings.Compare(a, b)), 0)
}

// equalStrings is a == b. Short strings, which most compared strings are
// (states, modes, names), are compared in place: cheaper than the call
// that == makes.
func equalStrings(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 8 {
		return a == b
	}
	b = b[:len(a)]
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
