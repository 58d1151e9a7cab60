package bt

import (
	"fmt"

	"github.com/gobt/bt/blackboard"
)

// SetBlackboard is an action that writes value into the blackboard entry whose name is
// output_key. output_key holds the key itself ("target", not "{target}"; "{k}" means:
// the key is the text stored in entry k). value is literal text, stored as a string, or
// "{src}": a copy of entry src, value and type.
//
//	value "{src}", src empty        → Failure (building the tree creates src, empty,
//	                                  when it does not exist, as a {key} port does)
//	value "{src}", src unset since  → the tick stops with an error
//	the destination has a type other than string and the value is text → the text is
//	                                  converted (an error stops the tick)
//	otherwise                       → write (a write: WasEntryUpdated sees it); Success
//
// XML:
//
//	<SetBlackboard output_key="greeting" value="hello"/>
//	<SetBlackboard output_key="backup" value="{pose}"/>
func SetBlackboard(outputKey, value string) *Spec {
	return setBlackboardModel.Spec().With("output_key", outputKey).With("value", value)
}

var setBlackboardModel = &Model{
	ID: "SetBlackboard", Kind: KindAction,
	Description: "Writes value (text, or a copy of {entry}) into the blackboard entry named by output_key.",
	Ports: []PortDef{
		InOutPort[any]("output_key", "the name of the entry to write").Require().untyped(),
		InputPort[any]("value", "what to write: text, or {key} to copy another entry").Require().untyped(),
	},
	build: buildSetBlackboard,
}

type setBlackboard struct {
	dst     *blackboard.Entry // output_key is literal
	dstName In[string]        // output_key is "{k}": the key is read from entry k
	src     *blackboard.Entry // value is "{src}"
	text    blackboard.Value  // value is literal
}

func buildSetBlackboard(c *NodeConfig) (ticker, error) {
	s := &setBlackboard{}
	bb := c.node.Blackboard()
	key, _, set, err := portText(c, "output_key")
	if err != nil {
		return s, err
	}
	if !set {
		return s, fmt.Errorf("port %q is not set: name the entry to write", "output_key")
	}
	if _, ok := blackboardKey(key, "output_key"); ok {
		err = s.dstName.bind(c, "output_key")
	} else if s.dst, err = bb.Resolve(key); err != nil {
		return s, fmt.Errorf("port %q: %w", "output_key", err)
	}
	if err != nil {
		return s, err
	}
	if v, ok := goValue(c, "value"); ok {
		s.text = blackboard.ValueOf(v)
		return s, nil
	}
	value, def, set, err := portText(c, "value")
	switch {
	case err != nil:
		return s, err
	case !set:
		return s, fmt.Errorf("port %q is not set", "value")
	}
	if src, ok := blackboardKey(value, "value"); ok {
		// Like any {key} of a port, it creates the entry (empty) if there is none.
		s.src, err = entryFor(c, src, def)
		return s, err
	}
	s.text = blackboard.String(value)
	return s, nil
}

func (s *setBlackboard) tick(n *Node) Status {
	dst := s.dst
	if dst == nil {
		key, err := s.dstName.Get()
		if err == nil {
			dst, err = n.Blackboard().Resolve(key)
		}
		if err != nil {
			n.Abort(err)
		}
	}
	v := s.text
	if s.src != nil {
		if !s.src.Exists() {
			n.Abort(fmt.Errorf("port %q: the entry %q does not exist", "value", s.src.Key()))
		}
		if v = s.src.Load(); v.IsEmpty() {
			return Failure
		}
	}
	if err := dst.Set(v); err != nil {
		n.Abort(err)
	}
	return Success
}
