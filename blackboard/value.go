package blackboard

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
)

// Kind is the shape of a Value's payload.
type Kind uint8

const (
	// KindEmpty is the zero Value: no payload. Reading an absent or empty entry gives it.
	KindEmpty Kind = iota
	// KindInt holds any Go integer that fits in an int64 (also unsigned ones).
	KindInt
	// KindUint holds an unsigned integer above math.MaxInt64; every smaller integer is KindInt.
	KindUint
	// KindFloat holds a float32 or float64 (as a float64).
	KindFloat
	// KindBool holds a bool.
	KindBool
	// KindString holds a string.
	KindString
	// KindOther holds any other Go value (slices, structs, pointers …).
	KindOther
)

var kindNames = [...]string{"empty", "int", "uint", "float", "bool", "string", "other"}

// String returns the lower-case name of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is an immutable snapshot of a blackboard value: a kind, 64 bits of payload for
// numbers and bools, and a pointer to an immutable box for strings and other values.
// Values are small (three words) so that they are passed in registers.
//
// A Value remembers the Go type it was made from: ValueOf(int8(3)) is a KindInt whose
// Type is int8, so an entry set from it is typed int8 and Get[int8] returns it as is.
// Int, Float, Bool and String make values of type int64, float64, bool and string.
// The zero Value is KindEmpty.
type Value struct {
	kind Kind
	tc   tcode
	bits uint64
	p    *payload // nil for numbers and bools of a basic type and for ""
}

// payload is the part of a value that does not fit in 64 bits. It is never modified
// once made, so Values and entries share it freely.
type payload struct {
	str string // KindString
	x   any    // KindOther: the value; tcNamed: the reflect.Type of the value
}

// Int returns an integer Value of type int64.
func Int(n int64) Value { return Value{kind: KindInt, tc: tcInt64, bits: uint64(n)} }

// Uint returns an integer Value of type uint64: KindInt when n fits in an int64,
// KindUint otherwise.
func Uint(n uint64) Value { return uintValue(n, tcUint64) }

// Float returns a Value of type float64.
func Float(f float64) Value {
	return Value{kind: KindFloat, tc: tcFloat64, bits: math.Float64bits(f)}
}

// Bool returns a Value of type bool.
func Bool(b bool) Value { return Value{kind: KindBool, tc: tcBool, bits: b2u(b)} }

// String returns a Value of type string.
func String(s string) Value {
	if s == "" {
		return Value{kind: KindString, tc: tcString}
	}
	return Value{kind: KindString, tc: tcString, p: &payload{str: s}}
}

func uintValue(n uint64, tc tcode) Value {
	if n > math.MaxInt64 {
		return Value{kind: KindUint, tc: tc, bits: n}
	}
	return Value{kind: KindInt, tc: tc, bits: n}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// ValueOf makes a Value from a Go value: every integer type becomes KindInt (or
// KindUint), float32 and float64 KindFloat, and so on, keeping the Go type, also for
// named types such as time.Duration or an enum type. A Value is returned unchanged,
// nil gives the empty Value, and anything else is KindOther.
func ValueOf(x any) Value {
	switch v := x.(type) {
	case nil:
		return Value{}
	case Value:
		return v
	case int:
		return Value{kind: KindInt, tc: tcInt, bits: uint64(v)}
	case int8:
		return Value{kind: KindInt, tc: tcInt8, bits: uint64(v)}
	case int16:
		return Value{kind: KindInt, tc: tcInt16, bits: uint64(v)}
	case int32:
		return Value{kind: KindInt, tc: tcInt32, bits: uint64(v)}
	case int64:
		return Value{kind: KindInt, tc: tcInt64, bits: uint64(v)}
	case uint:
		return uintValue(uint64(v), tcUint)
	case uint8:
		return Value{kind: KindInt, tc: tcUint8, bits: uint64(v)}
	case uint16:
		return Value{kind: KindInt, tc: tcUint16, bits: uint64(v)}
	case uint32:
		return Value{kind: KindInt, tc: tcUint32, bits: uint64(v)}
	case uint64:
		return uintValue(v, tcUint64)
	case uintptr:
		return uintValue(uint64(v), tcUintptr)
	case float32:
		return Value{kind: KindFloat, tc: tcFloat32, bits: math.Float64bits(float64(v))}
	case float64:
		return Value{kind: KindFloat, tc: tcFloat64, bits: math.Float64bits(v)}
	case bool:
		return Value{kind: KindBool, tc: tcBool, bits: b2u(v)}
	case string:
		return String(v)
	case time.Duration:
		return Value{kind: KindInt, tc: tcDuration, bits: uint64(v)}
	}
	return valueOfReflect(x)
}

// valueOfReflect handles named scalar types (enums, named strings) and KindOther.
func valueOfReflect(x any) Value {
	rv := reflect.ValueOf(x)
	t := rv.Type()
	tc := codeOf(t)
	var v Value
	switch k := t.Kind(); {
	case isIntKind(k):
		v = Value{kind: KindInt, bits: uint64(rv.Int())}
	case isUintKind(k):
		v = uintValue(rv.Uint(), tc)
	case isFloatKind(k):
		v = Value{kind: KindFloat, bits: math.Float64bits(rv.Float())}
	case k == reflect.Bool:
		v = Value{kind: KindBool, bits: b2u(rv.Bool())}
	case k == reflect.String:
		if tc == tcString {
			return String(rv.String())
		}
		return Value{kind: KindString, tc: tc, p: &payload{str: rv.String(), x: t}}
	default:
		return Value{kind: KindOther, p: &payload{x: x}}
	}
	v.tc = tc
	if tc == tcNamed {
		v.p = &payload{x: t}
	}
	return v
}

// scalar builds a Value of kind k with the given payload and the Go type d (whose box,
// for a named type, carries the reflect.Type).
func scalar(k Kind, bits uint64, str string, d *declared) Value {
	v := Value{kind: k, tc: d.tc, bits: bits}
	switch {
	case k == KindString && (str != "" || d.tc == tcNamed):
		v.p = &payload{str: str, x: d.p.orNil()}
	case k != KindString && d.tc == tcNamed:
		v.p = d.p
	}
	return v
}

func (p *payload) orNil() any {
	if p == nil {
		return nil
	}
	return p.x
}

// s returns the string payload.
func (v Value) s() string {
	if v.p == nil {
		return ""
	}
	return v.p.str
}

// other returns the boxed Go value of a KindOther (or the type of a named scalar).
func (v Value) other() any { return v.p.orNil() }

// Kind returns the kind of the payload.
func (v Value) Kind() Kind { return v.kind }

// IsEmpty reports whether v is the empty Value.
func (v Value) IsEmpty() bool { return v.kind == KindEmpty }

// Int returns the payload of a KindInt value (a KindUint value wraps around; a KindBool
// gives 1 or 0) and 0 for other kinds. Use Get for checked conversions.
func (v Value) Int() int64 {
	switch v.kind {
	case KindInt, KindUint, KindBool:
		return int64(v.bits)
	}
	return 0
}

// Uint returns the payload of a KindInt or KindUint value as a uint64 (a negative
// KindInt wraps around) and 0 for other kinds.
func (v Value) Uint() uint64 {
	switch v.kind {
	case KindInt, KindUint, KindBool:
		return v.bits
	}
	return 0
}

// Float returns the value of any numeric kind as a float64 (rounded if needed), 1 or 0
// for a KindBool, and 0 for other kinds.
func (v Value) Float() float64 {
	switch v.kind {
	case KindFloat:
		return math.Float64frombits(v.bits)
	case KindInt:
		return float64(int64(v.bits))
	case KindUint, KindBool:
		return float64(v.bits)
	}
	return 0
}

// Bool returns the payload of a KindBool value and false for other kinds.
func (v Value) Bool() bool { return v.kind == KindBool && v.bits != 0 }

// Str returns the payload of a KindString value and "" for other kinds.
func (v Value) Str() string {
	if v.kind != KindString {
		return ""
	}
	return v.s()
}

// Any returns the value as a Go value of its own type (an int8 Value gives an int8),
// or nil for the empty Value. It allocates for most scalars.
func (v Value) Any() any {
	switch v.kind {
	case KindEmpty:
		return nil
	case KindOther:
		return v.other()
	}
	switch v.tc {
	case tcInt:
		return int(int64(v.bits))
	case tcInt8:
		return int8(int64(v.bits))
	case tcInt16:
		return int16(int64(v.bits))
	case tcInt32:
		return int32(int64(v.bits))
	case tcInt64:
		return int64(v.bits)
	case tcUint:
		return uint(v.bits)
	case tcUint8:
		return uint8(v.bits)
	case tcUint16:
		return uint16(v.bits)
	case tcUint32:
		return uint32(v.bits)
	case tcUint64:
		return v.bits
	case tcUintptr:
		return uintptr(v.bits)
	case tcFloat32:
		return float32(math.Float64frombits(v.bits))
	case tcFloat64:
		return math.Float64frombits(v.bits)
	case tcBool:
		return v.bits != 0
	case tcString:
		return v.s()
	case tcDuration:
		return time.Duration(int64(v.bits))
	}
	rv := reflect.New(v.other().(reflect.Type)).Elem()
	switch v.kind {
	case KindInt, KindUint:
		if isIntKind(rv.Kind()) {
			rv.SetInt(int64(v.bits))
		} else {
			rv.SetUint(v.bits)
		}
	case KindFloat:
		rv.SetFloat(math.Float64frombits(v.bits))
	case KindBool:
		rv.SetBool(v.bits != 0)
	case KindString:
		rv.SetString(v.s())
	}
	return rv.Interface()
}

// Type returns the Go type of the value, nil for the empty Value.
func (v Value) Type() reflect.Type {
	switch {
	case v.kind == KindEmpty:
		return nil
	case v.kind == KindOther:
		return reflect.TypeOf(v.other())
	case v.tc == tcNamed:
		return v.other().(reflect.Type)
	}
	return basicTypes[v.tc]
}

// isPlainString reports a KindString of type string: the "universal donor" that leaves
// a generic entry generic.
func (v Value) isPlainString() bool { return v.kind == KindString && v.tc == tcString }

// String formats the value for messages: strings are quoted, the empty Value is
// "<empty>", and long values are shortened.
func (v Value) String() string {
	switch v.kind {
	case KindEmpty:
		return "<empty>"
	case KindString:
		return strconv.Quote(shorten(v.s()))
	case KindOther:
		return shorten(fmt.Sprint(v.other()))
	}
	return v.text()
}

// text formats a scalar the way Get[string] does: strconv, shortest float form.
func (v Value) text() string {
	switch v.kind {
	case KindInt:
		return strconv.FormatInt(int64(v.bits), 10)
	case KindUint:
		return strconv.FormatUint(v.bits, 10)
	case KindFloat:
		return strconv.FormatFloat(math.Float64frombits(v.bits), 'g', -1, 64)
	case KindBool:
		return strconv.FormatBool(v.bits != 0)
	case KindString:
		return v.s()
	}
	return ""
}

// describe is "type value" for error messages, e.g. `float64 2.5`.
func (v Value) describe() string {
	return typeName(v.Type()) + " " + v.String()
}

func shorten(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
