package btxml

import (
	"slices"
	"strings"
)

// parseModel reads one entry of <TreeNodesModel>.
func (p *parser) parseModel(t *token) {
	m := &Model{Kind: t.name, Pos: t.pos}
	hasID := false
	for _, a := range p.attrs(t) {
		if a.Name != "ID" {
			m.Attrs = append(m.Attrs, a)
			continue
		}
		m.ID, hasID = a.Value, true
		if err := ValidName(a.Value); err != nil {
			p.errorf(a.ValuePos(), "invalid model ID %q: %v", a.Value, err)
		}
	}
	if !hasID {
		p.errorf(m.Pos, "<%s> in <TreeNodesModel> needs an ID attribute", t.name)
	}
	hasDesc := false
	p.open(&m.Comments)
	p.content(t, func(c token) {
		switch c.name {
		case "input_port":
			p.parsePort(&c, m, DirInput)
		case "output_port":
			p.parsePort(&c, m, DirOutput)
		case "inout_port":
			p.parsePort(&c, m, DirInOut)
		case "MetadataFields":
			p.dropComments(func() { p.parseMetadata(&c, m) })
		case "description":
			if hasDesc {
				p.errorf(c.pos, "more than one <description> in <%s>", t.name)
			}
			hasDesc = true
			for _, a := range p.attrs(&c) {
				p.errorf(a.Pos, "unknown attribute %s in <description>", a.Name)
			}
			p.dropComments(func() { m.Description = strings.TrimSpace(p.textContent(&c)) })
		default:
			// BehaviorTree.CPP does not read the entries of node types, so what it
			// does not define is a note, not an error: the file loads as there.
			if dir, ok := strings.CutSuffix(c.name, "_port"); ok && dir != "" {
				p.notef(c.pos, "unknown port element <%s> (want input_port, output_port or inout_port): read as a port of unknown direction", c.name)
				p.parsePort(&c, m, dir)
				return
			}
			p.notef(c.pos, "unknown element <%s> in <%s> ignored (want input_port, output_port, inout_port, MetadataFields or description)", c.name, t.name)
			p.skip(&c)
		}
	})
	p.close(&m.Comments)
	p.doc.Models = append(p.doc.Models, m)
}

// parsePort reads <input_port name=".." type=".." default="..">description</input_port>.
// BehaviorTree.CPP writes the description as text but also reads a
// description attribute; the text wins when both are present.
func (p *parser) parsePort(t *token, m *Model, dir string) {
	pm := PortModel{Dir: dir, Pos: t.pos}
	p.open(&pm.Comments)
	hasName := false
	descAttr := ""
	for _, a := range p.attrs(t) {
		switch a.Name {
		case "name":
			pm.Name, hasName = a.Value, true
			if a.Value == "" {
				p.errorf(a.ValuePos(), "empty port name")
			} else if err := ValidPortName(a.Value); err != nil && m.Kind == "SubTree" && m.ID != "SubTree" {
				// BehaviorTree.CPP reads the ports of subtree models only (and checks
				// them); those of node types are checked when they are registered. The
				// entry of the SubTree node itself, which BehaviorTree.CPP writes with
				// its _autoremap, declares no subtree.
				p.errorf(a.ValuePos(), "%v", err)
			}
		case "type":
			pm.Type = a.Value
		case "default":
			pm.Default, pm.HasDefault = a.Value, true
		case "description":
			descAttr = strings.TrimSpace(a.Value)
		case "required":
			switch a.Value {
			case "true":
				pm.Required = true
			case "false":
			default:
				p.errorf(a.ValuePos(), "required=%q: want true or false", a.Value)
			}
		default:
			p.errorf(a.Pos, "unknown attribute %s in <%s>", a.Name, t.name)
		}
	}
	if !hasName {
		p.errorf(pm.Pos, "<%s> needs a name attribute", t.name)
	}
	pm.Description = strings.TrimSpace(p.textContent(t))
	if pm.Description == "" {
		pm.Description = descAttr
	}
	if hasName && pm.Name != "" {
		for _, q := range m.Ports {
			if q.Name == pm.Name {
				p.errorf(pm.Pos, "duplicate port %s in model %s (first at %s)", pm.Name, m.ID, q.Pos)
				return
			}
		}
	}
	m.Ports = append(m.Ports, pm)
	// A comment on the port's line follows it. The pointer into Ports stays valid
	// until the next port is added, which starts by forgetting it (open).
	p.after = &m.Ports[len(m.Ports)-1].Comments
}

// parseMetadata reads <MetadataFields><Metadata key="value"/>...</MetadataFields>.
func (p *parser) parseMetadata(t *token, m *Model) {
	for _, a := range p.attrs(t) {
		p.errorf(a.Pos, "unknown attribute %s in <MetadataFields>", a.Name)
	}
	p.content(t, func(c token) {
		if c.name != "Metadata" {
			p.errorf(c.pos, "unknown element <%s> in <MetadataFields> (want Metadata)", c.name)
			p.skip(&c)
			return
		}
		m.Metadata = append(m.Metadata, p.attrs(&c)...)
		p.content(&c, func(cc token) {
			p.errorf(cc.pos, "unexpected element <%s> in <Metadata>", cc.name)
			p.skip(&cc)
		})
	})
}

// modelEqual reports whether two models say the same, positions aside.
func modelEqual(a, b *Model) bool {
	return a.Kind == b.Kind && a.ID == b.ID && a.Description == b.Description &&
		slices.EqualFunc(a.Ports, b.Ports, func(x, y PortModel) bool {
			x.Pos, y.Pos = Pos{}, Pos{}
			x.Comments, y.Comments = nil, nil
			return x == y
		}) &&
		attrsEqual(a.Metadata, b.Metadata) && attrsEqual(a.Attrs, b.Attrs)
}

func attrsEqual(a, b []Attr) bool {
	return slices.EqualFunc(a, b, func(x, y Attr) bool { return x.Name == y.Name && x.Value == y.Value })
}
