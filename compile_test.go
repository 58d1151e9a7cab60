package bt_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

var update = flag.Bool("update", false, "rewrite the golden files of the tests")

// TestLoadErrors checks the errors reported for each bad document in testdata/errors:
// NAME.xml must give exactly the errors of NAME.err, one per line, with positions.
func TestLoadErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.xml")
	if err != nil || len(files) == 0 {
		t.Fatal("no test files", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f := NewFactory()
			err = f.LoadString(filepath.Base(file), string(data))
			if err == nil {
				_, err = f.NewTree("")
			}
			if err == nil {
				t.Fatal("no error")
			}
			bttest.Golden(t, strings.TrimSuffix(file, ".xml")+".err", err.Error()+"\n", *update)
		})
	}
}

func TestMisspeltCondIsNoted(t *testing.T) {
	f := NewFactory()
	err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">
<AlwaysFailure _skipif="true" _onSucess="x := 1" _uid="3"/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range f.Notes() {
		got = append(got, n.String())
	}
	want := "t.xml:2:16: attribute _skipif is ignored; did you mean _skipIf? | t.xml:2:31: attribute _onSucess is ignored; did you mean _onSuccess?"
	if g := strings.Join(got, " | "); g != want {
		t.Errorf("got %s", g)
	}
}

// TestMainTreeWithIncludes: without main_tree_to_execute, the main tree is the only
// tree of the file loaded, whatever trees its includes add (BehaviorTree.CPP counts the
// trees of that file); with two there, none is chosen.
func TestMainTreeWithIncludes(t *testing.T) {
	fsys := fstest.MapFS{
		"sub.xml": {Data: []byte(`<root BTCPP_format="4"><BehaviorTree ID="Sub"><AlwaysSuccess/></BehaviorTree></root>`)},
		"one.xml": {Data: []byte(`<root BTCPP_format="4"><include path="sub.xml"/><BehaviorTree ID="Main"><SubTree ID="Sub"/></BehaviorTree></root>`)},
		"two.xml": {Data: []byte(`<root BTCPP_format="4"><include path="sub.xml"/><BehaviorTree ID="A"><SubTree ID="Sub"/></BehaviorTree><BehaviorTree ID="B"><AlwaysFailure/></BehaviorTree></root>`)},
	}
	for file, want := range map[string]string{"one.xml": "Main", "two.xml": ""} {
		f := NewFactory()
		if err := f.Load(fsys, file); err != nil {
			t.Fatal(err)
		}
		if got := f.MainTree(); got != want {
			t.Errorf("%s: main tree %q, want %q", file, got, want)
		}
	}
}
