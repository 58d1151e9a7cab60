package bt

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/gobt/bt/blackboard"
)

// TestNotesAreLogged: loading a document tells its notes to the factory's logger and
// keeps them, also when the document has errors.
func TestNotesAreLogged(t *testing.T) {
	for _, tc := range []struct {
		name, tree, err, pos string
	}{
		{"loaded", `<AlwaysSuccess _onSucess="x := 1"/>`, "", "t.xml:1:60"},
		{"with errors", `<Sequence><AlwaysSuccess _onSucess="x := 1"/><Nope/></Sequence>`, `t.xml:1:91: unknown node "Nope"`, "t.xml:1:70"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			f := NewFactory()
			f.SetLogger(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{
				ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey {
						return slog.Attr{}
					}
					return a
				}})))
			err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">`+tc.tree+`</BehaviorTree></root>`)
			if (err == nil) != (tc.err == "") || err != nil && !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("got error %v, want %q", err, tc.err)
			}
			want := `level=WARN msg="bt: attribute _onSucess is ignored; did you mean _onSuccess?" pos=` + tc.pos + "\n"
			if out.String() != want {
				t.Errorf("logged %q, want %q", out.String(), want)
			}
			if notes := f.Notes(); len(notes) != 1 || notes[0].Pos.String() != tc.pos {
				t.Errorf("notes %v", notes)
			}
		})
	}
}

// TestTinyxml2Leniency: a tree as BehaviorTree.CPP's parser reads it — a raw '<' and a
// bare '&' in scripts, stray text inside <BehaviorTree> — loads and runs, and the
// factory keeps a note of each with its position.
func TestTinyxml2Leniency(t *testing.T) {
	f := NewFactory()
	f.SetLogger(slog.New(slog.DiscardHandler))
	err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">
	<Sequence>
		<Script code="A := 1; ok := A < 2 && A > 0"/>
		<AlwaysFailure _skipIf="A<2"/>
	</Sequence>
	oops
</BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, n := range f.Notes() {
		notes = append(notes, n.String())
	}
	want := []string{
		"t.xml:3:33: '<' in attribute value taken as it is; write &lt;",
		"t.xml:3:37: '&' taken as it is; write &amp;",
		"t.xml:4:28: '<' in attribute value taken as it is; write &lt;",
		`t.xml:6:2: text "oops" in <BehaviorTree> is ignored`,
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	tree, err := f.NewTree("T")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); err != nil || s != Success {
		t.Errorf("got %v, %v; want SUCCESS", s, err)
	}
	if ok, err := blackboard.Get[bool](tree.Blackboard().Entry("ok")); err != nil || !ok {
		t.Errorf("ok = %v, %v; want true", ok, err)
	}
}
