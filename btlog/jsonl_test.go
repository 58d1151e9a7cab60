package btlog

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/synctest"
)

// TestJSONLGolden: a line per change, each a JSON object with the change's fields.
func TestJSONLGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		want := record(tree)
		var out bytes.Buffer
		l, err := NewJSONL(tree, &out, nil)
		if err != nil {
			t.Fatal(err)
		}
		run(t, tree)
		closeAll(t, l)
		golden(t, "mission.jsonl", out.Bytes())
		lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
		if len(lines) != len(*want) {
			t.Fatalf("%d lines for %d changes", len(lines), len(*want))
		}
		nodes := nodesOf(tree)
		for i, line := range lines {
			var c struct {
				Time               string
				Node, Prev, Status string
				UID                uint16
			}
			if err := json.Unmarshal(line, &c); err != nil {
				t.Fatalf("line %d: %v: %s", i+1, err, line)
			}
			w := (*want)[i]
			if c.UID != w.UID || c.Node != nodes[w.UID-1].Path || c.Prev != w.Previous.String() || c.Status != w.Status.String() {
				t.Errorf("line %d: %s, want %+v", i+1, line, w)
			}
		}
	})
}

func TestAppendJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\`, "tab\tnl\ncr\r", "\x00\x1f\x7f", "é漢🙂", "bad\xffutf8", "<&>\u2028"} {
		got := appendJSON(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%q: %s is not JSON: %v", s, got, err)
			continue
		}
		want := string(bytes.ToValidUTF8([]byte(s), []byte("\ufffd")))
		if back != want {
			t.Errorf("%q: %s reads back as %q", s, got, back)
		}
	}
}
