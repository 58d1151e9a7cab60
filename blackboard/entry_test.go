package blackboard

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// op is one step applied to an entry in the typing tables.
type op struct {
	name string // declare, set, assign, unset
	v    Value
	t    reflect.Type
	err  string // substring of the expected error; "" = must succeed
}

func declare(t reflect.Type) op { return op{name: "declare", t: t} }
func set(v Value) op            { return op{name: "set", v: v} }
func assign(v Value) op         { return op{name: "assign", v: v} }
func unset() op                 { return op{name: "unset"} }

func (o op) fails(msg string) op { o.err = msg; return o }

func (o op) apply(e *Entry) error {
	switch o.name {
	case "declare":
		return e.Declare(o.t)
	case "set":
		return e.Set(o.v)
	case "assign":
		return e.Assign(o.v)
	case "unset":
		e.Unset()
		return nil
	}
	panic("unknown op " + o.name)
}

func (o op) String() string {
	if o.name == "declare" {
		return fmt.Sprintf("declare(%v)", typeName(o.t))
	}
	if o.name == "unset" {
		return "unset()"
	}
	return fmt.Sprintf("%s(%s)", o.name, o.v.describe())
}

type typingCase struct {
	name   string
	ops    []op
	typ    reflect.Type // the entry's type at the end
	want   Value        // the value at the end
	absent bool         // the entry must not exist at the end
}

func runTyping(t *testing.T, cases []typingCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bb := New(WithEnums(testEnums))
			e := bb.Entry("k")
			for i, o := range c.ops {
				err := o.apply(e)
				switch {
				case o.err == "" && err != nil:
					t.Fatalf("step %d %v: unexpected error: %v", i, o, err)
				case o.err != "" && err == nil:
					t.Fatalf("step %d %v: no error, want %q", i, o, o.err)
				case o.err != "" && !strings.Contains(err.Error(), o.err):
					t.Fatalf("step %d %v: error %q, want %q", i, o, err, o.err)
				}
			}
			if e.Type() != c.typ {
				t.Errorf("type = %v, want %v", e.Type(), c.typ)
			}
			if got := e.Load(); !same(got, c.want) {
				t.Errorf("value = %s, want %s", got.describe(), c.want.describe())
			}
			if e.Exists() == c.absent {
				t.Errorf("Exists() = %v", e.Exists())
			}
		})
	}
}

func testEnums(name string) (int64, bool) {
	switch name {
	case "LOW":
		return 1, true
	case "HIGH":
		return 3, true
	case "HUGE":
		return 1000, true
	}
	return 0, false
}

var (
	tInt     = typeOf[int]()
	tInt8    = typeOf[int8]()
	tInt64   = typeOf[int64]()
	tUint8   = typeOf[uint8]()
	tFloat64 = typeOf[float64]()
	tFloat32 = typeOf[float32]()
	tBool    = typeOf[bool]()
	tString  = typeOf[string]()
	tLevel   = typeOf[level]()
	tInts    = typeOf[[]int]()
	tPoint   = typeOf[point]()
	tDur     = typeOf[time.Duration]()
	tAny     = reflect.TypeFor[any]()
)

func TestDeclare(t *testing.T) {
	runTyping(t, []typingCase{
		{name: "absent typed", ops: []op{declare(tInt)}, typ: tInt},
		{name: "absent generic", ops: []op{declare(nil)}, typ: nil},
		{name: "empty interface is any", ops: []op{declare(tAny)}, typ: tAny},
		{name: "same type again", ops: []op{declare(tInt), declare(tInt)}, typ: tInt},
		{name: "different type", ops: []op{declare(tInt), declare(tString).fails(
			`entry "k": declared as int, now as string (once declared, the type shall not change)`)}, typ: tInt},
		{name: "string entry is a universal donor", ops: []op{declare(tString), declare(tInt)}, typ: tString},
		{name: "generic stays generic", ops: []op{declare(nil), declare(tInt)}, typ: nil},
		{name: "typed then generic port", ops: []op{declare(tInt), declare(nil)}, typ: tInt},
		{name: "keeps the value", ops: []op{set(Int(4)), declare(tInt64)}, typ: tInt64, want: Int(4)},
		{name: "conflicts with the written type", ops: []op{set(Int(4)), declare(tBool).fails("declared as int64, now as bool")},
			typ: tInt64, want: Int(4)},
		{name: "after a string write", ops: []op{set(String("4")), declare(tInt)}, typ: nil, want: String("4")},
		{name: "after unset: a fresh type", ops: []op{declare(tInt), unset(), declare(tString)}, typ: tString},
		{name: "unset then absent", ops: []op{declare(tInt), unset()}, absent: true},
	})
}

// An entry of type any (BT.CPP's BT::Any port) holds values of any type: no write
// fixes its type, as the first write fixes a generic entry's.
func TestDeclareAny(t *testing.T) {
	runTyping(t, []typingCase{
		{name: "set keeps any", ops: []op{declare(tAny), set(Int(5)), set(String("five")), set(ValueOf(point{1, 2}))},
			typ: tAny, want: ValueOf(point{1, 2})},
		{name: "assign keeps any", ops: []op{declare(tAny), assign(Int(5)), assign(String("five")), assign(Bool(true))},
			typ: tAny, want: Bool(true)},
		{name: "a typed port after it", ops: []op{declare(tAny), declare(tInt), set(Int(5)), set(Float(2.5))},
			typ: tAny, want: Float(2.5)},
		{name: "an any port after a typed one", ops: []op{declare(tInt), declare(tAny), set(String("x")).fails(`entry "k"`)},
			typ: tInt},
		{name: "after unset: a fresh type", ops: []op{declare(tAny), set(Int(5)), unset(), set(Int(6)), set(String("x")).fails(`entry "k"`)},
			typ: tInt64, want: Int(6)},
		// The generic entry, for comparison: its first write fixes its type.
		{name: "generic", ops: []op{declare(nil), set(Int(5)), set(String("five")).fails(`entry "k"`)},
			typ: tInt64, want: Int(5)},
	})
}

type animal interface{ Name() string }
type cat struct{ name string }
type dog struct{}

func (c *cat) Name() string { return c.name }
func (dog) Name() string    { return "dog" }

var (
	tAnimal = typeOf[animal]()
	tCat    = typeOf[*cat]()
)

// Ports of assignable types share an entry (BT.CPP's polymorphic ports): an output of
// type *cat and an input of type animal, in either order.
func TestDeclarePolymorphic(t *testing.T) {
	tom := &cat{"Tom"}
	runTyping(t, []typingCase{
		{name: "interface then implementation", ops: []op{declare(tAnimal), declare(tCat), set(ValueOf(tom)), set(ValueOf(dog{}))},
			typ: tAnimal, want: ValueOf(dog{})},
		{name: "implementation then interface", ops: []op{declare(tCat), declare(tAnimal), set(ValueOf(tom)),
			set(ValueOf(dog{})).fails(`entry "k": cannot set blackboard.dog {} to *blackboard.cat`)},
			typ: tCat, want: ValueOf(tom)},
		{name: "unrelated", ops: []op{declare(tCat), declare(typeOf[dog]()).fails("declared as *blackboard.cat, now as blackboard.dog")},
			typ: tCat},
	})
	bb := New()
	e := bb.Entry("pet")
	if err := e.Declare(tAnimal); err != nil {
		t.Fatal(err)
	}
	if err := Put[animal](e, tom); err != nil {
		t.Fatal(err)
	}
	if c, err := Get[*cat](e); err != nil || c != tom {
		t.Errorf("Get[*cat] = %v, %v", c, err)
	}
	if a, err := Get[animal](e); err != nil || a != tom {
		t.Errorf("Get[animal] = %v, %v", a, err)
	}
	if err := Put[animal](e, dog{}); err != nil {
		t.Fatal(err)
	}
	_, err := Get[*cat](e)
	if want := `entry "pet": cannot read blackboard.dog {} as *blackboard.cat`; err == nil || err.Error() != want {
		t.Errorf("Get[*cat] of a dog: %v, want %s", err, want)
	}
}

func TestSet(t *testing.T) {
	runTyping(t, []typingCase{
		// absent entries are typed after the value, strings leave them generic
		{name: "new int", ops: []op{set(ValueOf(5))}, typ: tInt, want: ValueOf(5)},
		{name: "new int64", ops: []op{set(Int(5))}, typ: tInt64, want: Int(5)},
		{name: "new string is generic", ops: []op{set(String("a"))}, typ: nil, want: String("a")},
		{name: "new named string is typed", ops: []op{set(ValueOf(color("red")))}, typ: typeOf[color](), want: ValueOf(color("red"))},
		{name: "new slice", ops: []op{set(ValueOf([]int{1}))}, typ: tInts, want: ValueOf([]int{1})},
		{name: "empty value", ops: []op{set(Value{}).fails(`entry "k": cannot write an empty value`)}, absent: true},

		// generic entries adopt the type of the value
		{name: "generic adopts", ops: []op{declare(nil), set(Float(1.5))}, typ: tFloat64, want: Float(1.5)},
		{name: "generic string stays generic", ops: []op{set(String("a")), set(ValueOf(3))}, typ: tInt, want: ValueOf(3)},
		{name: "string then string", ops: []op{set(String("a")), set(String("b"))}, typ: nil, want: String("b")},
		{name: "typed after adoption", ops: []op{set(String("a")), set(ValueOf(3)), set(String("x")).fails(`cannot parse "x" as int`)},
			typ: tInt, want: ValueOf(3)},

		// typed entries convert
		{name: "same type", ops: []op{declare(tInt), set(ValueOf(7))}, typ: tInt, want: ValueOf(7)},
		{name: "int64 into int", ops: []op{declare(tInt), set(Int(7))}, typ: tInt, want: ValueOf(7)},
		{name: "100 into uint8", ops: []op{declare(tUint8), set(ValueOf(100))}, typ: tUint8, want: ValueOf(uint8(100))},
		{name: "-42 into uint8", ops: []op{set(ValueOf(uint8(1))), set(ValueOf(-42)).fails(`entry "k": cannot set int -42 to uint8`)},
			typ: tUint8, want: ValueOf(uint8(1))},
		{name: "300 into uint8", ops: []op{set(ValueOf(uint8(1))), set(ValueOf(300)).fails("cannot set int 300 to uint8")},
			typ: tUint8, want: ValueOf(uint8(1))},
		{name: "2.0 into int", ops: []op{declare(tInt), set(Float(2))}, typ: tInt, want: ValueOf(2)},
		{name: "2.5 into int", ops: []op{set(ValueOf(1)), set(Float(2.5)).fails("cannot set float64 2.5 to int")}, typ: tInt, want: ValueOf(1)},
		{name: "int into float64", ops: []op{declare(tFloat64), set(ValueOf(3))}, typ: tFloat64, want: Float(3)},
		{name: "huge int into float64", ops: []op{set(Float(1)), set(Int(1<<53 + 1)).fails("to float64")}, typ: tFloat64, want: Float(1)},
		{name: "float64 into float32 rounds", ops: []op{declare(tFloat32), set(Float(0.1))}, typ: tFloat32, want: ValueOf(float32(0.1))},
		{name: "float64 overflows float32", ops: []op{set(ValueOf(float32(1))), set(Float(1e300)).fails("to float32")},
			typ: tFloat32, want: ValueOf(float32(1))},
		{name: "bool into int", ops: []op{declare(tInt), set(Bool(true))}, typ: tInt, want: ValueOf(1)},
		{name: "1 into bool", ops: []op{declare(tBool), set(Int(1))}, typ: tBool, want: Bool(true)},
		{name: "2 into bool", ops: []op{set(Bool(true)), set(Int(2)).fails("cannot set int64 2 to bool")}, typ: tBool, want: Bool(true)},
		{name: "string parsed into int", ops: []op{declare(tInt), set(String("42"))}, typ: tInt, want: ValueOf(42)},
		{name: "enum name into int", ops: []op{declare(tInt), set(String("HIGH"))}, typ: tInt, want: ValueOf(3)},
		{name: "enum name into named type", ops: []op{declare(tLevel), set(String("HIGH"))}, typ: tLevel, want: ValueOf(level(3))},
		{name: "enum out of range", ops: []op{declare(tLevel), set(String("HUGE")).fails(`cannot parse "HUGE" as blackboard.level: out of range`)}, typ: tLevel},
		{name: "bad string into int", ops: []op{declare(tInt), set(String("4x")).fails(`entry "k": cannot parse "4x" as int`)}, typ: tInt},
		{name: "string into slice", ops: []op{declare(tInts), set(String("1;2;3"))}, typ: tInts, want: ValueOf([]int{1, 2, 3})},
		{name: "string into duration", ops: []op{declare(tDur), set(String("1.5s"))}, typ: tDur, want: ValueOf(1500 * time.Millisecond)},
		{name: "named string into string", ops: []op{declare(tString), set(ValueOf(color("red")))}, typ: tString, want: String("red")},
		{name: "int into string entry", ops: []op{declare(tString), set(String("a")), set(Int(3)).fails(
			"cannot set int64 3 to string (once declared, the type shall not change)")}, typ: tString, want: String("a")},
		{name: "slice into int", ops: []op{set(ValueOf(1)), set(ValueOf([]int{1})).fails("cannot set []int [1] to int (once declared")},
			typ: tInt, want: ValueOf(1)},
		{name: "struct into other struct", ops: []op{set(ValueOf(point{})), set(ValueOf(struct{ A int }{})).fails("to blackboard.point")},
			typ: tPoint, want: ValueOf(point{})},
		{name: "interface type", ops: []op{declare(typeOf[fmt.Stringer]()), set(ValueOf(time.Second))},
			typ: typeOf[fmt.Stringer](), want: ValueOf(time.Second)},
		{name: "unnamed into named slice", ops: []op{declare(typeOf[intList]()), set(ValueOf([]int{4}))},
			typ: typeOf[intList](), want: ValueOf(intList{4})},
		{name: "failed set keeps value", ops: []op{set(ValueOf(1)), set(Float(0.5)).fails("cannot set")}, typ: tInt, want: ValueOf(1)},

		// a typed entry that holds no value yet (a port declared it) converts what it
		// can and takes the type of anything else; text must still parse
		{name: "empty typed converts", ops: []op{declare(tInt), set(Float(2))}, typ: tInt, want: ValueOf(2)},
		{name: "empty string entry takes an int", ops: []op{declare(tString), set(Int(3))}, typ: tInt64, want: Int(3)},
		{name: "empty int entry takes a float", ops: []op{declare(tInt), set(Float(2.5))}, typ: tFloat64, want: Float(2.5)},
		{name: "empty uint8 entry takes 300", ops: []op{declare(tUint8), set(ValueOf(300))}, typ: tInt, want: ValueOf(300)},
		{name: "empty int entry takes a struct", ops: []op{declare(tInt), set(ValueOf(point{1, 2}))}, typ: tPoint, want: ValueOf(point{1, 2})},
		{name: "then the new type holds", ops: []op{declare(tString), set(Int(3)), set(ValueOf([]int{})).fails("cannot set []int [] to int64")},
			typ: tInt64, want: Int(3)},
		{name: "empty typed entry parses text", ops: []op{declare(tInt), set(String("x")).fails(`cannot parse "x" as int`)}, typ: tInt},
		{name: "emptied by declare after unset", ops: []op{set(Int(1)), unset(), declare(tString), set(Int(2))}, typ: tInt64, want: Int(2)},

		// unset then revive: the entry is typed again as if new
		{name: "revive with another type", ops: []op{set(ValueOf(1)), unset(), set(Float(0.5))}, typ: tFloat64, want: Float(0.5)},
		{name: "revive with a string", ops: []op{set(ValueOf(1)), unset(), set(String("s"))}, typ: nil, want: String("s")},
	})
}

type intList []int

func TestAssign(t *testing.T) {
	runTyping(t, []typingCase{
		{name: "new entry stays generic", ops: []op{assign(Int(7))}, typ: nil, want: Int(7)},
		{name: "empty generic stores anything", ops: []op{declare(nil), assign(String("a"))}, typ: nil, want: String("a")},
		// a typed entry that holds no value yet (a port declared it) stores a value as
		// it is and becomes generic; text is parsed into the declared type
		{name: "empty typed stores as is", ops: []op{declare(tInt), assign(Float(3))}, typ: nil, want: Float(3)},
		{name: "empty string entry takes a number", ops: []op{declare(tString), assign(Int(1))}, typ: nil, want: Int(1)},
		{name: "then the held type rules", ops: []op{declare(tString), assign(Int(1)), assign(Float(2)), assign(Float(2.5)).fails(
			"cannot assign float64 2.5 to an entry holding int64")}, typ: nil, want: Int(2)},
		{name: "empty typed parses text", ops: []op{declare(tInt), assign(String("12"))}, typ: tInt, want: ValueOf(12)},
		{name: "empty typed rejects", ops: []op{declare(tInt), assign(String("abc")).fails(`cannot parse "abc" as int`)}, typ: tInt},
		{name: "empty string entry takes text", ops: []op{declare(tString), assign(String("x"))}, typ: tString, want: String("x")},

		// i := 7; i += 1 keeps i integral
		{name: "int += 1", ops: []op{assign(Int(7)), assign(Float(8))}, typ: nil, want: Int(8)},
		// i := 3; i /= 2 is an error
		{name: "int /= 2", ops: []op{assign(Int(3)), assign(Float(1.5)).fails(
			`entry "k": cannot assign float64 1.5 to an entry holding int64`)}, want: Int(3)},
		// s := 'a'; s = 3 is an error
		{name: "number into string", ops: []op{assign(String("a")), assign(Int(3)).fails(
			"cannot assign int64 3 to an entry holding string")}, want: String("a")},
		// k := 3; k = '12': a number-like string is read as the number
		{name: "string into number", ops: []op{assign(Int(3)), assign(String("12"))}, want: Int(12)},
		{name: "real string into int", ops: []op{assign(Int(3)), assign(String("4.0"))}, want: Int(4)},
		{name: "fractional string into int", ops: []op{assign(Int(3)), assign(String("4.5")).fails(
			`entry "k": cannot assign float64 4.5 to an entry holding int64`)}, want: Int(3)},
		{name: "string into float", ops: []op{assign(Float(0.5)), assign(String("-2.25"))}, want: Float(-2.25)},
		{name: "enum name into number", ops: []op{assign(Int(7)), assign(String("HIGH"))}, want: Int(3)},
		{name: "true into number", ops: []op{assign(Float(3)), assign(String("true"))}, want: Float(1)},
		{name: "string into bool", ops: []op{assign(Bool(false)), assign(String("1"))}, want: Bool(true)},
		{name: "word into number", ops: []op{assign(Int(3)), assign(String("abc")).fails(
			`entry "k": cannot assign string "abc" to an entry holding int64 (not a number)`)}, want: Int(3)},
		{name: "empty string into number", ops: []op{assign(Int(3)), assign(String("")).fails("(not a number)")}, want: Int(3)},
		{name: "string into string", ops: []op{assign(String("a")), assign(String("b"))}, want: String("b")},
		{name: "empty string into string", ops: []op{assign(String("a")), assign(String(""))}, want: String("")},
		{name: "empty string into named string", ops: []op{assign(ValueOf(color("red"))), assign(String(""))}, want: ValueOf(color(""))},
		{name: "string keeps the held named type", ops: []op{assign(ValueOf(color("red"))), assign(String("blue"))}, want: ValueOf(color("blue"))},
		{name: "float holds float", ops: []op{assign(Float(0.5)), assign(Int(2))}, want: Float(2)},
		{name: "int keeps its Go type", ops: []op{assign(ValueOf(int8(1))), assign(Int(100))}, want: ValueOf(int8(100))},
		{name: "held Go type range", ops: []op{assign(ValueOf(int8(1))), assign(Int(200)).fails("holding int8")}, want: ValueOf(int8(1))},
		{name: "bool into number", ops: []op{assign(Int(5)), assign(Bool(true))}, want: Int(1)},
		{name: "0 and 1 into bool", ops: []op{assign(Bool(true)), assign(Float(0))}, want: Bool(false)},
		{name: "2 into bool", ops: []op{assign(Bool(true)), assign(Int(2)).fails("holding bool")}, want: Bool(true)},
		{name: "other same type", ops: []op{assign(ValueOf(point{1, 2})), assign(ValueOf(point{3, 4}))}, want: ValueOf(point{3, 4})},
		{name: "other different type", ops: []op{assign(ValueOf(point{1, 2})), assign(ValueOf([]int{})).fails("holding blackboard.point")},
			want: ValueOf(point{1, 2})},
		{name: "number into other", ops: []op{assign(ValueOf(point{})), assign(Int(1)).fails("holding blackboard.point")},
			want: ValueOf(point{})},

		// typed entries follow Set's rules
		{name: "typed int += 1", ops: []op{set(ValueOf(7)), assign(Float(8))}, typ: tInt, want: ValueOf(8)},
		{name: "typed int /= 2", ops: []op{set(ValueOf(3)), assign(Float(1.5)).fails("cannot assign float64 1.5 to int")}, typ: tInt, want: ValueOf(3)},
		{name: "typed int from string", ops: []op{set(ValueOf(3)), assign(String("LOW"))}, typ: tInt, want: ValueOf(1)},
		{name: "typed bool from 1.0", ops: []op{set(Bool(false)), assign(Float(1))}, typ: tBool, want: Bool(true)},
		{name: "unset then assign", ops: []op{set(ValueOf(3)), unset(), assign(String("x"))}, typ: nil, want: String("x")},
		{name: "invalid empty", ops: []op{assign(Value{}).fails("cannot write an empty value")}, absent: true},
	})
}

func TestSeqAndStamp(t *testing.T) {
	clock := time.Unix(1000, 0)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	bb := New(WithClock(now))
	e := bb.Entry("x")
	check := func(step string, seq uint64, sec int64) {
		t.Helper()
		if e.Seq() != seq {
			t.Errorf("%s: Seq = %d, want %d", step, e.Seq(), seq)
		}
		var want time.Time
		if sec != 0 {
			want = time.Unix(sec, 0)
		}
		if !e.Stamp().Equal(want) {
			t.Errorf("%s: Stamp = %v, want %v", step, e.Stamp(), want)
		}
		v, s, st := e.LoadStamped()
		if s != seq || !st.Equal(want) || !same(v, e.Load()) {
			t.Errorf("%s: LoadStamped = %s %d %v", step, v, s, st)
		}
	}
	check("reserved", 0, 0)
	if err := e.Declare(tInt); err != nil {
		t.Fatal(err)
	}
	check("declared", 0, 0)
	mustSet(t, e, ValueOf(1))
	check("set", 1, 1001)
	if err := e.Assign(Int(2)); err != nil {
		t.Fatal(err)
	}
	check("assign", 2, 1002)
	if err := e.Set(String("bad")); err == nil {
		t.Fatal("no error")
	}
	check("failed set", 2, 1002)
	e.Unset()
	check("unset", 2, 1002)
	if err := Put(e, "again"); err != nil {
		t.Fatal(err)
	}
	check("revived", 3, 1003)
}

func TestNoClockNoStamp(t *testing.T) {
	e := New().Entry("x")
	mustSet(t, e, Int(1))
	if !e.Stamp().IsZero() || e.Seq() != 1 {
		t.Errorf("Stamp = %v, Seq = %d", e.Stamp(), e.Seq())
	}
}

// A clock at the Unix epoch is still a stamp.
func TestStampAtEpoch(t *testing.T) {
	e := New(WithClock(func() time.Time { return time.Unix(0, 0) })).Entry("x")
	mustSet(t, e, Int(1))
	if !e.Stamp().Equal(time.Unix(0, 0)) {
		t.Errorf("Stamp = %v", e.Stamp())
	}
}

func TestErrorsWrapSentinels(t *testing.T) {
	bb := New()
	e := bb.Entry("x")
	_, err := Get[int](e)
	if !errors.Is(err, ErrNotExist) || err.Error() != `entry "x" does not exist` {
		t.Errorf("absent: %v", err)
	}
	if err := e.Declare(tInt); err != nil {
		t.Fatal(err)
	}
	_, err = Get[int](e)
	if !errors.Is(err, ErrEmpty) || err.Error() != `entry "x" is empty` {
		t.Errorf("empty: %v", err)
	}
	err = e.Set(String("zz"))
	var pe *ParseError
	if !errors.Is(err, ErrType) || !errors.As(err, &pe) || pe.Type != "int" || pe.Text != "zz" {
		t.Errorf("parse: %v", err)
	}
	mustSet(t, e, ValueOf(1))
	if err := e.Set(ValueOf([]int{})); !errors.Is(err, ErrType) {
		t.Errorf("type: %v", err)
	}
	if err := e.Declare(tBool); !errors.Is(err, ErrType) {
		t.Errorf("declare: %v", err)
	}
}
