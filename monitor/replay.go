package monitor

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// DefaultGap is the pause that separates two steps of a replay (see StepGap).
const DefaultGap = time.Millisecond

// replay is a recorded run as the monitor keeps it: its transitions in the encoding of
// the file (recSize bytes each), cut into steps as they are sent. A file of millions of
// transitions costs its size, not a frame per step, and a client is sent the snapshot
// as it is written rather than a copy of its own.
type replay struct {
	info  []byte // the treeInfo, as JSON
	base  []byte // the state before the first step, a keyframe: every node IDLE, as a run starts
	start time.Time
	gap   time.Duration
	recs  []byte // per transition: its offset in µs (6 bytes, little-endian), UID (2), status | previous<<4
	steps int
}

const (
	recSize   = 9
	maxOffset = 1<<48 - 1 // µs: the most 6 bytes hold, as in the file
)

// newReplay indexes the transitions of l: a change that comes more than gap after the
// one before it starts a new step, which is how the ticks of a run show in a file that
// records times but not ticks. Times are kept to the microsecond, as the file keeps them.
func newReplay(info []byte, l *btlog.Log, gap time.Duration) *replay {
	size := 0 // statuses go by UID-1, and a file may skip UIDs
	if len(l.Nodes) > 0 {
		size = int(l.Nodes[len(l.Nodes)-1].UID)
	}
	base := frame{Statuses: make(statuses, size), Time: millis(l.Start), BB: []scopeJSON{{Scope: 0, Entries: json.RawMessage("{}")}}}
	js, err := json.Marshal(base)
	if err != nil {
		panic(err) // numbers
	}
	r := &replay{info: info, base: js, start: l.Start, gap: gap, recs: make([]byte, 0, recSize*len(l.Transitions))}
	for _, tr := range l.Transitions {
		us := uint64(min(max(tr.Offset.Microseconds(), 0), maxOffset))
		r.recs = append(r.recs, byte(us), byte(us>>8), byte(us>>16), byte(us>>24), byte(us>>32), byte(us>>40),
			byte(tr.UID), byte(tr.UID>>8), byte(tr.Status&0xf|tr.Previous<<4))
	}
	r.each(func(newStep bool, _ time.Duration, _ bt.Change) bool {
		if newStep {
			r.steps++
		}
		return true
	})
	return r
}

// each calls f with each transition, in order, until it returns false: whether it
// starts a step, its offset and the change. A skipped node, which the file records,
// shows as IDLE.
func (r *replay) each(f func(newStep bool, offset time.Duration, c bt.Change) bool) {
	var last time.Duration
	for i := 0; i+recSize <= len(r.recs); i += recSize {
		b := r.recs[i : i+recSize]
		off := time.Duration(uint64(b[0])|uint64(b[1])<<8|uint64(b[2])<<16|uint64(b[3])<<24|uint64(b[4])<<32|uint64(b[5])<<40) * time.Microsecond
		st, prev := bt.Status(b[8]&0xf), bt.Status(b[8]>>4)
		if st == bt.Skipped { // never stored: a skipped node stays IDLE
			st = bt.Idle
		}
		if !f(i == 0 || off-last > r.gap, off, bt.MakeChange(uint16(b[6])|uint16(b[7])<<8, prev, st)) {
			return
		}
		last = off
	}
}

// flushAt is the size of JSON written at a time.
const flushAt = 32 << 10

// WriteTo writes the snapshot's JSON: the steps are frames, each the changes of a step,
// written as they are read.
func (r *replay) WriteTo(w io.Writer) (int64, error) {
	var n int64
	var err error
	write := func(b []byte) {
		if err == nil {
			var k int
			k, err = w.Write(b)
			n += int64(k)
		}
	}
	b := make([]byte, 0, flushAt+64)
	b = append(append(b, `{"info":`...), r.info...)
	b = append(append(append(b, `,"synced":true,"base":`...), r.base...), `,"frames":[`...)
	tick := 0
	r.each(func(newStep bool, offset time.Duration, c bt.Change) bool {
		if newStep {
			if tick > 0 {
				b = append(b, "]},"...)
			}
			tick++
			b = strconv.AppendInt(append(b, `{"tick":`...), int64(tick), 10)
			b = appendMillis(append(b, `,"time":`...), millis(r.start.Add(offset)))
			b = append(b, `,"changes":[`...)
		} else {
			b = append(b, ',')
		}
		b = append(strconv.AppendUint(append(b, '['), uint64(c.UID()), 10), ',')
		b = append(strconv.AppendUint(b, uint64(c.Previous()), 10), ',')
		b = append(strconv.AppendUint(b, uint64(c.Status()), 10), ']')
		if len(b) >= flushAt {
			write(b)
			b = b[:0]
		}
		return err == nil // a client gone is written no more
	})
	if tick > 0 {
		b = append(b, "]}"...)
	}
	write(append(b, "]}"...))
	return n, err
}

// appendMillis appends a frame's time as encoding/json writes a float64.
func appendMillis(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 to e-9, as encoding/json does
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
