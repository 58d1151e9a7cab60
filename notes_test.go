package bt

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
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
