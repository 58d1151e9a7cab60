package btxml

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

func addSeeds(f *testing.F, add func(data []byte)) {
	for _, dir := range []string{"testdata/golden", "../testdata/conformance", "testdata/upgrade", "testdata/models"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
		if len(files) == 0 {
			f.Fatalf("no seeds in %s", dir)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			add(data)
		}
	}
	for _, s := range []string{
		"", "<root/>", "<root", "<root BTCPP_format=\"4\"><BehaviorTree><A/></BehaviorTree></root>",
		"\ufeff<root>\r\n<BehaviorTree ID='x'>\r<A a='&#x41;&lt;'/></BehaviorTree></root>",
		"<root><![CDATA[x]]><!--c--><?p?></root>",
		"<!--h-->\n<root><!--a--><BehaviorTree ID='x'><!--b--><A/> <!--c-->\n<!--d--></BehaviorTree> <!--e--><TreeNodesModel><!--f--><Action ID='A'><!--g--><input_port name='p'/><!--h--></Action></TreeNodesModel><!--i--></root><!--j-->",
		"<root><TreeNodesModel><Control ID='P'><bidirectional_port name='i'/><x_port name='j'/><gizmo/></Control></TreeNodesModel></root>",
		"\ufeff<root>\r<BehaviorTree ID=\"é\">\r\n\t<A\r\n  b = \r\n 'x'\r c=\"漢\rz\"/></BehaviorTree></root>",
		"<root><BehaviorTree>\n        <Control  ID = 'S' n=\"&amp;\n\"><B\tx='1'/>\n</Control></BehaviorTree></root>",
		// What tinyxml2 reads and XML does not: noted, and written back escaped.
		"<root><BehaviorTree ID='T'><Script code=\"x < 25 && a<b; c := '&lt;&' &amp\" _skipIf='A<2'/></BehaviorTree></root>",
		"<root><BehaviorTree ID='T'>\n  oops <Sequence>x=\"1\"<A a='1/> <B/>'/></Sequence>\n</BehaviorTree></root>",
		"<root><BehaviorTree ID='T'><A a=\"1/>\n  <B b=\"2\"/></BehaviorTree></root>",
	} {
		add([]byte(s))
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// survives Write and Parse unchanged, with Write idempotent.
func FuzzParse(f *testing.F) {
	addSeeds(f, func(data []byte) { f.Add(data) })
	small := Limits{MaxDepth: 8, MaxAttrs: 8, MaxAttrLen: 64, MaxNodes: 100, MaxBytes: 4096}
	f.Fuzz(func(t *testing.T, data []byte) {
		small.Parse("f.xml", data)
		d, err := Parse("f.xml", data)
		if d != nil {
			checkPositions(t, string(data), d)
		}
		if err != nil {
			if _, ok := err.(ErrorList); !ok {
				t.Fatalf("error is a %T", err)
			}
			return
		}
		checkRoundTrip(t, d)
		Upgrade(d)
		checkRoundTrip(t, d)
	})
}

// FuzzLoad checks that Load never panics on files that include each other.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`<root><include path="a.xml"/><include path="dir/b.xml"/></root>`), []byte(`<root><include path="../main.xml"/></root>`))
	f.Add([]byte(`<root><include path="a.xml"/><BehaviorTree ID="A"><A/></BehaviorTree></root>`), []byte(`<root><BehaviorTree ID="A"><A/></BehaviorTree><TreeNodesModel><Action ID="A"/></TreeNodesModel></root>`))
	addSeeds(f, func(data []byte) { f.Add(data, []byte(`<root><include path="dir/b.xml"/></root>`)) })
	f.Fuzz(func(t *testing.T, main, other []byte) {
		fsys := fstest.MapFS{
			"main.xml":  {Data: main},
			"a.xml":     {Data: other},
			"dir/b.xml": {Data: other},
			"dir/a.xml": {Data: main},
		}
		d, err := Load(fsys, "main.xml")
		if d == nil {
			t.Fatalf("no document: %v", err)
		}
		if err == nil {
			out := mustWrite(t, d)
			if _, err := Parse("main.xml", out); err != nil && d.Includes == nil {
				t.Fatalf("Parse(Write(Load)): %v", err)
			}
		}
	})
}

// offsetOf finds the byte offset of a line and column in src the slow and
// obvious way, or returns -1.
func offsetOf(src string, line, col int32) int {
	i := 0
	if strings.HasPrefix(src, bom) {
		i = len(bom)
	}
	l, c := int32(1), int32(1)
	for {
		if l == line && c == col {
			return i
		}
		if i >= len(src) || l > line {
			return -1
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == '\n' || r == '\r' && !strings.HasPrefix(src[i+1:], "\n") {
			l, c = l+1, 1
		} else {
			c++
		}
		i += size
	}
}

// checkPositions checks that every element and attribute of d is where its
// positions say: '<' and the tag at Pos, the type name at IDPos, the name of
// an attribute at Pos and its value after a quote at ValuePos.
func checkPositions(t *testing.T, src string, d *Document) {
	t.Helper()
	at := func(p Pos, want string, what string) {
		t.Helper()
		if off := offsetOf(src, p.Line, p.Col); off < 0 || !strings.HasPrefix(src[off:], want) {
			t.Fatalf("%s at %v: want %q there", what, p, want)
		}
	}
	afterQuote := func(p Pos, what string) {
		t.Helper()
		if off := offsetOf(src, p.Line, p.Col-1); off < 0 || src[off] != '"' && src[off] != '\'' {
			t.Fatalf("%s at %v: no quote before it", what, p)
		}
	}
	// A note of the scanner is at the character it is about; one of stray
	// text at the text.
	for _, n := range d.Notes {
		switch {
		case strings.HasPrefix(n.Msg, "'<'"):
			at(n.Pos, "<", "note")
		case strings.HasPrefix(n.Msg, "'&'"):
			at(n.Pos, "&", "note")
		case strings.HasPrefix(n.Msg, "text "):
			// Text starts with '<' only inside CDATA, where its note says so.
			markup := func(off int) bool { return src[off] == '<' && !strings.HasPrefix(n.Msg, `text "<`) }
			if off := offsetOf(src, n.Pos.Line, n.Pos.Col); off < 0 || isSpace(src[off]) || markup(off) {
				t.Fatalf("note at %v: no text there", n.Pos)
			}
		}
	}
	attrs := func(list []Attr) {
		t.Helper()
		for _, a := range list {
			at(a.Pos, a.Name, "attribute")
			afterQuote(a.ValuePos(), "value of "+a.Name)
		}
	}
	comments := func(c *Comments) {
		t.Helper()
		if c == nil {
			return
		}
		for _, list := range [][]Comment{c.Before, c.After, c.Inside} {
			for _, x := range list {
				if strings.IndexByte(src, '\r') < 0 {
					at(x.Pos, "<!--"+x.Text+"-->", "comment")
				} else {
					at(x.Pos, "<!--", "comment")
				}
			}
		}
	}
	var walk func(e *Element)
	walk = func(e *Element) {
		at(e.Pos, "<"+e.Tag, "element")
		comments(e.Comments)
		if e.Explicit() || e.Tag == "SubTreePlus" {
			if e.IDPos().IsValid() {
				afterQuote(e.IDPos(), "ID")
			}
		} else {
			at(e.IDPos(), e.ID, "type name")
		}
		attrs(e.Attrs)
		for _, c := range e.Children {
			if c != nil {
				walk(c)
			}
		}
	}
	if d.Pos.IsValid() {
		at(d.Pos, "<root", "document")
	}
	attrs(d.Attrs)
	comments(d.Comments)
	comments(d.ModelsComments)
	for _, tr := range d.Trees {
		at(tr.Pos, "<BehaviorTree", "tree")
		attrs(tr.Attrs)
		comments(tr.Comments)
		if tr.Root != nil {
			walk(tr.Root)
		}
	}
	for _, m := range d.Models {
		at(m.Pos, "<"+m.Kind, "model")
		attrs(m.Attrs)
		attrs(m.Metadata)
		comments(m.Comments)
		for _, p := range m.Ports {
			at(p.Pos, "<"+p.Dir, "port")
			comments(p.Comments)
		}
	}
	for _, inc := range d.Includes {
		at(inc.Pos, "<include", "include")
		comments(inc.Comments)
	}
}
