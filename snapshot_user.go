package bt

import "fmt"

// StateSaver is implemented by the behavior of a node of yours that keeps state
// between ticks — a StatefulAction, a ModelOf struct, an AsyncAction, any Behavior —
// so that a snapshot of its tree keeps that state (see Tree.Snapshot):
//
//	func (m *MoveTo) SaveState(n *bt.Node) ([]byte, error) { return json.Marshal(m.progress) }
//	func (m *MoveTo) RestoreState(n *bt.Node, state []byte) error {
//		return json.Unmarshal(state, &m.progress)
//	}
//
// SaveState returns the state as bytes: JSON is written into a JSON snapshot as it is,
// so that people can read it, other bytes in base64. Returning nothing says there is
// nothing to save. RestoreState is given back what SaveState returned, on the node of
// a tree built from the same definition, before the tree's own state is restored;
// it is not called when SaveState returned nothing. When it fails (or panics: a panic
// in either method is an error, a *PanicError, for Snapshot and Restore), Restore gives
// the nodes it restored before their former state back (what their SaveState returned
// just before) and fails: RestoreState should check what it is given before it
// changes anything.
//
// The SaveState of an AsyncAction may run while its work runs in another goroutine.
//
// Nodes made of plain functions (NewAction, NewCondition) keep no state and need
// none of this. A node of another behavior that does not implement StateSaver is
// restored with its status, unless it is Running: then it is restored halted (Idle),
// with the nodes under it, and Snapshot.Restarts lists it, since its next tick starts
// it afresh. Async actions always restart (see Tree.Restore).
type StateSaver interface {
	SaveState(n *Node) ([]byte, error)
	RestoreState(n *Node, state []byte) error
}

// saver returns the StateSaver of the node's behavior, if it has one.
func (u *userNode) saver() StateSaver {
	switch b := u.beh.(type) {
	case *stateful:
		return b.saver()
	case starting:
		return b.saver()
	case *async:
		return b.saver
	case StateSaver:
		return b
	}
	return nil
}

// saveState saves the node's wake-up, an async action's work (see async.saveState)
// and its behavior's state ("state"). The work of an async action that still runs is
// noted as restarting; so is a Running node whose behavior has state that a snapshot
// cannot keep, which is restored halted (stateWriter.halt).
func (u *userNode) saveState(n *Node, w *stateWriter) {
	sv := u.saver()
	if a, ok := u.beh.(*async); ok {
		w.restart = a.saveState(w)
	} else if sv == nil && !stateless(u.beh) && n.Status() == Running {
		w.restart, w.halt = true, true
	}
	if !w.restart {
		n.saveWake(w)
	} else if c := n.claim(false); c != nil && c.pending(w.tree) {
		w.claims++ // the restarted work asks for a wake-up of its own when it is done
	}
	if sv == nil {
		return
	}
	var state []byte
	err := contained(func() (err error) { state, err = sv.SaveState(n); return err })
	if err != nil {
		w.fail(fmt.Errorf("SaveState: %w", err))
		return
	}
	w.raw("state", state)
}

// restoreState asks again for the node's wake-up, restores an async action's work
// and, in the check pass, puts aside the state to give its behavior (see
// Tree.Restore).
func (u *userNode) restoreState(n *Node, r *stateReader) {
	n.restoreWake(r)
	if a, ok := u.beh.(*async); ok {
		if restart := a.restoreState(n, r); restart != nil {
			r.restarts = append(r.restarts, restart)
		}
	}
	state := r.raw("state")
	if state == nil || r.applying() {
		return
	}
	sv := u.saver()
	if sv == nil {
		r.fail("a state for a behavior that does not implement StateSaver")
		return
	}
	r.users = append(r.users, userState{n: n, saver: sv, state: state})
}

// userState is the state a node of yours gets back, before the rest of the tree.
type userState struct {
	n     *Node
	saver StateSaver
	state []byte
}
