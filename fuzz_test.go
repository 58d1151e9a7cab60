package bt

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary documents to the loader: it must answer with a tree or an
// error, never panic or hang, and a tree it builds must describe its nodes as their
// definitions do and tick and halt without panicking.
func FuzzLoad(f *testing.F) {
	for _, dir := range []string{"testdata/errors", "testdata/fuzzseed"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(string(data))
			}
		}
	}
	f.Add(genTreeXML(60, true))
	f.Fuzz(func(t *testing.T, doc string) {
		fac := NewFactory()
		if err := fac.LoadString("fuzz.xml", doc); err != nil {
			return
		}
		for _, id := range fac.TreeIDs() {
			tree, err := fac.NewTree(id)
			if err != nil {
				continue
			}
			checkSpecs(t, tree)
			// TickExactlyOnce: a tree may legitimately loop forever (Repeat -1 over a
			// synchronous child keeps TickOnce busy, as in BehaviorTree.CPP).
			for range 5 {
				if s, err := tree.TickExactlyOnce(); err != nil || s != Running {
					break
				}
			}
			tree.Halt()
		}
		// Loading the document again replaces its trees (link.go), and a rule may
		// replace every SubTree node by a leaf.
		if err := fac.LoadString("again.xml", doc); err != nil {
			t.Fatalf("loading a document that loaded once: %v", err)
		}
		if err := fac.SubstituteTestNode("SubTree", TestNodeConfig{}); err != nil {
			t.Fatal(err)
		}
		for _, id := range fac.TreeIDs() {
			if tree, err := fac.NewTree(id); err == nil {
				checkSpecs(t, tree)
				_, _ = tree.TickExactlyOnce()
				tree.Halt()
			}
		}
	})
}

// checkSpecs checks that every node of tree agrees with the Spec it was built from.
func checkSpecs(t *testing.T, tree *Tree) {
	for n := range tree.Nodes() {
		s := n.Spec()
		kids := len(s.Children())
		if n.Kind() == KindSubTree {
			kids = 1 // the subtree's root
		}
		if s.Model().ID != n.ID() || s.Pos() != n.Pos() || kids != n.NumChildren() || s.Name() != "" && s.Name() != n.Name() {
			t.Fatalf("%s (%s at %s, %d children) has the Spec of %s %q at %s with %d children",
				n.Path(), n.ID(), n.Pos(), n.NumChildren(), s.Model().ID, s.Name(), s.Pos(), len(s.Children()))
		}
	}
}
