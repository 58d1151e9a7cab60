package script

import (
	"math"
	"testing"
)

func TestValueString(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{Value{}, "nil"},
		{Int(42), "42"},
		{Int(-7), "-7"},
		{Int(math.MinInt64), "-9223372036854775808"},
		{Float(2.5), "2.5"},
		{Float(3), "3"},
		{Float(-3), "-3"},
		{Float(0), "0"},
		{Float(math.Copysign(0, -1)), "0"},
		{Float(0.1), "0.1"},
		{Float(1.0 / 3), "0.3333333333333333"},
		{Float(1234567), "1234567"},
		{Float(1e20), "100000000000000000000"},
		{Float(1e21), "1e+21"},
		{Float(1.5e300), "1.5e+300"},
		{Float(0.000001), "0.000001"},
		{Float(1e-7), "1e-07"},
		{Float(math.Inf(1)), "+Inf"},
		{Float(math.Inf(-1)), "-Inf"},
		{Float(math.NaN()), "NaN"},
		{Bool(true), "true"},
		{Bool(false), "false"},
		{String(""), ""},
		{String("it's"), "it's"},
	}
	for _, tc := range tests {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestValueAccessors(t *testing.T) {
	tests := []struct {
		v    Value
		kind Kind
		i    int64
		f    float64
		s    string
	}{
		{Value{}, KindNil, 0, 0, ""},
		{Int(-3), KindInt, -3, -3, ""},
		{Float(2.75), KindFloat, 2, 2.75, ""},
		{Float(-2.75), KindFloat, -2, -2.75, ""},
		{Float(1e300), KindFloat, math.MaxInt64, 1e300, ""},
		{Float(-1e300), KindFloat, math.MinInt64, -1e300, ""},
		{Float(math.NaN()), KindFloat, 0, math.NaN(), ""},
		{Bool(true), KindBool, 1, 1, ""},
		{Bool(false), KindBool, 0, 0, ""},
		{String("12"), KindString, 0, 0, "12"},
	}
	for _, tc := range tests {
		if tc.v.Kind() != tc.kind {
			t.Errorf("%#v.Kind() = %v, want %v", tc.v, tc.v.Kind(), tc.kind)
		}
		if got := tc.v.Int(); got != tc.i {
			t.Errorf("%#v.Int() = %d, want %d", tc.v, got, tc.i)
		}
		if got := tc.v.Float(); got != tc.f && !(math.IsNaN(got) && math.IsNaN(tc.f)) {
			t.Errorf("%#v.Float() = %v, want %v", tc.v, got, tc.f)
		}
		if got := tc.v.Str(); got != tc.s {
			t.Errorf("%#v.Str() = %q, want %q", tc.v, got, tc.s)
		}
	}
}

// boolCase is a Value and what a conversion to bool gives: want, or the error err.
type boolCase struct {
	v    Value
	want bool
	err  string
}

func checkBool(t *testing.T, method string, conv func(Value) (bool, error), tests []boolCase) {
	t.Helper()
	for _, tc := range tests {
		got, err := conv(tc.v)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%#v.%s() error = %v, want %q", tc.v, method, err, tc.err)
			}
		case err != nil:
			t.Errorf("%#v.%s(): %v", tc.v, method, err)
		case got != tc.want:
			t.Errorf("%#v.%s() = %v, want %v", tc.v, method, got, tc.want)
		}
	}
}

func TestValueCondition(t *testing.T) {
	checkBool(t, "Condition", Value.Condition, []boolCase{
		{v: Bool(true), want: true},
		{v: Bool(false), want: false},
		{v: Int(0), want: false},
		{v: Int(1), want: true},
		{v: Int(2), err: "the int 2 is not a boolean: only 0 and 1 are (implicit casting to bool is not allowed)"},
		{v: Int(-1), err: "the int -1 is not a boolean: only 0 and 1 are (implicit casting to bool is not allowed)"},
		{v: Float(0), want: false},
		{v: Float(math.Copysign(0, -1)), want: false},
		{v: Float(0.5), want: true},
		{v: Float(2), want: true},
		{v: Float(math.Inf(1)), want: true},
		{v: Float(math.NaN()), want: true},
		{v: String("true"), err: `the string "true" is not a boolean`},
		{v: String("1"), err: `the string "1" is not a boolean`},
		{v: String(""), err: `the string "" is not a boolean`},
		{v: Value{}, err: "the value is not initialised"},
	})
}

func TestValueTruthy(t *testing.T) {
	checkBool(t, "Truthy", Value.Truthy, []boolCase{
		{v: Bool(true), want: true},
		{v: Bool(false), want: false},
		{v: Int(0), want: false},
		{v: Int(5), want: true}, // Condition rejects ints other than 0 and 1
		{v: Int(-1), want: true},
		{v: Float(0), want: false},
		{v: Float(0.5), want: true},
		{v: String("true"), want: true},
		{v: String("True"), want: true},
		{v: String("TRUE"), want: true},
		{v: String("1"), want: true},
		{v: String("false"), want: false},
		{v: String("False"), want: false},
		{v: String("FALSE"), want: false},
		{v: String("0"), want: false},
		{v: String("yes"), err: `the string "yes" is not a boolean`},
		{v: String(""), err: `the string "" is not a boolean`},
		{v: String("tRuE"), err: `the string "tRuE" is not a boolean`},
		{v: Value{}, err: "the value is not initialised"},
	})
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{
		KindNil: "nil", KindInt: "int", KindFloat: "float", KindBool: "bool", KindString: "string", 9: "kind(9)",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestValueGoString(t *testing.T) {
	for v, want := range map[Value]string{
		{}:            "script.Value{}",
		Int(3):        "script.Int(3)",
		Float(3):      "script.Float(3)",
		Float(1e21):   "script.Float(1e+21)",
		Bool(true):    "script.Bool(true)",
		String(`a"b`): `script.String("a\"b")`,
	} {
		if got := v.GoString(); got != want {
			t.Errorf("GoString() = %s, want %s", got, want)
		}
	}
}

func TestValueComparable(t *testing.T) {
	// Values are comparable with ==, which the engine may rely on for
	// change detection.
	if Int(1) == Float(1) || String("1") == Int(1) || Bool(true) == Int(1) {
		t.Error("values of different kinds compare equal")
	}
	if Int(1) != Int(1) || String("x") != String("x") {
		t.Error("equal values compare different")
	}
}
