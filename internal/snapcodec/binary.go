package snapcodec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"github.com/gobt/bt/blackboard"
)

// Magic starts the binary encoding.
const Magic = "BTSNAP\x00"

var binaryMagic = []byte(Magic)

// EncodeBinary writes the snapshot in the compact binary encoding.
func (s *Snapshot) EncodeBinary() []byte {
	b := make([]byte, 0, 128+16*len(s.States))
	b = append(b, binaryMagic...)
	b = binary.AppendUvarint(b, uint64(s.Version))
	b = appendString(b, s.Tree)
	b = appendString(b, s.Fingerprint)
	b = binary.AppendUvarint(b, uint64(s.Nodes))
	b = binary.AppendVarint(b, s.Taken.UnixNano())
	b = append(b, boolByte(s.Aborted))
	b = binary.AppendUvarint(b, uint64(s.Wakeups))
	b = binary.AppendUvarint(b, uint64(len(s.Restart)))
	for _, p := range s.Restart {
		b = appendString(b, p)
	}
	b = binary.AppendUvarint(b, uint64(len(s.States)))
	for i := range s.States {
		st := &s.States[i]
		b = binary.AppendUvarint(b, uint64(st.UID))
		b = append(b, st.Status)
		b = binary.AppendUvarint(b, uint64(len(st.Fields)))
		for k := range st.Fields {
			f := &st.Fields[k]
			b = append(appendString(b, f.Name), byte(f.Kind))
			switch f.Kind {
			case Int, Bool:
				b = binary.AppendVarint(b, f.Num)
			default:
				b = appendString(b, f.Text)
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(s.Scopes)))
	for i := range s.Scopes {
		sc := &s.Scopes[i]
		b = binary.AppendUvarint(b, uint64(sc.UID))
		b = appendString(b, sc.Path)
		b = binary.AppendUvarint(b, uint64(len(sc.Entries)))
		for k := range sc.Entries {
			e := &sc.Entries[k]
			b = appendString(b, e.Key)
			b = appendString(b, e.Type)
			b = appendString(b, e.Declared)
			b = append(b, boolByte(e.Value != nil))
			if e.Value != nil {
				b = appendString(b, string(e.Value))
			}
			b = binary.AppendUvarint(b, e.Seq)
			b = append(b, boolByte(e.Absent)|boolByte(!e.Stamp.IsZero())<<1)
			if !e.Stamp.IsZero() {
				b = binary.AppendVarint(b, e.Stamp.UnixNano())
			}
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// The fewest bytes that encode an item of each list of the binary encoding, by which
// reader.items bounds a count: the length of a string (a byte, for ""); a node's UID,
// status and count of fields; a field's name, kind and value; a blackboard's UID,
// path and count of entries; an entry's key, type, declared type, value flag,
// sequence number and flags.
const (
	minStringSize = 1
	minNodeSize   = 3
	minFieldSize  = 3
	minScopeSize  = 3
	minEntrySize  = 6
)

// DecodeBinary reads a binary snapshot into s: its checksum, then its head — what
// identifies it, given to head (if not nil), which may refuse it — then the rest. Each
// list is made once its count is known to fit in the bytes left (see reader.items),
// so that the memory it takes is bounded by what the input can encode:
// sizeof(blackboard.EntryState)/minEntrySize (about 19) bytes per byte of input at
// most, for a file of empty entries.
func (s *Snapshot) DecodeBinary(data []byte, head func(*Head) error) error {
	if !bytes.HasPrefix(data, binaryMagic) {
		return checkVersion(false, 0)
	}
	if len(data) < len(binaryMagic)+5 {
		return fmt.Errorf("%w: it is truncated", errCorrupt)
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return fmt.Errorf("%w: its checksum does not match (it is truncated or damaged)", errCorrupt)
	}
	r := reader{data: body[len(binaryMagic):]}
	version := r.uvarint()
	if err := checkVersion(true, int(min(version, 1<<30))); err != nil {
		return err
	}
	out := Snapshot{Head: Head{Version: int(version), Tree: r.str(), Fingerprint: r.str(), Nodes: int(r.count(1 << 16))}}
	if r.err != nil {
		return fmt.Errorf("%w: its content does not read as a snapshot", errCorrupt)
	}
	if head != nil {
		if err := head(&out.Head); err != nil {
			return err
		}
	}
	out.Taken = time.Unix(0, r.varint())
	out.Aborted = r.byte() == 1
	wakeups := r.uvarint()
	if wakeups > math.MaxUint32 {
		r.fail()
	}
	out.Wakeups = uint32(wakeups)
	// A node restarts, or has a state, once at most; a blackboard is the root's or a
	// subtree instance's.
	out.Restart = make([]string, r.items(minStringSize, out.Nodes))
	for i := range out.Restart {
		out.Restart[i] = r.str()
	}
	out.States = make([]Node, r.items(minNodeSize, out.Nodes))
	for i := range out.States {
		st := &out.States[i]
		st.UID, st.Status = uint16(r.count(1<<16)), r.byte()
		st.Fields = make([]Field, r.items(minFieldSize, MaxFields))
		for k := range st.Fields {
			f := &st.Fields[k]
			f.Name, f.Kind = r.str(), Kind(r.byte())
			switch f.Kind {
			case Int, Bool:
				f.Num = r.varint()
			case Text, Raw:
				f.Text = r.str()
			default:
				r.fail()
			}
		}
	}
	out.Scopes = make([]Scope, r.items(minScopeSize, out.Nodes+1))
	for i := range out.Scopes {
		sc := &out.Scopes[i]
		sc.UID, sc.Path = uint16(r.count(1<<16)), r.str()
		sc.Entries = make([]blackboard.EntryState, r.items(minEntrySize, math.MaxInt))
		for k := range sc.Entries {
			e := &sc.Entries[k]
			e.Key, e.Type, e.Declared = r.str(), r.str(), r.str()
			if r.byte() == 1 {
				e.Value = bytes.Clone(r.bytes())
			}
			e.Seq = r.uvarint()
			flags := r.byte()
			e.Absent = flags&1 != 0
			if flags&2 != 0 {
				e.Stamp = time.Unix(0, r.varint())
			}
		}
	}
	if r.err != nil || len(r.data) > 0 {
		return fmt.Errorf("%w: its content does not read as a snapshot", errCorrupt)
	}
	*s = out
	return nil
}

// reader reads the binary encoding; a read past the end, or of a bad number, records
// an error and returns zeros from then on.
type reader struct {
	data []byte
	err  error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errCorrupt
	}
	r.data = nil
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

// count reads a number below limit.
func (r *reader) count(limit int) int {
	v := r.uvarint()
	if v >= uint64(limit) {
		r.fail()
		return 0
	}
	return int(v)
}

// items reads the number of items that follow, each of which takes size bytes at
// least, and which are limit at most: a count that the bytes left cannot hold is
// refused before a list is made for it.
func (r *reader) items(size, limit int) int {
	return r.count(min(len(r.data)/size, limit) + 1)
}

func (r *reader) byte() byte {
	if len(r.data) == 0 {
		r.fail()
		return 0
	}
	c := r.data[0]
	r.data = r.data[1:]
	return c
}

func (r *reader) str() string { return string(r.bytes()) }

// bytes reads a string's bytes, which stay the input's.
func (r *reader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.data)) {
		r.fail()
	}
	if r.err != nil {
		return nil
	}
	b := r.data[:n:n]
	r.data = r.data[n:]
	return b
}
