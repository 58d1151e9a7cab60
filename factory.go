package bt

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
)

// Factory knows node types and tree definitions and builds trees from them. A new
// Factory knows every builtin node; register your own with Register, load
// BehaviorTree.CPP XML with Load, LoadFile or LoadString, and build trees with NewTree.
//
// A Factory is configured, then used: registering and loading are not safe to do
// while other goroutines build trees, but building trees from a configured Factory is.
type Factory struct {
	models    map[string]*Model
	enums     map[string]int64
	trees     map[string]*treeDef
	subModels map[string]*btxml.Model // TreeNodesModel entries of subtrees, by tree ID
	main      string                  // the main tree of the last document loaded
	notes     []btxml.Note
	logger    *slog.Logger            // where notes are told; nil: slog.Default()
	subst     []substRule             // substitution rules, applied by NewTree (see substitution.go)
	mockAll   *TestNodeConfig         // SubstituteStandIns: the TestNode for stand-ins no rule replaces
	standIns  map[string]*btxml.Model // the TreeNodesModel entries of stand-ins, by ID

	enumLookup func(string) (int64, bool) // f.enum, made once: every tree keeps it
	config     *treeConfig                // what its trees built without options share

	// links are the linked definitions of the registered trees (link.go), made when
	// trees are created and forgotten when a document is loaded.
	linkMu sync.Mutex
	links  map[*treeDef]*treeDef
}

// NewFactory returns a factory that knows every builtin node.
func NewFactory() *Factory {
	f := &Factory{
		models:    map[string]*Model{},
		enums:     map[string]int64{},
		trees:     map[string]*treeDef{},
		subModels: map[string]*btxml.Model{},
	}
	for _, c := range catalogue {
		for _, m := range c.models {
			f.models[m.ID] = m
		}
	}
	f.enumLookup = f.enum
	f.config = newConfig(f.enumLookup)
	f.config.enumsOf = f
	return f
}

// treeConfig returns the configuration the factory's trees share until an option
// changes theirs.
func (f *Factory) treeConfig() *treeConfig {
	if f.config == nil { // the zero Factory, whose trees are NewTree's
		return specConfig
	}
	return f.config
}

// Register adds node types. It fails, registering none of them, if an ID is taken
// or invalid, or a model is malformed. BehaviorTree.CPP's builtin IDs are taken; the
// IDs of the builtins it does not have (behaviac's Log, Loop, Time …, and Not,
// ForceRunning, AlwaysRunning, TestNode) may be taken by a node type of the program's
// own, which then hides the builtin, with a note (see Notes).
func (f *Factory) Register(models ...*Model) error {
	var errs []error
	seen := map[string]bool{}
	for _, m := range models {
		if err := checkModel(m); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := m.checkDefaults(f.enum); err != nil {
			errs = append(errs, fmt.Errorf("bt: %w", err))
		}
		if old, taken := f.models[m.ID]; taken && !hides(m, old) || seen[m.ID] {
			errs = append(errs, fmt.Errorf("bt: node %q is already registered", m.ID))
		}
		seen[m.ID] = true
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var notes []btxml.Note
	for _, m := range models {
		if old := f.models[m.ID]; old != nil {
			notes = append(notes, btxml.Note{Msg: fmt.Sprintf("node type %q hides the builtin %s %s (not a BehaviorTree.CPP node)", m.ID, old.Kind, old.ID)})
		}
		f.models[m.ID] = m
	}
	f.note(notes)
	return nil
}

func checkModel(m *Model) error {
	if m == nil {
		return errors.New("bt: nil model")
	}
	if m.err != nil {
		return fmt.Errorf("bt: %w", m.err)
	}
	if err := btxml.ValidName(m.ID); err != nil {
		return fmt.Errorf("bt: node ID %q: %w", m.ID, err)
	}
	if m.Kind < KindAction || m.Kind > KindDecorator {
		return fmt.Errorf("bt: node %q: kind %v cannot be registered", m.ID, m.Kind)
	}
	seen := map[string]bool{}
	for _, p := range m.Ports {
		if err := btxml.ValidPortName(p.Name); err != nil {
			return fmt.Errorf("bt: node %q: %w", m.ID, err)
		}
		if seen[p.Name] {
			return fmt.Errorf("bt: node %q: port %q is declared twice", m.ID, p.Name)
		}
		seen[p.Name] = true
	}
	return checkMetadata(m)
}

// Model returns the node type registered as id.
func (f *Factory) Model(id string) (*Model, bool) {
	m, ok := f.models[id]
	return m, ok
}

// Models returns every registered node type, builtins included, sorted by ID.
func (f *Factory) Models() []*Model {
	ms := make([]*Model, 0, len(f.models))
	for _, m := range f.models {
		ms = append(ms, m)
	}
	slices.SortFunc(ms, func(a, b *Model) int { return strings.Compare(a.ID, b.ID) })
	return ms
}

// RegisterEnum makes name a scripting enum: scripts read it as value, and ports of
// integer types accept it in place of a number. Registering a name twice with another
// value is an error.
func (f *Factory) RegisterEnum(name string, value int64) error {
	if old, ok := f.enums[name]; ok && old != value {
		return fmt.Errorf("bt: enum %q is already registered as %d", name, old)
	}
	f.enums[name] = value
	return nil
}

// Enum is an integer type whose values have names.
type Enum interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32
	fmt.Stringer
}

// RegisterEnums registers the given values of an enum type under the names their
// String methods return:
//
//	bt.RegisterEnums(f, Red, Green, Blue) // scripts may now say color == Green
func RegisterEnums[E Enum](f *Factory, values ...E) error {
	if f == nil {
		return errors.New("bt: RegisterEnums: the factory is nil")
	}
	var errs []error
	for _, v := range values {
		errs = append(errs, f.RegisterEnum(v.String(), int64(v)))
	}
	return errors.Join(errs...)
}

func (f *Factory) enum(name string) (int64, bool) {
	v, ok := f.enums[name]
	return v, ok
}

// LoadFile loads the BehaviorTree.CPP XML file at path, with the files it includes;
// includes are resolved relative to the including file and may not leave path's
// directory.
func (f *Factory) LoadFile(path string) error {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	return f.Load(os.DirFS(dir), name)
}

// Load loads the XML file name of fsys, with the files it includes, and registers its
// trees. Every problem of the document is reported, one per line, as file:line:col;
// then no tree of the document is registered. Remarks that do not stop the load, such
// as a misspelt _onSucess, are logged (see Notes).
//
// A tree whose ID is registered already replaces the old definition (two trees with
// one ID in one document are an error), so that a program can load an edited file
// again; the trees built before keep the definition they were built from. A SubTree
// names its tree by ID, found when a tree is built (NewTree): documents may be loaded
// in any order, and a missing subtree, or one that instantiates itself through trees
// of several documents, is an error of NewTree at the SubTree's position. So are the
// ports that the TreeNodesModel of a subtree declares, from whichever document: they
// apply to its SubTree nodes when a tree is built.
func (f *Factory) Load(fsys fs.FS, name string) error {
	doc, err := btxml.Load(fsys, name)
	if err != nil {
		return err
	}
	return f.LoadDocument(doc)
}

// LoadString loads a document given as text; name is used in error positions.
// Includes need Load.
func (f *Factory) LoadString(name, xml string) error {
	doc, err := btxml.Parse(name, []byte(xml))
	if err != nil {
		return err
	}
	if len(doc.Includes) > 0 {
		return &btxml.Error{Pos: doc.Includes[0].Pos, Msg: "includes are resolved by Factory.Load, which reads files"}
	}
	return f.LoadDocument(doc)
}

// LoadDocument registers the trees of a parsed document (upgraded to format 4 first if
// it is a format-3 file).
func (f *Factory) LoadDocument(doc *btxml.Document) error {
	if doc == nil {
		return errors.New("bt: LoadDocument: the document is nil")
	}
	notes := append(slices.Clip(doc.Notes), btxml.Upgrade(doc)...)
	c := newCompiler(f, doc)
	c.compile()
	f.note(append(notes, c.notes...))
	if err := c.errs.Err(); err != nil {
		return err
	}
	for _, d := range c.added {
		f.trees[d.id] = d // replacing a tree of that ID
	}
	f.linkMu.Lock()
	f.links = nil // they may name the trees replaced
	f.linkMu.Unlock()
	for id, m := range c.subModels {
		f.subModels[id] = m
	}
	if c.main != "" {
		f.main = c.main
	}
	return nil
}

// Notes returns the remarks on the documents loaded and the stand-ins registered so far,
// also of documents that failed to load: what the XML parser accepted although
// BehaviorTree.CPP ignores it (btxml's Document.Notes), what an upgrade from format 3
// could not convert exactly, attributes that look like misspelt pre- or post-conditions
// (BehaviorTree.CPP ignores attributes that are not ports, and so does bt, but a
// silently ignored _onSucess is a bug waiting), and defaults of stand-in ports that are
// not of the port's type. Loading a document also logs its notes as warnings to the
// factory's logger.
func (f *Factory) Notes() []btxml.Note { return f.notes }

// SetLogger makes l the logger that loading a document tells its notes to, as warnings
// with the note's position as attribute "pos" (see Notes). The default is
// slog.Default(); slog.New(slog.DiscardHandler) silences them.
func (f *Factory) SetLogger(l *slog.Logger) { f.logger = l }

// note keeps the notes of a document and logs them.
func (f *Factory) note(notes []btxml.Note) {
	f.notes = append(f.notes, notes...)
	l := f.logger
	if l == nil && len(notes) > 0 {
		l = slog.Default()
	}
	for _, n := range notes {
		l.Warn("bt: "+n.Msg, slog.String("pos", n.Pos.String()))
	}
}

// MainTree returns the ID of the tree NewTree("") builds: main_tree_to_execute of the
// last document loaded, or its only tree.
func (f *Factory) MainTree() string { return f.main }

// TreeIDs returns the IDs of the registered trees, sorted.
func (f *Factory) TreeIDs() []string {
	ids := make([]string, 0, len(f.trees))
	for id := range f.trees {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Definition returns the definition of the registered tree id ("" for the main tree),
// to inspect or to build with NewTree. The factory's trees share it (it is their
// nodes' Spec): it must not be modified, and a tree built from a modified copy does
// not change the trees the factory builds.
func (f *Factory) Definition(id string) (*Spec, error) {
	d, err := f.definition(id)
	if err != nil {
		return nil, err
	}
	return d.rootSpec(), nil
}

func (f *Factory) definition(id string) (*treeDef, error) {
	if id == "" {
		id = f.main
		if id == "" {
			return nil, fmt.Errorf("bt: no main tree: the trees are %s; name one (main_tree_to_execute)", quoteList(f.TreeIDs()))
		}
	}
	d, ok := f.trees[id]
	if !ok {
		ids := f.TreeIDs()
		return nil, fmt.Errorf("bt: no tree %q: the trees are %s%s", id, quoteList(ids), typo.Suggest(id, ids))
	}
	return f.linked(d), nil
}

// NewTree builds the registered tree id ("" for the main tree) with a new, empty root
// blackboard (unless WithBlackboard gives one).
func (f *Factory) NewTree(id string, opts ...Option) (*Tree, error) {
	d, err := f.definition(id)
	if err != nil {
		return nil, err
	}
	if d, err = f.substitute(d); err != nil {
		return nil, err
	}
	return newTreeOf(d, f.treeConfig(), opts)
}

func quoteList(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
