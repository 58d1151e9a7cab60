package script

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"
)

// Kind is the type of a Value.
type Kind uint8

// The kinds of Value. The zero Value has kind Nil.
//
// The constants carry a Kind prefix because Int, Float, Bool and String are
// the constructors of Value.
const (
	KindNil    Kind = iota // no value: an entry that exists but is empty
	KindInt                // int64
	KindFloat              // float64
	KindBool               // true or false
	KindString             // immutable string
	KindOther              // any other Go value, which a script moves, assigns and compares for equality
)

var kindNames = [...]string{KindNil: "nil", KindInt: "int", KindFloat: "float", KindBool: "bool", KindString: "string", KindOther: "other"}

// String returns the lower-case name of the kind ("int", "string", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is a script value: a kind, a 64-bit payload and a string. It is small
// and copied by value; building one allocates only for Other. Values compare
// with == as their kind and contents, except those of kind Other.
//
// It is four words, the most the Go compiler keeps in registers: a fifth (an
// interface for Other values beside the string) made every script run 1.5 to
// 1.9 times as many instructions. So an Other value keeps its Go value in a
// box that the string field points to (see Other), which keeps the box alive
// for the garbage collector; the string's one byte is the box's first, never
// read as text.
type Value struct {
	s    string // String: the string; Other: one byte, at its box
	n    uint64 // Int: int64 bits; Float: IEEE bits; Bool: 0 or 1
	kind Kind
}

// box holds the Go value of an Other value.
type box struct{ x any }

// Int returns an Int value.
func Int(i int64) Value { return Value{n: uint64(i), kind: KindInt} }

// Float returns a Float value.
func Float(f float64) Value { return Value{n: math.Float64bits(f), kind: KindFloat} }

// Bool returns a Bool value.
func Bool(b bool) Value {
	if b {
		return Value{n: 1, kind: KindBool}
	}
	return Value{kind: KindBool}
}

// String returns a String value.
func String(s string) Value { return Value{s: s, kind: KindString} }

// Other returns a Value holding x as it is, of kind Other: how a [Var] hands
// a script a value that is not a number, a boolean or a string (a struct, a
// pointer, a slice …), so that the script can copy it to another variable,
// compare it for equality and return it. Other(nil) is the Nil Value. Use
// Int, Float, Bool and String for the kinds a script computes with: Other
// keeps even a number opaque. It allocates the box that holds x. == on two
// Values of kind Other says nothing about what they hold: scripts compare
// them with Go's == on the values (see Comparison in the package
// documentation).
func Other(x any) Value {
	if x == nil {
		return Value{}
	}
	b := &box{x}
	return Value{s: unsafe.String((*byte)(unsafe.Pointer(b)), 1), kind: KindOther}
}

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.kind }

// Int returns v as an integer: the value of an Int, a Float truncated toward
// zero (clamped to the int64 range, NaN gives 0), 1 or 0 for a Bool, and 0 for
// a String or Nil.
func (v Value) Int() int64 {
	switch v.kind {
	case KindInt:
		return int64(v.n)
	case KindFloat:
		return truncInt(v.float())
	case KindBool:
		return int64(v.n)
	}
	return 0
}

// Float returns v as a float64: the value of a number, 1 or 0 for a Bool, and
// 0 for a String or Nil.
func (v Value) Float() float64 {
	switch v.kind {
	case KindInt:
		return float64(int64(v.n))
	case KindFloat:
		return v.float()
	case KindBool:
		return float64(v.n)
	}
	return 0
}

// Str returns the string of a String value and "" for any other kind.
// Use String for the display form of any value.
func (v Value) Str() string {
	if v.kind != KindString {
		return ""
	}
	return v.s
}

// Other returns the Go value of an Other value and nil for any other kind.
func (v Value) Other() any {
	if v.kind != KindOther {
		return nil
	}
	return (*box)(unsafe.Pointer(unsafe.StringData(v.s))).x
}

// Truthy reports whether v counts as true for the operators ! && ||: a Bool is
// itself, a number is true when it is not zero, and a string is accepted only
// when it spells a boolean ("true", "True", "TRUE", "1", "false", "False",
// "FALSE", "0"), which is how booleans arrive in string entries. Anything else,
// and Nil, is an error. An engine deciding a condition uses Condition, which is
// stricter.
func (v Value) Truthy() (bool, error) {
	switch v.kind {
	case KindBool:
		return v.n != 0, nil
	case KindInt:
		return v.n != 0, nil
	case KindFloat:
		return v.float() != 0, nil
	case KindString:
		if b, ok := parseBool(v.s); ok {
			return b, nil
		}
		return false, fmt.Errorf("the string %q is not a boolean", v.s)
	case KindOther:
		return false, fmt.Errorf("a %s is not a boolean", v.typeName())
	}
	return false, fmt.Errorf("the value is not initialised")
}

// Condition converts v, the value of a script, into the outcome of a
// condition (ScriptCondition, the pre-conditions, Precondition's if) as BT.CPP
// 4.10 casts it to bool: a Bool is itself; an Int must be 0 or 1; a Float is
// true unless it is zero, as a C++ cast (so NaN is true). Any other Int is an
// error ("implicit casting to bool is not allowed", BT.CPP says), and so are a
// String, even 'true' (BT.CPP has no cast from a string to bool), and Nil.
func (v Value) Condition() (bool, error) {
	switch v.kind {
	case KindBool:
		return v.n != 0, nil
	case KindInt:
		if v.n <= 1 {
			return v.n == 1, nil
		}
		return false, fmt.Errorf("the int %d is not a boolean: only 0 and 1 are (implicit casting to bool is not allowed)", int64(v.n))
	case KindFloat:
		return v.float() != 0, nil
	case KindString:
		return false, fmt.Errorf("the string %q is not a boolean", v.s)
	case KindOther:
		return false, fmt.Errorf("a %s is not a boolean", v.typeName())
	}
	return false, fmt.Errorf("the value is not initialised")
}

// String returns the display form of v: integers in decimal, floats in the
// shortest form that reads back exactly ("2.5", "3", "1e+21"), booleans as
// "true"/"false", strings as they are, what fmt.Sprint gives for an Other
// value (its String method, if it has one) and "nil" for Nil. The ..
// operator uses the same form.
func (v Value) String() string {
	switch v.kind {
	case KindInt:
		return strconv.FormatInt(int64(v.n), 10)
	case KindFloat:
		return formatFloat(v.float())
	case KindBool:
		if v.n != 0 {
			return "true"
		}
		return "false"
	case KindString:
		return v.s
	case KindOther:
		return fmt.Sprint(v.Other())
	}
	return "nil"
}

// GoString shows the kind as well, for test failures and %#v.
func (v Value) GoString() string {
	switch v.kind {
	case KindInt:
		return "script.Int(" + v.String() + ")"
	case KindFloat:
		return "script.Float(" + strconv.FormatFloat(v.float(), 'g', -1, 64) + ")"
	case KindBool:
		return "script.Bool(" + v.String() + ")"
	case KindString:
		return "script.String(" + strconv.Quote(v.s) + ")"
	case KindOther:
		return fmt.Sprintf("script.Other(%#v)", v.Other())
	}
	return "script.Value{}"
}

func (v Value) float() float64 { return math.Float64frombits(v.n) }

// isNumber reports whether v takes part in arithmetic: Int, Float, and Bool
// (as 1/0, where BT.CPP stores booleans as the doubles 1.0 and 0.0).
func (v Value) isNumber() bool { return v.kind-KindInt <= KindBool-KindInt } // Int, Float or Bool

// typeName names the type of a value in an error message: its kind, or the
// Go type of an Other value ("main.Position2D").
func (v Value) typeName() string {
	if v.kind == KindOther {
		return fmt.Sprintf("%T", v.Other())
	}
	return v.kind.String()
}

// describe names a value in an error message: its type and, for short values,
// the value itself.
func (v Value) describe() string {
	switch v.kind {
	case KindNil:
		return "nil"
	case KindString:
		return "string " + strconv.Quote(shorten(v.s))
	case KindOther:
		return v.typeName() + " " + shorten(v.String())
	}
	return v.kind.String() + " " + v.String()
}

// shorten cuts a long text for an error message.
func shorten(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// formatFloat writes the shortest decimal that reads back as f, in plain
// notation for magnitudes from 1e-6 up to 1e21 and in exponent notation
// outside that range (the rule JavaScript uses).
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case f == 0:
		return "0"
	}
	if a := math.Abs(f); a < 1e-6 || a >= 1e21 {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func truncInt(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// parseBool accepts the spellings BT.CPP's convertFromString<bool> accepts.
func parseBool(s string) (value, ok bool) {
	switch s {
	case "true", "True", "TRUE", "1":
		return true, true
	case "false", "False", "FALSE", "0":
		return false, true
	}
	return false, false
}
