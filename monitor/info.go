package monitor

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btlog"
)

// treeInfo is what the page draws and never changes: the tree's nodes and blackboard
// scopes.
type treeInfo struct {
	Name   string      `json:"name"`
	Tree   string      `json:"tree"` // the tree's ID: "MainTree"
	Live   bool        `json:"live"` // a ticking tree, not a replay
	Limit  int         `json:"limit"`
	Nodes  []nodeInfo  `json:"nodes"` // by UID (a .btlog file may skip UIDs)
	Scopes []scopeInfo `json:"scopes"`
}

// nodeInfo is a node as the page draws it.
type nodeInfo struct {
	UID    uint16      `json:"uid"`
	Parent uint16      `json:"parent"` // 0 for the root
	ID     string      `json:"id"`
	Name   string      `json:"name"`
	Path   string      `json:"path"`
	Kind   string      `json:"kind"`
	Ports  [][2]string `json:"ports,omitempty"` // name and value, as XML writes them
	Scope  int         `json:"scope"`           // the index of its blackboard in Scopes
	Desc   string      `json:"desc,omitempty"`  // the model's description
	Model  []portInfo  `json:"model,omitempty"` // the ports the model declares
}

// portInfo is a port as the node's model declares it, for the page's detail panel.
type portInfo struct {
	Name    string `json:"name"`
	Dir     string `json:"dir"` // input, output, inout
	Type    string `json:"type,omitempty"`
	Default string `json:"default,omitempty"`
	HasDef  bool   `json:"hasDefault,omitempty"`
	Desc    string `json:"desc,omitempty"`
}

// modelInfo lists the ports a model declares.
func modelInfo(m *bt.Model) []portInfo {
	if m == nil {
		return nil
	}
	out := make([]portInfo, 0, len(m.Ports))
	for _, p := range m.Ports {
		out = append(out, portInfo{Name: p.Name, Dir: p.Dir.String(), Type: p.XMLType(), Default: p.Default,
			HasDef: p.HasDefault, Desc: p.Description})
	}
	return out
}

// scopeInfo is a blackboard scope: the root's, or a subtree instance's.
type scopeInfo struct {
	Path string `json:"path"` // of the SubTree node; "" for the root
	UID  uint16 `json:"uid"`  // of the SubTree node; 0 for the root
}

// describe describes a built tree. It walks the tree's nodes, so it runs between ticks.
// It returns the scopes in the order of the info's.
func describe(name string, t *bt.Tree) (*treeInfo, []*blackboard.Blackboard) {
	info := &treeInfo{Name: name, Tree: t.ID(), Live: true}
	if info.Tree == "" {
		info.Tree = "MainTree"
	}
	var scopes []*blackboard.Blackboard
	index := map[*blackboard.Blackboard]int{}
	info.Nodes = make([]nodeInfo, t.Len())
	t.Walk(func(n *bt.Node, _ int) bool {
		ni := &info.Nodes[n.UID()-1] // its Parent is set: parents come first
		*ni = nodeInfo{UID: n.UID(), Parent: ni.Parent, ID: n.ID(), Name: n.Name(), Path: n.Path(),
			Kind: n.Kind().String(), Ports: ports(n.Spec())}
		if m := n.Spec().Model(); m != nil {
			ni.Desc, ni.Model = m.Description, modelInfo(m)
		}
		for i := range n.NumChildren() {
			info.Nodes[n.Child(i).UID()-1].Parent = n.UID()
		}
		bb := n.Blackboard()
		i, ok := index[bb]
		if !ok {
			i = len(scopes)
			index[bb] = i
			scopes = append(scopes, bb)
			s := scopeInfo{}
			if ni.Parent != 0 { // the root of a subtree: its parent is the SubTree node
				s = scopeInfo{Path: info.Nodes[ni.Parent-1].Path, UID: ni.Parent}
			}
			info.Scopes = append(info.Scopes, s)
		}
		ni.Scope = i
		return true
	})
	return info, scopes
}

// ports lists the ports set on spec, its input ports left to their defaults, and its
// scripted pre- and post-conditions: what WriteTreeXML writes of a node.
func ports(spec *bt.Spec) [][2]string {
	var out [][2]string
	for name, value := range spec.Ports() {
		out = append(out, [2]string{name, value})
	}
	if spec.SubTreeID() == "" {
		for _, p := range spec.Model().Ports {
			if _, set := spec.Port(p.Name); !set && p.Default != "" && p.Dir != bt.DirOutput {
				out = append(out, [2]string{p.Name, p.Default})
			}
		}
	}
	for h := bt.FailureIf; h <= bt.OnHalted; h++ {
		if script, ok := spec.CondScript(h); ok {
			out = append(out, [2]string{h.String(), script})
		}
	}
	return out
}

// describeLog describes the tree of a .btlog file. The file keeps no blackboard: the
// root scope is the only one, and stays empty.
func describeLog(name string, l *btlog.Log) (*treeInfo, error) {
	info := &treeInfo{Name: name, Tree: "MainTree", Scopes: []scopeInfo{{}}}
	attrs, tree, err := logAttrs(l.XML)
	if err != nil {
		return nil, err
	}
	if tree != "" {
		info.Tree = tree
	}
	for _, n := range l.Nodes { // sorted by UID; a file may skip some
		info.Nodes = append(info.Nodes, nodeInfo{UID: n.UID, Parent: n.Parent, ID: n.ID, Name: n.Name,
			Path: n.Path, Kind: n.Kind.String(), Ports: attrs[n.UID]})
	}
	return info, nil
}

// logAttrs reads the ports and scripts of each node of a log's XML (the attributes of
// each element with a _uid, other than its name, ID and UID) and the ID of its first
// tree, the main tree. btlog.Read has checked the XML.
func logAttrs(data []byte) (map[uint16][][2]string, string, error) {
	attrs := map[uint16][][2]string{}
	main := ""
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return attrs, main, nil
		}
		if err != nil {
			return nil, "", errors.New("monitor: the log's XML: " + err.Error())
		}
		t, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if t.Name.Local == "BehaviorTree" && main == "" {
			for _, a := range t.Attr {
				if a.Name.Local == "ID" {
					main = a.Value
				}
			}
		}
		var uid uint64
		var list [][2]string
		for _, a := range t.Attr {
			switch a.Name.Local {
			case "_uid":
				uid, _ = strconv.ParseUint(a.Value, 10, 16)
			case "name", "ID", "_fullpath":
			default:
				list = append(list, [2]string{a.Name.Local, a.Value})
			}
		}
		if uid != 0 {
			attrs[uint16(uid)] = list
		}
	}
}
