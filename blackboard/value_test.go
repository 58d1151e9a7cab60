package blackboard

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

type level int8 // an enum-like named integer type

type color string

type point struct{ X, Y int }

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// same reports whether two values are identical: kind, Go type and payload.
func same(a, b Value) bool {
	if a.kind != b.kind || a.Type() != b.Type() {
		return false
	}
	switch a.kind {
	case KindOther:
		return reflect.DeepEqual(a.other(), b.other())
	case KindString:
		return a.s() == b.s()
	}
	return a.bits == b.bits
}

func TestValueOf(t *testing.T) {
	cases := []struct {
		in   any
		kind Kind
		typ  reflect.Type
		str  string // Value.String()
	}{
		{nil, KindEmpty, nil, "<empty>"},
		{42, KindInt, typeOf[int](), "42"},
		{int8(-3), KindInt, typeOf[int8](), "-3"},
		{int16(300), KindInt, typeOf[int16](), "300"},
		{int32(-70000), KindInt, typeOf[int32](), "-70000"},
		{int64(math.MinInt64), KindInt, typeOf[int64](), "-9223372036854775808"},
		{uint(7), KindInt, typeOf[uint](), "7"},
		{uint8(255), KindInt, typeOf[uint8](), "255"},
		{uint16(65535), KindInt, typeOf[uint16](), "65535"},
		{uint32(1 << 31), KindInt, typeOf[uint32](), "2147483648"},
		{uint64(math.MaxInt64), KindInt, typeOf[uint64](), "9223372036854775807"},
		{uint64(math.MaxUint64), KindUint, typeOf[uint64](), "18446744073709551615"},
		{uint(math.MaxUint64), KindUint, typeOf[uint](), "18446744073709551615"},
		{uintptr(9), KindInt, typeOf[uintptr](), "9"},
		{float32(0.5), KindFloat, typeOf[float32](), "0.5"},
		{2.5, KindFloat, typeOf[float64](), "2.5"},
		{true, KindBool, typeOf[bool](), "true"},
		{"hi", KindString, typeOf[string](), `"hi"`},
		{time.Second, KindInt, typeOf[time.Duration](), "1000000000"},
		{level(2), KindInt, typeOf[level](), "2"},
		{color("red"), KindString, typeOf[color](), `"red"`},
		{[]int{1, 2}, KindOther, typeOf[[]int](), "[1 2]"},
		{point{1, 2}, KindOther, typeOf[point](), "{1 2}"},
		{&point{}, KindOther, typeOf[*point](), "&{0 0}"},
		{Int(5), KindInt, typeOf[int64](), "5"},
	}
	for _, c := range cases {
		v := ValueOf(c.in)
		if v.Kind() != c.kind || v.Type() != c.typ || v.String() != c.str {
			t.Errorf("ValueOf(%#v) = kind %v, type %v, %s; want %v, %v, %s",
				c.in, v.Kind(), v.Type(), v, c.kind, c.typ, c.str)
		}
		want := c.in
		if w, ok := c.in.(Value); ok {
			want = w.Any()
		}
		if got := v.Any(); !reflect.DeepEqual(got, want) {
			t.Errorf("ValueOf(%#v).Any() = %#v", c.in, got)
		}
	}
}

// Named types whose Go kind is a scalar keep their type through reflection.
func TestValueOfNamedUnsigned(t *testing.T) {
	type big uint64
	v := ValueOf(big(math.MaxUint64))
	if v.Kind() != KindUint || v.Type() != typeOf[big]() || v.Any() != big(math.MaxUint64) {
		t.Errorf("got %v %v %#v", v.Kind(), v.Type(), v.Any())
	}
	type flag bool
	if v := ValueOf(flag(true)); v.Kind() != KindBool || v.Any() != flag(true) {
		t.Errorf("flag: got %v %#v", v.Kind(), v.Any())
	}
	type ratio float32
	if v := ValueOf(ratio(0.25)); v.Kind() != KindFloat || v.Any() != ratio(0.25) {
		t.Errorf("ratio: got %v %#v", v.Kind(), v.Any())
	}
}

func TestConstructorsAndAccessors(t *testing.T) {
	cases := []struct {
		v    Value
		kind Kind
		i    int64
		u    uint64
		f    float64
		b    bool
		s    string
		typ  reflect.Type
	}{
		{Int(-7), KindInt, -7, math.MaxUint64 - 6, -7, false, "", typeOf[int64]()},
		{Uint(7), KindInt, 7, 7, 7, false, "", typeOf[uint64]()},
		{Uint(math.MaxUint64), KindUint, -1, math.MaxUint64, math.MaxUint64, false, "", typeOf[uint64]()},
		{Float(2.5), KindFloat, 0, 0, 2.5, false, "", typeOf[float64]()},
		{Bool(true), KindBool, 1, 1, 1, true, "", typeOf[bool]()},
		{String("x"), KindString, 0, 0, 0, false, "x", typeOf[string]()},
		{Value{}, KindEmpty, 0, 0, 0, false, "", nil},
	}
	for _, c := range cases {
		v := c.v
		if v.Kind() != c.kind || v.Int() != c.i || v.Uint() != c.u || v.Float() != c.f ||
			v.Bool() != c.b || v.Str() != c.s || v.Type() != c.typ {
			t.Errorf("%s: kind %v int %d uint %d float %g bool %v str %q type %v",
				v, v.Kind(), v.Int(), v.Uint(), v.Float(), v.Bool(), v.Str(), v.Type())
		}
		if v.IsEmpty() != (c.kind == KindEmpty) {
			t.Errorf("%s: IsEmpty = %v", v, v.IsEmpty())
		}
	}
}

func TestKindString(t *testing.T) {
	want := "empty int uint float bool string other Kind(9)"
	var got []string
	for _, k := range []Kind{KindEmpty, KindInt, KindUint, KindFloat, KindBool, KindString, KindOther, 9} {
		got = append(got, k.String())
	}
	if s := strings.Join(got, " "); s != want {
		t.Errorf("got %q, want %q", s, want)
	}
}

func TestValueStringShortens(t *testing.T) {
	s := String(strings.Repeat("a", 100)).String()
	if len(s) > 70 || !strings.HasSuffix(s, `…"`) {
		t.Errorf("long string not shortened: %s", s)
	}
}

func TestValueMarshalJSON(t *testing.T) {
	cases := []struct {
		v    Value
		want string
	}{
		{Value{}, "null"},
		{Int(-3), "-3"},
		{Uint(math.MaxUint64), "18446744073709551615"},
		{Float(2), "2.0"},
		{Float(-0.5), "-0.5"},
		{Float(1e21), "1e+21"},
		{Float(1e-7), "1e-7"},
		{Float(-2.5e-300), "-2.5e-300"},
		{ValueOf([]float64{1, 0.5, math.Inf(1)}), "[1.0,0.5,null]"},
		{Float(123456789), "123456789.0"},
		{Float(math.NaN()), "null"},
		{Float(math.Inf(-1)), "null"},
		{Bool(false), "false"},
		{String("a<b>\"c\"\n"), `"a<b>\"c\"\n"`},
		{ValueOf([]int{1, 2}), "[1,2]"},
		{ValueOf(map[string]int{"b": 2, "a": 1}), `{"a":1,"b":2}`},
		{ValueOf(point{1, 2}), `{"X":1,"Y":2}`},
		{ValueOf(time.Millisecond), "1000000"},
	}
	for _, c := range cases {
		got, err := c.v.MarshalJSON()
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	if _, err := ValueOf(make(chan int)).MarshalJSON(); err == nil {
		t.Error("chan: no error")
	}
}
