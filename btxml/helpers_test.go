package btxml

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with the content of file, or rewrites file with -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update to accept):\n--- got\n%s\n--- want\n%s", file, got, want)
	}
}

// noGolden fails if a stale golden file exists (or removes it with -update).
func noGolden(t *testing.T, file string) {
	t.Helper()
	if _, err := os.Stat(file); err == nil {
		if *update {
			os.Remove(file)
			return
		}
		t.Errorf("stale golden file %s", file)
	}
}

func mustWrite(t *testing.T, d *Document) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.Bytes()
}

func mustParse(t *testing.T, file string, data string) *Document {
	t.Helper()
	d, err := Parse(file, []byte(data))
	if err != nil {
		t.Fatalf("Parse(%s): %v", file, err)
	}
	return d
}

// checkRoundTrip checks that d survives Write and Parse, and that Write is
// idempotent.
func checkRoundTrip(t *testing.T, d *Document) {
	t.Helper()
	out := mustWrite(t, d)
	d2, err := Parse(d.File, out)
	if err != nil {
		t.Fatalf("Parse(Write(d)): %v\n%s", err, out)
	}
	if out2 := mustWrite(t, d2); !bytes.Equal(out, out2) {
		t.Fatalf("Write is not idempotent:\n--- first\n%s\n--- second\n%s", out, out2)
	}
	if c, c2 := canonical(d), canonical(d2); !reflect.DeepEqual(c, c2) {
		t.Fatalf("Parse(Write(d)) differs from d:\n--- d\n%s\n--- Parse(Write(d))\n%s", dump(c), dump(c2))
	}
}

// canonical copies d without positions and notes (Write does not write them), and
// with the tags Write would use.
func canonical(d *Document) *Document {
	c := *d
	c.File, c.Pos, c.MainTreePos, c.Notes = "", Pos{}, Pos{}, nil
	c.Attrs = noPos(d.Attrs)
	c.Comments, c.ModelsComments = noCommentPos(d.Comments), noCommentPos(d.ModelsComments)
	c.Trees = nil
	for _, t := range d.Trees {
		ct := *t
		ct.Pos, ct.Attrs, ct.Comments = Pos{}, noPos(t.Attrs), noCommentPos(t.Comments)
		ct.Root = canonicalElement(t.Root)
		c.Trees = append(c.Trees, &ct)
	}
	c.Includes = nil
	for _, inc := range d.Includes {
		ci := *inc
		ci.Pos, ci.Comments = Pos{}, noCommentPos(inc.Comments)
		c.Includes = append(c.Includes, &ci)
	}
	c.Models = nil
	for _, m := range d.Models {
		cm := *m
		cm.Pos, cm.Attrs, cm.Metadata = Pos{}, noPos(m.Attrs), noPos(m.Metadata)
		cm.Comments = noCommentPos(m.Comments)
		cm.Ports = nil
		for _, p := range m.Ports {
			p.Pos, p.Comments = Pos{}, noCommentPos(p.Comments)
			cm.Ports = append(cm.Ports, p)
		}
		c.Models = append(c.Models, &cm)
	}
	return &c
}

func canonicalElement(e *Element) *Element {
	if e == nil {
		return nil
	}
	var w writer
	tag, _ := w.tag(e)
	c := &Element{Tag: tag, ID: e.ID, Attrs: noPos(e.Attrs), Comments: noCommentPos(e.Comments)}
	for _, k := range e.Children {
		c.Children = append(c.Children, canonicalElement(k))
	}
	return c
}

func noPos(attrs []Attr) []Attr {
	var out []Attr
	for _, a := range attrs {
		out = append(out, Attr{Name: a.Name, Value: a.Value})
	}
	return out
}

func noCommentPos(c *Comments) *Comments {
	if c == nil {
		return nil
	}
	strip := func(list []Comment) []Comment {
		var out []Comment
		for _, x := range list {
			out = append(out, Comment{Text: x.Text})
		}
		return out
	}
	return &Comments{Before: strip(c.Before), After: strip(c.After), Inside: strip(c.Inside)}
}

func dump(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b)
}

// xmlFiles lists the input files of a testdata directory.
func xmlFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if filepath.Ext(f[:len(f)-len(".xml")]) != ".want" {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no input files in %s", dir)
	}
	return out
}
