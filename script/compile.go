package script

import (
	"errors"
	"fmt"
	"math"
)

// Env gives a script access to variables and enum names. The engine
// implements it over the blackboard. Compile calls it once per distinct name;
// a Program keeps the returned handles and calls Enum again only to convert a
// string compared with a number.
type Env interface {
	// Var binds a variable. A name starting with '@' refers to the root
	// scope. The variable need not exist yet: Var.Exists tells at run time.
	Var(name string) (Var, error)
	// Enum returns the value of a registered enum name. An enum name
	// shadows a variable of the same name.
	Enum(name string) (int64, bool)
}

// Var is a handle to one variable.
type Var interface {
	// Load returns the current value: an error if the variable does not
	// exist or cannot be read; a Nil Value if it exists but is empty. A
	// value that is not a number, a boolean or a string is an Other.
	Load() (Value, error)
	// Exists reports whether the variable exists (it may be empty).
	Exists() bool
	// Assign stores v, creating the variable if needed. The Var enforces
	// the entry's type rules (an integer entry accepts only integral
	// numbers, a string entry only strings, an entry of a Go type only an
	// Other of that type or a string it can parse, ...); the script decides
	// what value to assign.
	Assign(v Value) error
}

// Program is a Script bound to an Env, ready to run. Every variable is
// resolved to its Var and every enum name to its value; running it does no
// lookups and, unless the script builds a new string, no allocations.
//
// A Program owns scratch registers, so it is not safe for concurrent use by
// several goroutines (its Vars usually are not either). Compile one Program
// per tree instance.
type Program struct {
	// The code, its constants and the names of its variables are shared
	// by every Program compiled from the same Script with the same enums.
	*compiled
	src     string
	env     Env
	handles []Var   // handles[i] is the variable vars[i]
	scr     []Value // scratch registers (slots, see lower.go)
	// Short scripts need no more: a Program is then one allocation.
	inlineVars [3]Var
	inlineRegs [1]Value
}

// compiled is the part of a Program that does not depend on the Env beyond
// its enum names: the code, the register image and the variables' names.
// It is immutable once built.
type compiled struct {
	src     string
	code    []instr
	regs    []Value // scratch registers (zero here), then the constants
	scratch int     // registers below this are scratch, the rest constants
	vars    []varSlot
	result  ref // the value of the last statement
	enums   []enumAnswer

	// What runs: see lower.go.
	steps   []step
	res     operand // the result
	resTest tester  // the result, if it is a comparison or a logical
	nregs   int     // scratch register slots a Program needs
}

// varSlot is a bound variable. In a compiled, v is nil: each Program holds
// its own handles.
type varSlot struct {
	v    Var
	name string
	pos  int // first mention, for errors
}

// enumAnswer is one question the compiler asked Env.Enum, with its answer.
// Code compiled against one Env fits another that gives the same answers.
type enumAnswer struct {
	name string
	val  int64
	ok   bool
}

// enumLog is how the compiler looks up enum names: it asks the Env (nil:
// none) and records the answers.
type enumLog struct {
	env     Env
	answers []enumAnswer
}

func (l *enumLog) Enum(name string) (int64, bool) {
	for _, a := range l.answers {
		if a.name == name {
			return a.val, a.ok
		}
	}
	var a enumAnswer
	if l.env != nil {
		a.val, a.ok = l.env.Enum(name)
	}
	a.name = name
	l.answers = append(l.answers, a)
	return a.val, a.ok
}

// fits reports whether env gives the enum answers the code was compiled
// with.
func (t *compiled) fits(env Env) bool {
	if env == nil {
		return false
	}
	for _, a := range t.enums {
		v, ok := env.Enum(a.name)
		if ok != a.ok || ok && v != a.val {
			return false
		}
	}
	return true
}

// Compile binds the script to env: enum names become constants, other names
// Var handles, and the syntax tree becomes code for a small register machine
// (see Implementation in the package documentation). Constant subexpressions
// are computed here, once. A nil env means no variables and no enums. A
// failure to bind a name is a *SyntaxError at its first mention.
//
// The code is built by the first Compile and kept in the Script for later
// ones whose Env knows the same enum names, so that compiling the script
// for one more tree instance only binds its variables: one allocation for
// a short script. Compile may be called from several goroutines at once.
func (s *Script) Compile(env Env) (*Program, error) {
	t := s.cache.Load()
	if t == nil || !t.fits(env) {
		var err error
		if t, err = s.compile(env); err != nil {
			return nil, err
		}
		if env != nil {
			s.cache.CompareAndSwap(nil, t)
		}
	}
	return t.bind(env)
}

// bind makes a Program of t: one Var handle per variable, asked of env in
// the order the compiler met them.
func (t *compiled) bind(env Env) (*Program, error) {
	p := &Program{compiled: t, src: t.src, env: env}
	p.handles = p.inlineVars[:0]
	if len(t.vars) > len(p.inlineVars) {
		p.handles = make([]Var, 0, len(t.vars))
	}
	for i := range t.vars {
		v, err := bindVar(env, t.src, &t.vars[i])
		if err != nil {
			return nil, err
		}
		p.handles = append(p.handles, v)
	}
	p.scr = p.inlineRegs[:]
	if t.nregs > len(p.inlineRegs) {
		p.scr = make([]Value, t.nregs)
	}
	return p, nil
}

func bindVar(env Env, src string, s *varSlot) (Var, error) {
	v, err := env.Var(s.name)
	if err != nil {
		e := newSyntaxError(src, s.pos, fmt.Sprintf("cannot bind %q: %v", s.name, err))
		e.Err = err
		return nil, e
	}
	if v == nil {
		return nil, newSyntaxError(src, s.pos, fmt.Sprintf("cannot bind %q: the environment returned no variable", s.name))
	}
	return v, nil
}

// compile builds the code of s for the enum names of env, without binding
// variables. If it fails, it first binds the variables met before the
// failure, in order: a Var error among them is then reported, as it would
// have been had each name been bound when met.
func (s *Script) compile(env Env) (*compiled, error) {
	c := &compiler{
		src: s.src,
		env: env,
		// About one instruction per operator, and a few more.
		t:      &compiled{src: s.src, code: make([]instr, 0, s.size.ops+2)},
		consts: make([]Value, 0, s.size.consts),
	}
	c.enums = enumLog{env: env, answers: make([]enumAnswer, 0, s.size.names)}
	if err := c.script(s.stmts); err != nil {
		for i := range c.t.vars {
			if _, berr := bindVar(env, s.src, &c.t.vars[i]); berr != nil {
				return nil, berr
			}
		}
		return nil, err
	}
	c.t.enums = c.enums.answers
	return c.t, nil
}

func (c *compiler) script(stmts []*node) error {
	for i, n := range stmts {
		x, err := c.expr(n)
		if err != nil {
			return err
		}
		if i < len(stmts)-1 {
			// A statement that only names a variable still reads it:
			// "missing; x := 1" fails like BT.CPP.
			if !x.isConst && x.r < 0 {
				c.move(x)
			}
			// Nobody uses the value of an assignment statement.
			if in := c.last(); !x.isConst && in != nil && in.dst == x.r && isAssignment(in.op) {
				in.keep = false
			}
			continue
		}
		c.t.result = c.ref(x)
	}
	t := c.t
	t.regs = make([]Value, int(c.scratch)+len(c.consts))
	copy(t.regs[c.scratch:], c.consts)
	t.scratch = int(c.scratch)
	// Constants were numbered from 0; they live after the scratch registers.
	for i := range t.code {
		in := &t.code[i]
		in.a = c.relocate(in.a)
		in.b = c.relocate(in.b)
	}
	t.result = c.relocate(t.result)
	lower(t)
	return nil
}

// Eval parses, compiles and runs src once: a convenience for one-off
// evaluations. Engines parse once and compile once per tree instance instead.
func Eval(src string, env Env) (Value, error) {
	s, err := Parse(src)
	if err != nil {
		return Value{}, err
	}
	p, err := s.Compile(env)
	if err != nil {
		return Value{}, err
	}
	return p.Run()
}

// binding is what a name resolved to.
type binding struct {
	isEnum bool
	enum   int64
	slot   int // index in Program.vars
}

// cexpr is a compiled expression: a constant, or a reference to where its
// value will be when the code emitted so far has run.
type cexpr struct {
	isConst bool
	c       Value
	r       ref  // not constant: a scratch register or a variable
	isBool  bool // a successful evaluation always gives a Bool
}

type compiler struct {
	src     string
	env     Env // nil: no names
	enums   enumLog
	t       *compiled
	scratch int32   // scratch registers allocated
	consts  []Value // constant registers, numbered constBase+i until relocated
	landed  int32   // the last address a jump was set to land on (see land)
}

// constBase numbers constant registers during compilation; Compile moves
// them after the scratch registers once their count is known.
const constBase = math.MaxInt32 / 2

func (c *compiler) relocate(r ref) ref {
	if r >= constBase {
		return r - constBase + ref(c.scratch)
	}
	return r
}

func (c *compiler) errorAt(pos int, msg string, err error) error {
	e := newSyntaxError(c.src, pos, msg)
	e.Err = err
	return e
}

func (c *compiler) reg() ref {
	c.scratch++
	return ref(c.scratch - 1)
}

// ref returns where x's value is, giving a constant a register.
func (c *compiler) ref(x cexpr) ref {
	if !x.isConst {
		return x.r
	}
	c.consts = append(c.consts, x.c)
	return ref(constBase + len(c.consts) - 1)
}

func (c *compiler) emit(in instr) int {
	switch in.op {
	case vmMove, vmUnary, vmTest, vmTruth, vmBranch, vmExists:
		in.b = noRef
	case vmJump:
		in.a, in.b = noRef, noRef
	}
	c.t.code = append(c.t.code, in)
	return len(c.t.code) - 1
}

// last returns the last instruction emitted, if any.
func (c *compiler) last() *instr {
	if len(c.t.code) == 0 {
		return nil
	}
	return &c.t.code[len(c.t.code)-1]
}

// here is the address of the next instruction.
func (c *compiler) here() int32 { return int32(len(c.t.code)) }

// singleCompare returns the instruction computing x if it is one plain
// comparison that was just emitted (not a chain), so that a jump can be
// fused into it.
func (c *compiler) singleCompare(x cexpr) *instr {
	in := c.last()
	if x.isConst || x.r < 0 || in == nil || in.op != vmCompare || in.dst != x.r || in.jump >= 0 {
		return nil
	}
	// If a jump lands right after it, it only ends a construct (the b of
	// a && b) whose value other paths set without it.
	if c.landed == c.here() {
		return nil
	}
	return in
}

// land makes the jump of instruction i land on the next instruction to be
// emitted. Jumps only go forward, and are set when the code they jump over
// is done: a jump lands right here only if the last one set does.
func (c *compiler) land(i int) {
	c.t.code[i].jump = c.here()
	c.landed = c.here()
}

// retarget makes the code from start on, which leaves its result in
// register r, leave it in dst instead. It fails if that code also reads r.
func (c *compiler) retarget(start int, r, dst ref) bool {
	code := c.t.code[start:]
	for i := range code {
		if in := &code[i]; in.a == r || in.b == r {
			return false
		}
	}
	for i := range code {
		if in := &code[i]; in.dst == r {
			in.dst = dst
		}
	}
	return true
}

func isAssignment(op vmOp) bool { return op == vmDefine || op == vmStore || op == vmCompound }

// move copies x into a fresh register, which reads a variable now.
func (c *compiler) move(x cexpr) cexpr {
	dst := c.reg()
	c.emit(instr{op: vmMove, dst: dst, a: c.ref(x)})
	return cexpr{r: dst, isBool: x.isBool}
}

// bind resolves a name: Env.Enum is asked once per name (enumLog
// remembers), and each variable gets one slot.
func (c *compiler) bind(name string, pos int) (binding, error) {
	for i := range c.t.vars {
		if c.t.vars[i].name == name {
			return binding{slot: i}, nil
		}
	}
	if c.env == nil {
		return binding{}, c.errorAt(pos, fmt.Sprintf("unknown name %q: no environment to look it up in", name), nil)
	}
	if i, ok := c.enums.Enum(name); ok {
		return binding{isEnum: true, enum: i}, nil
	}
	c.t.vars = append(c.t.vars, varSlot{name: name, pos: pos})
	return binding{slot: len(c.t.vars) - 1}, nil
}

func constant(v Value) cexpr { return cexpr{isConst: true, c: v, isBool: v.kind == KindBool} }

func (c *compiler) expr(n *node) (cexpr, error) {
	switch n.op {
	case opConst:
		return constant(n.val), nil
	case opName:
		b, err := c.bind(n.name, n.pos)
		if err != nil {
			return cexpr{}, err
		}
		if b.isEnum {
			return constant(Int(b.enum)), nil
		}
		return cexpr{r: varRef(b.slot)}, nil
	case opDefine, opAssign, opAddAssign, opSubAssign, opMulAssign, opDivAssign:
		return c.assignment(n)
	case opNeg, opNot, opCompl:
		return c.unary(n)
	case opCond:
		return c.conditional(n)
	case opCompare:
		return c.comparison(n)
	}
	return c.chain(n)
}

// chain compiles a left-nested chain of binary operators (a + b - c, a && b || c …)
// from its innermost left operand up, in a loop rather than by recursion: a chain
// has no nesting limit (see maxDepth), so it may be as long as the script.
func (c *compiler) chain(n *node) (cexpr, error) {
	var buf [8]*node
	links := append(buf[:0], n)
	for m := n.args[0]; leftAssoc(m.op); m = m.args[0] {
		links = append(links, m)
	}
	x, err := c.expr(links[len(links)-1].args[0])
	for i := len(links) - 1; i >= 0 && err == nil; i-- {
		if m := links[i]; m.op == opAnd || m.op == opOr {
			x, err = c.logical(m, x)
		} else {
			x, err = c.binary(m, x)
		}
	}
	return x, err
}

// operands compiles the two operands of a binary operator.
func (c *compiler) operands(left, right *node) (x, y cexpr, err error) {
	if x, err = c.expr(left); err != nil {
		return
	}
	return c.rightOperand(x, right)
}

// rightOperand compiles the right operand of a binary operator whose left
// operand x is compiled. A variable on the left is normally read by the
// operator's instruction, after the right operand's code has run. If there
// is such code, the variable is read before it instead, so that x + (x := 5)
// sees the old x and errors come left to right.
func (c *compiler) rightOperand(x cexpr, right *node) (_, y cexpr, err error) {
	at := len(c.t.code)
	if y, err = c.expr(right); err != nil {
		return
	}
	if !x.isConst && x.r < 0 && len(c.t.code) > at {
		dst := c.reg()
		c.insert(at, instr{op: vmMove, dst: dst, a: x.r})
		x = cexpr{r: dst}
	}
	return x, y, nil
}

// insert puts in before the instruction at index at, which the code
// compiled since then starts with. The jumps of that code move along. Code
// before at has no jump past it: its finished constructs jump at most to at
// (and so now run into in, as they should), its open ones are not patched
// yet.
func (c *compiler) insert(at int, in instr) {
	c.emit(in) // fills the unused operands
	code := c.t.code
	in = code[len(code)-1]
	copy(code[at+1:], code[at:len(code)-1])
	code[at] = in
	for i := at + 1; i < len(code); i++ {
		if code[i].jump > int32(at) {
			code[i].jump++
		}
	}
	if c.landed > int32(at) {
		c.landed++
	}
}

// load makes sure a variable operand is read now, into a register.
func (c *compiler) load(x cexpr) cexpr {
	if !x.isConst && x.r < 0 {
		return c.move(x)
	}
	return x
}

func (c *compiler) unary(n *node) (cexpr, error) {
	x, err := c.expr(n.args[0])
	if err != nil {
		return cexpr{}, err
	}
	if x.isConst {
		if v, err := unary(n.op, n.pos, x.c); err == nil {
			return constant(v), nil
		}
	}
	// !(a == b) is a != b. (Not so for < and >=, which differ on NaN.)
	if cmp := c.singleCompare(x); n.op == opNot && cmp != nil && (cmp.sub == opEq || cmp.sub == opNe) {
		cmp.sub = opEq + opNe - cmp.sub
		cmp.negated = !cmp.negated
		return x, nil
	}
	dst := c.reg()
	c.emit(instr{op: vmUnary, sub: n.op, dst: dst, a: c.ref(x), pos: int32(n.pos)})
	return cexpr{r: dst, isBool: n.op == opNot}, nil
}

// binaryOp selects the instruction of a binary operator: + - * / have
// their own, with the arithmetic on numbers done inline.
func binaryOp(op opcode) vmOp {
	switch op {
	case opAdd:
		return vmAdd
	case opSub:
		return vmSub
	case opMul:
		return vmMul
	case opDiv:
		return vmDiv
	}
	return vmBinary
}

// binary compiles x op right, x being n's left operand, compiled.
func (c *compiler) binary(n *node, x cexpr) (cexpr, error) {
	x, y, err := c.rightOperand(x, n.args[1])
	if err != nil {
		return cexpr{}, err
	}
	if x.isConst && y.isConst {
		// (A string is folded up to a bound, or 'a' .. 'a' .. … would copy
		// ever longer strings.)
		if v, err := binary(n.op, n.pos, x.c, y.c); err == nil && (v.kind != KindString || len(v.s) <= maxFolded) {
			return constant(v), nil
		}
	}
	dst := c.reg()
	c.emit(instr{op: binaryOp(n.op), sub: n.op, dst: dst, a: c.ref(x), b: c.ref(y), pos: int32(n.pos)})
	return cexpr{r: dst}, nil
}

// maxFolded bounds the strings that constant folding makes.
const maxFolded = 1 << 10

// logical compiles x && right or x || right, x being n's left operand,
// compiled. && and || short-circuit: the right operand is not
// evaluated when the left one decides (BT.CPP evaluates both).
//
//	test   dst <- truth(x); jump to end if dst decides
//	...    code of y
//	truth  dst <- truth(y)
//	end:
//
// When x is a comparison, the comparison itself jumps (no test); when y
// yields a Bool, its code writes dst directly (no truth).
func (c *compiler) logical(n *node, x cexpr) (cexpr, error) {
	decided := n.op == opOr // the left value that makes the right one irrelevant
	if x.isConst {
		b, err := truth(n.op, n.pos, "left", x.c)
		if err == nil && b == decided {
			return constant(Bool(b)), nil
		}
		if err == nil {
			// The left side cannot decide: the result is the right side's truth.
			y, err := c.expr(n.args[1])
			if err != nil {
				return cexpr{}, err
			}
			return c.truth(n, y)
		}
	}
	dst := c.reg()
	if cmp := c.singleCompare(x); cmp != nil {
		cmp.dst, cmp.when = dst, decided
	} else {
		c.emit(instr{op: vmTest, sub: n.op, dst: dst, a: c.ref(x), pos: int32(n.pos)})
	}
	testAt := len(c.t.code) - 1
	start := len(c.t.code)
	y, err := c.expr(n.args[1])
	if err != nil {
		return cexpr{}, err
	}
	if !(y.isBool && !y.isConst && y.r >= 0 && c.retarget(start, y.r, dst)) {
		c.emit(instr{op: vmTruth, sub: n.op, dst: dst, a: c.ref(y), pos: int32(n.pos)})
	}
	c.land(testAt)
	return cexpr{r: dst, isBool: true}, nil
}

// truth converts the right operand of && or || to a Bool.
func (c *compiler) truth(n *node, y cexpr) (cexpr, error) {
	if y.isConst {
		if b, err := truth(n.op, n.pos, "right", y.c); err == nil {
			return constant(Bool(b)), nil
		}
	}
	if y.isBool && y.r >= 0 {
		return y, nil
	}
	dst := c.reg()
	c.emit(instr{op: vmTruth, sub: n.op, dst: dst, a: c.ref(y), pos: int32(n.pos)})
	return cexpr{r: dst, isBool: true}, nil
}

// conditional compiles c ? x : y, evaluating only the chosen branch.
//
//	branch  jump to else if cond is false
//	...     code of x; move dst <- x
//	jump    end
//	else:   code of y; move dst <- y
//	end:
func (c *compiler) conditional(n *node) (cexpr, error) {
	cond, err := c.expr(n.args[0])
	if err != nil {
		return cexpr{}, err
	}
	if cond.isConst {
		if ok, err := condition(n.pos, cond.c); err == nil {
			if ok {
				return c.expr(n.args[1])
			}
			return c.expr(n.args[2])
		}
	}
	dst := c.reg()
	branch := len(c.t.code) - 1
	if cmp := c.singleCompare(cond); cmp != nil {
		cmp.when = false // the comparison jumps to the else branch
	} else {
		branch = c.emit(instr{op: vmBranch, a: c.ref(cond), pos: int32(n.pos)})
	}
	x, err := c.expr(n.args[1])
	if err != nil {
		return cexpr{}, err
	}
	c.emit(instr{op: vmMove, dst: dst, a: c.ref(x)})
	jump := c.emit(instr{op: vmJump})
	c.land(branch)
	y, err := c.expr(n.args[2])
	if err != nil {
		return cexpr{}, err
	}
	c.emit(instr{op: vmMove, dst: dst, a: c.ref(y)})
	c.land(jump)
	return cexpr{r: dst, isBool: x.isBool && y.isBool}, nil
}

// comparison compiles a chain a op1 b op2 c ...: it stops at the first false
// link without evaluating the operands after it, as BT.CPP does. Every
// operand is evaluated once.
//
//	cmp  dst <- a op1 b; jump to end if false
//	cmp  dst <- b op2 c; jump to end if false
//	...
//	end:
func (c *compiler) comparison(n *node) (cexpr, error) {
	if len(n.args) == 2 {
		x, y, err := c.operands(n.args[0], n.args[1])
		if err != nil {
			return cexpr{}, err
		}
		cmp := n.cmps[0]
		if x.isConst && y.isConst {
			if ok, err := compare(&c.enums, cmp.op, cmp.pos, x.c, y.c); err == nil {
				return constant(Bool(ok)), nil
			}
		}
		dst := c.reg()
		c.emit(instr{op: vmCompare, sub: cmp.op, dst: dst, a: c.ref(x), b: c.ref(y), pos: int32(cmp.pos), jump: -1})
		return cexpr{r: dst, isBool: true}, nil
	}
	dst := c.reg()
	var jumps []int
	x, err := c.expr(n.args[0])
	if err != nil {
		return cexpr{}, err
	}
	x = c.load(x) // the chain reads its operands in order, each once
	for i, cmp := range n.cmps {
		y, err := c.expr(n.args[i+1])
		if err != nil {
			return cexpr{}, err
		}
		if i < len(n.cmps)-1 {
			y = c.load(y) // the next link reads it again
		}
		jumps = append(jumps, c.emit(instr{op: vmCompare, sub: cmp.op, dst: dst, a: c.ref(x), b: c.ref(y), pos: int32(cmp.pos)}))
		x = y
	}
	for _, j := range jumps {
		c.land(j)
	}
	return cexpr{r: dst, isBool: true}, nil
}

// assignment compiles name op= rhs. The value of an assignment is the value
// the variable holds afterwards, re-read so that the entry's conversions (an
// integer entry narrowing 4.0 to 4) show.
func (c *compiler) assignment(n *node) (cexpr, error) {
	b, err := c.bind(n.name, n.pos)
	if err != nil {
		return cexpr{}, err
	}
	if b.isEnum {
		return cexpr{}, c.errorAt(n.pos, fmt.Sprintf("cannot assign to %q: it is an enum name", n.name), nil)
	}
	at := len(c.t.code)
	x, err := c.expr(n.args[0])
	if err != nil {
		return cexpr{}, err
	}
	// "=" and the compound operators need the entry to exist. If the right
	// side runs code, that is checked before it; otherwise by the
	// assignment itself.
	check := n.op != opDefine
	if check && len(c.t.code) > at {
		c.insert(at, instr{op: vmExists, a: varRef(b.slot), pos: int32(n.pos)})
		check = false
	}
	op := vmCompound
	switch n.op {
	case opDefine:
		op = vmDefine
	case opAssign:
		op = vmStore
	}
	dst := c.reg()
	c.emit(instr{op: op, sub: n.op, dst: dst, a: c.ref(x), b: varRef(b.slot), pos: int32(n.pos), keep: true, check: check})
	return cexpr{r: dst}, nil
}

func (p *Program) runtimeError(err error) error {
	re := &RuntimeError{Src: p.src, Msg: err.Error(), Err: err}
	var e *evalError
	if errors.As(err, &e) {
		re.Offset, re.Msg, re.Err = e.pos, e.msg, e.err
	}
	re.Line, re.Col = position(p.src, re.Offset)
	return re
}
