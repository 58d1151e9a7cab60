package btxml

import (
	"errors"
	"strings"
	"testing"
)

// find returns the first element with the given ID, depth first.
func find(d *Document, id string) *Element {
	var walk func(e *Element) *Element
	walk = func(e *Element) *Element {
		if e == nil {
			return nil
		}
		if e.ID == id {
			return e
		}
		for _, c := range e.Children {
			if f := walk(c); f != nil {
				return f
			}
		}
		return nil
	}
	for _, t := range d.Trees {
		if e := walk(t.Root); e != nil {
			return e
		}
	}
	return nil
}

func lc(line, col int32) Pos { return Pos{File: "f.xml", Line: line, Col: col} }

// posCheck names an element (by ID) and optionally one of its attributes;
// want lists the element's Pos and IDPos, or the attribute's Pos and ValuePos.
type posCheck struct {
	id, attr string
	want     [2]Pos
}

func TestPositions(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		checks []posCheck
	}{{
		name: "multi-line tag, tabs, UTF-8",
		src: "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"Main\">\n\t<Sequence\n\t\tname = \"é漢\"\n\t\tnext='x'>\n" +
			"<A é=\"漢字\" b=\"x\"/></Sequence>\n</BehaviorTree></root>",
		checks: []posCheck{
			{id: "Sequence", want: [2]Pos{lc(3, 2), lc(3, 3)}},
			{id: "Sequence", attr: "name", want: [2]Pos{lc(4, 3), lc(4, 11)}},
			{id: "Sequence", attr: "next", want: [2]Pos{lc(5, 3), lc(5, 9)}},
			{id: "A", want: [2]Pos{lc(6, 1), lc(6, 2)}},
			{id: "A", attr: "é", want: [2]Pos{lc(6, 4), lc(6, 7)}},
			{id: "A", attr: "b", want: [2]Pos{lc(6, 11), lc(6, 14)}},
		},
	}, {
		name: "CRLF",
		src:  "<root BTCPP_format=\"4\">\r\n<BehaviorTree ID=\"Main\">\r\n\t<Sequence\r\n\t\tname = \"é漢\"\r\n\t\tnext='x'/>\r\n</BehaviorTree></root>\r\n",
		checks: []posCheck{
			{id: "Sequence", want: [2]Pos{lc(3, 2), lc(3, 3)}},
			{id: "Sequence", attr: "name", want: [2]Pos{lc(4, 3), lc(4, 11)}},
			{id: "Sequence", attr: "next", want: [2]Pos{lc(5, 3), lc(5, 9)}},
		},
	}, {
		name: "lone CR",
		src:  "<root BTCPP_format=\"4\">\r<BehaviorTree ID=\"Main\">\r\t<Sequence\r\t\tname = \"é漢\"\r\n\t\tnext='x'/>\r</BehaviorTree></root>",
		checks: []posCheck{
			{id: "Sequence", want: [2]Pos{lc(3, 2), lc(3, 3)}},
			{id: "Sequence", attr: "name", want: [2]Pos{lc(4, 3), lc(4, 11)}},
			{id: "Sequence", attr: "next", want: [2]Pos{lc(5, 3), lc(5, 9)}},
		},
	}, {
		name: "BOM",
		src:  "\ufeff<root BTCPP_format=\"4\"><BehaviorTree ID=\"Main\"><A x=\"1\"/></BehaviorTree></root>",
		checks: []posCheck{
			{id: "A", want: [2]Pos{lc(1, 48), lc(1, 49)}},
			{id: "A", attr: "x", want: [2]Pos{lc(1, 51), lc(1, 54)}},
		},
	}, {
		name: "multi-line value and references",
		src: "<root BTCPP_format=\"4\"><BehaviorTree ID=\"Main\">\n" +
			"<Script code=\"a := 1;\n  b := &apos;x&apos;\r\n\" next=\"&#x41;\" last=\"z\"/>\n</BehaviorTree></root>",
		checks: []posCheck{
			{id: "Script", attr: "code", want: [2]Pos{lc(2, 9), lc(2, 15)}},
			{id: "Script", attr: "next", want: [2]Pos{lc(4, 3), lc(4, 9)}},
			{id: "Script", attr: "last", want: [2]Pos{lc(4, 17), lc(4, 23)}},
		},
	}, {
		name: "explicit form",
		src: "<root BTCPP_format=\"4\"><BehaviorTree ID=\"Main\">\n" +
			"  <Action name=\"n\"\n          ID=\"Say\" msg=\"hi\"/>\n</BehaviorTree></root>",
		checks: []posCheck{
			{id: "Say", want: [2]Pos{lc(2, 3), lc(3, 15)}},
			{id: "Say", attr: "name", want: [2]Pos{lc(2, 11), lc(2, 17)}},
			{id: "Say", attr: "msg", want: [2]Pos{lc(3, 20), lc(3, 25)}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, "f.xml", tt.src)
			for _, c := range tt.checks {
				e := find(d, c.id)
				if e == nil {
					t.Fatalf("no element %s", c.id)
				}
				got := [2]Pos{e.Pos, e.IDPos()}
				what := "<" + c.id + "> Pos, IDPos"
				if c.attr != "" {
					a, ok := e.Attr(c.attr)
					if !ok {
						t.Fatalf("<%s> has no attribute %s", c.id, c.attr)
					}
					got = [2]Pos{a.Pos, a.ValuePos()}
					what = "<" + c.id + "> " + c.attr + " Pos, ValuePos"
				}
				if got != c.want {
					t.Errorf("%s = %v, want %v", what, got, c.want)
				}
			}
		})
	}
}

// TestPositionsOfEverything checks the positions of the document, trees,
// includes, models and ports.
func TestPositionsOfEverything(t *testing.T) {
	src := "<!-- c -->\n<root BTCPP_format=\"4\" main_tree_to_execute=\"T\">\n" +
		"  <include path=\"x.xml\"/>\n" +
		"  <BehaviorTree ID=\"T\" _fullpath=\"p\"><A/></BehaviorTree>\n" +
		"  <TreeNodesModel>\n" +
		"    <Action ID=\"A\">\n" +
		"      <input_port name=\"in\"/>\n" +
		"      <MetadataFields><Metadata k=\"v\"/></MetadataFields>\n" +
		"    </Action>\n" +
		"  </TreeNodesModel>\n</root>\n"
	d := mustParse(t, "f.xml", src)
	m := d.Models[0]
	for _, c := range []struct {
		what      string
		got, want Pos
	}{
		{"document", d.Pos, lc(2, 1)},
		{"main tree", d.MainTreePos, lc(2, 46)},
		{"include", d.Includes[0].Pos, lc(3, 3)},
		{"tree", d.Trees[0].Pos, lc(4, 3)},
		{"tree attribute", d.Trees[0].Attrs[0].Pos, lc(4, 24)},
		{"tree root", d.Trees[0].Root.Pos, lc(4, 38)},
		{"model", m.Pos, lc(6, 5)},
		{"port", m.Ports[0].Pos, lc(7, 7)},
		{"metadata", m.Metadata[0].Pos, lc(8, 33)},
		{"metadata value", m.Metadata[0].ValuePos(), lc(8, 36)},
	} {
		if c.got != c.want {
			t.Errorf("%s at %v, want %v", c.what, c.got, c.want)
		}
	}
}

// TestErrorPositions checks where errors are reported in awkward layouts.
func TestErrorPositions(t *testing.T) {
	tests := []struct{ src, want string }{
		{"<root BTCPP_format=\"4\">\r\n  <BehaviorTree ID=\"a b\">\r\n\t<A/></BehaviorTree></root>",
			`f.xml:2:21: invalid tree ID "a b": contains ' '`},
		{"<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">\n<A v=\"漢字 &nope;\"/></BehaviorTree></root>",
			"f.xml:2:10: unknown entity &nope;"},
		{"<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">\r<A v=\"é\r\" ID=\"x\"/></BehaviorTree></root>",
			"f.xml:3:3: attribute ID is not allowed in <A> (only <Action>, <Condition>, <Control>, <Decorator> and <SubTree> take one)"},
	}
	for _, tt := range tests {
		_, err := Parse("f.xml", []byte(tt.src))
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
}

// TestNotePositions checks where notes are reported in awkward layouts.
func TestNotePositions(t *testing.T) {
	src := "\ufeff<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">\n\t  oops <A v=\"漢字\t<2\"/></BehaviorTree></root>"
	d, err := Parse("f.xml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`f.xml:2:4: text "oops" in <BehaviorTree> is ignored`, "f.xml:2:18: '<' in attribute value taken as it is; write &lt;"}
	if len(d.Notes) != 2 || d.Notes[0].String() != want[0] || d.Notes[1].String() != want[1] {
		t.Errorf("notes %v, want %q", d.Notes, want)
	}
}

func TestPosString(t *testing.T) {
	tests := []struct {
		p    Pos
		want string
	}{
		{Pos{"a.xml", 3, 7}, "a.xml:3:7"},
		{Pos{"", 3, 7}, "3:7"},
		{Pos{"a.xml", 0, 0}, "a.xml"},
		{Pos{}, "-"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestErrorList(t *testing.T) {
	l := ErrorList{
		{Pos: Pos{"b.xml", 1, 1}, Msg: "b"},
		{Pos: Pos{"a.xml", 2, 1}, Msg: "a2"},
		{Pos: Pos{"a.xml", 1, 5}, Msg: "a1"},
	}
	l.Sort()
	want := "a.xml:1:5: a1\na.xml:2:1: a2\nb.xml:1:1: b"
	if got := l.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if ErrorList(nil).Err() != nil {
		t.Error("empty list: Err() != nil")
	}
	var e *Error
	if !errors.As(l.Err(), &e) || e.Msg != "a1" {
		t.Errorf("errors.As found %v", e)
	}
	if got := (&Error{Msg: "plain"}).Error(); got != "plain" {
		t.Errorf("Error without position = %q", got)
	}
}

// TestTooManyErrors checks that the error list is capped.
func TestTooManyErrors(t *testing.T) {
	src := "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><Sequence>" +
		strings.Repeat("<Action/>", 500) + "</Sequence></BehaviorTree></root>"
	_, err := Parse("f.xml", []byte(src))
	l, ok := err.(ErrorList)
	if !ok || len(l) != maxErrors+1 || l[len(l)-1].Msg != "too many errors" {
		t.Fatalf("got %d errors, last %v", len(l), l[len(l)-1])
	}
}
