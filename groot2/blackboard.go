package groot2

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/gobt/bt/blackboard"
)

// rootName is the name under which a BLACKBOARD reply holds the root blackboard of the
// tree instances asked for, when it is not one of theirs (an external blackboard the
// tree was built on, or the main tree's for a subtree).
const rootName = "ROOT"

// dumpBlackboards is the BLACKBOARD reply: the blackboards of the tree instances named
// in list (";"-separated: the main tree by its ID, a subtree instance by its SubTree
// node's path; unknown names are left out), as a JSON object converted to MessagePack,
// which BehaviorTree.CPP's generateBlackboardsDump makes the same way. Each blackboard
// is an object of its own entries; when an instance's root blackboard is not its own,
// it is added once, as "ROOT". Nothing found gives MessagePack's nil (JSON null).
func (p *Publisher) dumpBlackboards(list string) ([]byte, error) {
	var doc map[string]json.RawMessage
	var exportedRoot *blackboard.Blackboard
	put := func(name string, bb *blackboard.Blackboard) {
		if doc == nil {
			doc = map[string]json.RawMessage{}
		}
		doc[name] = blackboardJSON(bb)
	}
	for _, name := range strings.Split(list, ";") {
		sc := p.scope(name)
		if sc == nil {
			continue
		}
		root := sc.bb.Root()
		needsRoot := root != sc.bb
		if name == rootName && (needsRoot || exportedRoot != nil) {
			return nil, errors.New("blackboard dump request uses reserved name [ROOT] together with an external root blackboard export")
		}
		put(name, sc.bb)
		if !needsRoot || root == exportedRoot {
			continue
		}
		if exportedRoot != nil {
			return nil, errors.New("blackboard dump request spans multiple external root blackboards")
		}
		if _, ok := doc[rootName]; ok {
			return nil, errors.New("blackboard dump request would overwrite subtree [ROOT] with an external root blackboard export")
		}
		put(rootName, root)
		exportedRoot = root
	}
	if doc == nil {
		return jsonToMsgpack([]byte("null"))
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return jsonToMsgpack(js)
}

func (p *Publisher) scope(name string) *scope {
	p.mu.Lock() // a reload changes the scopes
	defer p.mu.Unlock()
	for i := range p.scopes {
		if p.scopes[i].name == name {
			return &p.scopes[i]
		}
	}
	return nil
}

// blackboardJSON is a blackboard's own entries as BehaviorTree.CPP's
// ExportBlackboardToJSON writes them; an entry whose value has no JSON form is null,
// as there.
func blackboardJSON(bb *blackboard.Blackboard) json.RawMessage {
	obj := map[string]json.RawMessage{}
	for _, key := range bb.Keys() {
		v, err := bb.Local(key).Load().MarshalJSON()
		if err != nil {
			v = []byte("null")
		}
		obj[key] = v
	}
	js, _ := json.Marshal(obj) // valid JSON values and string keys: it cannot fail
	return js
}
