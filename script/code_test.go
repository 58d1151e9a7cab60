package script

import (
	"fmt"
	"strings"
	"testing"
)

// codeCases are compiled into testdata/code.golden, which shows the code
// the compiler emits: constant folding, fused jumps, operand order.
var codeCases = []string{
	"a + b > 3 && s == 'ab'",
	"n += 1",
	"n = 1",
	"n = a",
	"n += a * 2",
	"n := a; n += b; n * 2 >= 14",
	"(2 + 3) * 4 > 10 && 'a' < 'b'",
	"-1",
	"1 / 0",
	"RED + 1",
	"0 <= a < b <= 10",
	"a < b < (b := 9)",
	"a > b ? a : b",
	"a < b < 3 ? 'y' : 'n'",
	"t ? 1 : 2",
	"true ? a : b",
	"(a | b) & 7 ^ 1",
	"!(a == b) || s != 'y'",
	"!(a < b)",
	"a < b || a == 2 && s == 'x'",
	"t && a",
	"true && a < b",
	"false && a",
	"a + (a := 10)",
	"a + -b",
	"a .. 'x'",
	"x := y := 1",
	"a; b",
	"a + (t ? b : -b)",
	"n = t ? a : -a",
	"a .. (t && b < 1)",
	"a < b < 3 .. (s == 'x' || t)",
}

func TestCodeGolden(t *testing.T) {
	var b strings.Builder
	for _, src := range codeCases {
		s, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		p, err := s.Compile(fuzzEnv())
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		b.WriteString("== " + src + "\n" + p.disassemble() + "\n")
		checkReference(t, src, fuzzEnv)
	}
	golden(t, "code.golden", b.String())
}

func (p *Program) isConstReg(r ref) bool { return int(r) >= p.scratch }

var vmNames = [...]string{
	vmMove: "move", vmAdd: "add", vmSub: "sub", vmMul: "mul", vmDiv: "div",
	vmBinary: "binary", vmUnary: "unary", vmCompare: "compare", vmTest: "test",
	vmTruth: "truth", vmBranch: "branch", vmJump: "jump", vmExists: "exists",
	vmDefine: "define", vmStore: "store", vmCompound: "compound",
}

// disassemble lists the code, one instruction a line, for tests and
// debugging: registers are r0, r1, ..., constants show their value and
// variables their name.
func (p *Program) disassemble() string {
	var b strings.Builder
	operand := func(r ref) string {
		switch {
		case r == noRef:
			return ""
		case r < 0:
			return p.vars[-1-r].name
		case int(r) < len(p.regs) && p.isConstReg(r):
			return p.regs[r].GoString()[len("script."):]
		}
		return fmt.Sprintf("r%d", r)
	}
	for i, in := range p.code {
		fmt.Fprintf(&b, "%2d %-8s", i, vmNames[in.op])
		switch in.op {
		case vmJump:
		case vmExists:
			b.WriteString(" " + operand(in.a))
		default:
			if in.op != vmBranch {
				fmt.Fprintf(&b, " r%d <-", in.dst)
			}
			if in.op == vmUnary || in.op == vmTest || in.op == vmTruth {
				b.WriteString(" " + in.sub.String())
			}
			b.WriteString(" " + operand(in.a))
			if in.b != noRef {
				if in.op == vmDefine || in.op == vmStore || in.op == vmCompound {
					fmt.Fprintf(&b, " into %s with %s", operand(in.b), in.sub)
				} else if in.op != vmUnary && in.op != vmTest && in.op != vmTruth {
					fmt.Fprintf(&b, " %s %s", in.sub, operand(in.b))
				}
			}
		}
		switch {
		case in.op == vmCompare && in.jump >= 0:
			fmt.Fprintf(&b, "; if %v goto %d", in.when, in.jump)
		case in.op == vmTest:
			fmt.Fprintf(&b, "; if %v goto %d", in.sub == opOr, in.jump)
		case in.op == vmBranch:
			fmt.Fprintf(&b, "; if false goto %d", in.jump)
		case in.op == vmJump:
			fmt.Fprintf(&b, " %d", in.jump)
		}
		if isAssignment(in.op) {
			if in.check {
				b.WriteString("; check exists")
			}
			if !in.keep {
				b.WriteString("; discard")
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "   result %s\n", operand(p.result))
	return b.String()
}
