package btxml

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGolden parses each testdata/golden/NAME.xml. A valid file must write as
// NAME.want.xml and survive a round trip; an invalid one must give the errors
// in NAME.errors, one per line as "line:col: message". Either must give the
// notes in NAME.notes, if it has any.
func TestGolden(t *testing.T) {
	for _, file := range xmlFiles(t, "testdata/golden") {
		base := strings.TrimSuffix(file, ".xml")
		t.Run(filepath.Base(base), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := Parse("", data)
			if d == nil {
				t.Fatal("Parse returned no document")
			}
			if len(d.Notes) > 0 {
				var notes strings.Builder
				for _, n := range d.Notes {
					notes.WriteString(n.String() + "\n")
				}
				golden(t, base+".notes", []byte(notes.String()))
			} else {
				noGolden(t, base+".notes")
			}
			if err != nil {
				if _, ok := err.(ErrorList); !ok {
					t.Fatalf("error is a %T, not an ErrorList", err)
				}
				golden(t, base+".errors", []byte(err.Error()+"\n"))
				noGolden(t, base+".want.xml")
				return
			}
			golden(t, base+".want.xml", mustWrite(t, d))
			noGolden(t, base+".errors")
			checkRoundTrip(t, d)
		})
	}
}

// TestConformanceRoundTrip parses copies of the conformance cases (BT.CPP 4.10
// trees, in the module's testdata) and checks that they survive Write and Parse.
func TestConformanceRoundTrip(t *testing.T) {
	for _, file := range xmlFiles(t, "../testdata/conformance") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := Parse(filepath.Base(file), data)
			if err != nil {
				t.Fatal(err)
			}
			if d.Format != 4 || len(d.Trees) == 0 {
				t.Fatalf("Format %d, %d trees", d.Format, len(d.Trees))
			}
			checkRoundTrip(t, d)
		})
	}
}
