package script

import (
	"math"
	"slices"
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
// Most of the code of a condition is better still as an expression that
// returns its value: lowering fuses an instruction whose result only the
// next one reads (a + b in a + b > 3) into that reader, which computes the
// operand itself through the producer's eval method; and it recognises the
// short-circuit constructs the compiler emits for && || and comparison
// chains (a guard that writes a register and jumps over code that writes it
// too) and evaluates each as one expression. So a + b > 3 && c == 'x'
// runs as one call tree, with no dispatch and no register. The scratch
// registers that remain are packed: two registers that are never needed at
// the same time share a slot, so that a Program keeps few.

type step interface {
	run(p *Program) (next int, err error)
}

// An evaler computes a value that one reader uses straight away.
type evaler interface {
	eval(p *Program) (Value, error)
}

// A tester is the guard of a short-circuit construct.
type tester interface {
	test(p *Program) (bool, error)
}

// mode tells a step where an operand is.
type mode uint8

const (
	mNone    mode = iota
	mScratch      // a scratch register of the Program
	mConst        // a constant, held by the step
	mVar          // a variable, read with Var.Load
	mEval         // the value of fused code
)

// operand is an operand as a step sees it.
type operand struct {
	m mode
	i int32  // mScratch: the register's slot; mVar: the variable's
	k *Value // mConst: in the register image, shared
	e evaler // mEval
}

// get reads an operand, for the less common instructions; the hot ones
// spell it out so that a variable is read with a single call.
func (o *operand) get(p *Program) (Value, error) {
	switch o.m {
	case mVar:
		v, err := p.handles[o.i].Load()
		if err != nil {
			return Value{}, p.loadError(o.i, err)
		}
		return v, nil
	case mScratch:
		return p.scr[o.i], nil
	case mConst:
		return *o.k, nil
	}
	return o.e.eval(p)
}

// A unit is a construct with jumps that lowering evaluates as one
// expression. A short-circuit unit (a && b, a || b, a link of a comparison
// chain): the guard at index guard writes dst and, when its outcome is
// when, jumps to end; otherwise the code after it, right, leaves its value
// in dst. A choice (c ? a : b): the guard jumps to the else branch els
// when its outcome is when; otherwise the then branch, right, runs and
// jumps to end. Either way the unit covers the instructions from head to
// end.
type unit struct {
	choice           bool
	guard, end, head int
	dst              ref
	when             bool
	right, els       region
	nest             int // how deep its evaluation nests
}

// maxNest bounds how deep the evaluation of a step nests: fused code and
// units are evaluated by calls within calls. A script nests at most
// maxDepth levels, but a chain (a + b + c …, a && b && c …) may be as long
// as the script; past maxNest, lowering stores a value in a register
// rather than fusing it, or runs a unit as steps.
const maxNest = 64

// A region is code that leaves a value in a register: a few steps that
// run first (each given by its last instruction), then a unit or an
// instruction with what is fused into it.
type region struct {
	pre []int
	u   *unit
	at  int
}

// lowering holds what lower learns about the code.
type lowering struct {
	t      *compiled
	n      int
	reads  []int // per scratch register: operands that read it (the result counts)
	writes []int // per scratch register: instructions that write it
	// per scratch register: the first and the last instruction that write it
	firstWrite, lastWrite []int
	from                  [][]int // per index (and the end): the instructions that jump there
	fused                 []bool  // the value of instruction i goes straight into i+1
	units                 []*unit // per guard index, once looked at
	looked                []bool
	heads                 []int   // head of each instruction (see head), -1 until known
	nest                  []int   // per index (and the end): how deep its evaluation nests (see maxNest)
	into                  []*unit // per index (and the end): the unit evaluated as its operand
	intoOK                []bool  // into[i] has been looked for
	at                    []int   // where each instruction is evaluated: its own index, that of the step it is fused into, or the end
	gone                  []bool  // per scratch register: its value is fused, never stored
	stored                []bool  // per instruction: it runs as a step inside a unit, storing its result
	slot                  []int   // per scratch register: its slot in Program.scr
}

// lower builds the steps of t and finds its result.
func lower(t *compiled) {
	n, regs := len(t.code), t.scratch
	// The tables come from three arrays: lowering runs once per script,
	// but for every script of a tree definition.
	ints := make([]int, 5*regs+3*n+2)
	bools := make([]bool, 4*n+1+regs)
	units := make([]*unit, 2*n+1)
	cut := func(k int) []int { s := ints[:k:k]; ints = ints[k:]; return s }
	cutb := func(k int) []bool { s := bools[:k:k]; bools = bools[k:]; return s }
	l := &lowering{
		t: t, n: n,
		reads: cut(regs), writes: cut(regs), slot: cut(regs), heads: cut(n + 1), at: cut(n), nest: cut(n + 1),
		firstWrite: cut(regs), lastWrite: cut(regs),
		fused: cutb(n), looked: cutb(n), intoOK: cutb(n + 1), stored: cutb(n), gone: cutb(regs),
		units: units[:n], into: units[n:],
		from: make([][]int, n+1),
	}
	var sources []int // backs the lists of from, in the order of the code
	for pc := range t.code {
		if in := &t.code[pc]; jumps(in) {
			sources = append(sources, pc)
		}
	}
	// Group the sources by target, keeping the order of the code: the
	// lists are short, so a stable sort by target does it.
	slices.SortStableFunc(sources, func(a, b int) int { return int(t.code[a].jump) - int(t.code[b].jump) })
	for i := 0; i < len(sources); {
		j := t.code[sources[i]].jump
		k := i + 1
		for k < len(sources) && t.code[sources[k]].jump == j {
			k++
		}
		l.from[j] = sources[i:k:k]
		i = k
	}
	for r := range regs {
		l.firstWrite[r] = n
	}
	for pc := range t.code {
		in := &t.code[pc]
		l.forReads(pc, func(r ref) { l.reads[r]++ })
		if writes(in) {
			l.writes[in.dst]++
			l.firstWrite[in.dst] = min(l.firstWrite[in.dst], pc)
			l.lastWrite[in.dst] = pc
		}
		l.heads[pc] = -1
	}
	l.heads[n] = -1
	l.forReads(n, func(r ref) { l.reads[r]++ })
	for pc := range t.code {
		l.fused[pc] = l.fusable(pc)
	}
	// Find the heads in the order of the code, so that each finds what it
	// builds on already known (a long chain costs no deep recursion), and
	// bound how deep the evaluation of a step nests.
	for pc := 0; pc <= n; pc++ {
		if pc > 0 && l.fused[pc-1] && l.nest[pc-1] >= maxNest {
			l.fused[pc-1] = false // its value goes through a register instead
		}
		l.head(pc)
		l.nest[pc] = 1
		if pc > 0 && l.fused[pc-1] {
			l.nest[pc] = l.nest[pc-1] + 1
		} else if u := l.unitInto(pc); u != nil {
			l.nest[pc] = u.nest + 1
		}
	}

	// Where each instruction runs: the end of the code evaluates the
	// result, and each step the instructions fused into it.
	end := l.head(n)
	for pc := end; pc < n; pc++ {
		l.at[pc] = n
	}
	for pc := end - 1; pc >= 0; pc = l.head(pc) - 1 {
		for i := l.head(pc); i <= pc; i++ {
			l.at[i] = pc
		}
	}
	for pc := range t.code {
		if in := &t.code[pc]; l.at[pc] != pc && !l.stored[pc] && writes(in) {
			l.gone[in.dst] = true
		}
	}
	t.nregs = l.pack()

	t.steps = make([]step, end)
	for pc := end - 1; pc >= 0; pc = l.head(pc) - 1 {
		s := l.build(pc)
		for i := l.head(pc); i <= pc; i++ {
			t.steps[i] = s // only steps[head] runs: no jump lands inside
		}
	}
	t.res = l.operand(t.result, n)
	if t.res.m == mEval {
		t.resTest = asTester(t.res.e)
	}
}

func (l *lowering) isScratch(r ref) bool { return r >= 0 && int(r) < l.t.scratch }

// forReads calls f for each scratch register the instruction at pc reads;
// at the end, the result.
func (l *lowering) forReads(pc int, f func(ref)) {
	if pc == l.n {
		if l.isScratch(l.t.result) {
			f(l.t.result)
		}
		return
	}
	in := &l.t.code[pc]
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

// isValue reports whether the instruction only computes a value: it may
// become an evaler. A comparison qualifies if it jumps nowhere but to
// next, where it goes anyway.
func isValue(in *instr, next int) bool {
	switch in.op {
	case vmAdd, vmSub, vmMul, vmDiv, vmBinary, vmUnary, vmMove, vmTruth:
		return true
	case vmCompare:
		return in.jump < 0 || int(in.jump) == next
	}
	return false
}

// reads reports whether the instruction (or the result) at pc reads r.
func (l *lowering) readsReg(pc int, r ref) bool {
	found := false
	l.forReads(pc, func(q ref) { found = found || q == r })
	return found
}

// fusable reports whether instruction pc can hand its value straight to
// the next one (or, the last one, to the result): it only computes a value,
// its register has no other writer and no other reader, and no jump lands
// on the reader. The reader then evaluates it where it would have read the
// register, which is right after pc in every run.
func (l *lowering) fusable(pc int) bool {
	in := &l.t.code[pc]
	if !isValue(in, -1) || in.op == vmTruth {
		return false
	}
	r := in.dst
	if l.writes[r] != 1 || l.reads[r] != 1 || len(l.from[pc+1]) > 0 {
		return false
	}
	if pc+1 < l.n {
		if next := &l.t.code[pc+1]; (next.op == vmDefine || next.op == vmStore) && next.check {
			return false // it checks the variable before reading the operand
		}
	}
	return l.readsReg(pc+1, r)
}

// head returns the first instruction of the code evaluated with the
// instruction at pc (at the end: with the result): pc itself, or the head
// of what is fused into it.
func (l *lowering) head(pc int) int {
	if h := l.heads[pc]; h >= 0 {
		return h
	}
	h := pc
	if pc > 0 && l.fused[pc-1] {
		h = l.head(pc - 1)
	} else if u := l.unitInto(pc); u != nil {
		h = u.head
	}
	l.heads[pc] = h
	return h
}

// unitInto returns the unit that ends at pc and whose value only the
// instruction (or the result) at pc reads, if any: that instruction
// evaluates it in place.
func (l *lowering) unitInto(pc int) *unit {
	if l.intoOK[pc] {
		return l.into[pc]
	}
	l.intoOK[pc] = true
	u := l.unitEnding(pc, 0, func(r ref) bool { return l.reads[r] == 1 && l.readsReg(pc, r) })
	if u == nil {
		return nil
	}
	// Every other way to pc, and every write of its register, must be
	// inside.
	for _, f := range l.from[pc] {
		if f < u.head {
			return nil
		}
	}
	if r := u.dst; l.firstWrite[r] < u.head || l.lastWrite[r] >= pc {
		return nil
	}
	l.into[pc] = u
	return u
}

// unitEnding returns the outermost unit that ends at e, starts at s or
// later and leaves its value in a register accepted by dst.
func (l *lowering) unitEnding(e, s int, dst func(ref) bool) *unit {
	for _, f := range l.from[e] { // in order: the first is the outermost
		if f < s {
			continue
		}
		g := f
		if l.t.code[f].op == vmJump {
			// The end of the then branch of a choice: its guard jumps
			// to the else branch, right after.
			if len(l.from[f+1]) == 0 {
				continue
			}
			g = l.from[f+1][0]
		}
		if u := l.unitAt(g); u != nil && u.end == e && u.head >= s && l.isScratch(u.dst) && dst(u.dst) {
			return u
		}
	}
	return nil
}

// unitAt returns the unit whose guard is at g, if the instruction at g
// guards one.
func (l *lowering) unitAt(g int) *unit {
	if l.looked[g] {
		return l.units[g]
	}
	l.looked[g] = true
	in := &l.t.code[g]
	e := int(in.jump)
	var u *unit
	switch {
	case in.op != vmCompare && in.op != vmTest && in.op != vmBranch || e <= g+1:
		return nil
	case l.t.code[e-1].op == vmJump && (in.op == vmBranch || in.op == vmCompare && !in.when):
		// c ? a : b
		end := int(l.t.code[e-1].jump)
		if e-1 <= g+1 || end <= e {
			return nil
		}
		u = &unit{choice: true, guard: g, end: end, dst: l.t.code[e-2].dst}
		var ok bool
		if u.right, ok = l.region(g+1, e-1, u.dst); !ok {
			return nil
		}
		if u.els, ok = l.region(e, end, u.dst); !ok {
			return nil
		}
	case in.op == vmBranch:
		return nil
	default:
		// a && b, a || b
		u = &unit{guard: g, end: e, dst: in.dst, when: in.when}
		if in.op == vmTest {
			u.when = in.sub == opOr
		}
		var ok bool
		if u.right, ok = l.region(g+1, e, u.dst); !ok {
			return nil
		}
	}
	u.head = l.head(g)
	u.nest = 1 + max(l.nest[g], l.regionNest(u.right))
	if u.choice {
		u.nest = max(u.nest, 1+l.regionNest(u.els))
	}
	if u.nest > maxNest {
		return nil
	}
	// No way into it but through its head, and no way out but its end.
	for i := u.head; i < u.end; i++ {
		if i > u.head && slices.ContainsFunc(l.from[i], func(f int) bool { return f < u.head }) {
			return nil
		}
		if in := &l.t.code[i]; jumps(in) && int(in.jump) > u.end {
			return nil
		}
	}
	l.units[g] = u
	return u
}

// region finds how the code from s to e computes register d: a unit or an
// instruction at its end, and before it plain steps (which jump nowhere).
func (l *lowering) region(s, e int, d ref) (region, bool) {
	var r region
	k := e
	if r.u = l.unitEnding(e, s, func(q ref) bool { return q == d }); r.u != nil {
		k = r.u.head
	} else if last := &l.t.code[e-1]; isValue(last, e) && last.dst == d {
		r.at, k = e-1, l.head(e-1)
	} else {
		return r, false
	}
	for pc := k - 1; pc >= s; pc = l.head(pc) - 1 {
		if jumps(&l.t.code[pc]) || l.head(pc) < s {
			return r, false
		}
		r.pre = append(r.pre, pc)
	}
	slices.Reverse(r.pre)
	for _, pc := range r.pre {
		l.stored[pc] = true
	}
	return r, k >= s
}

// regionNest returns how deep the evaluation of r nests.
func (l *lowering) regionNest(r region) int {
	k := l.nest[r.at]
	if r.u != nil {
		k = r.u.nest
	}
	for _, pc := range r.pre {
		k = max(k, l.nest[pc])
	}
	return k
}

// pack maps the scratch registers that are stored to slots so that
// registers whose lives do not overlap share one, and returns the number
// of slots. A register lives from its first write to its last read. Jumps
// go forward only, so no run can read a register outside that range of
// instructions; and an instruction reads its operands before it writes, so
// a register may take the slot of one read last by the same instruction.
func (l *lowering) pack() int {
	t := l.t
	first := l.slot // the slots are computed after the first writes
	last := make([]int, t.scratch)
	for r := range first {
		first[r], last[r] = math.MaxInt, -1
	}
	for pc := 0; pc <= l.n; pc++ {
		at := l.n
		if pc < l.n {
			at = l.at[pc]
			if in := &t.code[pc]; (at == pc || l.stored[pc]) && writes(in) {
				// A step inside a unit writes while the unit runs, which
				// starts at the head of what it is fused into.
				w := pc
				if at != pc {
					w = l.head(at)
				}
				first[in.dst] = min(first[in.dst], w)
				last[in.dst] = max(last[in.dst], at)
			}
		}
		l.forReads(pc, func(r ref) {
			if !l.gone[r] {
				last[r] = max(last[r], at)
			}
		})
	}
	var order []int
	for r := range first {
		if last[r] >= 0 {
			first[r] = min(first[r], last[r])
			order = append(order, r)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return first[a] - first[b] })
	var free, busy []int // free slots; registers holding one
	n := 0
	for _, r := range order {
		busy = slices.DeleteFunc(busy, func(q int) bool {
			if last[q] <= first[r] {
				free = append(free, l.slot[q])
				return true
			}
			return false
		})
		// first[r] is no longer needed: slot[r] may overwrite it.
		if k := len(free); k > 0 {
			l.slot[r], free = free[k-1], free[:k-1]
		} else {
			l.slot[r] = n
			n++
		}
		busy = append(busy, r)
	}
	return n
}

// operand returns operand r of the instruction (or the result) at pc.
func (l *lowering) operand(r ref, pc int) operand {
	switch {
	case r == noRef:
		return operand{}
	case r < 0:
		return operand{m: mVar, i: int32(-1 - r)}
	case l.isScratch(r):
		if pc > 0 && l.fused[pc-1] && l.t.code[pc-1].dst == r {
			return operand{m: mEval, e: l.build(pc - 1).(evaler)}
		}
		if u := l.unitInto(pc); u != nil && u.dst == r {
			return operand{m: mEval, e: l.buildUnit(u)}
		}
		return operand{m: mScratch, i: int32(l.slot[r])}
	}
	return operand{m: mConst, k: &l.t.regs[r]}
}

func (l *lowering) buildUnit(u *unit) evaler {
	guard := l.build(u.guard).(tester)
	if u.choice {
		return &choice{cond: guard, when: u.when, then: l.buildRegion(u.right), els: l.buildRegion(u.els)}
	}
	e := &logical{left: guard, when: u.when, right: l.buildRegion(u.right)}
	e.rightT = asTester(e.right)
	return e
}

// asTester returns e as a tester if its value is always Bool(test), so
// that test may stand for eval (a call less), or nil.
func asTester(e evaler) tester {
	switch e := e.(type) {
	case *logical:
		if e.rightT != nil {
			return e
		}
	case tester:
		return e
	}
	return nil
}

func (l *lowering) buildRegion(r region) evaler {
	var e evaler
	if r.u != nil {
		e = l.buildUnit(r.u)
	} else {
		e = l.build(r.at).(evaler)
	}
	if len(r.pre) == 0 {
		return e
	}
	s := &sequence{last: e}
	for _, pc := range r.pre {
		s.pre = append(s.pre, l.build(pc))
	}
	return s
}

// build makes the step of the instruction at pc, with what is fused into
// it.
func (l *lowering) build(pc int) step {
	in := &l.t.code[pc]
	b := stepBase{in: in, x: l.operand(in.a, pc), dst: -1, next: pc + 1, jump: int(in.jump)}
	switch in.op {
	case vmAdd, vmSub, vmMul, vmDiv, vmBinary, vmCompare:
		b.y = l.operand(in.b, pc)
	case vmDefine, vmStore, vmCompound:
		b.y = operand{m: mVar, i: int32(-1 - in.b)}
	case vmExists:
		b.x = operand{m: mVar, i: int32(-1 - in.a)}
	}
	if writes(in) && (l.at[pc] == pc || l.stored[pc]) {
		b.dst = l.slot[in.dst]
	}
	switch in.op {
	case vmCompare:
		if in.jump < 0 {
			b.jump = b.next
		}
		c := compareBase{stepBase: b, mask: cmpMasks[in.sub], when: in.when, equality: in.sub == opEq || in.sub == opNe}
		if b.y.m == mConst && b.x.m != mConst {
			if b.x.m == mVar {
				return &compareVarConst{*newCompareConst(c)}
			}
			return newCompareConst(c)
		}
		return &compareStep{c}
	case vmAdd, vmSub, vmMul, vmDiv, vmBinary:
		if b.x.m == mVar && b.y.m == mVar {
			return &binaryVars{binaryStep{b}}
		}
		return &binaryStep{b}
	case vmMove:
		return &moveStep{b}
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
