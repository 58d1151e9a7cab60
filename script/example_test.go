package script_test

import (
	"errors"
	"fmt"

	"github.com/gobt/bt/script"
)

// vars is a minimal Env: variables in a map, no type rules, two enums.
type vars map[string]script.Value

func (m vars) Var(name string) (script.Var, error) { return variable{m, name}, nil }

func (m vars) Enum(name string) (int64, bool) {
	switch name {
	case "IDLE":
		return 0, true
	case "BUSY":
		return 1, true
	}
	return 0, false
}

type variable struct {
	m    vars
	name string
}

func (v variable) Load() (script.Value, error) {
	x, ok := v.m[v.name]
	if !ok {
		return script.Value{}, errors.New("no such entry")
	}
	return x, nil
}

func (v variable) Exists() bool { _, ok := v.m[v.name]; return ok }

func (v variable) Assign(x script.Value) error { v.m[v.name] = x; return nil }

// Parse once, compile once per environment, run on every tick.
func Example() {
	s, err := script.Parse("battery -= 7.5; state := battery < 20 ? BUSY : IDLE; battery")
	if err != nil {
		fmt.Println(err)
		return
	}
	env := vars{"battery": script.Float(35)}
	p, err := s.Compile(env)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		v, err := p.Run()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(v, env["state"])
	}
	// Output:
	// 27.5 0
	// 20 0
	// 12.5 1
}

func ExampleEval() {
	for _, src := range []string{
		"7 / 2",
		"2 + 3 * 4",
		"'d=' .. 2.5 .. ', n=' .. 42",
		"1 < 2 < 3",
		"0x1F | 0x20",
		"true ? 'yes' : 'no'",
	} {
		v, err := script.Eval(src, nil)
		fmt.Printf("%-30s %-8s %v %v\n", src, v.Kind(), v, err)
	}
	// Output:
	// 7 / 2                          float    3.5 <nil>
	// 2 + 3 * 4                      float    14 <nil>
	// 'd=' .. 2.5 .. ', n=' .. 42    string   d=2.5, n=42 <nil>
	// 1 < 2 < 3                      bool     true <nil>
	// 0x1F | 0x20                    float    63 <nil>
	// true ? 'yes' : 'no'            string   yes <nil>
}

func ExampleParse_syntaxError() {
	_, err := script.Parse("ready := battery >\n  and charging")
	fmt.Println(err)
	var se *script.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Line, se.Col, se.Msg)
	}
	// Output:
	// 2:7: expected ';' or end of script, found 'charging'
	//       and charging
	//           ^
	// 2 7 expected ';' or end of script, found 'charging'
}

func ExampleRuntimeError() {
	_, err := script.Eval("count = 1", vars{})
	fmt.Println(err)
	var re *script.RuntimeError
	fmt.Println(errors.As(err, &re), re.Offset)
	// Output:
	// script "count = 1": the entry "count" does not exist; use := to create it
	// true 6
}

func ExampleValue_Truthy() {
	for _, v := range []script.Value{
		script.Bool(true), script.Int(0), script.Float(0.5),
		script.String("False"), script.String("maybe"), {},
	} {
		b, err := v.Truthy()
		fmt.Printf("%#v: %v %v\n", v, b, err)
	}
	// Output:
	// script.Bool(true): true <nil>
	// script.Int(0): false <nil>
	// script.Float(0.5): true <nil>
	// script.String("False"): false <nil>
	// script.String("maybe"): false the string "maybe" is not a boolean
	// script.Value{}: false the value is not initialised
}

func ExampleValue_Condition() {
	for _, v := range []script.Value{
		script.Bool(true), script.Int(0), script.Int(2), script.Float(0.5),
		script.String("true"),
	} {
		b, err := v.Condition()
		fmt.Printf("%#v: %v %v\n", v, b, err)
	}
	// Output:
	// script.Bool(true): true <nil>
	// script.Int(0): false <nil>
	// script.Int(2): false the int 2 is not a boolean: only 0 and 1 are (implicit casting to bool is not allowed)
	// script.Float(0.5): true <nil>
	// script.String("true"): false the string "true" is not a boolean
}

func ExampleValue_String() {
	for _, v := range []script.Value{
		script.Int(42), script.Float(2.5), script.Float(3), script.Float(1e21),
		script.Bool(false), script.String("hi"),
	} {
		fmt.Println(v.String())
	}
	// Output:
	// 42
	// 2.5
	// 3
	// 1e+21
	// false
	// hi
}

func ExampleScript_Names() {
	s, _ := script.Parse("@total += price * qty; last := price")
	fmt.Println(s.Names())
	// Output:
	// [@total last price qty]
}
