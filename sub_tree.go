package bt

import "strconv"

// SubTree instantiates another tree inside this one, with a blackboard of its own
// whose keys can be remapped to the parent's:
//
//	<SubTree ID="Grasp" object="{target}" force="2.5" _autoremap="false"/>
//
// An attribute "port" of the SubTree element maps the subtree's key port: "{key}" (or
// "{=}" for the same name) makes the subtree read and write the parent's entry; a literal
// is written into the subtree's own blackboard, as a number when it is one. With
// _autoremap="true" every key of the subtree that is not remapped and does not start with
// "_" is the parent's key of the same name. Keys that are not remapped stay private.
//
//	child status → the same status (the subtree's root is reset when it completes)
//
// In Go, SubTree(id, root) instantiates the tree defined by root; remap with With and
// AutoRemap. Trees loaded from XML are instantiated by ID through a Factory.
func SubTree(id string, root *Spec) *Spec {
	return &Spec{model: subTreeModel, more: &specMore{sub: &treeDef{id: id, spec: root}}}
}

// AutoRemap sets the _autoremap attribute of a SubTree spec and returns s.
func (s *Spec) AutoRemap(on bool) *Spec {
	s.edit().autoRemap = on
	return s
}

var subTreeModel = &Model{
	ID: "SubTree", Kind: KindSubTree,
	Description: "Instantiates another tree, with its own blackboard.",
	Ports: []PortDef{
		InputPort[bool]("_autoremap", "remap every key of the subtree to the parent's key of the same name").WithDefault("false"),
	},
	build: func(*NodeConfig) (ticker, error) { return decorating(subTreeNode{}, resetThenStore), nil },
}

type subTreeNode struct{}

func (subTreeNode) decorate(n *Node) Status {
	n.setRunning()
	return n.Child(0).Tick()
}

// subtreePrefix is the path prefix of the nodes of a subtree instance: that of the
// parent scope and the instance's name, or the subtree's ID and the instance's UID.
func subtreePrefix(parent *scope, name, id string, uid uint16) string {
	if name == "" {
		name = id + "::" + strconv.Itoa(int(uid))
	}
	return parent.prefix + name + "/"
}
