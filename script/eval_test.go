package script

import (
	"errors"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// baseEnv is the environment every evaluation case starts from.
func baseEnv() *testEnv {
	e := newEnv().
		set("i", Int(7)).
		set("f", Float(2.5)).
		set("s", String("ab")).
		set("t", Bool(true)).
		set("no", Bool(false)).
		set("zero", Int(0)).
		set("str_true", String("true")).
		set("str_false", String("false")).
		set("str_one", String("1")).
		set("str_num", String("3")).
		set("empty", Value{}).
		set("@root_x", Int(100)).
		set("RED", String("shadowed"))
	e.enums["RED"] = 1
	e.enums["GREEN"] = 2
	e.enums["THE_ANSWER"] = 42
	e.variable("opaque").exists = true
	e.variable("opaque").opaque = true
	// Go values of other types: a script moves and compares them.
	e.set("pa", Other(point{1, 2})).
		set("pb", Other(point{1, 2})).
		set("pc", Other(point{3, 4})).
		set("ptr", Other(thePoint)).
		set("sl", Other([]int{1})).
		set("nested", Other(holder{[]int{1}}))
	return e
}

// point is a user's type for Other values; holder is comparable for the Go
// compiler, but not when its field holds a slice.
type (
	point  struct{ X, Y float64 }
	holder struct{ v any }
)

var thePoint = &point{5, 6}

type evalCase struct {
	src  string
	want Value  // expected result, when err is ""
	err  string // expected runtime or syntax error text (substring)
}

func runCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		checkReference(t, tc.src, baseEnv)
		got, err := Eval(tc.src, baseEnv())
		if tc.err != "" {
			if err == nil {
				t.Errorf("%s: got %#v, want error containing %q", tc.src, got, tc.err)
			} else if !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %q, want it to contain %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: unexpected error: %v", tc.src, err)
			continue
		}
		if !sameValue(got, tc.want) {
			t.Errorf("%s = %#v, want %#v", tc.src, got, tc.want)
		}
	}
}

// sameValue compares kind and value exactly (NaN equals NaN).
func sameValue(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindFloat:
		fa, fb := a.float(), b.float()
		return fa == fb || (math.IsNaN(fa) && math.IsNaN(fb))
	case KindOther:
		return reflect.DeepEqual(a.Other(), b.Other())
	}
	return a == b
}

func TestLiterals(t *testing.T) {
	runCases(t, []evalCase{
		{src: "42", want: Int(42)},
		{src: "007", want: Int(7)},
		{src: "0x1F", want: Int(31)},
		{src: "0X1f", want: Int(31)},
		{src: "0x7FFFFFFFFFFFFFFF", want: Int(math.MaxInt64)},
		{src: "9223372036854775807", want: Int(math.MaxInt64)},
		{src: "3.14", want: Float(3.14)},
		{src: "1e-3", want: Float(0.001)},
		{src: "2.5E+2", want: Float(250)},
		{src: "3e2", want: Float(300)},
		{src: "0.5", want: Float(0.5)},
		{src: "true", want: Bool(true)},
		{src: "false", want: Bool(false)},
		{src: "'hello world '", want: String("hello world ")},
		{src: "''", want: String("")},
		{src: "'a \"quoted\" word'", want: String(`a "quoted" word`)},
		{src: "'multi\nline'", want: String("multi\nline")},
		{src: "-628", want: Float(-628)}, // unary minus is arithmetic: a Float
		{src: "-3.14", want: Float(-3.14)},
	})
}

func TestNamesAndEnums(t *testing.T) {
	runCases(t, []evalCase{
		{src: "i", want: Int(7)},
		{src: "s", want: String("ab")},
		{src: "empty", want: Value{}},
		{src: "@root_x", want: Int(100)},
		{src: "@root_x + 1", want: Float(101)},
		{src: "GREEN", want: Int(2)},
		{src: "THE_ANSWER", want: Int(42)},
		{src: "RED", want: Int(1)}, // the enum shadows the variable RED
		{src: "GREEN == 2", want: Bool(true)},
		{src: "x := GREEN; x", want: Int(2)},
		{src: "missing", err: `the entry "missing" does not exist`},
		{src: "opaque", err: `cannot read "opaque": holds a Go struct`},
		{src: "RED := 3", err: `cannot assign to "RED": it is an enum name`},
		{src: "bad_name + 1", err: `cannot bind "bad_name": names may not be bad`},
	})
}

func TestArithmetic(t *testing.T) {
	runCases(t, []evalCase{
		// Every arithmetic result is a Float.
		{src: "2 + 3", want: Float(5)},
		{src: "2 * 3", want: Float(6)},
		{src: "7 / 2", want: Float(3.5)},
		{src: "3 - 7", want: Float(-4)},
		{src: "i + f", want: Float(9.5)},
		{src: "i * 2", want: Float(14)},
		{src: "i / 2", want: Float(3.5)},
		{src: "-f", want: Float(-2.5)},
		{src: "-i", want: Float(-7)},
		{src: "- -i", want: Float(7)},
		{src: "--i", want: Float(7)},
		{src: "-(-(-1))", want: Float(-1)},
		// Bool counts as 1/0 in arithmetic.
		{src: "true + 1", want: Float(2)},
		{src: "t * 5", want: Float(5)},
		{src: "-true", want: Float(-1)},
		{src: "no - 1", want: Float(-1)},
		// Division by zero follows IEEE doubles, as in BT.CPP.
		{src: "1 / 0", want: Float(math.Inf(1))},
		{src: "-1 / 0", want: Float(math.Inf(-1))},
		{src: "i / zero", want: Float(math.Inf(1))},
		{src: "0.0 / 0", want: Float(math.NaN())},
		{src: "1 / 0 > 1000000", want: Bool(true)},
		{src: "0 / 0 == 0 / 0", want: Bool(false)},
		{src: "0 / 0 != 0 / 0", want: Bool(true)},
		{src: "x := 1 / 0; x > 1e308", want: Bool(true)},
		{src: "1e308 * 10", want: Float(math.Inf(1))},
		// Strings.
		{src: "s + 'cd'", want: String("abcd")},
		{src: "'a' + 'b' + 'c'", want: String("abc")},
		{src: "s - 'a'", err: "operator - not allowed on strings"},
		{src: "s * 2", err: "operator * not allowed between string and int"},
		{src: "2 / s", err: "operator / not allowed between int and string"},
		{src: "s + 1", err: "operator + not allowed between string and int; use .. to concatenate"},
		{src: "-s", err: "operator - not allowed on strings"},
		// Uninitialised operands.
		{src: "empty + 1", err: "left operand of + is not initialised"},
		{src: "1 * empty", err: "right operand of * is not initialised"},
		{src: "-empty", err: "operand of - is not initialised"},
	})
}

func TestConcat(t *testing.T) {
	runCases(t, []evalCase{
		{src: "s .. 'cd'", want: String("abcd")},
		{src: "'n=' .. 42", want: String("n=42")},
		{src: "'d=' .. 2.5", want: String("d=2.5")},
		{src: "'d=' .. 3.0", want: String("d=3")},
		{src: "'q=' .. 7 / 2", want: String("q=3.5")}, // .. and / : / binds tighter
		{src: "42 .. '!'", want: String("42!")},
		{src: "1 .. 2", want: String("12")}, // BT.CPP: an empty value
		{src: "65..66", want: String("6566")},
		{src: "'b=' .. true", want: String("b=true")},
		{src: "'x' .. i .. f", want: String("x72.5")},
		{src: "'sum=' .. 1 + 2", err: "operator + not allowed between string and int"}, // ('sum=' .. 1) + 2
		{src: "'sum=' .. (1 + 2)", want: String("sum=3")},
		{src: "'big=' .. 1e21", want: String("big=1e+21")},
		{src: "'small=' .. 0.1", want: String("small=0.1")},
		{src: "'e=' .. empty", err: "right operand of .. is not initialised"},
	})
}

func TestBitwise(t *testing.T) {
	runCases(t, []evalCase{
		{src: "5 & 3", want: Float(1)},
		{src: "5 | 3", want: Float(7)},
		{src: "5 ^ 3", want: Float(6)},
		{src: "~0", want: Float(-1)},
		{src: "~5", want: Float(-6)},
		{src: "0xF0 | 0x0F", want: Float(255)},
		{src: "6.0 & 3", want: Float(2)}, // integral floats are fine
		{src: "true | 2", want: Float(3)},
		{src: "i ^ 5.1", err: "operator ^ needs integers, got float 5.1"},
		{src: "~2.5", err: "operator ~ needs integers, got float 2.5"},
		{src: "s & 1", err: "operator & not allowed on strings"},
		{src: "~s", err: "operator ~ not allowed on strings"},
		{src: "empty | 1", err: "left operand of | is not initialised"},
		{src: "~empty", err: "operand of ~ is not initialised"},
	})
}

func TestLogic(t *testing.T) {
	runCases(t, []evalCase{
		{src: "true && true", want: Bool(true)},
		{src: "true && false", want: Bool(false)},
		{src: "false || true", want: Bool(true)},
		{src: "false || false", want: Bool(false)},
		{src: "(true && !false) || false", want: Bool(true)},
		{src: "!true", want: Bool(false)},
		{src: "!!true", want: Bool(true)},
		{src: "!0", want: Bool(true)},
		{src: "!i", want: Bool(false)},
		{src: "!f", want: Bool(false)},
		{src: "i && f", want: Bool(true)}, // numbers: non-zero is true
		{src: "zero || no", want: Bool(false)},
		// Strings that spell booleans work with ! && || (BT.CPP issue #1122).
		{src: "!str_true", want: Bool(false)},
		{src: "!str_false", want: Bool(true)},
		{src: "str_true && t", want: Bool(true)},
		{src: "str_false || str_one", want: Bool(true)},
		{src: "!'TRUE'", want: Bool(false)},
		{src: "!'False'", want: Bool(true)},
		{src: "!'0'", want: Bool(true)},
		{src: "!s", err: `operator ! needs booleans, got string "ab"`},
		{src: "s && true", err: `operator && needs booleans, got string "ab"`},
		{src: "true && s", err: `operator && needs booleans, got string "ab"`},
		{src: "!empty", err: "operand of ! is not initialised"},
		{src: "empty && true", err: "left operand of && is not initialised"},
		{src: "true || empty", want: Bool(true)},
		// Short-circuit: the right side is not evaluated when the left decides.
		{src: "false && missing", want: Bool(false)},
		{src: "true || missing", want: Bool(true)},
		{src: "false && (x := 1); x", err: `the entry "x" does not exist`},
		{src: "true && missing", err: `the entry "missing" does not exist`},
		{src: "true && empty", err: "right operand of && is not initialised"},
	})
}

func TestComparison(t *testing.T) {
	runCases(t, []evalCase{
		{src: "3 > 2", want: Bool(true)},
		{src: "2 == 2.0", want: Bool(true)},
		{src: "'a' != 'b'", want: Bool(true)},
		{src: "4 <= 3", want: Bool(false)},
		{src: "4 >= 4", want: Bool(true)},
		{src: "3 < 3", want: Bool(false)},
		{src: "i == 7", want: Bool(true)},
		{src: "i != 7", want: Bool(false)},
		// == and != between numbers tolerate float32 epsilon.
		{src: "0.1 + 0.2 == 0.3", want: Bool(true)},
		{src: "1 == 1.0000001", want: Bool(true)},
		{src: "1 == 1.000001", want: Bool(false)},
		{src: "1 != 1.0000001", want: Bool(false)},
		{src: "1 < 1.0000001", want: Bool(true)},                         // ordering is exact
		{src: "9007199254740993 == 9007199254740992", want: Bool(false)}, // ints exactly
		// Strings compare bytewise.
		{src: "'hello' < 'world'", want: Bool(true)},
		{src: "'hello' > 'world'", want: Bool(false)},
		{src: "'abc' < 'abd'", want: Bool(true)},
		{src: "'B' < 'a'", want: Bool(true)},
		{src: "s == 'ab'", want: Bool(true)},
		// Bools compare as 1/0.
		{src: "t == true", want: Bool(true)},
		{src: "t == 1", want: Bool(true)},
		{src: "no < t", want: Bool(true)},
		// A string against a number is converted: boolean spelling, enum, number.
		{src: "str_num == 3", want: Bool(true)},
		{src: "3 == str_num", want: Bool(true)},
		{src: "'3.5' > 3", want: Bool(true)},
		{src: "str_true == 1", want: Bool(true)},
		{src: "str_true == true", want: Bool(true)},
		{src: "'false' == no", want: Bool(true)},
		{src: "'GREEN' == 2", want: Bool(true)},
		{src: "GREEN == 'GREEN'", want: Bool(true)},
		{src: "s == 1", err: `cannot compare string "ab" with int 1`},
		{src: "2.5 < 'x'", err: `cannot compare float 2.5 with string "x"`},
		{src: "empty == 0", err: "left operand of == is not initialised"},
		{src: "0 < empty", err: "right operand of < is not initialised"},
		// Chains: a < b < c means a < b && b < c.
		{src: "1 < 2 < 3", want: Bool(true)},
		{src: "1 < 3 < 2", want: Bool(false)},
		{src: "3 > 2 > 1", want: Bool(true)},
		{src: "1 < 2 == 2", want: Bool(true)}, // 1<2 && 2==2, not (1<2)==2
		{src: "2 == 2 == 2", want: Bool(true)},
		{src: "1 == 1 != 2 < 3 <= 3 >= 0 > -1", want: Bool(true)},
		{src: "i > 5 < 10", want: Bool(true)},
		// A chain stops at the first false link.
		{src: "2 < 1 < missing", want: Bool(false)},
		{src: "1 < 2 < missing", err: `the entry "missing" does not exist`},
	})
}

// TestOtherValues checks what a script does with Go values that are not
// numbers, booleans or strings (the reference's Any of a user type): it
// copies, returns and compares them for equality where Go can; arithmetic,
// ordering and logic are errors that name the operator and the types.
func TestOtherValues(t *testing.T) {
	runCases(t, []evalCase{
		{src: "pa", want: Other(point{1, 2})},
		{src: "q := pa; q", want: Other(point{1, 2})},
		{src: "pc = pa; pc", want: Other(point{1, 2})},
		{src: "t ? pa : pc", want: Other(point{1, 2})},
		{src: "pa == pb", want: Bool(true)},
		{src: "pa != pb", want: Bool(false)},
		{src: "pa == pc", want: Bool(false)},
		{src: "!(pa != pc)", want: Bool(false)},
		{src: "ptr == ptr", want: Bool(true)},
		{src: "pa == pb == pb", want: Bool(true)},
		{src: "'p=' .. pa", want: String("p={1 2}")},
		{src: "pa == ptr", err: "cannot compare script.point {1 2} with *script.point &{5 6}"},
		{src: "pa == 1", err: "cannot compare script.point {1 2} with int 1"},
		{src: "'x' != pa", err: `cannot compare string "x" with script.point {1 2}`},
		{src: "sl == sl", err: "operator ==: values of type []int cannot be compared"},
		{src: "nested != nested", err: "operator !=: values of type script.holder cannot be compared"},
		{src: "pa < pb", err: "operator < needs numbers or strings, got script.point and script.point"},
		{src: "1 >= pa", err: "operator >= needs numbers or strings, got int and script.point"},
		{src: "pa + 1", err: "operator + not allowed between script.point and int"},
		{src: "'a' + pa", err: "operator + not allowed between string and script.point"},
		{src: "pa * pb", err: "operator * not allowed between script.point and script.point"},
		{src: "-pa", err: "operator - not allowed on script.point"},
		{src: "pa & 1", err: "operator & needs integers, got script.point {1 2}"},
		{src: "~pa", err: "operator ~ needs integers, got script.point {1 2}"},
		{src: "!pa", err: "operator ! needs booleans, got script.point {1 2}"},
		{src: "t && pa", err: "operator && needs booleans, got script.point {1 2}"},
		{src: "pa ? 1 : 2", err: "condition of ?: needs a number, a boolean or a string, got script.point {1 2}"},
		{src: "pa += 1", err: `operator += not allowed between script.point and int: "pa" holds script.point {1 2}`},
		{src: "i -= pa", err: `operator -= not allowed between int and script.point: "i" holds int 7`},
		{src: "s += pa", err: `operator += not allowed between string and script.point: "s" holds string "ab"`},
	})
}

func TestOtherValueConversions(t *testing.T) {
	v := Other(point{1, 2})
	if v.Kind() != KindOther || v.Other() != (point{1, 2}) || v.String() != "{1 2}" || v.Str() != "" {
		t.Errorf("Other(point{1, 2}) = %#v: kind %v, Other %v, String %q, Str %q", v, v.Kind(), v.Other(), v.String(), v.Str())
	}
	if Other(nil).Kind() != KindNil || Int(1).Other() != nil {
		t.Errorf("Other(nil) is %v, Int(1).Other() is %v; want nil and nil", Other(nil).Kind(), Int(1).Other())
	}
	if _, err := v.Condition(); err == nil || err.Error() != "a script.point is not a boolean" {
		t.Errorf("Condition: %v", err)
	}
	if _, err := v.Truthy(); err == nil || err.Error() != "a script.point is not a boolean" {
		t.Errorf("Truthy: %v", err)
	}
	if got := v.GoString(); got != "script.Other(script.point{X:1, Y:2})" {
		t.Errorf("GoString = %s", got)
	}
	// The box of an Other value is reachable only through the Value's string
	// field: it must survive garbage collections.
	vals := make([]Value, 100)
	for i := range vals {
		vals[i] = Other(&point{float64(i), 0})
	}
	runtime.GC()
	runtime.GC()
	for i, v := range vals {
		if p, ok := v.Other().(*point); !ok || p.X != float64(i) {
			t.Fatalf("value %d after GC: %#v", i, v)
		}
	}
}

func TestConditional(t *testing.T) {
	runCases(t, []evalCase{
		{src: "i > 10 ? 'big' : 'small'", want: String("small")},
		{src: "i > 5 ? 'big' : 'small'", want: String("big")},
		{src: "true ? 1 : 2", want: Int(1)},
		{src: "0 ? 1 : 2", want: Int(2)},
		{src: "f ? 1 : 2", want: Int(1)},
		{src: "s ? 1 : 2", want: Int(1)},
		{src: "'' ? 1 : 2", want: Int(2)},
		{src: "str_false ? 1 : 2", want: Int(1)}, // non-empty string: true (as BT.CPP)
		{src: "empty ? 1 : 2", err: "condition of ?: is not initialised"},
		// Nesting: right-associative in the else branch, any expression in the middle.
		{src: "false ? 1 : true ? 2 : 3", want: Int(2)},
		{src: "false ? 1 : false ? 2 : 3", want: Int(3)},
		{src: "true ? false ? 1 : 2 : 3", want: Int(2)},
		{src: "(true ? false : true) ? 1 : 2", want: Int(2)},
		{src: "1 < 2 ? 'y' : 'n'", want: String("y")},
		{src: "true || false ? 'y' : 'n'", want: String("y")},
		{src: "false ? 1 : 2 + 3", want: Float(5)},
		{src: "true ? x := 5 : 0; x", want: Int(5)},
		// Only the chosen branch runs.
		{src: "true ? 1 : missing", want: Int(1)},
		{src: "false ? missing : 2", want: Int(2)},
		{src: "y := 0; true ? (y := 1) : (y := 2); y", want: Int(1)},
	})
}

func TestPrecedence(t *testing.T) {
	runCases(t, []evalCase{
		{src: "2 + 3 * 4", want: Float(14)},
		{src: "(2 + 3) * 4", want: Float(20)},
		{src: "2 * 3 + 4", want: Float(10)},
		{src: "10 - 4 - 3", want: Float(3)}, // left-associative
		{src: "64 / 4 / 2", want: Float(8)},
		{src: "10 - (4 - 3)", want: Float(9)},
		{src: "-2 * 3", want: Float(-6)},
		{src: "-(2 * 3)", want: Float(-6)},
		{src: "2 * -3", want: Float(-6)},
		{src: "1 + 2 & 3", want: Float(3)}, // & is looser than +: (1+2)&3
		{src: "1 | 2 & 3", want: Float(3)}, // & tighter than |: 1|(2&3)
		{src: "6 ^ 3 | 1", want: Float(5)}, // ^ and | share a level, left to right
		{src: "6 | 3 ^ 1", want: Float(6)}, // (6|3)^1
		{src: "1 | 2 == 3", want: Bool(true)},
		{src: "1 < 2 && 2 < 3", want: Bool(true)},
		{src: "false && false || true", want: Bool(true)}, // && tighter than ||
		{src: "true || false && false", want: Bool(true)},
		{src: "!false && false", want: Bool(false)}, // ! binds tighter than &&
		{src: "!(false && false)", want: Bool(true)},
		{src: "!1 == 0", want: Bool(true)}, // (!1) == 0
		{src: "-2 + 5", want: Float(3)},
		{src: "~1 + 1", want: Float(-1)},
		{src: "x := 1 + 2 * 3; x", want: Float(7)},
		{src: "x := y := 4; x + y", want: Float(8)}, // assignment nests to the right
		{src: "x := 3 > 2 ? 'a' : 'b'; x", want: String("a")},
		{src: "(x := 2) * 5", want: Float(10)},
		{src: "i + 1 > 7 && s == 'ab'", want: Bool(true)},
	})
}

func TestStatements(t *testing.T) {
	runCases(t, []evalCase{
		{src: "x:= 3; y:=5; x+y", want: Float(8)},
		{src: "x := 1;", want: Int(1)},
		{src: "x := 1;;; y := 2;;", want: Int(2)},
		{src: "x := 1\ny := 2\nx + y", want: Float(3)}, // line breaks separate statements
		{src: "x := 1\r\ny := 2", want: Int(2)},
		{src: "x := 1\n+ 2; x", want: Float(3)}, // an operator continues the statement
		{src: " \t x := 5 \n ", want: Int(5)},
		{src: "A:='hello'; B:=' '; C:='world'; A+B+C", want: String("hello world")},
		{src: "x := 1; missing; x := 2", err: `the entry "missing" does not exist`},
	})
}

func TestAssignment(t *testing.T) {
	runCases(t, []evalCase{
		{src: "x := 3", want: Int(3)},
		{src: "x := 'msg'", want: String("msg")},
		{src: "x := true", want: Bool(true)},
		{src: "x := 2.5", want: Float(2.5)},
		{src: "i := 9; i", want: Int(9)},
		{src: "i = 9; i", want: Int(9)},
		{src: "@root_x = 5; @root_x", want: Int(5)},
		{src: "@new := 5", want: Int(5)},
		{src: "empty = 4; empty", want: Int(4)},
		{src: "x = 1", err: `the entry "x" does not exist; use := to create it`},
		{src: "x += 1", err: `the entry "x" does not exist; use := to create it`},
		{src: "x = missing", err: `the entry "x" does not exist; use := to create it`},
		{src: "x := missing", err: `the entry "missing" does not exist`},
		{src: "x := empty", err: "right operand of := is not initialised"},
		{src: "i = empty", err: "right operand of = is not initialised"},
		// Compound operators compute a Float; the integer entry narrows it back.
		{src: "i += 3", want: Int(10)},
		{src: "i -= 1", want: Int(6)},
		{src: "i *= 2", want: Int(14)},
		{src: "i /= 7", want: Int(1)},
		{src: "i += 3; i -= 1; i *= 2; i", want: Int(18)},
		{src: "i += true", want: Int(8)},
		{src: "i /= 2", err: `cannot assign float 3.5 to "i": 3.5 is not an integer`},
		{src: "i /= 0", err: `cannot assign float +Inf to "i": +Inf is not an integer`},
		{src: "f /= 0", want: Float(math.Inf(1))},
		{src: "f /= 0; f -= f", want: Float(math.NaN())},
		{src: "f += 1", want: Float(3.5)},
		{src: "f /= 2", want: Float(1.25)},
		{src: "f *= i", want: Float(17.5)},
		{src: "s += 'cd'", want: String("abcd")},
		{src: "s += '!'; s += '?'; s", want: String("ab!?")},
		{src: "s = s .. 'cd'", want: String("abcd")},
		{src: "s -= 'a'", err: "operator -= not allowed on strings"},
		{src: "s *= 2", err: `operator *= not allowed between string and int: "s" holds a string`},
		{src: "s += 1", err: `operator += not allowed between string and int: "s" holds a string`},
		{src: "i += 'x'", err: `operator += not allowed between int and string: "i" holds int 7`},
		{src: "empty += 1", err: "left operand of += is not initialised"},
		{src: "i += empty", err: "right operand of += is not initialised"},
		{src: "i -= missing", err: `the entry "missing" does not exist`},
		// The entry keeps its kind.
		{src: "s = 3", err: `cannot assign int 3 to "s": a string entry cannot hold int`},
		{src: "i = 2.5", err: `cannot assign float 2.5 to "i": 2.5 is not an integer`},
		{src: "i = 4.0", want: Int(4)},
		{src: "i = '12'", want: Int(12)},
		{src: "f = 1", want: Float(1)},
		{src: "t = 0", want: Bool(false)},
		{src: "t = !t", want: Bool(false)},
		{src: "x := 1; x = x + 1; x", want: Int(2)}, // 2.0 narrowed by the int entry
		{src: "x := 1; x += 1; x", want: Int(2)},
		{src: "n := 0; n += 1; n += 1; n", want: Int(2)},
	})
}

// TestAssignmentTyping checks assignments into entries declared with a kind
// before any value was stored (a port declared an int, say).
func TestAssignmentTyping(t *testing.T) {
	tests := []struct {
		kind Kind
		src  string
		want Value
		err  string
	}{
		{kind: KindInt, src: "v = 7 / 7", want: Int(1)},
		{kind: KindInt, src: "v := 1.5", err: "1.5 is not an integer"},
		{kind: KindString, src: "v = 'x'", want: String("x")},
		{kind: KindString, src: "v = 1", err: "a string entry cannot hold int"},
		{kind: KindBool, src: "v = 'True'", want: Bool(true)},
		{kind: KindFloat, src: "v := 2", want: Float(2)},
	}
	for _, tc := range tests {
		env := newEnv().declare("v", tc.kind)
		got, err := Eval(tc.src, env)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s into %s: error %v, want %q", tc.src, tc.kind, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s into %s: %v", tc.src, tc.kind, err)
		case !sameValue(got, tc.want):
			t.Errorf("%s into %s = %#v, want %#v", tc.src, tc.kind, got, tc.want)
		}
	}
}

func TestAssignmentSideEffects(t *testing.T) {
	env := newEnv()
	s, err := Parse("n := 0; n += 1; msg := 'n=' .. n")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(env)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	if got := env.vars["n"].val; !sameValue(got, Int(1)) {
		t.Errorf("n = %#v, want Int(1)", got)
	}
	if got := env.vars["msg"].val; !sameValue(got, String("n=1")) {
		t.Errorf("msg = %#v, want String(\"n=1\")", got)
	}
	// Running again re-evaluates against the current values.
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	if got := env.vars["msg"].val.Str(); got != "n=1" {
		t.Errorf("after second run msg = %q, want n=1 (n := 0 resets)", got)
	}

	// "=" on a missing entry fails before its right side runs.
	env = newEnv()
	if _, err := Eval("x = (y := 1)", env); err == nil {
		t.Fatal("x = (y := 1) succeeded")
	}
	if env.vars["y"].exists {
		t.Error("the right side of a failing = ran")
	}
	// Statements before a failing one keep their effect.
	env = newEnv()
	if _, err := Eval("a := 1; b = 2; c := 3", env); err == nil {
		t.Fatal("want an error")
	}
	if !env.vars["a"].exists || env.vars["c"].exists {
		t.Errorf("a exists %v (want true), c exists %v (want false)", env.vars["a"].exists, env.vars["c"].exists)
	}
}

func TestCompileBindsEachNameOnce(t *testing.T) {
	env := baseEnv()
	s, err := Parse("x := i; x += i; y := x + i + RED; @root_x")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(s.Names(), ","), "@root_x,RED,i,x,y"; got != want {
		t.Errorf("Names() = %s, want %s", got, want)
	}
	if _, err := s.Compile(env); err != nil {
		t.Fatal(err)
	}
	// RED is an enum: never bound as a variable.
	if got, want := strings.Join(env.binds, ","), "x,i,y,@root_x"; got != want {
		t.Errorf("Var calls = %s, want %s", got, want)
	}
}

func TestCompileNilEnv(t *testing.T) {
	v, err := Eval("1 + 2 * 3 .. ''", nil)
	if err != nil || v.Str() != "7" {
		t.Errorf("got %#v, %v; want \"7\"", v, err)
	}
	_, err = Eval("x + 1", nil)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Col != 1 || !strings.Contains(se.Msg, `unknown name "x"`) {
		t.Errorf("got %v, want a *SyntaxError at 1:1 about x", err)
	}
}

func TestErrorTypes(t *testing.T) {
	_, err := Eval("x := 1 +", nil)
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("syntax: got %T %v", err, err)
	}

	_, err = Eval("n = 1", newEnv())
	var re *RuntimeError
	if !errors.As(err, &re) {
		t.Fatalf("runtime: got %T %v", err, err)
	}
	if want := `script "n = 1": the entry "n" does not exist; use := to create it`; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err, want)
	}
	if re.Offset != 2 {
		t.Errorf("Offset = %d, want 2 (the operator)", re.Offset)
	}

	// A Var's error is kept for errors.Is / errors.As.
	env := newEnv().declare("s", KindString)
	_, err = Eval("a := 1;\ns = a", env)
	if !errors.As(err, &re) || re.Err == nil || re.Offset != 10 || re.Line != 2 || re.Col != 3 {
		t.Fatalf("got %#v", err)
	}
	if !strings.Contains(err.Error(), `script "a := 1;\ns = a": cannot assign int 1 to "s"`) {
		t.Errorf("Error() = %q", err)
	}

	_, err = Eval("bad_name", newEnv())
	if !errors.As(err, &se) || se.Err == nil || se.Err.Error() != "names may not be bad" {
		t.Errorf("bind error: got %#v", err)
	}
}

func TestLoadCount(t *testing.T) {
	// A chain evaluates each middle operand once.
	env := baseEnv()
	if _, err := Eval("1 < i < 10", env); err != nil {
		t.Fatal(err)
	}
	if n := env.vars["i"].loads; n != 1 {
		t.Errorf("i loaded %d times, want 1", n)
	}
}

func TestRunRepeatedly(t *testing.T) {
	env := newEnv().set("n", Int(0))
	s, err := Parse("n += 1; n < 4")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(env)
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for range 5 {
		v, err := p.Run()
		if err != nil {
			t.Fatal(err)
		}
		b, err := v.Truthy()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b)
	}
	if want := []bool{true, true, true, false, false}; !equalBools(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if n := env.vars["n"].val; !sameValue(n, Int(5)) {
		t.Errorf("n = %#v, want Int(5)", n)
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestConformanceScripts runs the scripts of conformance case 023 and checks
// the blackboard BT.CPP produced.
func TestConformanceScripts(t *testing.T) {
	env := newEnv()
	for _, src := range []string{
		"i := 7; d := 2.5; s := 'ab'",
		"sum := i + d; prod := i * 2; quot := i / 2; diff := 3 - i; neg := -d",
		"i += 3; i -= 1; i *= 2; d /= 2",
		"s = s .. 'cd'; s += '!'; num := 'n=' .. 42",
		"cmp := 3 > 2; eq := 2 == 2.0; ne := 'a' != 'b'; le := 4 <= 3",
		"logic := (true && !false) || false; tern := i > 10 ? 'big' : 'small'",
		"prec := 2 + 3 * 4; par := (2 + 3) * 4; hex := 0x1F",
	} {
		if _, err := Eval(src, env); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	cond, err := Eval("i == 18 && s == 'abcd!'", env)
	if ok, _ := cond.Truthy(); err != nil || !ok {
		t.Fatalf("condition: %#v, %v", cond, err)
	}
	want := map[string]float64{
		"cmp": 1, "d": 1.25, "diff": -4, "eq": 1, "hex": 31, "i": 18, "le": 0, "logic": 1,
		"ne": 1, "neg": -2.5, "par": 20, "prec": 14, "prod": 14, "quot": 3.5, "sum": 9.5,
	}
	for name, w := range want {
		if got := env.vars[name].val.Float(); got != w {
			t.Errorf("%s = %v, want %v", name, env.vars[name].val, w)
		}
	}
	for name, w := range map[string]string{"s": "abcd!", "num": "n=42", "tern": "big"} {
		if got := env.vars[name].val; got.kind != KindString || got.s != w {
			t.Errorf("%s = %#v, want %q", name, got, w)
		}
	}
	if got := env.vars["i"].val.kind; got != KindInt {
		t.Errorf("i is %s, want int (integer entries stay integral)", got)
	}
}

func TestStringLimit(t *testing.T) {
	src := "s := 'ab'" + strings.Repeat("; s := s .. s", 19) // 2^20 bytes: fits
	v, err := Eval(src, newEnv())
	if err != nil || len(v.Str()) != 1<<20 {
		t.Fatalf("got %d bytes, %v", len(v.Str()), err)
	}
	for _, more := range []string{"; s .. 'x'", "; s + 'x'", "; s += 'x'", "; 'x' .. s"} {
		_, err := Eval(src+more, newEnv())
		if err == nil || !strings.Contains(err.Error(), "the result would be longer than 1048576 bytes") {
			t.Errorf("%s: got %v", more, err)
		}
	}
}

var errBroken = errors.New("broken entry")

// brokenEnv's variables exist but cannot be read or written.
type brokenEnv struct{}

func (brokenEnv) Var(string) (Var, error)   { return brokenVar{}, nil }
func (brokenEnv) Enum(string) (int64, bool) { return 0, false }

type brokenVar struct{}

func (brokenVar) Load() (Value, error) { return Value{}, errBroken }
func (brokenVar) Exists() bool         { return true }
func (brokenVar) Assign(Value) error   { return errBroken }

func TestVarErrorsUnwrap(t *testing.T) {
	for _, src := range []string{"x", "x + 1", "x := 1", "x += 1", "1 < x"} {
		_, err := Eval(src, brokenEnv{})
		var re *RuntimeError
		if !errors.Is(err, errBroken) || !errors.As(err, &re) {
			t.Errorf("%s: got %v, want a *RuntimeError wrapping errBroken", src, err)
		}
	}
	_, err := Eval("x := 1", brokenEnv{})
	if want := `script "x := 1": cannot assign int 1 to "x": broken entry`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	_, err = Eval("x + 1", brokenEnv{})
	if want := `script "x + 1": cannot read "x": broken entry`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	sentinel := errors.New("refused")
	_, err = Eval("1 +\n  y", refusingEnv{sentinel})
	var se *SyntaxError
	if !errors.Is(err, sentinel) || !errors.As(err, &se) || se.Line != 2 || se.Col != 3 {
		t.Errorf("got %#v, want a *SyntaxError at 2:3 wrapping the Env's error", err)
	}
}

type refusingEnv struct{ err error }

func (e refusingEnv) Var(string) (Var, error)   { return nil, e.err }
func (e refusingEnv) Enum(string) (int64, bool) { return 0, false }
