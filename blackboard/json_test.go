package blackboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\ngot  %s\nwant %s", name, got, want)
	}
}

// sample fills a scope with one entry of every shape.
func sample(t *testing.T) *Blackboard {
	bb := New()
	vals := map[string]Value{
		"int":      ValueOf(42),
		"neg":      Int(-7),
		"big":      Uint(math.MaxUint64),
		"float":    Float(2.5),
		"integral": Float(15),
		"tiny":     Float(1e-9),
		"huge":     Float(1e300),
		"nan":      Float(math.NaN()),
		"flag":     Bool(true),
		"text":     String("a \"quoted\" <tag> & ünïcode\n"),
		"dur":      ValueOf(1500 * time.Millisecond),
		"ints":     ValueOf([]int{1, 2, 3}),
		"floats":   ValueOf([]float64{1, 2}),
		"floats32": ValueOf([]float32{0.5}),
		"strs":     ValueOf([]string{"a", "b"}),
		"bools":    ValueOf([]bool{true, false}),
		"point":    ValueOf(point{1, 2}),
		"map":      ValueOf(map[string]any{"__type": "Pose", "x": 1}),
		"_private": Int(1),
	}
	for k, v := range vals {
		mustSet(t, bb.Entry(k), v)
	}
	if err := bb.Entry("empty").Declare(tInt); err != nil {
		t.Fatal(err)
	}
	bb.Entry("reserved")
	mustSet(t, bb.Entry("gone"), Int(1))
	bb.Unset("gone")
	child := bb.NewChild(true)
	mustSet(t, child.Entry("via_child"), Int(3)) // lands in bb
	mustSet(t, child.Local("local_to_child"), Int(4))
	return bb
}

func TestMarshalJSONGolden(t *testing.T) {
	got, err := json.Marshal(sample(t))
	if err != nil {
		t.Fatal(err)
	}
	// json.Marshal re-compacts and escapes HTML; the method itself does not
	direct, err := sample(t).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export.json", append(direct, '\n'))
	if !json.Valid(got) {
		t.Errorf("invalid JSON: %s", got)
	}
}

func TestMarshalJSONEmptyScope(t *testing.T) {
	got, err := New().MarshalJSON()
	if err != nil || string(got) != "{}" {
		t.Errorf("got %s, %v", got, err)
	}
}

func TestMarshalJSONError(t *testing.T) {
	bb := New()
	mustSet(t, bb.Entry("ch"), ValueOf(make(chan int)))
	_, err := bb.MarshalJSON()
	if err == nil || !strings.Contains(err.Error(), `entry "ch"`) {
		t.Errorf("error %v", err)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	src := sample(t)
	data, err := src.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	dst := New()
	if err := dst.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	again, err := dst.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again) {
		t.Errorf("round trip differs:\n%s\n%s", data, again)
	}
	// types after import: JSON's own
	want := map[string]reflect.Type{
		"int": tInt64, "float": tFloat64, "integral": tFloat64, "big": typeOf[uint64](),
		"flag": tBool, "text": nil, "ints": typeOf[[]int64](), "floats": typeOf[[]float64](),
		"floats32": typeOf[[]float64](), "strs": typeOf[[]string](), "bools": typeOf[[]bool](), "point": typeOf[map[string]any](),
		"empty": nil, "nan": nil, "dur": tInt64,
	}
	for k, typ := range want {
		if e, ok := dst.Lookup(k); !ok || e.Type() != typ {
			t.Errorf("%s: type %v, want %v", k, e.Type(), typ)
		}
	}
	if !dst.Entry("nan").Load().IsEmpty() || !dst.Entry("empty").Exists() {
		t.Error("null did not give an existing empty entry")
	}
}

func TestUnmarshalJSONValues(t *testing.T) {
	bb := New()
	err := bb.UnmarshalJSON([]byte(`{
		"i": 3, "f": 3.0, "e": 1e2, "u": 18446744073709551615, "o": 1e300,
		"mixed": [1, 2.5], "any": [1, "a", null], "nested": [[1], [2]], "none": [],
		"obj": {"__type": "Pose", "n": 1, "l": [1, 2]},
		"s": "x", "b": false, "n": null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"i":      int64(3),
		"f":      3.0,
		"e":      100.0,
		"u":      uint64(math.MaxUint64),
		"o":      1e300,
		"mixed":  []float64{1, 2.5},
		"any":    []any{int64(1), "a", nil},
		"nested": []any{[]int64{1}, []int64{2}},
		"none":   []any{},
		"obj":    map[string]any{"__type": "Pose", "n": int64(1), "l": []int64{1, 2}},
		"s":      "x",
		"b":      false,
		"n":      nil,
	}
	for k, w := range want {
		if got := bb.Entry(k).Load().Any(); !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %#v, want %#v", k, got, w)
		}
	}
}

func TestUnmarshalJSONUsesSetRules(t *testing.T) {
	bb := New()
	for k, typ := range map[string]reflect.Type{"n": tUint8, "f": tFloat32, "p": tPoint, "s": tInt} {
		if err := bb.Entry(k).Declare(typ); err != nil {
			t.Fatal(err)
		}
	}
	// An entry that holds no value takes any type: give n and p one.
	mustSet(t, bb.Entry("n"), ValueOf(uint8(1)))
	mustSet(t, bb.Entry("p"), ValueOf(point{}))
	mustSet(t, bb.Entry("keep"), Int(1))
	err := bb.UnmarshalJSON([]byte(`{"n": 300, "f": 0.5, "p": 1, "s": "12", "keep": null, "": 1}`))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`entry "n": cannot set int64 300 to uint8`, `entry "p": cannot set int64 1 to blackboard.point`, `invalid blackboard key ""`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if !errors.Is(err, ErrType) || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("error does not wrap the sentinels: %v", err)
	}
	if v, _ := Get[float32](bb.Entry("f")); v != 0.5 {
		t.Errorf("f = %v", v)
	}
	if v, _ := Get[int](bb.Entry("s")); v != 12 {
		t.Errorf("s = %v", v)
	}
	if bb.Entry("keep").Load().Int() != 1 {
		t.Error("null emptied an entry")
	}
}

func TestUnmarshalJSONFollowsRemaps(t *testing.T) {
	root := New()
	child := root.NewChild(false)
	child.Remap("a", "b")
	if err := child.UnmarshalJSON([]byte(`{"a": 1, "c": 2}`)); err != nil {
		t.Fatal(err)
	}
	if root.Entry("b").Load().Int() != 1 || child.Local("c").Load().Int() != 2 {
		t.Errorf("root %v, child %v", root.Keys(), child.Keys())
	}
}

func TestUnmarshalJSONBadInput(t *testing.T) {
	for _, in := range []string{``, `null`, `[1]`, `"x"`, `{"a":}`, `{"a":1} {}`, `{"a":1`,
		`{"a":1e999}`, `{"a":[1e999]}`, `{"a":{"b":-1e999}}`} {
		if err := New().UnmarshalJSON([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestUnmarshalJSONViaEncodingJSON(t *testing.T) {
	bb := New()
	if err := json.Unmarshal([]byte(`{"x": 1}`), bb); err != nil {
		t.Fatal(err)
	}
	if v, err := Get[int](bb.Entry("x")); err != nil || v != 1 {
		t.Errorf("x = %v, %v", v, err)
	}
}

type pose2D struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Theta float64 `json:"theta"`
}

// A JSON object imported into a blackboard reads back as a struct, or a pointer to
// one, when Get asks for it (BT.CPP imports registered types from their JSON); in an
// entry that a struct type declared, it is stored as that type.
func TestUnmarshalJSONStruct(t *testing.T) {
	bb := New()
	if err := bb.Entry("typed").Declare(reflect.TypeFor[pose2D]()); err != nil {
		t.Fatal(err)
	}
	err := bb.UnmarshalJSON([]byte(`{"pose": {"__type": "Pose2D", "x": 1, "y": 2.5, "theta": 0},
		"typed": {"x": 3, "y": 4, "theta": 0.5}, "bad": {"x": "one"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := pose2D{1, 2.5, 0}
	if p, err := Get[pose2D](bb.Entry("pose")); err != nil || p != want {
		t.Errorf("Get[pose2D] = %v, %v", p, err)
	}
	if p, err := Get[*pose2D](bb.Entry("pose")); err != nil || *p != want {
		t.Errorf("Get[*pose2D] = %v, %v", p, err)
	}
	typed := bb.Entry("typed").Load()
	if p, ok := typed.Any().(pose2D); !ok || p != (pose2D{3, 4, 0.5}) {
		t.Errorf("the typed entry holds %s", typed.describe())
	}
	_, err = Get[pose2D](bb.Entry("bad"))
	want2 := `entry "bad": cannot decode the JSON object {"x":"one"} as blackboard.pose2D: json: cannot unmarshal string into Go struct field pose2D.x of type float64`
	if err == nil || err.Error() != want2 || !errors.Is(err, ErrType) {
		t.Errorf("Get of a bad object: %v\nwant %s", err, want2)
	}
	// Other types still refuse an object.
	if _, err := Get[[]int](bb.Entry("pose")); err == nil {
		t.Error("Get[[]int] of an object: no error")
	}
}
