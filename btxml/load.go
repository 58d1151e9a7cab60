package btxml

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Load parses the file name of fsys and, recursively, the files it includes;
// see the package documentation for how includes are resolved. The trees and
// models of the included files are added to the returned Document. The error,
// if any, is an ErrorList; the Document is returned even then unless the top
// file could not be read, but it may be incomplete.
func Load(fsys fs.FS, name string) (*Document, error) {
	return Limits{}.Load(fsys, name)
}

// loader follows includes for Load.
type loader struct {
	fsys   fs.FS
	lim    Limits
	sink   errorSink
	nodes  int             // elements, attributes and comments in all files
	bytes  int             // bytes read from all files
	files  int             // included files read
	loaded map[string]bool // files read so far
	stack  []string        // files being loaded, outermost first
	ok     bool            // no file stopped on a fatal error
}

func load(fsys fs.FS, name string, lim Limits) (*Document, error) {
	ld := &loader{fsys: fsys, lim: lim, loaded: map[string]bool{}, ok: true}
	if !fs.ValidPath(name) {
		ld.sink.add(Pos{}, fmt.Sprintf("invalid path %q (want an unrooted, slash-separated path without . or .. elements)", name))
		return nil, ld.sink.result()
	}
	src, ok := ld.read(name, Pos{})
	if !ok {
		return nil, ld.sink.result()
	}
	d := ld.loadDoc(name, src, 0)
	d.Models = ld.mergeModels(d.Models)
	checkDocument(d, &ld.sink, ld.ok, true)
	return d, ld.sink.result().Err()
}

// read reads a file within the MaxBytes budget; at is where to report errors.
// It reads into a strings.Builder so that the parser gets the text without
// another copy.
func (ld *loader) read(name string, at Pos) (string, bool) {
	f, err := ld.fsys.Open(name)
	if err != nil {
		msg := err.Error()
		if at.IsValid() {
			msg = fmt.Sprintf("cannot open included file %q: %v", name, err)
			if errors.Is(err, fs.ErrNotExist) {
				msg = fmt.Sprintf("included file %q not found", name)
			}
		}
		ld.sink.addErr(&Error{Pos: at, Msg: msg, Err: err})
		return "", false
	}
	defer f.Close()
	left := ld.lim.MaxBytes - ld.bytes
	var b strings.Builder
	if info, err := f.Stat(); err == nil && info.Size() >= 0 && info.Size() <= int64(left) {
		b.Grow(int(info.Size()) + 1) // +1: the read that sees EOF
	}
	_, err = io.Copy(&b, io.LimitReader(f, int64(left)+1))
	if err != nil {
		ld.sink.addErr(&Error{Pos: at, Msg: fmt.Sprintf("reading %q: %v", name, err), Err: err})
		return "", false
	}
	if b.Len() > left {
		if !at.IsValid() {
			at = Pos{File: name}
		}
		ld.sink.add(at, errTooLarge(ld.lim.MaxBytes)+fmt.Sprintf(" (reading %q)", name))
		return "", false
	}
	ld.bytes += b.Len()
	return b.String(), true
}

// loadDoc parses a file and loads its includes (depth is its include depth).
// The trees and models of the includes go first, as BehaviorTree.CPP
// registers them first.
func (ld *loader) loadDoc(name string, src string, depth int) *Document {
	d, ok := parseFile(name, src, ld.lim, &ld.sink, &ld.nodes)
	ld.ok = ld.ok && ok
	checkDocument(d, &ld.sink, false, false)
	ld.loaded[name] = true
	ld.stack = append(ld.stack, name)
	var trees []*Tree
	var models []*Model
	var notes []Note
	for _, inc := range d.Includes {
		if sub := ld.include(name, inc, depth+1); sub != nil {
			trees = append(trees, sub.Trees...)
			models = append(models, sub.Models...)
			notes = append(notes, sub.Notes...)
		}
	}
	if notes != nil {
		d.Notes = append(notes, d.Notes...)[:min(len(notes)+len(d.Notes), maxErrors)]
	}
	ld.stack = ld.stack[:len(ld.stack)-1]
	if trees != nil {
		d.Trees = append(trees, d.Trees...)
	}
	if models != nil {
		d.Models = append(models, d.Models...)
	}
	return d
}

// include loads the file an <include> of from names. A file that was loaded
// already is not loaded again: its trees are in the document once.
func (ld *loader) include(from string, inc *Include, depth int) *Document {
	if inc.Path == "" {
		return nil // reported by the parser
	}
	if inc.RosPkg != "" {
		ld.sink.add(inc.Pos, "ros_pkg includes are not supported")
		return nil
	}
	target, msg := resolve(path.Dir(from), inc.Path)
	if msg != "" {
		ld.sink.add(inc.Pos, msg)
		return nil
	}
	if i := slices.Index(ld.stack, target); i >= 0 {
		chain := append(slices.Clone(ld.stack[i:]), target)
		ld.sink.add(inc.Pos, "include cycle: "+strings.Join(chain, " -> "))
		return nil
	}
	if ld.loaded[target] {
		return nil
	}
	if depth > ld.lim.MaxIncludeDepth {
		ld.sink.add(inc.Pos, fmt.Sprintf("includes nested deeper than %d levels", ld.lim.MaxIncludeDepth))
		return nil
	}
	if ld.files++; ld.files > ld.lim.MaxIncludes {
		ld.sink.add(inc.Pos, fmt.Sprintf("more than %d included files", ld.lim.MaxIncludes))
		return nil
	}
	src, ok := ld.read(target, inc.Pos)
	if !ok {
		return nil
	}
	return ld.loadDoc(target, src, depth)
}

// resolve joins an include path to the directory of the including file. The
// result must stay inside the file system given to Load.
func resolve(dir, p string) (string, string) {
	if strings.Contains(p, `\`) {
		return "", fmt.Sprintf("include path %q: use '/' to separate directories", p)
	}
	if path.IsAbs(p) {
		return "", fmt.Sprintf("include outside the root: %q is absolute", p)
	}
	j := path.Join(dir, p)
	if j == ".." || strings.HasPrefix(j, "../") || !fs.ValidPath(j) {
		return "", fmt.Sprintf("include outside the root: %q", p)
	}
	return j, ""
}

// mergeModels removes the models that repeat one from another file: a copy
// that says the same is dropped silently (Groot2 writes the models of a
// project into every file), a different one is reported. Duplicates within
// one file were reported when it was parsed and are kept.
func (ld *loader) mergeModels(models []*Model) []*Model {
	first := make(map[string]*Model, len(models))
	out := models[:0]
	for _, m := range models {
		f, ok := first[m.ID]
		switch {
		case !ok:
			first[m.ID] = m
		case f.Pos.File == m.Pos.File:
		case modelEqual(f, m):
			continue
		default:
			ld.sink.add(m.Pos, fmt.Sprintf("model %q differs from the one at %s", m.ID, f.Pos))
			continue
		}
		out = append(out, m)
	}
	clear(models[len(out):])
	return out
}
