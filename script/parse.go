package script

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// maxDepth bounds the nesting of the syntax tree (parentheses, unary
// operators, right operands; not the length of a chain, which the passes
// over the tree walk in loops), so hostile input gives an error instead of
// exhausting the stack when parsing, compiling or running.
const maxDepth = 500

type opcode uint8

const (
	opConst     opcode = iota // val
	opName                    // name
	opNeg                     // -x
	opNot                     // !x
	opCompl                   // ~x
	opAdd                     // x + y
	opSub                     // x - y
	opMul                     // x * y
	opDiv                     // x / y
	opConcat                  // x .. y
	opBitAnd                  // x & y
	opBitOr                   // x | y
	opBitXor                  // x ^ y
	opAnd                     // x && y
	opOr                      // x || y
	opCompare                 // x < y <= z ...: args and cmps
	opCond                    // c ? x : y
	opDefine                  // name := x
	opAssign                  // name = x
	opAddAssign               // name += x
	opSubAssign               // name -= x
	opMulAssign               // name *= x
	opDivAssign               // name /= x
	opEq                      // comparison operators, only in node.cmps
	opNe
	opLt
	opGt
	opLe
	opGe
)

var opNames = [...]string{
	opNeg: "-", opNot: "!", opCompl: "~",
	opAdd: "+", opSub: "-", opMul: "*", opDiv: "/", opConcat: "..",
	opBitAnd: "&", opBitOr: "|", opBitXor: "^", opAnd: "&&", opOr: "||",
	opCond: "?:", opDefine: ":=", opAssign: "=",
	opAddAssign: "+=", opSubAssign: "-=", opMulAssign: "*=", opDivAssign: "/=",
	opEq: "==", opNe: "!=", opLt: "<", opGt: ">", opLe: "<=", opGe: ">=",
}

func (op opcode) String() string { return opNames[op] }

// node is the parsed form of an expression. The tree is plain, immutable
// data: Compile turns it into closures bound to an Env.
type node struct {
	op    opcode
	pos   int // offset of the operator, or of the literal or name
	depth int // height of the subtree, bounded by maxDepth
	val   Value
	name  string
	args  []*node
	cmps  []cmpOp // opCompare: cmps[i] sits between args[i] and args[i+1]
}

type cmpOp struct {
	op  opcode
	pos int
}

// Script is a parsed script. It is immutable and may be shared by many
// goroutines and compiled against many Envs.
type Script struct {
	src   string
	stmts []*node
	size  nodeCounts               // to size the compiler's arrays
	cache atomic.Pointer[compiled] // see Compile
}

// nodeCounts counts the nodes of a syntax tree by kind.
type nodeCounts struct{ ops, names, consts int }

// Source returns the text the script was parsed from.
func (s *Script) Source() string { return s.src }

// Names returns the sorted, distinct identifiers the script mentions, both
// read and assigned ("@x" included as written). Some of them may turn out to
// be enum names when the script is compiled.
func (s *Script) Names() []string {
	var names []string
	var walk func(n *node)
	walk = func(n *node) {
		if n.op == opName || n.name != "" { // names and assignments
			names = append(names, n.name)
		}
		for _, a := range n.args {
			walk(a)
		}
	}
	for _, n := range s.stmts {
		walk(n)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Parse parses a script. A failure is a *SyntaxError.
//
// The syntax tree is carved out of three arrays sized by counting the
// tokens first (a node per token at most, a child link per node, a
// comparison per comparison operator): four allocations, the Script
// included, for a script of up to 64 tokens.
func Parse(src string) (*Script, error) {
	tokens, comparisons := countTokens(src)
	p := parser{
		lx:    lexer{src: src},
		nodes: slab[node]{left: tokens},
		links: slab[*node]{left: tokens},
		cmps:  slab[cmpOp]{left: comparisons},
	}
	stmts, err := p.script()
	if err != nil {
		return nil, err
	}
	return &Script{src: src, stmts: stmts, size: p.size}, nil
}

// countTokens returns the number of tokens of src and how many of them are
// comparison operators, up to the first lexical error (where parsing stops
// too).
func countTokens(src string) (tokens, comparisons int) {
	lx := lexer{src: src}
	for {
		tok, err := lx.next()
		if err != nil || tok.kind == tEOF {
			return tokens, comparisons
		}
		tokens++
		if tEq <= tok.kind && tok.kind <= tGe {
			comparisons++
		}
	}
}

// bailout carries a syntax error up the parser's recursion; Parse recovers
// it. No other panic is recovered.
type bailout struct{ err *SyntaxError }

type parser struct {
	lx    lexer
	tok   token // the current, not yet consumed, token
	depth int
	// The arrays the tree is made of (see Parse).
	nodes slab[node]
	links slab[*node]
	cmps  slab[cmpOp]
	size  nodeCounts
}

// A slab hands out parts of arrays. The first array is as long as what may
// be asked for at most, up to 64; the next ones double, so that a long
// script that turns out to be wrong costs no more than twice what was
// used.
type slab[T any] struct {
	free []T
	left int // what may still be asked for, at most
	next int // length of the next array but for left
}

func (s *slab[T]) take(k int) []T {
	if len(s.free) < k {
		s.next = max(s.next*2, 64)
		s.free = make([]T, max(k, min(s.next, s.left)))
	}
	t := s.free[:k:k]
	s.free = s.free[k:]
	s.left -= k
	return t
}

// node returns a new node.
func (p *parser) node(n node) *node {
	q := &p.nodes.take(1)[0]
	*q = n
	switch n.op {
	case opConst:
		p.size.consts++
	case opName:
		p.size.names++
	default:
		p.size.ops++
	}
	return q
}

// list returns a copy of nodes made of links.
func (p *parser) list(nodes ...*node) []*node {
	l := p.links.take(len(nodes))
	copy(l, nodes)
	return l
}

func (p *parser) fail(off int, msg string) {
	panic(bailout{newSyntaxError(p.lx.src, off, msg)})
}

func (p *parser) advance() {
	tok, err := p.lx.next()
	if err != nil {
		panic(bailout{err})
	}
	p.tok = tok
}

func (p *parser) text(t token) string { return p.lx.src[t.pos:t.end] }

// found describes the current token for "expected X, found Y" messages.
func (p *parser) found() string {
	if p.tok.kind == tEOF {
		return "end of script"
	}
	return "'" + p.text(p.tok) + "'"
}

// script = statement { separator statement } [ ";" { ";" } ] .
// separator = ";" { ";" } | line break .
//
// BT.CPP 4.10 accepts statements one after another with no separator at all;
// bt asks for ';' or a line break so that "a := 1 b := 2" is an error.
func (p *parser) script() (stmts []*node, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			stmts, err = nil, b.err
		}
	}()
	p.advance()
	if p.tok.kind == tEOF {
		return nil, newSyntaxError(p.lx.src, 0, "empty script")
	}
	var buf [8]*node
	list := buf[:0]
	for {
		list = append(list, p.expr(0))
		switch {
		case p.tok.kind == tEOF:
			return p.list(list...), nil
		case p.tok.kind == tSemi:
			for p.tok.kind == tSemi {
				p.advance()
			}
			if p.tok.kind == tEOF {
				return p.list(list...), nil
			}
		case p.tok.nl:
			// a line break separates statements
		default:
			p.fail(p.tok.pos, "expected ';' or end of script, found "+p.found())
		}
	}
}

// Binding powers, as in BT.CPP 4.10 (higher binds tighter). Assignment and
// the conditional are not associative in the loop: their right-hand sides are
// parsed on their own, which makes "a = b = 1" and "a ? b : c ? d : e" nest
// to the right.
const (
	bpAssign  = 2
	bpCond    = 4
	bpOr      = 6
	bpAnd     = 8
	bpCompare = 10
	bpBitOr   = 12 // | and ^
	bpBitAnd  = 14
	bpSum     = 16 // + - ..
	bpProduct = 18 // * /
	bpPrefix  = 20 // - ! ~
)

// infix returns the left binding power and opcode of an infix operator token;
// bp is -1 if the token is not one.
func infix(k tokKind) (bp int, op opcode) {
	switch k {
	case tDefine:
		return bpAssign, opDefine
	case tAssign:
		return bpAssign, opAssign
	case tAddAssign:
		return bpAssign, opAddAssign
	case tSubAssign:
		return bpAssign, opSubAssign
	case tMulAssign:
		return bpAssign, opMulAssign
	case tDivAssign:
		return bpAssign, opDivAssign
	case tQuestion:
		return bpCond, opCond
	case tOrOr:
		return bpOr, opOr
	case tAndAnd:
		return bpAnd, opAnd
	case tEq:
		return bpCompare, opEq
	case tNe:
		return bpCompare, opNe
	case tLt:
		return bpCompare, opLt
	case tGt:
		return bpCompare, opGt
	case tLe:
		return bpCompare, opLe
	case tGe:
		return bpCompare, opGe
	case tPipe:
		return bpBitOr, opBitOr
	case tCaret:
		return bpBitOr, opBitXor
	case tAmp:
		return bpBitAnd, opBitAnd
	case tPlus:
		return bpSum, opAdd
	case tMinus:
		return bpSum, opSub
	case tDotDot:
		return bpSum, opConcat
	case tStar:
		return bpProduct, opMul
	case tSlash:
		return bpProduct, opDiv
	}
	return -1, 0
}

// expr parses an expression whose operators bind at least as tightly as
// minBP (a Pratt parser):
//
//	expr = prefix { infix-operator expr } .
func (p *parser) expr(minBP int) *node {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.tok.pos, "expression nested too deeply")
	}
	defer func() { p.depth-- }()

	left := p.prefix()
	for {
		bp, op := infix(p.tok.kind)
		if bp < minBP {
			return left
		}
		switch {
		case bp == bpAssign:
			return p.assignment(left, op)
		case op == opCond:
			return p.conditional(left)
		case bp == bpCompare:
			left = p.comparison(left)
		default:
			pos := p.tok.pos
			p.advance()
			right := p.expr(bp + 1) // left-associative
			left = p.newNode(op, pos, left, right)
		}
	}
}

// prefix = ( "-" | "!" | "~" ) expr<prefix> | "(" expr ")" | literal | name .
func (p *parser) prefix() *node {
	tok := p.tok
	switch tok.kind {
	case tMinus, tBang, tTilde:
		op := opNeg
		if tok.kind == tBang {
			op = opNot
		} else if tok.kind == tTilde {
			op = opCompl
		}
		p.advance()
		return p.newNode(op, tok.pos, p.expr(bpPrefix))
	case tLParen:
		p.advance()
		x := p.expr(0)
		if p.tok.kind != tRParen {
			line, col := position(p.lx.src, tok.pos)
			p.fail(p.tok.pos, "expected ')' to close the '(' at "+strconv.Itoa(line)+":"+strconv.Itoa(col)+", found "+p.found())
		}
		p.advance()
		return x
	case tTrue, tFalse:
		p.advance()
		return p.literal(tok, Bool(tok.kind == tTrue))
	case tInt:
		p.advance()
		return p.literal(tok, p.intLiteral(tok))
	case tReal:
		p.advance()
		f, err := strconv.ParseFloat(p.text(tok), 64)
		if err != nil || math.IsInf(f, 0) {
			p.fail(tok.pos, "number "+p.text(tok)+" is out of range")
		}
		return p.literal(tok, Float(f))
	case tString:
		p.advance()
		return p.literal(tok, String(p.lx.src[tok.pos+1:tok.end-1]))
	case tIdent:
		p.advance()
		return p.node(node{op: opName, pos: tok.pos, depth: 1, name: p.text(tok)})
	}
	p.fail(tok.pos, "expected an operand, found "+p.found())
	return nil
}

func (p *parser) literal(tok token, v Value) *node {
	return p.node(node{op: opConst, pos: tok.pos, depth: 1, val: v})
}

// intLiteral converts a decimal or 0x hexadecimal integer. BT.CPP silently
// turns an out-of-range literal into 0; bt reports it.
func (p *parser) intLiteral(tok token) Value {
	text := p.text(tok)
	var i int64
	var err error
	if len(text) > 2 && (text[1] == 'x' || text[1] == 'X') {
		i, err = strconv.ParseInt(text[2:], 16, 64)
	} else {
		i, err = strconv.ParseInt(text, 10, 64)
	}
	if err != nil {
		p.fail(tok.pos, "integer "+text+" is out of range")
	}
	return Int(i)
}

// assignment = name ( ":=" | "=" | "+=" | "-=" | "*=" | "/=" ) expr .
func (p *parser) assignment(left *node, op opcode) *node {
	pos := p.tok.pos
	if left.op != opName {
		p.fail(pos, "the left side of "+op.String()+" must be a variable name")
	}
	p.advance()
	n := p.newNode(op, pos, p.expr(0))
	n.name = left.name
	return n
}

// conditional = expr "?" expr ":" expr<conditional> .
func (p *parser) conditional(cond *node) *node {
	pos := p.tok.pos
	p.advance()
	then := p.expr(0)
	if p.tok.kind != tColon {
		p.fail(p.tok.pos, "expected ':' in the conditional expression, found "+p.found())
	}
	p.advance()
	return p.newNode(opCond, pos, cond, then, p.expr(bpCond))
}

// comparison = expr<bitor> cmp-op expr<bitor> { cmp-op expr<bitor> } .
// A chain a < b < c means a < b && b < c, with b evaluated once.
func (p *parser) comparison(first *node) *node {
	n := p.node(node{op: opCompare, pos: p.tok.pos})
	var abuf [8]*node
	var cbuf [8]cmpOp
	args, cmps := append(abuf[:0], first), cbuf[:0]
	for {
		bp, op := infix(p.tok.kind)
		if bp != bpCompare {
			break
		}
		cmps = append(cmps, cmpOp{op: op, pos: p.tok.pos})
		p.advance()
		args = append(args, p.expr(bpCompare+1))
	}
	n.args = p.list(args...)
	n.cmps = p.cmps.take(len(cmps))
	copy(n.cmps, cmps)
	p.setDepth(n)
	return n
}

func (p *parser) newNode(op opcode, pos int, args ...*node) *node {
	n := p.node(node{op: op, pos: pos, args: p.list(args...)})
	p.setDepth(n)
	return n
}

// setDepth sets the nesting depth of n. The left operand of a left-associative
// operator does not nest: a + b + c is a chain at one level, however long.
func (p *parser) setDepth(n *node) {
	for i, a := range n.args {
		if i == 0 && leftAssoc(n.op) {
			n.depth = max(n.depth, a.depth-1)
		} else {
			n.depth = max(n.depth, a.depth)
		}
	}
	n.depth++
	if n.depth > maxDepth {
		p.fail(n.pos, "expression nested too deeply")
	}
}

// leftAssoc reports whether op is a binary operator that chains to the left.
func leftAssoc(op opcode) bool { return op >= opAdd && op <= opOr }

// String returns the tree in prefix notation, for tests: (+ 1 (* 2 x)).
func (n *node) String() string {
	var b strings.Builder
	n.format(&b)
	return b.String()
}

func (n *node) format(b *strings.Builder) {
	switch n.op {
	case opConst:
		if n.val.kind == KindString {
			b.WriteString(strconv.Quote(n.val.s))
		} else {
			b.WriteString(n.val.String())
		}
		return
	case opName:
		b.WriteString(n.name)
		return
	}
	b.WriteByte('(')
	switch n.op {
	case opCompare:
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(" " + n.cmps[i-1].op.String() + " ")
			}
			a.format(b)
		}
		b.WriteByte(')')
		return
	case opDefine, opAssign, opAddAssign, opSubAssign, opMulAssign, opDivAssign:
		b.WriteString(n.op.String() + " " + n.name)
	default:
		b.WriteString(n.op.String())
	}
	for _, a := range n.args {
		b.WriteByte(' ')
		a.format(b)
	}
	b.WriteByte(')')
}
