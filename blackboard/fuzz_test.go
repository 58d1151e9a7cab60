package blackboard

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

var fuzzTypes = []reflect.Type{
	tInt, tInt8, tUint8, typeOf[uint64](), tInt64, tFloat64, tFloat32, tBool, tString, tDur,
	typeOf[int16](), typeOf[uint32](), typeOf[uint](), typeOf[uintptr](), typeOf[small](), typeOf[ratio](),
	tInts, typeOf[[]float64](), typeOf[[]string](), tLevel, tPoint, typeOf[map[string]int](),
	typeOf[upper](), typeOf[time.Time](), typeOf[[]bool](), nil,
}

// FuzzParse checks that Parse never panics, returns exactly the requested type, and
// that formatting a parsed value and parsing it again gives the same value.
func FuzzParse(f *testing.F) {
	seeds := []string{"", "0", "-1", "+7", "0x1F", "-0x80", "255", "256", "9223372036854775808",
		"1.5", "-1e3", "inf", "NaN", "0x1p-2", "true", "FALSE", "yes", "1;2;3", "1;2;", ";",
		"json:[1,2]", `json:{"X":1}`, "1.5s", "250", "HIGH", "LOW;HIGH", "2024-01-02T03:04:05Z", "a;;b"}
	for i, s := range seeds {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		typ := fuzzTypes[int(which)%len(fuzzTypes)]
		got, err := Parse(s, typ, testEnums)
		if typ != nil {
			// the reflection path must agree with the fast path for basic types
			rv, rerr := parse(s, typ, testEnums)
			switch {
			case (err == nil) != (rerr == nil):
				t.Fatalf("Parse(%q, %v): fast path %v, reflection %v", s, typ, err, rerr)
			case err != nil && err.Error() != rerr.Error():
				t.Fatalf("Parse(%q, %v): fast path %q, reflection %q", s, typ, err, rerr)
			case err == nil && !equalParsed(got, rv.Interface()):
				t.Fatalf("Parse(%q, %v): fast path %#v, reflection %#v", s, typ, got, rv.Interface())
			}
		}
		if err != nil {
			if got != nil {
				t.Fatalf("Parse(%q, %v) returned %#v with error %v", s, typ, got, err)
			}
			return
		}
		if typ != nil && reflect.TypeOf(got) != typ {
			t.Fatalf("Parse(%q, %v) has type %T", s, typ, got)
		}
		text, ok := format(got)
		if !ok {
			return
		}
		again, err := Parse(text, typ, testEnums)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v, formatted %q, which does not parse: %v", s, got, text, err)
		}
		if !equalParsed(got, again) {
			t.Fatalf("Parse(%q) = %#v, formatted %q, parses as %#v", s, got, text, again)
		}
	})
}

// format writes v in a form Parse reads back, when there is one.
func format(v any) (string, bool) {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x), true
	case int8, uint8, int64, uint64, level:
		return fmt.Sprint(x), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32), true
	case bool:
		return strconv.FormatBool(x), true
	case string:
		return x, true
	case time.Duration:
		return x.String(), true
	case []int:
		parts := make([]string, len(x))
		for i, n := range x {
			parts[i] = strconv.Itoa(n)
		}
		return strings.Join(parts, ";"), true
	}
	return "", false
}

// equalParsed is reflect.DeepEqual, except that NaN equals NaN, wherever it is (a
// named float type, a slice element).
func equalParsed(a, b any) bool { return equalNaN(reflect.ValueOf(a), reflect.ValueOf(b)) }

func equalNaN(x, y reflect.Value) bool {
	if !x.IsValid() || !y.IsValid() || x.Type() != y.Type() {
		return x.IsValid() == y.IsValid() && (!x.IsValid() || x.Type() == y.Type())
	}
	switch x.Kind() {
	case reflect.Float32, reflect.Float64:
		return x.Float() == y.Float() || math.IsNaN(x.Float()) && math.IsNaN(y.Float())
	case reflect.Slice, reflect.Array:
		if x.Len() != y.Len() {
			return false
		}
		for i := range x.Len() {
			if !equalNaN(x.Index(i), y.Index(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(x.Interface(), y.Interface())
}

// FuzzUnmarshalJSON checks that importing never panics and that an import exports to
// JSON that imports back to the same export.
func FuzzUnmarshalJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":1.5,"b":"x","c":[1,2],"d":null}`,
		`{"a":[1,2.5],"b":[true],"c":{"__type":"Pose","x":[1]}}`, `{"a":18446744073709551615}`,
		`{"a":1e999}`, `{"":1}`, `{"@":1,"@@a":2,"@b":3}`, `[1]`, `{"a":"\ud800"}`, `{"a":-0.0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		bb := New()
		if err := bb.UnmarshalJSON(data); err != nil {
			return
		}
		first, err := bb.MarshalJSON()
		if err != nil {
			t.Fatalf("export after import of %q: %v", data, err)
		}
		again := New()
		if err := again.UnmarshalJSON(first); err != nil {
			t.Fatalf("re-import of %s: %v", first, err)
		}
		second, err := again.MarshalJSON()
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("export not stable:\n%s\n%s (%v)", first, second, err)
		}
	})
}
