package script

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// The operator semantics, as pure functions of values. The compiled closures
// and the constant folder both call them, so a folded constant is exactly
// what running the expression would give.

// epsilon is the tolerance of == and != between numbers: BT.CPP compares
// doubles with the single-precision machine epsilon, as an absolute bound.
const epsilon = 1.1920928955078125e-07

// maxString bounds the length of a string a script builds, so that a short
// script doubling a string in every statement cannot exhaust memory.
const maxString = 1 << 20

// concat joins two strings within maxString.
func concat(op opcode, pos int, a, b string) (Value, error) {
	if len(a)+len(b) > maxString {
		return Value{}, errorf(pos, "operator %s: the result would be longer than %d bytes", op, maxString)
	}
	return String(a + b), nil
}

// evalError is an operator failure at a source offset; Run turns it into a
// *RuntimeError carrying the script's text.
type evalError struct {
	pos int
	msg string
	err error
}

func (e *evalError) Error() string { return e.msg }

func errorf(pos int, format string, args ...any) error {
	return &evalError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

func notInitialised(pos int, side string, op opcode) error {
	return errorf(pos, "%s operand of %s is not initialised", side, op)
}

// binary applies an arithmetic, concatenation or bitwise operator.
func binary(op opcode, pos int, x, y Value) (Value, error) {
	if x.kind == KindNil {
		return Value{}, notInitialised(pos, "left", op)
	}
	if y.kind == KindNil {
		return Value{}, notInitialised(pos, "right", op)
	}
	switch op {
	case opAdd, opSub, opMul, opDiv:
		if x.isNumber() && y.isNumber() {
			return arith(op, x.Float(), y.Float()), nil
		}
		if op == opAdd && x.kind == KindString && y.kind == KindString {
			return concat(op, pos, x.s, y.s)
		}
		return Value{}, mixedOperands(op, pos, x, y)
	case opConcat:
		return concat(op, pos, x.String(), y.String())
	case opBitAnd, opBitOr, opBitXor:
		a, err := integral(op, pos, x)
		if err != nil {
			return Value{}, err
		}
		b, err := integral(op, pos, y)
		if err != nil {
			return Value{}, err
		}
		switch op {
		case opBitAnd:
			return Float(float64(a & b)), nil
		case opBitOr:
			return Float(float64(a | b)), nil
		}
		return Float(float64(a ^ b)), nil
	}
	panic("script: not a binary operator: " + op.String())
}

// arith computes + - * / on numbers. Every result is a Float, as in BT.CPP,
// whose script arithmetic is IEEE double arithmetic: 1 / 0 is +Inf, 0 / 0 NaN.
func arith(op opcode, a, b float64) Value {
	switch op {
	case opAdd:
		return Float(a + b)
	case opSub:
		return Float(a - b)
	case opMul:
		return Float(a * b)
	}
	return Float(a / b)
}

func mixedOperands(op opcode, pos int, x, y Value) error {
	if x.kind == KindString && y.kind == KindString {
		return errorf(pos, "operator %s not allowed on strings", op)
	}
	msg := fmt.Sprintf("operator %s not allowed between %s and %s", op, x.typeName(), y.typeName())
	if (op == opAdd || op == opAddAssign) && x.kind != KindOther && y.kind != KindOther {
		msg += "; use .. to concatenate"
	}
	return &evalError{pos: pos, msg: msg}
}

// integral returns the integer an operand of a bitwise operator stands for:
// an Int, a Bool as 1/0, or a Float with an integral value in range.
func integral(op opcode, pos int, v Value) (int64, error) {
	switch v.kind {
	case KindInt, KindBool:
		return int64(v.n), nil
	case KindFloat:
		f := v.float()
		if f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
			return int64(f), nil
		}
		return 0, errorf(pos, "operator %s needs integers, got %s", op, v.describe())
	case KindString:
		return 0, errorf(pos, "operator %s not allowed on strings", op)
	case KindOther:
		return 0, errorf(pos, "operator %s needs integers, got %s", op, v.describe())
	}
	return 0, errorf(pos, "operand of %s is not initialised", op)
}

// truth converts an operand of ! && || to a boolean (see Value.Truthy).
func truth(op opcode, pos int, side string, v Value) (bool, error) {
	switch v.kind {
	case KindBool, KindInt:
		return v.n != 0, nil
	case KindFloat:
		return v.float() != 0, nil
	case KindString:
		if b, ok := parseBool(v.s); ok {
			return b, nil
		}
		return false, errorf(pos, "operator %s needs booleans, got %s", op, v.describe())
	case KindOther:
		return false, errorf(pos, "operator %s needs booleans, got %s", op, v.describe())
	}
	return false, notInitialised(pos, side, op)
}

// condition decides the branch of c ? a : b the way BT.CPP does: a non-empty
// string, a non-zero number or true selects a. Note that the string "false"
// is non-empty, hence true here, unlike for ! && ||.
func condition(pos int, v Value) (bool, error) {
	switch v.kind {
	case KindBool, KindInt:
		return v.n != 0, nil
	case KindFloat:
		return v.float() != 0, nil
	case KindString:
		return v.s != "", nil
	case KindOther:
		return false, errorf(pos, "condition of ?: needs a number, a boolean or a string, got %s", v.describe())
	}
	return false, errorf(pos, "condition of ?: is not initialised")
}

// unary applies - ! ~.
func unary(op opcode, pos int, x Value) (Value, error) {
	if x.kind == KindNil {
		return Value{}, errorf(pos, "operand of %s is not initialised", op)
	}
	switch op {
	case opNeg:
		switch x.kind {
		case KindString:
			return Value{}, errorf(pos, "operator - not allowed on strings")
		case KindOther:
			return Value{}, errorf(pos, "operator - not allowed on %s", x.typeName())
		}
		return Float(-x.Float()), nil
	case opNot:
		b, err := truth(op, pos, "", x)
		if err != nil {
			return Value{}, err
		}
		return Bool(!b), nil
	case opCompl:
		i, err := integral(op, pos, x)
		if err != nil {
			return Value{}, err
		}
		return Float(float64(^i)), nil
	}
	panic("script: not a unary operator: " + op.String())
}

// enumLookup finds registered enum names: an Env, or what the compiler
// gives compare.
type enumLookup interface {
	Enum(name string) (int64, bool)
}

// compare applies one comparison operator. Two Ints compare exactly, other
// numbers as float64 with == and != tolerating epsilon; strings compare
// bytewise. A string against a number is converted first (see strToNumber).
// Other values compare only for equality (see compareOther).
func compare(env enumLookup, op opcode, pos int, x, y Value) (bool, error) {
	switch {
	case x.kind == KindNil:
		return false, notInitialised(pos, "left", op)
	case y.kind == KindNil:
		return false, notInitialised(pos, "right", op)
	case x.kind == KindInt && y.kind == KindInt:
		return order(op, cmpInt(int64(x.n), int64(y.n))), nil
	case x.kind == KindString && y.kind == KindString:
		return order(op, strings.Compare(x.s, y.s)), nil
	case x.kind == KindOther || y.kind == KindOther:
		return compareOther(op, pos, x, y)
	}
	if x.isNumber() && y.isNumber() {
		return cmpFloat(op, x.Float(), y.Float()), nil
	}
	a, b := x.Float(), y.Float()
	if x.kind == KindString {
		f, ok := strToNumber(env, x.s)
		if !ok {
			return false, errorf(pos, "cannot compare %s with %s", x.describe(), y.describe())
		}
		a = f
	} else if y.kind == KindString {
		f, ok := strToNumber(env, y.s)
		if !ok {
			return false, errorf(pos, "cannot compare %s with %s", x.describe(), y.describe())
		}
		b = f
	}
	return cmpFloat(op, a, b), nil
}

// compareOther applies == or != when an operand is an Other value: both must
// hold Go values of one type that Go can compare, and they compare as Go's ==
// does. The ordering operators need numbers or strings.
func compareOther(op opcode, pos int, x, y Value) (bool, error) {
	if op != opEq && op != opNe {
		return false, errorf(pos, "operator %s needs numbers or strings, got %s and %s", op, x.typeName(), y.typeName())
	}
	if x.kind != y.kind || reflect.TypeOf(x.Other()) != reflect.TypeOf(y.Other()) {
		return false, errorf(pos, "cannot compare %s with %s", x.describe(), y.describe())
	}
	eq, ok := equalOther(x.Other(), y.Other())
	if !ok {
		return false, errorf(pos, "operator %s: values of type %s cannot be compared", op, x.typeName())
	}
	return eq == (op == opEq), nil
}

// equalOther is a == b for two values of one type, and ok false when Go
// cannot compare them: a type such as a slice or a map, or a struct whose
// interface field holds one (where == panics).
func equalOther(a, b any) (eq, ok bool) {
	if !reflect.TypeOf(a).Comparable() {
		return false, false
	}
	defer func() {
		if recover() != nil {
			eq, ok = false, false
		}
	}()
	return a == b, true
}

// cmpFloat compares numbers: == and != with the epsilon tolerance, the
// ordering operators exactly (false when a NaN is involved).
func cmpFloat(op opcode, a, b float64) bool {
	switch op {
	case opEq:
		return math.Abs(a-b) <= epsilon
	case opNe:
		return !(math.Abs(a-b) <= epsilon)
	case opLt:
		return a < b
	case opGt:
		return a > b
	case opLe:
		return a <= b
	}
	return a >= b
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// order turns a three-way comparison result into the operator's answer.
func order(op opcode, c int) bool {
	switch op {
	case opEq:
		return c == 0
	case opNe:
		return c != 0
	case opLt:
		return c < 0
	case opGt:
		return c > 0
	case opLe:
		return c <= 0
	}
	return c >= 0
}

// strToNumber reads a string compared with a number, as BT.CPP does: a
// boolean spelling, then a registered enum name, then a decimal number.
func strToNumber(env enumLookup, s string) (float64, bool) {
	if b, ok := parseBool(s); ok {
		if b {
			return 1, true
		}
		return 0, true
	}
	if env != nil {
		if i, ok := env.Enum(s); ok {
			return float64(i), true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// compound computes the new value of name in name op= rhs, given its current
// value cur. Both are initialised.
func compound(op opcode, pos int, name string, cur, rhs Value) (Value, error) {
	if cur.kind == KindOther || rhs.kind == KindOther {
		return Value{}, errorf(pos, "operator %s not allowed between %s and %s: %q holds %s", op, cur.typeName(), rhs.typeName(), name, cur.describe())
	}
	if rhs.kind == KindString {
		if op != opAddAssign {
			return Value{}, errorf(pos, "operator %s not allowed on strings", op)
		}
		if cur.kind != KindString {
			return Value{}, errorf(pos, "operator += not allowed between %s and string: %q holds %s", cur.kind, name, cur.describe())
		}
		return concat(op, pos, cur.s, rhs.s)
	}
	if cur.kind == KindString {
		return Value{}, errorf(pos, "operator %s not allowed between string and %s: %q holds a string", op, rhs.kind, name)
	}
	return arith(arithOf(op), cur.Float(), rhs.Float()), nil
}

// arithOf maps a compound assignment to its arithmetic operator.
func arithOf(op opcode) opcode {
	switch op {
	case opAddAssign:
		return opAdd
	case opSubAssign:
		return opSub
	case opMulAssign:
		return opMul
	}
	return opDiv
}
