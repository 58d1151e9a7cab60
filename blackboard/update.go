package blackboard

// Update replaces the entry's value by fn(old) atomically: no other write reaches the
// entry between the read of old and the write of what fn returns, so concurrent
// updates lose nothing — BT.CPP's getLockedPortContent (tutorial 13), for a value
// that several goroutines modify:
//
//	blackboard.Update(e, func(list []int) []int { return append(list, 3) })
//
// old is the entry's value read as Get reads it, or T's zero value when the entry is
// absent or empty, so that fn can create the value (append to a nil slice, count from
// 0). What fn returns is written as Put writes it (Set: an absent entry is created,
// typed after the value). When the value does not convert to T, or fn's result does
// not convert into the entry's type, Update returns the error and the entry is left
// as it was; fn is not called in the first case.
//
// fn runs once, holding the entry: other writers, and readers, wait until it returns.
// Keep it short, and do not read or write the entry inside it (that would wait for
// itself). If fn panics, the entry is released unchanged and the panic goes on.
func Update[T any](e *Entry, fn func(old T) T) error {
	if e.env == nil {
		return e.invalid()
	}
	cur, h := e.lock()
	done := false
	defer func() {
		if !done {
			e.head.Store(h) // unchanged: readers see the version they started with
		}
	}()
	var old T
	if Kind(cur.meta) != KindEmpty {
		var held Entry // the value held, read as Get reads it
		held.key, held.keyLen, held.env = e.key, e.keyLen, e.env
		held.bits.Store(cur.bits)
		held.box.Store(cur.box)
		held.head.Store(cur.meta << headMeta)
		var err error
		if old, err = Get[T](&held); err != nil {
			return err
		}
	}
	v := ValueOf(any(fn(old)))
	if v.kind == KindEmpty {
		return e.emptyWrite()
	}
	next := cur
	if err := e.apply(&next, v, false); err != nil {
		return err
	}
	stamp := int64(0)
	if e.env.now != nil {
		stamp = e.env.now().UnixNano()
	}
	done = e.swapState(h|headLock, cur, next, true, stamp)
	return nil
}

// lock takes the entry's lock, as a writer's swapState does, and returns the state it
// holds and the head it was locked from (without the lock bit). Release it with
// swapState(h|headLock, …), or by storing h back when nothing changed.
func (e *Entry) lock() (state, uint64) {
	for i := 0; ; i++ {
		h := e.head.Load()
		if h&headLock == 0 && e.head.CompareAndSwap(h, h|headLock) {
			return state{meta: metaOf(h), bits: e.bits.Load(), box: e.box.Load(), decl: e.decl.Load()}, h
		}
		spin(i)
	}
}
