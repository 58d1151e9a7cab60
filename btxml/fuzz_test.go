package btxml

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func addSeeds(f *testing.F, add func(data []byte)) {
	for _, dir := range []string{"testdata/golden", "testdata/conformance", "testdata/upgrade", "testdata/models"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
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
