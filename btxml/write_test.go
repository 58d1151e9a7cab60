package btxml

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestWriteValues(t *testing.T) {
	tests := []struct{ value, want string }{
		{"plain", `"plain"`},
		{`a<b>&"c"'d'`, `"a&lt;b&gt;&amp;&quot;c&quot;'d'"`},
		{"line1\nline2\tx\r", `"line1&#10;line2&#9;x&#13;"`},
		{"漢字 é 😀", `"漢字 é 😀"`},
		{"", `""`},
	}
	for _, tt := range tests {
		d := &Document{Format: 4, Trees: []*Tree{{ID: "T", Root: &Element{Tag: "A", ID: "A", Attrs: []Attr{{Name: "v", Value: tt.value}}}}}}
		out := string(mustWrite(t, d))
		if !strings.Contains(out, `<A v=`+tt.want+`/>`) {
			t.Errorf("value %q written as\n%s\nwant v=%s", tt.value, out, tt.want)
		}
		back := mustParse(t, "", out)
		if a, _ := back.Trees[0].Root.Attr("v"); a.Value != tt.value {
			t.Errorf("value %q read back as %q", tt.value, a.Value)
		}
	}
}

// TestWriteBuilt writes a document built by hand.
func TestWriteBuilt(t *testing.T) {
	d := &Document{
		MainTree: "Main",
		Includes: []*Include{{Path: "lib.xml"}},
		Trees: []*Tree{{
			ID: "Main",
			Root: &Element{ID: "Sequence", Children: []*Element{
				{Tag: "Action", ID: "Say", Attrs: []Attr{{Name: "msg", Value: "hi"}}},
				{Tag: "SubTree", ID: "Sub", Attrs: []Attr{{Name: "_autoremap", Value: "true"}}},
				{Tag: "Condition", ID: "not a tag"},
			}},
		}, {ID: "Sub", Root: &Element{ID: "AlwaysSuccess"}}},
		Models: []*Model{{Kind: "Action", ID: "Say", Ports: []PortModel{{Dir: DirInput, Name: "msg"}}}},
	}
	want := `<root BTCPP_format="4" main_tree_to_execute="Main">
    <include path="lib.xml"/>
    <BehaviorTree ID="Main">
        <Sequence>
            <Say msg="hi"/>
            <SubTree ID="Sub" _autoremap="true"/>
            <Condition ID="not a tag"/>
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Sub">
        <AlwaysSuccess/>
    </BehaviorTree>
    <TreeNodesModel>
        <Action ID="Say">
            <input_port name="msg"/>
        </Action>
    </TreeNodesModel>
</root>
`
	if got := string(mustWrite(t, d)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteErrors(t *testing.T) {
	cyclic := &Element{ID: "Loop"}
	cyclic.Children = []*Element{cyclic}
	tree := func(e *Element) *Document { return &Document{Trees: []*Tree{{ID: "T", Root: e}}} }
	tests := []struct {
		name string
		doc  *Document
		want string
	}{
		{"no ID", tree(&Element{Tag: "A"}), "node <A> without ID"},
		{"bad ID", tree(&Element{ID: "a b"}), `node ID "a b" is not an XML name`},
		{"ID attribute", tree(&Element{ID: "A", Attrs: []Attr{{Name: "ID", Value: "x"}}}), "has an ID attribute"},
		{"bad attribute name", tree(&Element{ID: "A", Attrs: []Attr{{Name: "1x", Value: "x"}}}), `attribute name "1x"`},
		{"NUL", tree(&Element{ID: "A", Attrs: []Attr{{Name: "x", Value: "a\x00"}}}), "character U+0000"},
		{"bad UTF-8", tree(&Element{ID: "A", Attrs: []Attr{{Name: "x", Value: "é\xff"}}}), "invalid UTF-8"},
		{"U+FFFF", tree(&Element{ID: "A", Attrs: []Attr{{Name: "x", Value: "a\uffff"}}}), "U+FFFF cannot be written"},
		{"control", tree(&Element{ID: "A", Attrs: []Attr{{Name: "x", Value: "a\x1b"}}}), "character U+001B"},
		{"cycle", tree(cyclic), "element Loop contains itself"},
		{"model kind", &Document{Models: []*Model{{Kind: "Thing", ID: "X"}}}, `kind "Thing"`},
		{"nil document", nil, "nil document"},
		{"nil tree", &Document{Trees: []*Tree{nil}}, "nil tree"},
		{"nil child", tree(&Element{ID: "A", Children: []*Element{nil}}), "nil element"},
		{"nil model", &Document{Models: []*Model{nil}}, "nil model"},
		{"nil include", &Document{Includes: []*Include{nil}}, "nil include"},
		{"port direction", &Document{Models: []*Model{{Kind: "Action", ID: "X", Ports: []PortModel{{Dir: "in put", Name: "p"}}}}}, `direction "in put"`},
		{"comment end", &Document{Comments: &Comments{Before: []Comment{{Text: " a --> b "}}}}, `comment " a --> b " contains -->`},
		{"comment control", tree(&Element{ID: "A", Comments: &Comments{After: []Comment{{Text: "a\x01"}}}}), "character U+0001 cannot be written in a comment"},
		{"comment UTF-8", &Document{Models: []*Model{{Kind: "Action", ID: "X", Comments: &Comments{Inside: []Comment{{Text: "\xff"}}}}}}, "invalid character in comment"},
		{"no port direction", &Document{Models: []*Model{{Kind: "Action", ID: "X", Ports: []PortModel{{Name: "p"}}}}}, `direction ""`},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		err := Write(&b, tt.doc)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %d bytes despite the error", tt.name, b.Len())
		}
	}
}

type failingWriter struct{}

var errFull = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errFull }

func TestWriteFails(t *testing.T) {
	if err := Write(failingWriter{}, &Document{}); !errors.Is(err, errFull) {
		t.Errorf("Write: %v", err)
	}
	if err := WriteModels(failingWriter{}, nil); !errors.Is(err, errFull) {
		t.Errorf("WriteModels: %v", err)
	}
}

func TestWriteFormat3(t *testing.T) {
	d := mustParse(t, "", `<root BTCPP_format="3"><BehaviorTree ID="T"><SubTreePlus ID="X" __autoremap="1"/></BehaviorTree></root>`)
	want := `<root BTCPP_format="3">
    <BehaviorTree ID="T">
        <SubTreePlus ID="X" __autoremap="1"/>
    </BehaviorTree>
</root>
`
	if got := string(mustWrite(t, d)); got != want {
		t.Errorf("got\n%s", got)
	}
}

func TestValidName(t *testing.T) {
	for _, s := range []string{"Main", "move_to", "漢字", "a-b", "Ñ", "x1", "ROOT", "root2"} {
		if err := ValidName(s); err != nil {
			t.Errorf("ValidName(%q) = %v", s, err)
		}
	}
	bad := map[string]string{
		"":        "empty name",
		"root":    `"root" is reserved`,
		"Root":    `"Root" is reserved`,
		"a b":     `contains ' '`,
		"a\tb":    "contains control character U+0009",
		"a\u0085": "contains control character U+0085",
		"a.b":     `contains '.'`,
		"a/b":     `contains '/'`,
		`a\b`:     `contains '\\'`,
		"a:b":     `contains ':'`,
		"a*":      `contains '*'`,
		"a?":      `contains '?'`,
		"a|b":     `contains '|'`,
		"<a>":     `contains '<'`,
		"a&b":     `contains '&'`,
		`"a"`:     `contains '"'`,
		"'a'":     `contains '\''`,
		"a\xff":   "invalid UTF-8",
	}
	for s, want := range bad {
		if err := ValidName(s); err == nil || err.Error() != want {
			t.Errorf("ValidName(%q) = %v, want %s", s, err, want)
		}
	}
}
