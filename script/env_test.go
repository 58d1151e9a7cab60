package script

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// testEnv is a map-backed Env whose variables mimic the engine's entry rules
// closely enough to test what scripts do with them: the first value stored in
// an empty entry fixes its kind (unless the entry was declared with a kind),
// an Int entry accepts only integral numbers, a String entry only strings, a
// string assigned to a number entry is parsed.
type testEnv struct {
	vars  map[string]*testVar
	enums map[string]int64
	binds []string // names passed to Var, in order
}

func newEnv() *testEnv {
	return &testEnv{vars: map[string]*testVar{}, enums: map[string]int64{}}
}

// set creates an entry holding v (Nil: an empty entry of any kind).
func (e *testEnv) set(name string, v Value) *testEnv {
	e.variable(name).store(v)
	if v.kind == KindNil {
		e.vars[name].exists = true
	}
	return e
}

// declare creates an empty entry that will only accept values of kind k.
func (e *testEnv) declare(name string, k Kind) *testEnv {
	tv := e.variable(name)
	tv.exists, tv.typ = true, k
	return e
}

func (e *testEnv) variable(name string) *testVar {
	if tv, ok := e.vars[name]; ok {
		return tv
	}
	tv := &testVar{name: name}
	e.vars[name] = tv
	return tv
}

func (e *testEnv) Var(name string) (Var, error) {
	e.binds = append(e.binds, name)
	if name == "bad_name" {
		return nil, errors.New("names may not be bad")
	}
	return e.variable(name), nil
}

func (e *testEnv) Enum(name string) (int64, bool) {
	i, ok := e.enums[name]
	return i, ok
}

type testVar struct {
	name   string
	exists bool
	typ    Kind // KindNil: takes the kind of the first value stored
	val    Value
	loads  int
	opaque bool // holds a value a script cannot use
}

func (v *testVar) Load() (Value, error) {
	v.loads++
	if !v.exists {
		return Value{}, fmt.Errorf("no entry %q", v.name)
	}
	if v.opaque {
		return Value{}, errors.New("holds a Go struct")
	}
	return v.val, nil
}

func (v *testVar) Exists() bool { return v.exists }

func (v *testVar) Assign(x Value) error {
	if v.typ == KindNil {
		v.store(x)
		return nil
	}
	switch v.typ {
	case KindInt:
		switch x.kind {
		case KindInt:
		case KindBool:
			x = Int(x.Int())
		case KindFloat:
			f := x.Float()
			if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
				return fmt.Errorf("%s is not an integer", x)
			}
			x = Int(int64(f))
		case KindString:
			i, err := strconv.ParseInt(x.s, 10, 64)
			if err != nil {
				return fmt.Errorf("%q is not an integer", x.s)
			}
			x = Int(i)
		}
	case KindFloat:
		switch x.kind {
		case KindString:
			f, err := strconv.ParseFloat(x.s, 64)
			if err != nil {
				return fmt.Errorf("%q is not a number", x.s)
			}
			x = Float(f)
		default:
			x = Float(x.Float())
		}
	case KindBool:
		switch x.kind {
		case KindBool:
		case KindString:
			b, ok := parseBool(x.s)
			if !ok {
				return fmt.Errorf("%q is not a boolean", x.s)
			}
			x = Bool(b)
		default:
			if f := x.Float(); f != 0 && f != 1 {
				return fmt.Errorf("%s is not a boolean", x)
			}
			x = Bool(x.Float() == 1)
		}
	case KindString:
		if x.kind != KindString {
			return fmt.Errorf("a string entry cannot hold %s", x.kind)
		}
	case KindOther:
		if x.kind != KindOther || reflect.TypeOf(x.Other()) != reflect.TypeOf(v.val.Other()) {
			return fmt.Errorf("an entry of %s cannot hold %s", v.val.typeName(), x.typeName())
		}
	}
	v.val, v.exists = x, true
	return nil
}

func (v *testVar) store(x Value) {
	v.exists, v.val = true, x
	if x.kind != KindNil {
		v.typ = x.kind
	}
}
