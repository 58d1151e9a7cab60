package script

import (
	"fmt"
	"math"
)

// The compiled form of a script is code for a small register machine: one
// instruction per operator, whose operands are registers, constants or
// variables read in place.
//
// Registers are scratch values followed by constants. An instruction's
// operands are refs: a ref >= 0 names a register, a ref < 0 the variable
// slot -1-ref, read with Var.Load when the instruction runs. Jumps go
// forward only, so a run does at most len(code) steps.
//
// This code is what the compiler produces and the tests show. What runs is
// its lowered form (lower.go): a Go value per instruction with its
// operands resolved, and expression trees where the code computes a value
// that one reader uses.

// ref addresses an operand: a register (>= 0) or a variable (< 0).
type ref int32

func varRef(slot int) ref { return ref(-1 - slot) }

// noRef fills the operand fields an instruction does not use.
const noRef ref = math.MinInt32

type vmOp uint8

const (
	vmMove     vmOp = iota // dst <- a
	vmAdd                  // dst <- a + b
	vmSub                  // dst <- a - b
	vmMul                  // dst <- a * b
	vmDiv                  // dst <- a / b
	vmBinary               // dst <- a sub b: .. & | ^
	vmUnary                // dst <- sub a: - ! ~
	vmCompare              // dst <- a sub b; if it equals when and jump >= 0, go to jump
	vmTest                 // dst <- truth(a); if it decides sub (&& or ||), go to jump
	vmTruth                // dst <- truth(a), for the right operand of && ||
	vmBranch               // if a is false (as a ?: condition), go to jump
	vmJump                 // go to jump
	vmExists               // fail unless variable a exists
	vmDefine               // variable b := a; dst <- its new value (if keep)
	vmStore                // variable b = a; dst <- its new value (if keep)
	vmCompound             // variable b sub= a; dst <- its new value (if keep)
)

type instr struct {
	op   vmOp
	sub  opcode // the script operator, for semantics and messages
	dst  ref
	a, b ref
	jump int32 // target of a jump; -1: none
	pos  int32 // source offset, for errors
	// vmCompare jumps when its result equals when. vmDefine, vmStore and
	// vmCompound re-read the variable only when keep is set (the value is
	// used), and check that it exists when check is set.
	when, keep, check bool
	// A vmCompare == or != is negated when it stands for !(a != b) or
	// !(a == b): its errors name the operator as written.
	negated bool
}

// Run runs the program and returns the value of its last statement. A
// failure is a *RuntimeError; statements before it have had their effect.
func (p *Program) Run() (Value, error) {
	steps := p.steps
	for pc := 0; pc < len(steps); {
		var err error
		if pc, err = steps[pc].run(p); err != nil {
			return Value{}, p.runtimeError(err)
		}
	}
	var v Value
	var err error
	switch r := &p.res; {
	case p.resTest != nil:
		var ok bool
		ok, err = p.resTest.test(p)
		v = Bool(ok)
	case r.m == mEval:
		v, err = r.e.eval(p)
	case r.m == mScratch:
		return p.scr[r.i], nil
	case r.m == mConst:
		return *r.k, nil
	default:
		v, err = r.get(p)
	}
	if err != nil {
		return Value{}, p.runtimeError(err)
	}
	return v, nil
}

func (p *Program) loadError(i int32, err error) error {
	s := p.vars[i]
	s.v = p.handles[i]
	return loadError(&s, err)
}

func loadError(s *varSlot, err error) error {
	if !s.v.Exists() {
		return &evalError{pos: s.pos, msg: fmt.Sprintf("the entry %q does not exist", s.name), err: err}
	}
	return &evalError{pos: s.pos, msg: fmt.Sprintf("cannot read %q: %v", s.name, err), err: err}
}

func (p *Program) missing(in *instr, i int32) error {
	return errorf(int(in.pos), "the entry %q does not exist; use := to create it", p.vars[i].name)
}

// store assigns x to variable slot i and, if dst >= 0, puts what the
// variable holds afterwards in scratch register dst: the value of the
// assignment.
func (p *Program) store(in *instr, i int32, dst int, x Value) error {
	v := p.handles[i]
	if err := v.Assign(x); err != nil {
		return &evalError{pos: int(in.pos), msg: fmt.Sprintf("cannot assign %s to %q: %v", x.describe(), p.vars[i].name, err), err: err}
	}
	if dst < 0 {
		return nil
	}
	y, err := v.Load()
	if err != nil {
		return p.loadError(i, err)
	}
	p.scr[dst] = y
	return nil
}

// setBool overwrites a register. A scratch register rarely holds a string,
// so it clears the string only when there is one: a pointer write costs more
// than the test.
func setBool(r *Value, b bool) {
	if r.s != "" {
		r.s = ""
	}
	r.kind, r.n = KindBool, 0
	if b {
		r.n = 1
	}
}
