package script

import (
	"fmt"
	"math"
	"strings"
)

// The compiled form of a script is code for a small register machine. A
// Go closure per syntax node would cost one or two indirect calls per
// operand; here an operand is a register or a variable read in place, and
// the whole script runs in one loop with one dispatch per operator.
//
// Registers are the Program's scratch values followed by its constants. An
// instruction's operands are refs: a ref >= 0 names a register, a ref < 0 the
// variable slot -1-ref, read with Var.Load when the instruction runs. Jumps
// go forward only, so a run does at most len(code) steps.

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
}

// get reads an operand.
func (p *Program) get(r ref) (Value, error) {
	if r >= 0 {
		return p.regs[r], nil
	}
	return p.load(r)
}

func (p *Program) load(r ref) (Value, error) {
	s := &p.vars[-1-r]
	v, err := s.v.Load()
	if err != nil {
		return Value{}, loadError(s, err)
	}
	return v, nil
}

func loadError(s *varSlot, err error) error {
	if !s.v.Exists() {
		return &evalError{pos: s.pos, msg: fmt.Sprintf("the entry %q does not exist", s.name), err: err}
	}
	return &evalError{pos: s.pos, msg: fmt.Sprintf("cannot read %q: %v", s.name, err), err: err}
}

// exec runs the code once and returns the result.
func (p *Program) exec() (Value, error) {
	code, regs := p.code, p.regs
	for pc := 0; pc < len(code); pc++ {
		in := &code[pc]
		switch in.op {
		case vmMove:
			v, err := p.get(in.a)
			if err != nil {
				return Value{}, err
			}
			regs[in.dst] = v
		case vmAdd, vmSub, vmMul:
			// The hottest instructions read variables without the extra
			// call of get, which the compiler cannot inline.
			var x, y Value
			var err error
			if in.a >= 0 {
				x = regs[in.a]
			} else if x, err = p.vars[-1-in.a].v.Load(); err != nil {
				return Value{}, loadError(&p.vars[-1-in.a], err)
			}
			if in.b >= 0 {
				y = regs[in.b]
			} else if y, err = p.vars[-1-in.b].v.Load(); err != nil {
				return Value{}, loadError(&p.vars[-1-in.b], err)
			}
			if !x.isNumber() || !y.isNumber() {
				if regs[in.dst], err = binary(in.sub, int(in.pos), x, y); err != nil {
					return Value{}, err
				}
				continue
			}
			a, b := x.Float(), y.Float()
			switch in.op {
			case vmAdd:
				setFloat(&regs[in.dst], a+b)
			case vmSub:
				setFloat(&regs[in.dst], a-b)
			default:
				setFloat(&regs[in.dst], a*b)
			}
		case vmDiv, vmBinary:
			x, err := p.get(in.a)
			if err != nil {
				return Value{}, err
			}
			y, err := p.get(in.b)
			if err != nil {
				return Value{}, err
			}
			if regs[in.dst], err = binary(in.sub, int(in.pos), x, y); err != nil {
				return Value{}, err
			}
		case vmUnary:
			x, err := p.get(in.a)
			if err != nil {
				return Value{}, err
			}
			if regs[in.dst], err = unary(in.sub, int(in.pos), x); err != nil {
				return Value{}, err
			}
		case vmCompare:
			var x, y Value
			var err error
			if in.a >= 0 {
				x = regs[in.a]
			} else if x, err = p.vars[-1-in.a].v.Load(); err != nil {
				return Value{}, loadError(&p.vars[-1-in.a], err)
			}
			if in.b >= 0 {
				y = regs[in.b]
			} else if y, err = p.vars[-1-in.b].v.Load(); err != nil {
				return Value{}, loadError(&p.vars[-1-in.b], err)
			}
			var ok bool
			switch {
			case x.kind == KindInt && y.kind == KindInt:
				ok = order(in.sub, cmpInt(int64(x.n), int64(y.n)))
			case x.kind == KindString && y.kind == KindString:
				if in.sub == opEq || in.sub == opNe {
					ok = (x.s == y.s) == (in.sub == opEq)
				} else {
					ok = order(in.sub, strings.Compare(x.s, y.s))
				}
			case x.isNumber() && y.isNumber():
				ok = cmpFloat(in.sub, x.Float(), y.Float())
			default:
				if ok, err = compare(p.env, in.sub, int(in.pos), x, y); err != nil {
					return Value{}, err
				}
			}
			setBool(&regs[in.dst], ok)
			if ok == in.when && in.jump >= 0 {
				pc = int(in.jump) - 1
			}
		case vmTest:
			x, err := p.get(in.a)
			if err != nil {
				return Value{}, err
			}
			ok, err := truth(in.sub, int(in.pos), "left", x)
			if err != nil {
				return Value{}, err
			}
			setBool(&regs[in.dst], ok)
			if ok == (in.sub == opOr) {
				pc = int(in.jump) - 1
			}
		case vmTruth:
			x, err := p.get(in.a)
			if err != nil {
				return Value{}, err
			}
			ok, err := truth(in.sub, int(in.pos), "right", x)
			if err != nil {
				return Value{}, err
			}
			setBool(&regs[in.dst], ok)
		case vmBranch:
			x, err := p.get(in.a)
			if err != nil {
				return Value{}, err
			}
			ok, err := condition(int(in.pos), x)
			if err != nil {
				return Value{}, err
			}
			if !ok {
				pc = int(in.jump) - 1
			}
		case vmJump:
			pc = int(in.jump) - 1
		case vmExists:
			if s := &p.vars[-1-in.a]; !s.v.Exists() {
				return Value{}, missing(in, s)
			}
		case vmDefine, vmStore:
			if in.check && !p.vars[-1-in.b].v.Exists() {
				return Value{}, missing(in, &p.vars[-1-in.b])
			}
			x, err := p.get(in.a)
			if err != nil {
				return Value{}, err
			}
			if x.kind == KindNil {
				return Value{}, notInitialised(int(in.pos), "right", in.sub)
			}
			if err := p.store(in, x); err != nil {
				return Value{}, err
			}
		case vmCompound:
			if err := p.compound(in); err != nil {
				return Value{}, err
			}
		}
	}
	if r := p.result; r >= 0 {
		return regs[r], nil
	}
	return p.load(p.result)
}

// setBool and setFloat overwrite a register. A scratch register rarely holds
// a string, so they clear the string only when there is one: a pointer write
// costs more than the test.
func setBool(r *Value, b bool) {
	if r.s != "" {
		r.s = ""
	}
	r.kind, r.n = KindBool, 0
	if b {
		r.n = 1
	}
}

func setFloat(r *Value, f float64) {
	if r.s != "" {
		r.s = ""
	}
	r.kind, r.n = KindFloat, math.Float64bits(f)
}

func missing(in *instr, s *varSlot) error {
	return errorf(int(in.pos), "the entry %q does not exist; use := to create it", s.name)
}

// store assigns x to the instruction's variable and, if the value of the
// assignment is used, puts what the variable holds afterwards in dst.
func (p *Program) store(in *instr, x Value) error {
	s := &p.vars[-1-in.b]
	if err := s.v.Assign(x); err != nil {
		return &evalError{pos: int(in.pos), msg: fmt.Sprintf("cannot assign %s to %q: %v", x.describe(), s.name, err), err: err}
	}
	if !in.keep {
		return nil
	}
	v, err := s.v.Load()
	if err != nil {
		return loadError(s, err)
	}
	p.regs[in.dst] = v
	return nil
}

func (p *Program) compound(in *instr) error {
	s := &p.vars[-1-in.b]
	// The entry must exist before the right side is read; when that is a
	// register, the failing Load below finds out at no extra cost.
	if in.check && in.a < 0 && !s.v.Exists() {
		return missing(in, s)
	}
	x, err := p.get(in.a)
	if err != nil {
		return err
	}
	if x.kind == KindNil {
		return notInitialised(int(in.pos), "right", in.sub)
	}
	cur, err := s.v.Load()
	if err != nil {
		if in.check && !s.v.Exists() {
			return missing(in, s)
		}
		return loadError(s, err)
	}
	if cur.kind == KindNil {
		return notInitialised(int(in.pos), "left", in.sub)
	}
	if cur.isNumber() && x.isNumber() && in.sub != opDivAssign {
		a, b := cur.Float(), x.Float()
		switch in.sub {
		case opAddAssign:
			x = Float(a + b)
		case opSubAssign:
			x = Float(a - b)
		default:
			x = Float(a * b)
		}
	} else if x, err = compound(in.sub, int(in.pos), s.name, cur, x); err != nil {
		return err
	}
	return p.store(in, x)
}
