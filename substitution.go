package bt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
)

// substRule is a substitution rule (see Substitution rules in the package doc).
type substRule struct {
	filter string
	id     string          // the node type to build instead, or
	test   *TestNodeConfig // the configuration of the TestNode to build instead
}

// Substitute makes the trees built afterwards replace the nodes that filter matches
// with nodes of the registered type id (see Substitution rules in the package doc).
// The type must be registered when the tree is built.
func (f *Factory) Substitute(filter, id string) {
	f.addRule(substRule{filter: filter, id: id})
}

// SubstituteTestNode makes the trees built afterwards replace the nodes that filter
// matches with TestNodes configured by cfg. It fails if cfg is invalid (a script does
// not parse, a negative delay).
func (f *Factory) SubstituteTestNode(filter string, cfg TestNodeConfig) error {
	if err := cfg.check(); err != nil {
		return fmt.Errorf("bt: substitution %q: %w", filter, err)
	}
	f.addRule(substRule{filter: filter, test: &cfg})
	return nil
}

// SubstituteStandIns makes the trees built afterwards replace every node whose type
// is a stand-in (see RegisterStandIns: a node type known only from its model) and that
// no rule replaces, so that a tree written for another program runs without any of its
// custom nodes: an action or condition becomes a TestNode configured by cfg, a
// decorator one that returns its child's status, and a control a Sequence. The
// substitutes keep the node's ID, name, path, pre/post conditions and position.
// Rules (Substitute, LoadSubstitutions) win, so a few nodes can be given another
// behavior. It fails if cfg is invalid.
func (f *Factory) SubstituteStandIns(cfg TestNodeConfig) error {
	if err := cfg.check(); err != nil {
		return fmt.Errorf("bt: stand-ins: %w", err)
	}
	f.mockAll = &cfg
	return nil
}

// StandIn reports whether m is a stand-in: a node type registered by RegisterStandIns,
// known from its TreeNodesModel only, whose nodes fail when they are ticked.
func (m *Model) StandIn() bool { return m.standIn }

// SubstitutionRule is a substitution rule as Factory.Substitutions reports it: the
// nodes Filter matches are replaced by nodes of the registered type ID or, when
// TestNode is not nil, by TestNodes configured by it.
type SubstitutionRule struct {
	Filter   string          // a node's name, its type's ID, or a pattern of paths with * and ?
	ID       string          // the node type to build instead ("" when TestNode is set)
	TestNode *TestNodeConfig // the TestNode to build instead, or nil
}

// Substitutions returns a copy of the substitution rules (Substitute,
// SubstituteTestNode, LoadSubstitutions), in the order they are tried: changing it
// changes no rule of the factory.
func (f *Factory) Substitutions() []SubstitutionRule {
	rules := make([]SubstitutionRule, len(f.subst))
	for i, r := range f.subst {
		rules[i] = SubstitutionRule{Filter: r.filter, ID: r.id}
		if r.test != nil {
			cfg := *r.test
			rules[i].TestNode = &cfg
		}
	}
	return rules
}

// ClearSubstitutions removes every substitution rule, and SubstituteStandIns.
func (f *Factory) ClearSubstitutions() { f.subst, f.mockAll = nil, nil }

func (f *Factory) addRule(r substRule) {
	for i := range f.subst {
		if f.subst[i].filter == r.filter {
			f.subst[i] = r
			return
		}
	}
	f.subst = append(f.subst, r)
}

// LoadSubstitutions adds the rules of a substitution file in BehaviorTree.CPP's JSON
// shape:
//
//	{
//	  "TestNodeConfigs": {
//	    "Fails": {"return_status": "FAILURE", "async_delay": 200, "failure_script": "tries += 1"},
//	    "Decides": {"return_status_script": "use_plan_b ? FAILURE : SUCCESS"}
//	  },
//	  "SubstitutionRules": {
//	    "ComputePathToPose": "Decides",
//	    "nav/Follow*": "Fails",
//	    "talk": "AlwaysSuccess"
//	  }
//	}
//
// A rule's value names a TestNodeConfigs entry or, if none has that name, a node type.
// A configuration has return_status (SUCCESS, FAILURE, RUNNING or SKIPPED) or
// return_status_script, and optionally success_script, failure_script, post_script and
// async_delay (milliseconds). Every problem is reported; then no rule is added.
func (f *Factory) LoadSubstitutions(data []byte) error {
	var doc struct {
		Configs json.RawMessage `json:"TestNodeConfigs"`
		Rules   json.RawMessage `json:"SubstitutionRules"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("bt: substitutions: %w", err)
	}
	var errs []error
	configs := map[string]*TestNodeConfig{}
	names, raws, err := objectInOrder(doc.Configs)
	if err != nil {
		return fmt.Errorf("bt: substitutions: TestNodeConfigs: %w", err)
	}
	for i, name := range names {
		cfg, err := parseTestNodeConfig(raws[i])
		if err != nil {
			errs = append(errs, fmt.Errorf("bt: substitutions: TestNodeConfigs %q: %w", name, err))
			continue
		}
		configs[name] = cfg
	}
	filters, targets, err := objectInOrder(doc.Rules)
	if err != nil {
		return fmt.Errorf("bt: substitutions: SubstitutionRules: %w", err)
	}
	var rules []substRule
	for i, filter := range filters {
		var target string
		if err := json.Unmarshal(targets[i], &target); err != nil || target == "" {
			errs = append(errs, fmt.Errorf("bt: substitutions: rule %q: the value must name a TestNodeConfigs entry or a node type", filter))
			continue
		}
		if cfg, ok := configs[target]; ok {
			rules = append(rules, substRule{filter: filter, test: cfg})
		} else {
			rules = append(rules, substRule{filter: filter, id: target})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, r := range rules {
		f.addRule(r)
	}
	return nil
}

// objectInOrder splits a JSON object into its keys and values, in document order (a
// null or missing object is empty).
func objectInOrder(raw json.RawMessage) (keys []string, values []json.RawMessage, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New("want an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, values = append(keys, t.(string)), append(values, v)
	}
	return keys, values, nil
}

func parseTestNodeConfig(raw json.RawMessage) (*TestNodeConfig, error) {
	var j struct {
		ReturnStatus       *string  `json:"return_status"`
		ReturnStatusScript string   `json:"return_status_script"`
		SuccessScript      string   `json:"success_script"`
		FailureScript      string   `json:"failure_script"`
		PostScript         string   `json:"post_script"`
		AsyncDelay         *float64 `json:"async_delay"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, err
	}
	cfg := &TestNodeConfig{
		ReturnStatusScript: j.ReturnStatusScript, SuccessScript: j.SuccessScript,
		FailureScript: j.FailureScript, PostScript: j.PostScript,
	}
	var errs []error
	switch {
	case j.ReturnStatus != nil:
		s, err := ParseStatus(*j.ReturnStatus)
		if err == nil && s == Idle {
			err = errors.New("a TestNode cannot return IDLE")
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("return_status: %w", err))
		}
		cfg.ReturnStatus = s
	case cfg.ReturnStatusScript == "":
		errs = append(errs, errors.New("give return_status or return_status_script"))
	}
	if j.AsyncDelay != nil {
		cfg.AsyncDelay = time.Duration(*j.AsyncDelay * float64(time.Millisecond))
	}
	errs = append(errs, cfg.check())
	return cfg, errors.Join(errs...)
}

// match returns the first rule that matches a node with kids children, or nil. A rule
// that matches only by its pattern passes over a node whose shape its substitute does
// not have, so that "nav/*" can replace the leaves of a subtree and leave its controls.
func (f *Factory) match(name, id, path string, kids int) *substRule {
	for i := range f.subst {
		r := &f.subst[i]
		if r.filter == name || r.filter == id {
			return r
		}
		if wildcard(r.filter, path) && f.fits(r, kids) {
			return r
		}
	}
	return nil
}

// matchSubTree returns the first rule that matches a SubTree node by its instance
// name (by default the ID of the tree it instantiates), by "SubTree" (the node type of
// every SubTree, as BehaviorTree.CPP matches it) or by its exact path, or nil. A
// pattern never replaces a SubTree: "nav/*" mocks the nodes inside.
func (f *Factory) matchSubTree(name, path string) *substRule {
	for i := range f.subst {
		r := &f.subst[i]
		if r.filter == name || r.filter == subTreeModel.ID || r.filter == path {
			return r
		}
	}
	return nil
}

// fits reports whether the substitute of rule r can have kids children.
func (f *Factory) fits(r *substRule, kids int) bool {
	kind := KindAction
	if r.test == nil {
		m, ok := f.models[r.id]
		if !ok {
			return true // reported by replace
		}
		kind = m.Kind
	}
	switch kind {
	case KindAction, KindCondition:
		return kids == 0
	case KindDecorator:
		return kids == 1
	}
	return kids > 0
}

// mayMatch reports whether a rule could match an element whose node type is not
// registered, so that loading it must wait for NewTree to decide.
func (f *Factory) mayMatch(e *btxml.Element) bool {
	name := e.ID
	if a, ok := e.Attr("name"); ok {
		name = a.Value
	}
	for _, r := range f.subst {
		if r.filter == name || r.filter == e.ID || strings.ContainsAny(r.filter, "/*?") {
			return true
		}
	}
	return false
}

// unregistered is the model of an element whose node type is not registered but that a
// substitution rule may replace: it accepts the element's attributes as ports, and
// fails to build unless a rule replaced it.
func (f *Factory) unregistered(e *btxml.Element, doc *btxml.Document) *Model {
	m := &Model{ID: e.ID, Kind: KindAction}
	switch {
	case e.Explicit():
		if k, err := ParseKind(e.Tag); err == nil {
			m.Kind = k
		}
	case len(e.Children) == 1:
		m.Kind = KindDecorator
	case len(e.Children) > 1:
		m.Kind = KindControl
	}
	for _, dm := range doc.Models { // a TreeNodesModel entry knows better
		if k, err := ParseKind(dm.Kind); err == nil && dm.ID == e.ID {
			m.Kind = k
		}
	}
	for _, a := range e.Attrs {
		if isPortName(a.Name) && a.Name != "name" && m.port(a.Name) == nil {
			m.Ports = append(m.Ports, PortDef{Name: a.Name, Dir: DirInOut})
		}
	}
	m.err = fmt.Errorf("unknown node %q: no substitution rule replaced it", e.ID)
	return m
}

// substitute returns the definition d with the substitution rules applied: d itself
// when there are none, else a definition made from specs that share every part no rule
// changed. It numbers the nodes as NewTree does, to know their paths.
func (f *Factory) substitute(d *treeDef) (*treeDef, error) {
	if len(f.subst) == 0 && f.mockAll == nil {
		return d, nil
	}
	w := substWalk{f: f}
	root := w.spec(d.rootSpec(), "")
	if len(w.errs) > 0 {
		return nil, errors.Join(w.errs...)
	}
	return flatten(root)
}

type substWalk struct {
	f    *Factory
	uid  int
	errs []error
}

func (w *substWalk) spec(s *Spec, prefix string) *Spec {
	if s == nil || w.uid >= maxNodes {
		return s // NewTree reports what is wrong
	}
	w.uid++
	out := s
	if s.model.Kind == KindSubTree {
		id := s.more.treeID()
		name, path := s.name, strings.TrimSuffix(subtreePrefix(&scope{prefix: prefix}, s.name, id, uint16(w.uid)), "/")
		if name == "" {
			name = id
		}
		if r := w.f.matchSubTree(name, path); r != nil {
			return w.replaceSubTree(s, r, path)
		}
		if sub := s.subtree(); sub != nil {
			was := sub.rootSpec()
			root := w.spec(was, path+"/")
			if root != was {
				out = s.clone()
				out.edit().sub = &treeDef{id: sub.id, spec: root}
			}
		}
	} else {
		name := s.name
		if name == "" {
			name = s.model.ID
		}
		path := prefix + name
		if name == s.model.ID {
			path += "::" + strconv.Itoa(w.uid)
		}
		if r := w.f.match(name, s.model.ID, path, len(s.children)); r != nil {
			out = w.replace(s, r, path)
			if k := out.model.Kind; len(s.children) > 0 && (k == KindAction || k == KindCondition) {
				// A branch mocked by a leaf (the reference's tutorial 15): its
				// children are dropped, and not numbered.
				out.children = nil
				return out
			}
		} else if s.model.standIn && w.f.mockAll != nil {
			out = mockStandIn(s, w.f.mockAll)
		}
	}
	var kids []*Spec
	for i, c := range s.children {
		if nc := w.spec(c, prefix); nc != c && kids == nil {
			kids = slices.Clone(s.children)
			kids[i] = nc
		} else if kids != nil {
			kids[i] = nc
		}
	}
	if kids != nil {
		if out == s {
			out = s.clone()
		}
		out.children = kids
	}
	return out
}

// replace returns the substitute of s for rule r.
func (w *substWalk) replace(s *Spec, r *substRule, path string) *Spec {
	c := s.clone()
	if r.test != nil {
		c.model = testNodeFor(s)
		c.ports = nil
		return r.test.spec(c)
	}
	m, ok := w.f.models[r.id]
	if ok && m.Kind == KindSubTree {
		w.errs = append(w.errs, fmt.Errorf("bt: substitution rule %q for %s: a node cannot be replaced by a SubTree", r.filter, path))
		return s
	}
	if !ok {
		w.errs = append(w.errs, fmt.Errorf("bt: substitution rule %q for %s: no node type %q%s",
			r.filter, path, r.id, typo.Suggest(r.id, slices.Sorted(maps.Keys(w.f.models)))))
		return s
	}
	c.model = &Model{ID: s.model.ID, Kind: m.Kind, Ports: m.Ports, Description: m.Description,
		New: m.New, build: m.build, err: m.err, leaf: m.leaf, fieldPorts: m.fieldPorts}
	return c
}

// replaceSubTree returns the substitute of the SubTree node s for rule r: a leaf, which
// takes the place of the whole subtree instance (which need not exist then).
func (w *substWalk) replaceSubTree(s *Spec, r *substRule, path string) *Spec {
	out := w.replace(s, r, path)
	if out == s {
		return s // an error, recorded
	}
	if k := out.model.Kind; k != KindAction && k != KindCondition {
		w.errs = append(w.errs, fmt.Errorf("bt: substitution rule %q for %s: a SubTree can only be replaced by a leaf, not a %s", r.filter, path, k))
		return s
	}
	m := out.edit()
	m.sub, m.errs, m.autoRemap = nil, nil, false // keeping subID: the node's name and path
	return out
}

// testNodeFor is the model of a TestNode standing in for the node s: its ID is the
// node's, and building it also creates the blackboard entries the node's "{key}" ports
// name, as building the node itself would have.
func testNodeFor(s *Spec) *Model {
	m := mockModel(s, KindAction, testNodePorts, func(c *NodeConfig) (ticker, error) { return newTestNode(c) })
	m.Description = testNodeModel.Description
	return m
}

// mockModel is the model of a node of kind k built by build in place of the node s
// (see testNodeFor).
func mockModel(s *Spec, k Kind, ports []PortDef, build func(c *NodeConfig) (ticker, error)) *Model {
	orig, set := s.model, s.ports
	return &Model{
		ID: orig.ID, Kind: k, Ports: ports, Description: "Stands in for " + orig.ID + ".",
		build: func(c *NodeConfig) (ticker, error) {
			var errs []error
			for _, p := range set {
				key, ok := blackboardKey(p.value, p.name)
				if !ok || p.lit != nil {
					continue
				}
				def := PortDef{Name: p.name}
				if d := orig.port(p.name); d != nil {
					def = *d
				}
				if _, err := entryFor(c, key, &def); err != nil {
					errs = append(errs, fmt.Errorf("port %q: %w", p.name, err))
				}
			}
			t, err := build(c)
			return t, errors.Join(append(errs, err)...)
		},
	}
}

// mockStandIn returns the substitute of s, a node of a stand-in type, for
// SubstituteStandIns.
func mockStandIn(s *Spec, cfg *TestNodeConfig) *Spec {
	c := s.clone()
	c.ports = nil // the substitutes declare none (mockModel keeps the entries they name)
	switch s.model.Kind {
	case KindDecorator:
		c.model = mockModel(s, KindDecorator, nil, func(*NodeConfig) (ticker, error) { return decorating(standInDecorator{}, storeThenReset), nil })
		return c
	case KindControl:
		c.model = mockModel(s, KindControl, nil, sequenceModel.build)
		return c
	}
	c.model = testNodeFor(s)
	return cfg.spec(c)
}

// standInDecorator stands in for a custom decorator: it returns its child's status. Like
// the custom decorators it replaces (BehaviorTree.CPP's DecoratorNode::executeTick),
// it stores its status before the child is put back, and it marks itself Running
// before ticking the child, as most of them do.
type standInDecorator struct{}

func (standInDecorator) decorate(n *Node) Status {
	n.setRunning()
	return n.Child(0).Tick()
}

// wildcard reports whether text matches pattern, where '*' matches any run of
// characters and '?' any one character.
func wildcard(patternText, pathText string) bool {
	if !strings.ContainsAny(patternText, "*?") {
		return patternText == pathText
	}
	// Backtracking to the last '*' only: never exponential.
	pattern, text := []rune(patternText), []rune(pathText)
	p, t := 0, 0
	star, mark := -1, 0
	for t < len(text) {
		switch {
		case p < len(pattern) && pattern[p] == '*': // first: a '*' in the text is no match for it
			star, mark = p, t
			p++
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == text[t]):
			p++
			t++
		case star >= 0:
			p = star + 1
			mark++
			t = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
