package monitor

import (
	"encoding/json"

	"github.com/gobt/bt"
)

// A tree reloaded with a new definition (bt.Tree.Reload) has new nodes and UIDs, and
// maybe new blackboards: its feed describes it again and hands the hub the new
// description with a keyframe, and the hub starts its history afresh from them and
// sends every browser the new snapshot, which the page draws as it draws the first
// (the history of the old structure is gone: its UIDs mean other nodes now).

// reloaded follows a reload of the feed's tree (see Tree.OnReload): on the ticking
// goroutine, after the tree took its new structure.
func (f *Feed) reloaded(*bt.ReloadReport) {
	info, scopes := describe(f.name, f.tree)
	f.scopes = scopesOf(scopes)
	f.catchUp()
	f.recordKey()
	if f.cancel == nil { // not observing: the statuses are not followed
		f.cur.statuses = nil
	}
	f.cur.info = info
	f.send() // always taken: the old history cannot go on
}

// reloaded starts the history afresh from fr, the frame of a reload of the tree that
// info describes, and sends every client the new snapshot; h.mu is held.
func (h *hub) reloaded(info *treeInfo, fr frame) {
	info.Limit = h.limit
	js, err := json.Marshal(info)
	if err != nil { // strings and numbers only
		panic(err)
	}
	h.info, h.frames, h.first, h.snap = js, nil, 0, nil
	h.base = frame{BB: make([]scopeJSON, len(info.Scopes))}
	for i := range h.base.BB {
		h.base.BB[i] = scopeJSON{Scope: i, Entries: json.RawMessage("{}")}
	}
	h.synced = fr.Statuses != nil
	if h.synced {
		h.push(fr)
	}
	js, err = json.Marshal(snapshot{Info: h.info, Synced: h.synced, Base: h.base, Frames: h.history()})
	if err != nil {
		panic(err) // numbers, and blackboards Blackboard.MarshalJSON wrote
	}
	h.broadcast(message("snapshot", js))
}
