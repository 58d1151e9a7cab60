package btxml

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// file returns a file holding trees with the given IDs and includes.
func file(includes []string, trees ...string) *fstest.MapFile {
	var b strings.Builder
	b.WriteString("<root BTCPP_format=\"4\">\n")
	for _, inc := range includes {
		b.WriteString("  <include path=\"" + inc + "\"/>\n")
	}
	for _, id := range trees {
		fmt.Fprintf(&b, "  <BehaviorTree ID=%q><AlwaysSuccess/></BehaviorTree>\n", id)
	}
	b.WriteString("</root>\n")
	return &fstest.MapFile{Data: []byte(b.String())}
}

func treeIDs(d *Document) string {
	var ids []string
	for _, t := range d.Trees {
		ids = append(ids, t.ID+"@"+t.Pos.String())
	}
	return strings.Join(ids, " ")
}

func TestLoad(t *testing.T) {
	fsys := fstest.MapFS{
		"main.xml":         file([]string{"sub/a.xml", "b.xml"}, "Main"),
		"sub/a.xml":        file([]string{"../common.xml", "deeper/c.xml"}, "A"),
		"sub/deeper/c.xml": file(nil, "C"),
		"common.xml":       file(nil, "Common"),
		"b.xml":            file([]string{"common.xml"}, "B"), // common.xml again: read once
	}
	d, err := Load(fsys, "main.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := "Common@common.xml:2:3 C@sub/deeper/c.xml:2:3 A@sub/a.xml:4:3 B@b.xml:3:3 Main@main.xml:4:3"
	if got := treeIDs(d); got != want {
		t.Errorf("trees:\n got %s\nwant %s", got, want)
	}
	if d.File != "main.xml" || len(d.Includes) != 2 || d.Includes[0].Path != "sub/a.xml" {
		t.Errorf("document %s with includes %v", d.File, d.Includes)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		fsys fstest.MapFS
		lim  Limits
		want string
	}{{
		name: "cycle",
		fsys: fstest.MapFS{
			"main.xml":  file([]string{"dir/a.xml"}, "Main"),
			"dir/a.xml": file([]string{"b.xml"}, "A"),
			"dir/b.xml": file([]string{"../main.xml"}, "B"),
		},
		want: "dir/b.xml:2:3: include cycle: main.xml -> dir/a.xml -> dir/b.xml -> main.xml",
	}, {
		name: "self",
		fsys: fstest.MapFS{"main.xml": file([]string{"./main.xml"}, "Main")},
		want: "main.xml:2:3: include cycle: main.xml -> main.xml",
	}, {
		name: "escape",
		fsys: fstest.MapFS{"main.xml": file([]string{"../x.xml", "a/../../x.xml", "/etc/passwd", `a\b.xml`}, "Main")},
		want: `main.xml:2:3: include outside the root: "../x.xml"` + "\n" +
			`main.xml:3:3: include outside the root: "a/../../x.xml"` + "\n" +
			`main.xml:4:3: include outside the root: "/etc/passwd" is absolute` + "\n" +
			`main.xml:5:3: include path "a\\b.xml": use '/' to separate directories`,
	}, {
		name: "missing",
		fsys: fstest.MapFS{"d/main.xml": file([]string{"nope.xml"}, "Main")},
		want: `d/main.xml:2:3: included file "d/nope.xml" not found`,
	}, {
		name: "ros_pkg",
		fsys: fstest.MapFS{"main.xml": {Data: []byte(`<root BTCPP_format="4"><include ros_pkg="nav2" path="x.xml"/></root>`)}},
		want: "main.xml:1:24: ros_pkg includes are not supported",
	}, {
		name: "errors in included files",
		fsys: fstest.MapFS{
			"main.xml": file([]string{"z.xml", "a.xml"}, "Main"),
			"z.xml":    {Data: []byte("<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"a.b\"><X/></BehaviorTree></root>")},
			"a.xml":    {Data: []byte("<root BTCPP_format=\"4\"><Oops/></root>")},
		},
		want: "a.xml:1:24: unknown element <Oops> in <root>\n" + `z.xml:2:19: invalid tree ID "a.b": contains '.'`,
	}, {
		name: "duplicate tree across files",
		fsys: fstest.MapFS{
			"main.xml": file([]string{"a.xml"}, "Main", "A"),
			"a.xml":    file(nil, "A"),
		},
		want: `main.xml:4:3: duplicate tree ID "A" (first at a.xml:2:3)`,
	}, {
		name: "main tree missing",
		fsys: fstest.MapFS{
			"main.xml": {Data: []byte(`<root BTCPP_format="4" main_tree_to_execute="Nope"><include path="a.xml"/></root>`)},
			"a.xml":    file(nil, "A"),
		},
		want: `main.xml:1:46: main_tree_to_execute names no tree: "Nope" (the trees are "A")`,
	}, {
		name: "include depth",
		fsys: chain(40),
		want: "f32.xml:2:3: includes nested deeper than 32 levels",
	}, {
		name: "custom include depth",
		fsys: chain(5),
		lim:  Limits{MaxIncludeDepth: 2},
		want: "f2.xml:2:3: includes nested deeper than 2 levels",
	}, {
		name: "too many includes",
		fsys: fstest.MapFS{
			"main.xml": file([]string{"a.xml", "b.xml", "c.xml"}, "Main"),
			"a.xml":    file(nil, "A"), "b.xml": file(nil, "B"), "c.xml": file(nil, "C"),
		},
		lim:  Limits{MaxIncludes: 2},
		want: "main.xml:4:3: more than 2 included files",
	}, {
		name: "bytes of all files",
		fsys: fstest.MapFS{
			"main.xml": file([]string{"a.xml"}, "Main"),
			"a.xml":    file(nil, "A"),
		},
		lim:  Limits{MaxBytes: 150},
		want: `main.xml:2:3: input larger than 150 bytes (reading "a.xml")`,
	}, {
		name: "elements of all files",
		fsys: fstest.MapFS{
			"main.xml": file([]string{"a.xml"}, "Main"),
			"a.xml":    file(nil, "A"),
		},
		lim:  Limits{MaxNodes: 9},
		want: "a.xml:2:3: more than 9 elements, attributes and comments",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := tt.lim.Load(tt.fsys, firstFile(tt.fsys))
			if d == nil {
				t.Fatal("no document")
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got error\n%v\nwant\n%s", err, tt.want)
			}
		})
	}
}

// firstFile returns the main file of a test file system.
func firstFile(fsys fstest.MapFS) string {
	for _, name := range []string{"main.xml", "d/main.xml", "f0.xml"} {
		if _, ok := fsys[name]; ok {
			return name
		}
	}
	panic("no main file")
}

// chain returns files f0.xml .. f<n>.xml, each including the next.
func chain(n int) fstest.MapFS {
	fsys := fstest.MapFS{}
	for i := range n {
		fsys[fmt.Sprintf("f%d.xml", i)] = file([]string{fmt.Sprintf("f%d.xml", i+1)}, fmt.Sprintf("T%d", i))
	}
	fsys[fmt.Sprintf("f%d.xml", n)] = file(nil, "Last")
	return fsys
}

func TestLoadTopFile(t *testing.T) {
	fsys := fstest.MapFS{"main.xml": file(nil, "Main")}
	_, err := Load(fsys, "nope.xml")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: got %v, want fs.ErrNotExist", err)
	}
	if _, err := Load(fsys, "../main.xml"); err == nil || !strings.Contains(err.Error(), "invalid path") {
		t.Errorf("bad path: got %v", err)
	}
	if _, err := (Limits{MaxBytes: 10}).Load(fsys, "main.xml"); err == nil || !strings.Contains(err.Error(), "main.xml: input larger than 10 bytes") {
		t.Errorf("large file: got %v", err)
	}
	_, err = Load(fstest.MapFS{"main.xml": file([]string{"x.xml"}, "Main")}, "main.xml")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing include: got %v, want fs.ErrNotExist", err)
	}
}

// TestLoadMainTreeInInclude checks that main_tree_to_execute may name a tree of
// an included file, which Parse alone cannot check.
func TestLoadMainTreeInInclude(t *testing.T) {
	fsys := fstest.MapFS{
		"main.xml": {Data: []byte(`<root BTCPP_format="4" main_tree_to_execute="A"><include path="a.xml"/></root>`)},
		"a.xml":    file(nil, "A"),
	}
	if _, err := Parse("main.xml", fsys["main.xml"].Data); err != nil {
		t.Errorf("Parse: %v", err)
	}
	d, err := Load(fsys, "main.xml")
	if err != nil || d.Tree("A") == nil {
		t.Errorf("Load: %v", err)
	}
}

func TestLoadModels(t *testing.T) {
	model := func(port string) string {
		return `<TreeNodesModel><Action ID="Move"><input_port name="` + port + `"/></Action></TreeNodesModel>`
	}
	fsys := fstest.MapFS{
		"main.xml": {Data: []byte(`<root BTCPP_format="4"><include path="a.xml"/><include path="b.xml"/>` + model("goal") + `</root>`)},
		"a.xml":    {Data: []byte(`<root BTCPP_format="4">` + model("goal") + `</root>`)},
		"b.xml":    {Data: []byte("<root BTCPP_format=\"4\">\n" + model("target") + `</root>`)},
	}
	d, err := Load(fsys, "main.xml")
	want := `b.xml:2:17: model "Move" differs from the one at a.xml:1:40`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if len(d.Models) != 1 || d.Models[0].Pos.File != "a.xml" {
		t.Errorf("models %v", dump(d.Models))
	}
}

// TestLoadFormats checks that each tree keeps the format of its file and
// that Upgrade converts only the format-3 ones.
func TestLoadFormats(t *testing.T) {
	fsys := fstest.MapFS{
		"main.xml": {Data: []byte(`<root BTCPP_format="4"><include path="old.xml"/>` +
			`<BehaviorTree ID="Main"><SequenceStar><A/></SequenceStar></BehaviorTree></root>`)},
		"old.xml": {Data: []byte(`<root><BehaviorTree ID="Old"><SequenceStar><A/></SequenceStar></BehaviorTree></root>`)},
	}
	d, err := Load(fsys, "main.xml")
	if err != nil {
		t.Fatal(err)
	}
	if d.Format != 4 || d.Tree("Old").Format != 3 || d.Tree("Main").Format != 4 {
		t.Fatalf("formats: document %d, Old %d, Main %d", d.Format, d.Tree("Old").Format, d.Tree("Main").Format)
	}
	Upgrade(d)
	if got := d.Tree("Old").Root.ID; got != "SequenceWithMemory" {
		t.Errorf("Old root %s, want SequenceWithMemory", got)
	}
	if got := d.Tree("Main").Root.ID; got != "SequenceStar" {
		t.Errorf("Main root %s, want SequenceStar (a format-4 tree is left alone)", got)
	}
}

// TestLoadNotes checks that the notes of included files come with their trees and
// models, in the same order.
func TestLoadNotes(t *testing.T) {
	models := func(id string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`<root BTCPP_format="4"><TreeNodesModel><Control ID="` + id + `">
<bidirectional_port name="i"/></Control></TreeNodesModel></root>`)}
	}
	fsys := fstest.MapFS{
		"main.xml": &fstest.MapFile{Data: []byte(`<root BTCPP_format="4"><include path="a.xml"/><include path="b.xml"/>
<TreeNodesModel><Action ID="M"><gizmo/></Action></TreeNodesModel></root>`)},
		"a.xml": models("A"),
		"b.xml": models("B"),
	}
	d, err := Load(fsys, "main.xml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range d.Notes {
		got = append(got, n.String())
	}
	want := []string{
		"a.xml:2:1: unknown port element <bidirectional_port> (want input_port, output_port or inout_port): read as a port of unknown direction",
		"b.xml:2:1: unknown port element <bidirectional_port> (want input_port, output_port or inout_port): read as a port of unknown direction",
		"main.xml:2:32: unknown element <gizmo> in <Action> ignored (want input_port, output_port, inout_port, MetadataFields or description)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := d.Model("A").Ports[0]; p.Dir != "bidirectional" || p.Name != "i" {
		t.Errorf("port %+v", p)
	}
}
