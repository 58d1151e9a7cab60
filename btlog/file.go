package btlog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gobt/bt"
)

// File records every status change of a tree in BehaviorTree.CPP 4's FileLogger2
// format, which Groot2 replays and Read reads back. The file is, byte by byte:
//
//	"BTCPP4-FileLogger2"  18 bytes
//	1                     1 byte: the protocol version
//	N                     int32, little-endian: the length of the XML
//	XML                   N bytes: the tree with node UIDs (WriteTreeXML)
//	T0                    int64, little-endian: the first timestamp, µs since the Unix epoch
//	records               9 bytes per change: the time since T0 in µs (the low 6 bytes
//	                      of a little-endian integer), the node's UID (uint16,
//	                      little-endian) and its new status (1 byte: 0 IDLE, 1 RUNNING,
//	                      2 SUCCESS, 3 FAILURE, 4 SKIPPED)
//
// Every change is recorded, transitions to IDLE included. Times come from the tree's
// clock (bt.WithClock); T0 is the clock's time when the logger attached. The resolution
// is a microsecond, and 6 bytes hold 8.9 years of offsets (later ones are written as
// the largest). The header is written when the logger attaches; the records by the
// logger's goroutine, a batch per write, as the tree ticks.
type File struct{ stream }

// Ext is the extension Groot2 expects of .btlog files; CreateFile insists on it, as
// BehaviorTree.CPP's FileLogger2 does.
const Ext = ".btlog"

// headerMagic opens every .btlog file; the protocol byte follows.
const (
	headerMagic = "BTCPP4-FileLogger2"
	protocol    = 1
	recordSize  = 9
	maxOffset   = 1<<48 - 1 // µs: the most 6 bytes hold
)

// CreateFile creates (or truncates) the file name, whose extension must be .btlog,
// and attaches a File logger to t that writes to it. Close closes the file.
func CreateFile(t *bt.Tree, name string) (*File, error) {
	if filepath.Ext(name) != Ext {
		return nil, fmt.Errorf("btlog: %s: the name of a .btlog file must end in %s (Groot2 reads no other)", name, Ext)
	}
	if t == nil {
		return nil, errNilTree
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("btlog: %w", err)
	}
	l, err := newFile(t, f, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// NewFile attaches a File logger to t that writes to w; the header is written at once.
// Close does not close w.
func NewFile(t *bt.Tree, w io.Writer) (*File, error) { return newFile(t, w, nil) }

// newFile attaches a File logger writing to w, whose Close closes c (if not nil).
func newFile(t *bt.Tree, w io.Writer, c io.Closer) (*File, error) {
	l := &File{}
	out, err := l.open(t, w, c, nil)
	if err != nil {
		return nil, err
	}
	var xml bytes.Buffer
	if err := WriteTreeXML(&xml, t); err != nil {
		return nil, err
	}
	if xml.Len() > math.MaxInt32 {
		return nil, fmt.Errorf("btlog: the tree's XML takes %d bytes, more than a .btlog header holds", xml.Len())
	}
	b := make([]byte, 0, len(headerMagic)+1+4+xml.Len()+8)
	b = append(b, headerMagic...)
	b = append(b, protocol)
	b = binary.LittleEndian.AppendUint32(b, uint32(xml.Len()))
	b = append(b, xml.Bytes()...)
	b = binary.LittleEndian.AppendUint64(b, uint64(l.start.UnixMicro()))
	if _, err := w.Write(b); err != nil {
		return nil, fmt.Errorf("btlog: writing the header: %w", err)
	}
	l.run(t, &fileSink{output: out})
	return l, nil
}

// Start returns the time the file's offsets count from: its header's, which holds it to
// the microsecond.
func (l *File) Start() time.Time { return l.start }

type fileSink struct{ output }

// write writes a record per change, as AppendRecord does: the offset, worked out once
// for the changes of a tick, which share it, and the UID make one little-endian word.
func (f *fileSink) write(batch []Transition) error {
	n := len(f.buf)
	f.buf = slices.Grow(f.buf, 9*len(batch))[:n+9*len(batch)]
	out := f.buf[n:]
	last, us := time.Duration(-1), uint64(0)
	for i, tr := range batch {
		if tr.Offset != last {
			last, us = tr.Offset, uint64(min(max(tr.Offset.Microseconds(), 0), maxOffset))
		}
		rec := out[9*i : 9*i+9]
		binary.LittleEndian.PutUint64(rec, us|uint64(tr.UID)<<48)
		rec[8] = byte(tr.Status)
	}
	return f.emit()
}

// AppendRecord appends to b the 9 bytes that record one change in a .btlog file (see
// File), and in the reply to Groot2's GET_TRANSITIONS request: the offset in µs, the
// node's UID and its new status. Offsets below zero are written as zero.
func AppendRecord(b []byte, tr Transition) []byte {
	us := uint64(min(max(tr.Offset.Microseconds(), 0), maxOffset))
	return append(b, byte(us), byte(us>>8), byte(us>>16), byte(us>>24), byte(us>>32), byte(us>>40),
		byte(tr.UID), byte(tr.UID>>8), byte(tr.Status))
}

func (f *fileSink) close(time.Duration) error { return f.output.close() }
