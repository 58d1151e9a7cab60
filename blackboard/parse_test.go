package blackboard

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
)

// upper implements encoding.TextUnmarshaler on its pointer.
type upper string

func (u *upper) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty")
	}
	*u = upper("<" + string(b) + ">")
	return nil
}

// mode is an integer enum with its own text form, which wins over the enum lookup.
type mode int

func (m *mode) UnmarshalText(b []byte) error {
	if string(b) == "auto" {
		*m = 9
		return nil
	}
	return fmt.Errorf("unknown mode %q", b)
}

// Named scalar types take the reflection path of Parse.
type (
	ratio   float32
	switchy bool
	small   uint16
)

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		typ  reflect.Type
		want any
		err  string
	}{
		// integers
		{"42", tInt, 42, ""},
		{"-42", tInt, -42, ""},
		{"+7", tInt, 7, ""},
		{"0x1F", tInt, 31, ""},
		{"0X1f", tInt, 31, ""},
		{"-0x10", tInt, -16, ""},
		{"007", tInt, 7, ""}, // decimal, not octal
		{"9223372036854775807", tInt64, int64(math.MaxInt64), ""},
		{"-9223372036854775808", tInt64, int64(math.MinInt64), ""},
		{"9223372036854775808", tInt64, nil, `cannot parse "9223372036854775808" as int64: out of range`},
		{"-9223372036854775809", tInt64, nil, "out of range"},
		{"99999999999999999999999", tInt64, nil, "out of range"},
		{"127", typeOf[int8](), int8(127), ""},
		{"128", typeOf[int8](), nil, `cannot parse "128" as int8: out of range`},
		{"-128", typeOf[int8](), int8(-128), ""},
		{"-32769", typeOf[int16](), nil, "out of range"},
		{"2147483648", typeOf[int32](), nil, "out of range"},
		{"255", tUint8, uint8(255), ""},
		{"256", tUint8, nil, `cannot parse "256" as uint8: out of range`},
		{"-1", tUint8, nil, "out of range"},
		{"-0", tUint8, uint8(0), ""},
		{"0xffffffffffffffff", typeOf[uint64](), uint64(math.MaxUint64), ""},
		{"65536", typeOf[uint16](), nil, "out of range"},
		{"4294967295", typeOf[uint32](), uint32(math.MaxUint32), ""},
		{"abc", tInt, nil, `cannot parse "abc" as int: invalid syntax`},
		{"12abc", tInt, nil, "invalid syntax"}, // no partial parse (BT.CPP quirk not copied)
		{"", tInt, nil, `cannot parse "" as int: invalid syntax`},
		{" 1", tInt, nil, "invalid syntax"},
		{"1_000", tInt, nil, "invalid syntax"},
		{"0x", tInt, nil, "invalid syntax"},
		{"--1", tInt, nil, "invalid syntax"},
		{"+-1", tInt, nil, "invalid syntax"},
		{"0b101", tInt, nil, "invalid syntax"},
		{"1.0", tInt, nil, "invalid syntax"},
		{"HIGH", tInt, 3, ""},                     // enum name
		{"HIGH", typeOf[uint16](), uint16(3), ""}, //
		{"HUGE", typeOf[int8](), nil, "out of range"},
		{"HUGE", tUint8, nil, "out of range"},
		{"HIGH", tLevel, level(3), ""},
		{"2", tLevel, level(2), ""},
		{"auto", typeOf[mode](), mode(9), ""}, // TextUnmarshaler wins over enums
		{"HIGH", typeOf[mode](), nil, `cannot parse "HIGH" as blackboard.mode: unknown mode "HIGH"`},

		// named scalar types
		{"0.25", typeOf[ratio](), ratio(0.25), ""},
		{"1e39", typeOf[ratio](), nil, `cannot parse "1e39" as blackboard.ratio: out of range`},
		{"TRUE", typeOf[switchy](), switchy(true), ""},
		{"yes", typeOf[switchy](), nil, `cannot parse "yes" as blackboard.switchy`},
		{"65535", typeOf[small](), small(65535), ""},
		{"70000", typeOf[small](), nil, `cannot parse "70000" as blackboard.small: out of range`},
		{"HIGH", typeOf[small](), small(3), ""},
		{"-1", typeOf[small](), nil, "out of range"},

		// floats
		{"2.5", tFloat64, 2.5, ""},
		{"-1e3", tFloat64, -1000.0, ""},
		{"3", tFloat64, 3.0, ""},
		{".5", tFloat64, 0.5, ""},
		{"inf", tFloat64, math.Inf(1), ""},
		{"-Inf", tFloat64, math.Inf(-1), ""},
		{"0.1", tFloat32, float32(0.1), ""},
		{"1e39", tFloat32, nil, `cannot parse "1e39" as float32: out of range`},
		{"1e400", tFloat64, nil, "out of range"},
		{"0x1p-2", tFloat64, nil, "invalid syntax"},
		{"-0x1p-2", tFloat64, nil, "invalid syntax"},
		{"1_0.5", tFloat64, nil, "invalid syntax"},
		{"2.5x", tFloat64, nil, "invalid syntax"},
		{"", tFloat64, nil, "invalid syntax"},

		// bools
		{"1", tBool, true, ""},
		{"true", tBool, true, ""},
		{"True", tBool, true, ""},
		{"TRUE", tBool, true, ""},
		{"0", tBool, false, ""},
		{"false", tBool, false, ""},
		{"False", tBool, false, ""},
		{"FALSE", tBool, false, ""},
		{"tRue", tBool, nil, `cannot parse "tRue" as bool`},
		{"yes", tBool, nil, `cannot parse "yes" as bool`},

		// strings
		{"any text; really", tString, "any text; really", ""},
		{"red", typeOf[color](), color("red"), ""},
		{"x", nil, "x", ""},
		{"x", typeOf[any](), "x", ""},
		{"x", typeOf[fmt.Stringer](), nil, `cannot parse "x" as fmt.Stringer: want "json:" followed by JSON`},

		// durations
		{"1.5s", tDur, 1500 * time.Millisecond, ""},
		{"2h3m", tDur, 2*time.Hour + 3*time.Minute, ""},
		{"250", tDur, 250 * time.Millisecond, ""},
		{"-5", tDur, -5 * time.Millisecond, ""},
		{"0", tDur, time.Duration(0), ""},
		{"0.5", tDur, 500 * time.Microsecond, ""},
		{"10 ms", tDur, nil, `cannot parse "10 ms" as time.Duration`},
		{"9223372036854775807", tDur, nil, "as time.Duration"},
		{"1e300", tDur, nil, "as time.Duration"},
		{"nan", tDur, nil, "as time.Duration"},

		// slices
		{"1;2;3", tInts, []int{1, 2, 3}, ""},
		{"1;2;3;", tInts, []int{1, 2, 3}, ""},
		{"", tInts, []int{}, ""},
		{";", tInts, nil, `cannot parse ";" as []int: element 1: cannot parse "" as int: invalid syntax`},
		{"1;x", tInts, nil, `cannot parse "1;x" as []int: element 2: cannot parse "x" as int: invalid syntax`},
		{"1; 2", tInts, nil, "element 2"},
		{"a;;b", typeOf[[]string](), []string{"a", "", "b"}, ""},
		{"1.5;2", typeOf[[]float64](), []float64{1.5, 2}, ""},
		{"true;0", typeOf[[]bool](), []bool{true, false}, ""},
		{"LOW;HIGH", typeOf[[]level](), []level{1, 3}, ""},
		{"1s;250", typeOf[[]time.Duration](), []time.Duration{time.Second, 250 * time.Millisecond}, ""},
		{"json:[1,2]", tInts, []int{1, 2}, ""},
		{`json:["a;b"]`, typeOf[[]string](), []string{"a;b"}, ""},
		{"json:[1,", tInts, nil, `cannot parse "json:[1," as []int: unexpected end of JSON input`},
		{"1;2", typeOf[intList](), intList{1, 2}, ""},

		// TextUnmarshaler
		{"abc", typeOf[upper](), upper("<abc>"), ""},
		{"", typeOf[upper](), nil, `cannot parse "" as blackboard.upper: empty`},
		{"10.0.0.1", typeOf[netip.Addr](), netip.MustParseAddr("10.0.0.1"), ""},
		{"2024-01-02T03:04:05Z", typeOf[time.Time](), time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), ""},

		// JSON for the rest
		{`json:{"X":1,"Y":-2}`, tPoint, point{1, -2}, ""},
		{`json:{"a":1}`, typeOf[map[string]int](), map[string]int{"a": 1}, ""},
		{`json:[1,2,3]`, typeOf[[3]int](), [3]int{1, 2, 3}, ""},
		{`json:{"X":1}`, typeOf[*point](), &point{X: 1}, ""},
		{`{"X":1}`, tPoint, nil, `cannot parse "{\"X\":1}" as blackboard.point: want "json:" followed by JSON`},
		{`json:{"X":"a"}`, tPoint, nil, "as blackboard.point: json: cannot unmarshal"},
		{"json:1", typeOf[chan int](), nil, "as chan int: json: cannot unmarshal"},
	}
	for _, c := range cases {
		got, err := Parse(c.in, c.typ, testEnums)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("Parse(%q, %v): %v", c.in, c.typ, err)
		case c.err != "" && err == nil:
			t.Errorf("Parse(%q, %v) = %#v, want error %q", c.in, c.typ, got, c.err)
		case c.err != "" && !containsErr(err, c.err):
			t.Errorf("Parse(%q, %v): error %q, want %q", c.in, c.typ, err, c.err)
		case c.err == "" && !reflect.DeepEqual(got, c.want):
			t.Errorf("Parse(%q, %v) = %#v, want %#v", c.in, c.typ, got, c.want)
		case c.err == "" && c.typ != nil && c.typ.Kind() != reflect.Interface && reflect.TypeOf(got) != c.typ:
			t.Errorf("Parse(%q, %v) has type %T", c.in, c.typ, got)
		}
		if err != nil && !errors.Is(err, ErrType) {
			t.Errorf("Parse(%q, %v): error does not wrap ErrType", c.in, c.typ)
		}
	}
}

func containsErr(err error, s string) bool {
	return err != nil && strings.Contains(err.Error(), s)
}

func TestParseNaN(t *testing.T) {
	got, err := Parse("nan", tFloat64, nil)
	if err != nil || !math.IsNaN(got.(float64)) {
		t.Errorf("got %v, %v", got, err)
	}
}

func TestParseWithoutEnums(t *testing.T) {
	if _, err := Parse("HIGH", tInt, nil); err == nil {
		t.Error("enum name parsed without enums")
	}
}

func TestParseErrorShortensInput(t *testing.T) {
	long := make([]byte, 500)
	for i := range long {
		long[i] = 'z'
	}
	_, err := Parse(string(long), tInt, nil)
	if err == nil || len(err.Error()) > 120 {
		t.Errorf("error too long: %d bytes", len(err.Error()))
	}
}
