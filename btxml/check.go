package btxml

import (
	"fmt"
	"strings"
)

// checkDocument applies the checks that need every tree and model: duplicate
// IDs and, if checkMain, that main_tree_to_execute names a tree. With
// crossFile, only duplicates from different files are reported (those in one
// file were reported when it was parsed).
func checkDocument(d *Document, sink *errorSink, checkMain, crossFile bool) {
	report := func(pos, first Pos) bool {
		return !crossFile || pos.File != first.File
	}
	trees := make(map[string]*Tree, len(d.Trees))
	for _, t := range d.Trees {
		if t.ID == "" {
			continue // reported elsewhere if it matters
		}
		if first, ok := trees[t.ID]; ok {
			if report(t.Pos, first.Pos) {
				sink.add(t.Pos, fmt.Sprintf("duplicate tree ID %q (first at %s)", t.ID, first.Pos))
			}
			continue
		}
		trees[t.ID] = t
	}
	models := make(map[string]*Model, len(d.Models))
	for _, m := range d.Models {
		if m.ID == "" {
			continue
		}
		if first, ok := models[m.ID]; ok {
			if report(m.Pos, first.Pos) {
				sink.add(m.Pos, fmt.Sprintf("duplicate model ID %q (first at %s)", m.ID, first.Pos))
			}
			continue
		}
		models[m.ID] = m
	}
	if checkMain && d.MainTree != "" && trees[d.MainTree] == nil {
		sink.add(d.MainTreePos, fmt.Sprintf("main_tree_to_execute names no tree: %q%s", d.MainTree, treeList(d.Trees)))
	}
}

func errTooLarge(limit int) string {
	return fmt.Sprintf("input larger than %d bytes", limit)
}

// treeList names the trees of a document, when they are few, for an error message.
func treeList(trees []*Tree) string {
	if len(trees) == 0 || len(trees) > 10 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" (the trees are ")
	for i, t := range trees {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", t.ID)
	}
	b.WriteString(")")
	return b.String()
}
