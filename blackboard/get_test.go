package blackboard

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// getAs reads e as the type of want and compares (a generic helper for the table).
func getAs[T any](want T) func(*Entry) (string, error) {
	return func(e *Entry) (string, error) {
		got, err := Get[T](e)
		if err != nil {
			return "", err
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("got %#v, want %#v", got, want), nil
		}
		return "", nil
	}
}

func TestGet(t *testing.T) {
	cases := []struct {
		name string
		v    Value // stored with Set into a fresh entry
		get  func(*Entry) (string, error)
		err  string
	}{
		{"int as int", ValueOf(5), getAs(5), ""},
		{"int as int8", ValueOf(-5), getAs(int8(-5)), ""},
		{"int as int8 overflow", ValueOf(200), getAs(int8(0)), `entry "k": cannot read int 200 as int8`},
		{"int as uint", ValueOf(5), getAs(uint(5)), ""},
		{"negative as uint16", ValueOf(-1), getAs(uint16(0)), "cannot read int -1 as uint16"},
		{"int as uint32 overflow", Int(1 << 40), getAs(uint32(0)), "as uint32"},
		{"int as float64", ValueOf(3), getAs(3.0), ""},
		{"big int as float64", Int(1<<53 + 1), getAs(0.0), "as float64"},
		{"int as float32", ValueOf(3), getAs(float32(3)), ""},
		{"big int as float32", Int(1<<24 + 1), getAs(float32(0)), "as float32"},
		{"uint64 max", Uint(math.MaxUint64), getAs(uint64(math.MaxUint64)), ""},
		{"uint64 max as int64", Uint(math.MaxUint64), getAs(int64(0)), "as int64"},
		{"uint64 max as float64", Uint(math.MaxUint64), getAs(0.0), "as float64"},
		{"float 3.0 as int", Float(3), getAs(3), ""},
		{"float 3.5 as int", Float(3.5), getAs(0), `entry "k": cannot read float64 3.5 as int`},
		{"float NaN as int", Float(math.NaN()), getAs(0), "as int"},
		{"float 2^63 as int64", Float(1 << 63), getAs(int64(0)), "as int64"},
		{"float 2^63 as uint64", Float(1 << 63), getAs(uint64(1 << 63)), ""},
		{"float as float32", Float(0.1), getAs(float32(0.1)), ""},
		{"float32 as float64", ValueOf(float32(0.5)), getAs(0.5), ""},
		{"float overflow float32", Float(1e300), getAs(float32(0)), "as float32"},
		{"inf as float32", Float(math.Inf(1)), getAs(float32(math.Inf(1))), ""},
		{"bool", Bool(true), getAs(true), ""},
		{"bool as int", Bool(true), getAs(1), ""},
		{"1 as bool", Int(1), getAs(true), ""},
		{"0.0 as bool", Float(0), getAs(false), ""},
		{"2 as bool", Int(2), getAs(false), "cannot read int64 2 as bool"},
		{"string", String("hi"), getAs("hi"), ""},
		{"string as int", String("42"), getAs(42), ""},
		{"hex string as uint8", String("0xff"), getAs(uint8(255)), ""},
		{"enum string as int", String("HIGH"), getAs(3), ""},
		{"enum string as named", String("LOW"), getAs(level(1)), ""},
		{"bad string as int", String("4 2"), getAs(0), `entry "k": cannot parse "4 2" as int: invalid syntax`},
		{"string as float", String("2.5"), getAs(2.5), ""},
		{"string as bool", String("TRUE"), getAs(true), ""},
		{"string as bool fails", String("yes"), getAs(false), `cannot parse "yes" as bool`},
		{"string as duration", String("250"), getAs(250 * time.Millisecond), ""},
		{"string as slice", String("a;b;"), getAs([]string{"a", "b"}), ""},
		{"string as struct", String(`json:{"X":1,"Y":2}`), getAs(point{1, 2}), ""},
		{"string as named string", String("red"), getAs(color("red")), ""},
		{"named string as string", ValueOf(color("red")), getAs("red"), ""},
		{"string as any", String("s"), getAs[any]("s"), ""},
		{"int as string", ValueOf(42), getAs("42"), ""},
		{"float as string", Float(0.1), getAs("0.1"), ""},
		{"big float as string", Float(1e21), getAs("1e+21"), ""},
		{"bool as string", Bool(false), getAs("false"), ""},
		{"int as named string", ValueOf(7), getAs(color("7")), ""},
		{"int as any", ValueOf(7), getAs[any](7), ""},
		{"int8 as any keeps the type", ValueOf(int8(7)), getAs[any](int8(7)), ""},
		{"duration", ValueOf(time.Second), getAs(time.Second), ""},
		{"duration as int64", ValueOf(time.Second), getAs(int64(time.Second)), ""},
		{"int as duration", Int(5), getAs(time.Duration(5)), ""},
		{"named int as int", ValueOf(level(2)), getAs(2), ""},
		{"int as named int", ValueOf(2), getAs(level(2)), ""},
		{"named int as Stringer", ValueOf(time.Second), getAs[fmt.Stringer](time.Second), ""},
		{"slice", ValueOf([]int{1}), getAs([]int{1}), ""},
		{"slice as named slice", ValueOf([]int{1}), getAs(intList{1}), ""},
		{"slice as other slice", ValueOf([]int{1}), getAs([]string(nil)), "cannot read []int [1] as []string"},
		{"struct as int", ValueOf(point{}), getAs(0), "cannot read blackboard.point {0 0} as int"},
		{"pointer", ValueOf(&point{1, 2}), getAs(&point{1, 2}), ""},
		{"Value", ValueOf(int8(3)), getAs(ValueOf(int8(3))), ""},
		{"int as struct", ValueOf(1), getAs(point{}), "cannot read int 1 as blackboard.point"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := New(WithEnums(testEnums)).Entry("k")
			mustSet(t, e, c.v)
			msg, err := c.get(e)
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("error: %v", err)
			case c.err != "" && err == nil:
				t.Fatalf("no error, want %q (%s)", c.err, msg)
			case c.err != "" && !strings.Contains(err.Error(), c.err):
				t.Fatalf("error %q, want %q", err, c.err)
			case msg != "":
				t.Fatal(msg)
			}
		})
	}
}

func TestGetZeroOnError(t *testing.T) {
	e := New().Entry("k")
	mustSet(t, e, Float(2.5))
	if n, err := Get[int](e); err == nil || n != 0 {
		t.Errorf("got %d, %v", n, err)
	}
	if n, err := Get[level](e); err == nil || n != 0 {
		t.Errorf("got %d, %v", n, err)
	}
}

func TestPut(t *testing.T) {
	e := New().Entry("k")
	vals := []any{1, int8(1), int16(1), int32(1), int64(1), uint(1), uint8(1), uint16(1), uint32(1),
		uint64(1), float32(1), 1.0, true, "s", time.Second, level(1), []int{1}, uint(math.MaxUint64)}
	for _, x := range vals {
		e.Unset()
		var err error
		switch v := x.(type) {
		case int:
			err = Put(e, v)
		case int8:
			err = Put(e, v)
		case int16:
			err = Put(e, v)
		case int32:
			err = Put(e, v)
		case int64:
			err = Put(e, v)
		case uint:
			err = Put(e, v)
		case uint8:
			err = Put(e, v)
		case uint16:
			err = Put(e, v)
		case uint32:
			err = Put(e, v)
		case uint64:
			err = Put(e, v)
		case float32:
			err = Put(e, v)
		case float64:
			err = Put(e, v)
		case bool:
			err = Put(e, v)
		case string:
			err = Put(e, v)
		case time.Duration:
			err = Put(e, v)
		default:
			err = Put(e, x) // T = any
		}
		if err != nil {
			t.Fatalf("%T: %v", x, err)
		}
		if got := e.Load(); !same(got, ValueOf(x)) {
			t.Errorf("Put(%T %v) stored %s", x, x, got.describe())
		}
	}
}
