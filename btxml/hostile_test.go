package btxml

import (
	"encoding/xml"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSyntaxErrors checks malformed XML: each input gives exactly one error,
// and parsing stops there.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "1:1: no <root> element"},
		{"  \n<!-- only a comment -->\n", "3:1: no <root> element"},
		{"<root", "1:1: unterminated start tag <root"},
		{"<root BTCPP_format=4>", "1:20: value of attribute BTCPP_format must be quoted"},
		{`<root BTCPP_format="4>`, "1:20: unterminated value of attribute BTCPP_format"},
		{"<root x>", "1:7: attribute x has no value"},
		{"<root =x/>", "1:7: unexpected '=' in <root>"},
		{"<root/ >", "1:6: expected '>' after '/'"},
		{"< root/>", "1:1: '<' not followed by a name"},
		{"<root></ root>", "1:7: invalid end tag"},
		{"<root></root x>", "1:7: expected '>' to end </root"},
		{"<root><!-- x", "1:7: unterminated comment"},
		{"<root><?pi", "1:7: unterminated processing instruction"},
		{"<root><![CDATA[x", "1:7: unterminated CDATA section"},
		{"<root><!ELEMENT x></root>", `1:7: unexpected "<!ELEMENT"`},
		{"<root></rot>", "1:7: </rot> does not match <root> at 1:1"},
		{"<root>\n", "2:1: missing </root> for <root> at 1:1"},
		{"<root><BehaviorTree ID=\"T\"><A>", "1:31: missing </A> for <A> at 1:28"},
		{"<root/><root/>", "1:8: element after </root>"},
		{"<root/>x", "1:8: text after </root>"},
		{"x<root/>", "1:1: text outside <root>"},
		{"</root>", "1:1: unexpected </root>"},
		{"<tree/>", "1:1: the top element must be <root>, not <tree>"},
		// A '<' where a value that runs on past a missing quote has one.
		{`<root a="<b"/>`, "1:10: '<' in attribute value starts what looks like a tag: is a closing quote missing? (write &lt; if it belongs to the value)"},
		{"<root><BehaviorTree ID=\"T\"><A a=\"1/>\n  <B b=\"2\"/></BehaviorTree></root>",
			"2:3: '<' in attribute value starts what looks like a tag: is a closing quote missing? (write &lt; if it belongs to the value)"},
		{`<root><BehaviorTree ID="T"><A a="1/> </B b="2"/></BehaviorTree></root>`,
			"1:38: '<' in attribute value starts what looks like a tag: is a closing quote missing? (write &lt; if it belongs to the value)"},
		{`<root a="x>	<!--"/>`, "1:13: '<' in attribute value starts what looks like a tag: is a closing quote missing? (write &lt; if it belongs to the value)"},
		// An '&' that starts what looks like a reference must be one.
		{`<root a="a &b; c"/>`, "1:12: unknown entity &b;"},
		{`<root a="&nbsp;"/>`, "1:10: unknown entity &nbsp;"},
		{`<root a="&#0;"/>`, "1:10: invalid character reference &#0;"},
		{`<root a="&#1;"/>`, "1:10: invalid character reference &#1;"},
		{`<root a="&#xD800;"/>`, "1:10: invalid character reference &#xD800;"},
		{`<root a="&#x110000;"/>`, "1:10: invalid character reference &#x110000;"},
		{`<root a="&#99999999999;"/>`, "1:10: invalid character reference &#99999999999;"},
		{`<root a="&#;"/>`, "1:10: invalid character reference &#;"},
		{`<root a="&#x;"/>`, "1:10: invalid character reference &#x;"},
		{`<root a="&#-5;"/>`, "1:10: invalid character reference &#-5;"},
		{"<root a=\"x\x01\"/>", "1:11: invalid character U+0001"},
		{"<root a=\"x\x00\"/>", "1:11: invalid character U+0000"},
		{"\xff<root/>", "1:1: invalid UTF-8"},
		{"<root a=\"é\xff\"/>", "1:11: invalid UTF-8"},
		{"<root a=\"\uffff\"/>", "1:10: invalid character U+FFFF"},
		{"<root>\n<!-- \ufffe -->", "2:6: invalid character U+FFFE"},
		{"\xfe\xff\x00<\x00r", "1:1: UTF-16 is not supported; use UTF-8"},
		{"\xff\xfe<\x00r\x00", "1:1: UTF-16 is not supported; use UTF-8"},
		{`<?xml version="1.0" encoding="ISO-8859-1"?><root/>`, `1:31: unsupported encoding "ISO-8859-1"; use UTF-8`},
		{`<?xml version="1.0"`, "1:1: unterminated XML declaration"},
		{"<!DOCTYPE root><root/>", "1:1: DOCTYPE is not allowed (entity declarations are not supported)"},
		{"<root><BehaviorTree ID=\"T\"><A/>\n <!DOCTYPE x></BehaviorTree></root>",
			"2:2: DOCTYPE is not allowed (entity declarations are not supported)"},
	}
	for _, tt := range tests {
		_, err := Parse("", []byte(tt.src))
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
}

// TestAcceptedSyntax checks XML that is unusual but valid.
func TestAcceptedSyntax(t *testing.T) {
	for _, src := range []string{
		`<?xml version="1.0" encoding="utf-8" standalone="yes"?><root/>`,
		`<?xml version='1.0' encoding='US-ASCII'?><root/>`,
		"<?xml version=\"1.0\"?>\n<?stylesheet x?>\n<!-- c --><root/><!-- c -->\n<?pi?>\n",
		"<root\n\tBTCPP_format\n=\n'4'\n/>",
		"<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><A/><!-- -- is tolerated --></BehaviorTree></root>",
		"<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><A></A\n></BehaviorTree></root>",
		"<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><A a=\"&#x1F600;&#128512;&#9;\"/></BehaviorTree></root>",
		"<root BTCPP_format=\"4\"><BehaviorTree ID=\"漢字\"><Ñandú x.y-z=\"1\" _a:b=\"2\"/></BehaviorTree></root>",
	} {
		if _, err := Parse("", []byte(src)); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
}

// TestTinyxml2Leniency checks that what tinyxml2 (BehaviorTree.CPP's parser)
// accepts in values and between elements loads, with a note at its position: a
// raw '<' in an attribute value, an '&' that starts no reference, and text
// inside elements that hold only elements, which is ignored.
func TestTinyxml2Leniency(t *testing.T) {
	const lt = "'<' in attribute value taken as it is; write &lt;"
	const amp = "'&' taken as it is; write &amp;"
	tests := []struct {
		body, value string // value: the A node's attribute v
		notes       []string
	}{
		{`<A v="A<2"/>`, "A<2", []string{"2:8: " + lt}},
		{`<A v="x < 25 &amp;&amp; y<=3"/>`, "x < 25 && y<=3", []string{"2:9: " + lt}},
		{`<A v="a<b; c <d"/>`, "a<b; c <d", []string{"2:8: " + lt}}, // one note per value
		{`<A v="a && b"/>`, "a && b", []string{"2:9: " + amp}},
		{`<A v="&amp;&lt &# &x"/>`, "&&lt &# &x", []string{"2:12: " + amp}},
		{`<A v="&lt;&&gt;"/>`, "<&>", []string{"2:11: " + amp}},
		{`<A v="x>y &lt; 2 < z"/>`, "x>y < 2 < z", []string{"2:18: " + lt}},
		{`<A v="a&
b<c"/>`, "a&\nb<c", []string{"2:8: " + amp, "3:2: " + lt}},
		{"<A v='1'/>\n  oops\n", "1", []string{`3:3: text "oops" in <BehaviorTree> is ignored`}},
		{`<Sequence>x="1"<A v="1"/></Sequence>`, "1", []string{`2:11: text "x=\"1\"" in <Sequence> is ignored`}},
	}
	for _, tt := range tests {
		src := "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">\n" + tt.body + "</BehaviorTree></root>"
		d, err := Parse("", []byte(src))
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		root := d.Trees[0].Root
		if len(root.Children) > 0 {
			root = root.Children[0]
		}
		if a, _ := root.Attr("v"); a.Value != tt.value {
			t.Errorf("%s: v = %q, want %q", tt.body, a.Value, tt.value)
		}
		var notes []string
		for _, n := range d.Notes {
			notes = append(notes, n.String())
		}
		if !slices.Equal(notes, tt.notes) {
			t.Errorf("%s: notes\n%q\nwant\n%q", tt.body, notes, tt.notes)
		}
		// Written back, the document is well-formed XML that reads the same.
		out := mustWrite(t, d)
		if err := xml.Unmarshal(out, new(struct{})); err != nil {
			t.Errorf("%s: Write gave XML that encoding/xml refuses (%v):\n%s", tt.body, err, out)
		}
		d2, err := Parse("", out)
		if err != nil || len(d2.Notes) != 0 {
			t.Errorf("%s: parsing what Write wrote: %v, notes %v", tt.body, err, d2.Notes)
		}
	}
}

func TestValues(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"plain", "plain"},
		{"&lt;&gt;&amp;&quot;&apos;", `<>&"'`},
		{"&#65;&#x42;&#x6a;", "ABj"},
		{"a\r\nb\rc\nd\te", "a\nb\nc\nd\te"},
		{"&#13;&#10;", "\r\n"},
		{"  spaces  ", "  spaces  "},
		{"{key}", "{key}"},
		{"", ""},
	}
	for _, tt := range tests {
		src := "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><A v=\"" + tt.raw + "\"/></BehaviorTree></root>"
		d := mustParse(t, "", src)
		if a, _ := d.Trees[0].Root.Attr("v"); a.Value != tt.want {
			t.Errorf("value %q decoded as %q, want %q", tt.raw, a.Value, tt.want)
		}
	}
}

// nest returns a tree nested n levels deep.
func nest(n int) string {
	return "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">" + strings.Repeat("<I>", n-1) + "<A/>" +
		strings.Repeat("</I>", n-1) + "</BehaviorTree></root>"
}

func TestLimits(t *testing.T) {
	many := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i))
		}
		return b.String()
	}
	doc := func(node string) string {
		return "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">" + node + "</BehaviorTree></root>"
	}
	attrs := func(n int) string {
		return "<A" + many(n, func(i int) string { return " a" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + `="1"` }) + "/>"
	}
	tests := []struct {
		name string
		lim  Limits
		src  string
		want string // an error containing this; "" for no error
	}{
		{"depth 256", Limits{}, nest(256), ""},
		{"depth 257", Limits{}, nest(257), "tree nested deeper than 256 levels"},
		{"depth 100000", Limits{}, nest(100000), "tree nested deeper than 256 levels"},
		{"custom depth", Limits{MaxDepth: 3}, nest(4), "1:54: tree nested deeper than 3 levels"},
		{"deep unknown elements", Limits{}, "<root>" + strings.Repeat("<x>", 100000), "elements nested deeper than 259 levels"},
		{"long value", Limits{MaxAttrLen: 10}, doc(`<A v="12345678901"/>`), "1:51: value of attribute v is longer than 10 bytes"},
		{"value at the limit", Limits{MaxAttrLen: 10}, doc(`<A v="1234567890"/>`), ""},
		{"huge value", Limits{}, doc(`<A v="` + strings.Repeat("x", 1<<20+1) + `"/>`), "longer than 1048576 bytes"},
		{"long text", Limits{MaxAttrLen: 10}, doc("<A/>" + strings.Repeat(" ", 11)), "text longer than 10 bytes"},
		{"many attributes", Limits{}, doc(attrs(257)), "more than 256 attributes in <A>"},
		{"attributes at the limit", Limits{}, doc(attrs(256)), ""},
		{"duplicates among many", Limits{}, doc("<A" + many(40, func(int) string { return ` a="1"` }) + "/>"), "duplicate attribute a in <A>"},
		{"custom attributes", Limits{MaxAttrs: 2}, doc(attrs(3)), "more than 2 attributes"},
		// root, BTCPP_format, BehaviorTree and ID are four nodes already.
		{"many elements", Limits{MaxNodes: 7}, doc("<S><A/><A/><A/></S>"), "1:56: more than 7 elements, attributes and comments"},
		{"nodes at the limit", Limits{MaxNodes: 7}, doc("<S><A/><A/></S>"), ""},
		{"many comments", Limits{MaxNodes: 7}, doc("<S><!--a--><!--b--><!--c--></S>"), "1:64: more than 7 elements, attributes and comments"},
		{"a million empty comments", Limits{}, doc("<S>" + strings.Repeat("<!---->", 1_000_001) + "</S>"), "more than 1000000 elements, attributes and comments"},
		{"many attributes in all", Limits{MaxNodes: 8}, doc(`<S a="" b=""><A c=""/></S>`), `1:61: more than 8 elements, attributes and comments`},
		{"a million tiny attributes", Limits{}, doc("<S>" + strings.Repeat("<A"+many(250, func(i int) string { return " a" + strconv.Itoa(i) + `=""` })+"/>", 4000) + "</S>"),
			"more than 1000000 elements, attributes and comments"},
		{"bytes", Limits{MaxBytes: 10}, "<root/>   \n ", "input larger than 10 bytes"},
		{"billion laughs", Limits{}, `<!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><root a="&b;"/>`, "DOCTYPE is not allowed"},
		{"external entity", Limits{}, `<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><root a="&x;"/>`, "DOCTYPE is not allowed"},
		{"undeclared entity", Limits{}, `<root a="&x;"/>`, "unknown entity &x;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.lim.Parse("", []byte(tt.src))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestTruncated parses every prefix of a rich document: none may panic, and
// every proper prefix must fail.
func TestTruncated(t *testing.T) {
	data, err := os.ReadFile("testdata/golden/basic.xml")
	if err != nil {
		t.Fatal(err)
	}
	end := strings.LastIndex(string(data), "</root>") + len("</root>")
	for i := range len(data) {
		d, err := Parse("", data[:i])
		if i < end && err == nil {
			t.Fatalf("prefix of %d bytes parsed without error", i)
		}
		if d == nil {
			t.Fatalf("prefix of %d bytes: no document", i)
		}
	}
}

// TestLongLine checks that positions stay cheap on a single huge line (the
// column cache makes them linear, not quadratic).
func TestLongLine(t *testing.T) {
	const n = 100000
	src := "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><S>" + strings.Repeat(`<A é="漢" b="x"/>`, n) + "</S></BehaviorTree></root>"
	d := mustParse(t, "", src)
	kids := d.Trees[0].Root.Children
	if len(kids) != n {
		t.Fatalf("%d children", len(kids))
	}
	last := kids[n-1]
	wantCol := int32(48 + (n-1)*16)
	if last.Pos != (Pos{Line: 1, Col: wantCol}) {
		t.Errorf("last child at %v, want 1:%d", last.Pos, wantCol)
	}
	if b, _ := last.Attr("b"); b.ValuePos().Col != wantCol+12 {
		t.Errorf("b value at %v, want col %d", b.ValuePos(), wantCol+12)
	}
}
