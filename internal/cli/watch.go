package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobt/bt"
)

// "bt run --watch" reloads the tree when its files change on disk (bt.Tree.Reload):
// a goroutine looks at the files every --watch-every (their size and time of last
// change), and on a change asks the goroutine that ticks the tree to load them again
// into a new factory and reload from it, at the start of its next tick (bt.Tree.Do).
// So the files are read, and what changed is printed, between two ticks, on the
// goroutine that prints the ticks.

// defaultWatchEvery is how often --watch looks at the files.
const defaultWatchEvery = 500 * time.Millisecond

// reloadWatch holds the flags of --watch.
type reloadWatch struct {
	on    bool
	every time.Duration
}

func (rw *reloadWatch) register(fs *flag.FlagSet) {
	fs.BoolVar(&rw.on, "watch", false, "reload the tree when FILE.xml, a file it includes or --models changes on disk, keeping the state of what the edit did not touch; a broken edit prints its errors and the tree runs on")
	fs.DurationVar(&rw.every, "watch-every", defaultWatchEvery, "with --watch, look at the files every `D`")
}

// check refuses the flags --watch does not go with: the files and tables of a run
// (--btlog, --trace, --jsonl, --sqlite, --stats, --log, --save, --restore) describe one tree
// structure, which a reload changes.
func (rw *reloadWatch) check(o *runOptions, w *watchOptions) error {
	if !rw.on {
		return nil
	}
	if rw.every <= 0 {
		return errors.New("--watch-every must be positive")
	}
	for flag, set := range map[string]bool{"--btlog": w.btlog != "", "--trace": w.trace != "", "--jsonl": w.jsonl != "",
		"--sqlite": w.sqlite != "", "--stats": w.stats, "--log": w.log, "--save": o.save != "", "--restore": o.restore != ""} {
		if set {
			return fmt.Errorf("--watch does not go with %s, whose output describes one tree structure (use --serve or --groot2 to watch a tree that reloads)", flag)
		}
	}
	return nil
}

// watcher looks at the files of a run and reloads its tree when they change. Its
// goroutine alone uses files and last.
type watcher struct {
	c     *cmd
	tree  *bt.Tree
	path  string // FILE.xml
	o     *runOptions
	files []string         // what it looks at: FILE.xml, its includes, --models
	last  map[string]stamp // what it saw last
}

// stamp is what the watcher sees of a file.
type stamp struct {
	size    int64
	modTime time.Time
	missing bool
}

// watch starts watching the files of the run of tree, if --watch is on; stop stops it
// and waits for its goroutine.
func (c *cmd) watch(rw *reloadWatch, tree *bt.Tree, path string, o *runOptions) (stop func()) {
	if !rw.on {
		return func() {}
	}
	w := &watcher{c: c, tree: tree, path: path, o: o}
	w.files = w.find()
	w.last = w.look()
	ctx, cancel := context.WithCancel(c.ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(rw.every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if now := w.look(); !sameStamps(now, w.last) {
				w.files = w.find() // an edit may include other files
				w.last = w.look()
				tree.Do(w.reload)
			}
		}
	})
	return func() { cancel(); wg.Wait() }
}

// sameStamps reports whether a and b are equal.
func sameStamps(a, b map[string]stamp) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// find returns the files the tree is made of: FILE.xml, the files its trees come from
// (its includes, to any depth), the includes it names (a file with no tree yet), and
// --models. A file that does not load now has the files it had.
func (w *watcher) find() []string {
	files := []string{w.path}
	if w.o.models != "" {
		files = append(files, w.o.models)
	}
	doc, dir, err := loadDocument(w.path)
	if err != nil {
		for _, f := range w.files {
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
		return files
	}
	add := func(name string) {
		if name == "" {
			return
		}
		p := filepath.Join(dir, name)
		if !slices.ContainsFunc(files, func(f string) bool { return samePath(f, p) }) {
			files = append(files, p)
		}
	}
	for _, t := range doc.Trees {
		add(t.Pos.File)
	}
	for _, inc := range doc.Includes {
		add(inc.Path)
	}
	return files
}

// look returns what the watcher sees of its files now.
func (w *watcher) look() map[string]stamp {
	seen := make(map[string]stamp, len(w.files))
	for _, f := range w.files {
		st, err := os.Stat(f)
		if err != nil {
			seen[f] = stamp{missing: true}
			continue
		}
		seen[f] = stamp{size: st.Size(), modTime: st.ModTime()}
	}
	return seen
}

// reload loads the files into a new factory and reloads the tree from it, on the
// goroutine that ticks the tree, between two ticks; it prints what changed on stdout,
// or why nothing did on stderr.
func (w *watcher) reload() {
	c := w.c
	f, dir, err := c.factoryFor(w.path, w.o)
	var r *bt.ReloadReport
	if err == nil {
		r, err = w.tree.Reload(f, w.o.main)
		err = located(err, dir)
	}
	if r == nil {
		fmt.Fprintf(c.stderr, "bt: --watch: %s was not reloaded; the tree runs on unchanged:\n%s\n", w.path, indent(strings.Join(messages(err), "\n"), "  "))
		return
	}
	fmt.Fprintf(c.stdout, "reload %s: %v\n", w.path, r)
	for _, l := range []struct {
		what  string
		paths []string
	}{{"added", r.Added}, {"removed", r.Removed}, {"changed", r.Changed}, {"halted", r.Halted}, {"carried", r.Carried}} {
		if len(l.paths) > 0 {
			fmt.Fprintf(c.stdout, "  %s: %s\n", l.what, strings.Join(l.paths, " "))
		}
	}
	if err != nil { // what failed while halting the nodes that went away
		fmt.Fprintf(c.stderr, "bt: --watch: %s\n", err)
	}
}
