package script

import (
	"math"
	"slices"
	"strings"
)

// Lowering turns the register code of vm.go into what Run executes: one Go
// value per instruction, a step, which knows where its operands are, holds
// its constants, runs the instruction and returns the index of the next
// step. The steps are built once per compiled script and shared by all its
// Programs; they hold nothing of an instance.
//
// Why not a switch over the instructions in one loop: Go keeps no register
// across a call, and reading a variable is a call (Var.Load). A loop whose
// body is one big switch reloads all its state after each such call and
// merges every case back into one register assignment, which costs more
// than the work. A small function per instruction has little state to save
// and decodes nothing.
//
// Two more things happen here. An instruction whose result only the next
// instruction reads (a + b in a + b > 3) is fused into it: the reader
// computes that operand itself, through the producer's eval method,
// instead of going through a register and one more dispatch. And the
// remaining scratch registers are packed: two registers that are never
// needed at the same time share a slot, so that a Program keeps few.

type step interface {
	run(p *Program) (next int, err error)
}

// An evaler is a step that can also hand its value to its only reader.
type evaler interface {
	eval(p *Program) (Value, error)
}

// mode tells a step where an operand is.
type mode uint8

const (
	mNone    mode = iota
	mScratch      // a scratch register of the Program
	mConst        // a constant, held by the step
	mVar          // a variable, read with Var.Load
	mEval         // the value of a fused instruction
)

// operand is an operand as a step sees it.
type operand struct {
	m mode
	i int    // mScratch: the register's slot; mVar: the variable's
	k Value  // mConst
	e evaler // mEval
}

// get reads an operand, for the less common instructions; the hot ones
// spell it out so that a variable is read with a single call.
func (o *operand) get(p *Program) (Value, error) {
	switch o.m {
	case mScratch:
		return p.scr[o.i], nil
	case mConst:
		return o.k, nil
	case mEval:
		return o.e.eval(p)
	}
	return p.load(o.i)
}

// lowering holds what lower learns about the code.
type lowering struct {
	t      *compiled
	reads  []int  // per scratch register: operands that read it (the result counts)
	writes []int  // per scratch register: instructions that write it
	target []bool // per instruction index, and the end: some jump goes there
	fused  []bool // the result of instruction i goes straight into i+1 (i == len-1: into the result)
	slot   []int  // per scratch register: its slot in Program.scr
}

// lower builds the steps of t and finds its result.
func lower(t *compiled) {
	n := len(t.code)
	l := &lowering{
		t:      t,
		reads:  make([]int, t.scratch),
		writes: make([]int, t.scratch),
		target: make([]bool, n+1),
		fused:  make([]bool, n),
	}
	for pc := range t.code {
		in := &t.code[pc]
		l.forReads(in, func(r ref) { l.reads[r]++ })
		if writes(in) {
			l.writes[in.dst]++
		}
		if jumps(in) {
			l.target[in.jump] = true
		}
	}
	if l.isScratch(t.result) {
		l.reads[t.result]++
	}
	for pc := range t.code {
		l.fused[pc] = l.fusable(pc)
	}
	l.slot, t.nregs = l.pack()

	t.steps = make([]step, n)
	for pc := 0; pc < n; pc++ {
		if l.fused[pc] && pc < n-1 {
			continue // built into the step of pc+1
		}
		head := pc
		for head > 0 && l.fused[head-1] {
			head--
		}
		if l.fused[pc] {
			// The last instructions compute the result: Run evaluates
			// them after the steps.
			t.res = operand{m: mEval, e: l.build(pc).(evaler)}
			t.steps = t.steps[:head]
			return
		}
		s := l.build(pc)
		for i := head; i <= pc; i++ {
			t.steps[i] = s // only steps[head] runs: no jump lands inside a chain
		}
	}
	t.res = l.operand(t.result, n)
}

func (l *lowering) isScratch(r ref) bool { return r >= 0 && int(r) < l.t.scratch }

// forReads calls f for each scratch register the instruction reads.
func (l *lowering) forReads(in *instr, f func(ref)) {
	if in.op != vmJump && in.op != vmExists && l.isScratch(in.a) {
		f(in.a)
	}
	switch in.op {
	case vmAdd, vmSub, vmMul, vmDiv, vmBinary, vmCompare:
		if l.isScratch(in.b) {
			f(in.b)
		}
	}
}

// writes reports whether the instruction writes its dst register.
func writes(in *instr) bool {
	switch in.op {
	case vmBranch, vmJump, vmExists:
		return false
	case vmDefine, vmStore, vmCompound:
		return in.keep
	}
	return true
}

// jumps reports whether the instruction may jump.
func jumps(in *instr) bool {
	switch in.op {
	case vmCompare:
		return in.jump >= 0
	case vmTest, vmBranch, vmJump:
		return true
	}
	return false
}

// fusable reports whether instruction pc can hand its result straight to
// the next one (or, the last one, to the result of the script): it computes
// a value and has no other effect, its register has no other writer and no
// other reader, and no jump lands between the two. The reader then
// evaluates it where it would have read the register, which is right
// after pc in every run.
func (l *lowering) fusable(pc int) bool {
	in := &l.t.code[pc]
	switch in.op {
	case vmAdd, vmSub, vmMul, vmDiv, vmBinary, vmUnary, vmMove:
	default:
		return false
	}
	r := in.dst
	if l.writes[r] != 1 || l.reads[r] != 1 || l.target[pc+1] {
		return false
	}
	if pc == len(l.t.code)-1 {
		return l.t.result == r
	}
	next := &l.t.code[pc+1]
	if (next.op == vmDefine || next.op == vmStore) && next.check {
		return false // it checks the variable before reading the operand
	}
	reads := false
	l.forReads(next, func(q ref) { reads = reads || q == r })
	return reads
}

// pack maps the scratch registers that remain to slots so that registers
// whose lives do not overlap share one, and returns the number of slots.
// A register lives from its first write to its last read. Jumps go
// forward only, so no run can read a register outside that range of
// instructions; and an instruction reads its operands before it writes, so
// a register may take the slot of one read last by the same instruction.
func (l *lowering) pack() ([]int, int) {
	t := l.t
	first := make([]int, t.scratch)
	last := make([]int, t.scratch)
	for r := range first {
		first[r], last[r] = math.MaxInt, -1
	}
	// A fused instruction writes no register, and reads its operands when
	// the end of its chain runs.
	at := len(t.code)
	for pc := len(t.code) - 1; pc >= 0; pc-- {
		in := &t.code[pc]
		if !l.fused[pc] {
			at = pc
			if writes(in) {
				first[in.dst] = min(first[in.dst], pc)
				last[in.dst] = max(last[in.dst], pc)
			}
		}
		l.forReads(in, func(r ref) { last[r] = max(last[r], at) })
	}
	if n := len(t.code); l.isScratch(t.result) && (n == 0 || !l.fused[n-1]) {
		last[t.result] = n
	}
	var order []int
	for r := range first {
		if last[r] >= 0 {
			first[r] = min(first[r], last[r])
			order = append(order, r)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return first[a] - first[b] })
	slot := make([]int, t.scratch)
	var free, busy []int // free slots; registers holding one
	n := 0
	for _, r := range order {
		busy = slices.DeleteFunc(busy, func(q int) bool {
			if last[q] <= first[r] {
				free = append(free, slot[q])
				return true
			}
			return false
		})
		if k := len(free); k > 0 {
			slot[r], free = free[k-1], free[:k-1]
		} else {
			slot[r] = n
			n++
		}
		busy = append(busy, r)
	}
	return slot, n
}

// operand returns operand r of the instruction at pc.
func (l *lowering) operand(r ref, pc int) operand {
	switch {
	case r == noRef:
		return operand{}
	case r < 0:
		return operand{m: mVar, i: int(-1 - r)}
	case l.isScratch(r):
		if pc > 0 && l.fused[pc-1] && l.t.code[pc-1].dst == r {
			return operand{m: mEval, e: l.build(pc - 1).(evaler)}
		}
		return operand{m: mScratch, i: l.slot[r]}
	}
	return operand{m: mConst, k: l.t.regs[r]}
}

// build makes the step of the instruction at pc, and of those fused into it.
func (l *lowering) build(pc int) step {
	in := &l.t.code[pc]
	b := stepBase{in: in, x: l.operand(in.a, pc), dst: -1, next: pc + 1, jump: int(in.jump)}
	switch in.op {
	case vmAdd, vmSub, vmMul, vmDiv, vmBinary, vmCompare:
		b.y = l.operand(in.b, pc)
	case vmDefine, vmStore, vmCompound:
		b.y = operand{m: mVar, i: int(-1 - in.b)}
	}
	if writes(in) && !l.fused[pc] {
		b.dst = l.slot[in.dst]
	}
	switch in.op {
	case vmCompare:
		if in.jump < 0 {
			b.jump = b.next
		}
		c := compareBase{stepBase: b, mask: cmpMasks[in.sub], when: in.when, equality: in.sub == opEq || in.sub == opNe}
		if b.y.m == mConst && b.x.m != mConst {
			return newCompareConst(c)
		}
		return &compareStep{c}
	case vmAdd, vmSub, vmMul, vmDiv:
		return &arithStep{b}
	case vmMove:
		return &moveStep{b}
	case vmBinary:
		return &binaryStep{b}
	case vmUnary:
		return &unaryStep{b}
	case vmTest, vmTruth:
		return &truthStep{b}
	case vmBranch:
		return &branchStep{b}
	case vmJump:
		return jumpStep{b}
	case vmExists:
		return &existsStep{b}
	case vmDefine, vmStore:
		return &storeStep{b}
	case vmCompound:
		return &compoundStep{b}
	}
	panic("script: unknown instruction")
}

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
	arithStep    struct{ stepBase }
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

func (s *moveStep) eval(p *Program) (Value, error) { return s.x.get(p) }

func (s *moveStep) run(p *Program) (int, error) {
	v, err := s.x.get(p)
	return s.result(p, v, err)
}

func (s *binaryStep) eval(p *Program) (Value, error) {
	a, err := s.x.get(p)
	if err != nil {
		return Value{}, err
	}
	b, err := s.y.get(p)
	if err != nil {
		return Value{}, err
	}
	return binary(s.in.sub, int(s.in.pos), a, b)
}

func (s *binaryStep) run(p *Program) (int, error) {
	v, err := s.eval(p)
	return s.result(p, v, err)
}

func (s *unaryStep) eval(p *Program) (Value, error) {
	a, err := s.x.get(p)
	if err != nil {
		return Value{}, err
	}
	return unary(s.in.sub, int(s.in.pos), a)
}

func (s *unaryStep) run(p *Program) (int, error) {
	v, err := s.eval(p)
	return s.result(p, v, err)
}

// run does vmTest (the left operand of && ||, which may decide) and
// vmTruth (the right one).
func (s *truthStep) run(p *Program) (int, error) {
	a, err := s.x.get(p)
	if err != nil {
		return 0, err
	}
	test := s.in.op == vmTest
	side := "right"
	if test {
		side = "left"
	}
	ok, err := truth(s.in.sub, int(s.in.pos), side, a)
	if err != nil {
		return 0, err
	}
	setBool(&p.scr[s.dst], ok)
	if test && ok == (s.in.sub == opOr) {
		return s.jump, nil
	}
	return s.next, nil
}

func (s *branchStep) run(p *Program) (int, error) {
	a, err := s.x.get(p)
	if err != nil {
		return 0, err
	}
	ok, err := condition(int(s.in.pos), a)
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

func (s *compoundStep) run(p *Program) (int, error) {
	return s.next, p.compound(s.in, s.y.i, s.dst, &s.x)
}

// eval does + - * / with the arithmetic on numbers in place.
func (s *arithStep) eval(p *Program) (Value, error) {
	var a, b Value
	var err error
	switch s.x.m {
	case mScratch:
		a = p.scr[s.x.i]
	case mConst:
		a = s.x.k
	case mVar:
		if a, err = p.handles[s.x.i].Load(); err != nil {
			return Value{}, p.loadError(s.x.i, err)
		}
	default:
		if a, err = s.x.e.eval(p); err != nil {
			return Value{}, err
		}
	}
	switch s.y.m {
	case mScratch:
		b = p.scr[s.y.i]
	case mConst:
		b = s.y.k
	case mVar:
		if b, err = p.handles[s.y.i].Load(); err != nil {
			return Value{}, p.loadError(s.y.i, err)
		}
	default:
		if b, err = s.y.e.eval(p); err != nil {
			return Value{}, err
		}
	}
	if !a.isNumber() || !b.isNumber() {
		return binary(s.in.sub, int(s.in.pos), a, b)
	}
	fa, fb := a.Float(), b.Float()
	var r float64
	switch s.in.op {
	case vmAdd:
		r = fa + fb
	case vmSub:
		r = fa - fb
	case vmMul:
		r = fa * fb
	default:
		if fb == 0 { // an error
			return binary(s.in.sub, int(s.in.pos), a, b)
		}
		r = fa / fb
	}
	return Float(r), nil
}

func (s *arithStep) run(p *Program) (int, error) {
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

func (s *compareStep) run(p *Program) (int, error) {
	var a, b Value
	var err error
	switch s.x.m {
	case mScratch:
		a = p.scr[s.x.i]
	case mConst:
		a = s.x.k
	case mVar:
		if a, err = p.handles[s.x.i].Load(); err != nil {
			return 0, p.loadError(s.x.i, err)
		}
	default:
		if a, err = s.x.e.eval(p); err != nil {
			return 0, err
		}
	}
	switch s.y.m {
	case mScratch:
		b = p.scr[s.y.i]
	case mConst:
		b = s.y.k
	case mVar:
		if b, err = p.handles[s.y.i].Load(); err != nil {
			return 0, p.loadError(s.y.i, err)
		}
	default:
		if b, err = s.y.e.eval(p); err != nil {
			return 0, err
		}
	}
	var ok bool
	switch {
	case a.kind == KindInt && b.kind == KindInt:
		ok = s.mask&cmpInts(int64(a.n), int64(b.n)) != 0
	case a.kind == KindString && b.kind == KindString:
		ok = s.mask&cmpStrings(a.s, b.s, s.equality) != 0
	case a.isNumber() && b.isNumber():
		ok = s.mask&cmpFloats(a.Float(), b.Float(), s.equality) != 0
	default:
		if ok, err = compare(p.env, s.in.sub, int(s.in.pos), a, b); err != nil {
			return 0, err
		}
	}
	return s.done(p, ok), nil
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
	k := c.y.k
	return &compareConst{compareBase: c, kind: k.kind, number: k.isNumber(), i: int64(k.n), f: k.Float(), s: k.s}
}

func (s *compareConst) run(p *Program) (int, error) {
	var a Value
	var err error
	switch s.x.m {
	case mScratch:
		a = p.scr[s.x.i]
	case mVar:
		if a, err = p.handles[s.x.i].Load(); err != nil {
			return 0, p.loadError(s.x.i, err)
		}
	default:
		if a, err = s.x.e.eval(p); err != nil {
			return 0, err
		}
	}
	var ok bool
	switch {
	case a.kind == KindInt && s.kind == KindInt:
		ok = s.mask&cmpInts(int64(a.n), s.i) != 0
	case a.kind == KindString && s.kind == KindString:
		if s.equality {
			ok = (s.mask == cmpEqual) == equalStrings(a.s, s.s)
		} else {
			ok = s.mask&cmpStrings(a.s, s.s, false) != 0
		}
	case a.isNumber() && s.number:
		ok = s.mask&cmpFloats(a.Float(), s.f, s.equality) != 0
	default:
		if ok, err = compare(p.env, s.in.sub, int(s.in.pos), a, s.y.k); err != nil {
			return 0, err
		}
	}
	return s.done(p, ok), nil
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
