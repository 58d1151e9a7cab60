package bt

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gobt/bt/blackboard"
)

// The encodings of a Snapshot. The JSON one is for people: a document with one line
// per node that has a status or state and one per blackboard entry, every field
// named. The binary one is compact: the same content without names but the fields',
// and a CRC-32 at the end that catches corruption. Both start with what identifies
// them ("format": "bt snapshot" and the version; the bytes "BTSNAP\x00" and the
// version), so that ReadSnapshot tells them apart and refuses a newer version before
// reading on.

// snapshotFormat is the JSON encoding's "format".
const snapshotFormat = "bt snapshot"

// binaryMagic starts the binary encoding.
var binaryMagic = []byte("BTSNAP\x00")

var errCorrupt = errors.New("bt: the snapshot is corrupt")

// ReadSnapshot reads a snapshot written by MarshalJSON or MarshalBinary. It refuses a
// snapshot of a newer version than this bt writes, and input that is not a whole
// snapshot, with an error that says so.
//
// It reads input it cannot trust in time linear in its size, and the memory it takes
// is bounded by what the bytes can encode: a count that the bytes left could not hold
// is refused before anything is made for it (a binary snapshot's checksum is checked
// first, too). To refuse a snapshot of another tree before reading more than its head,
// use Tree.ReadSnapshot.
func ReadSnapshot(data []byte) (*Snapshot, error) { return readSnapshot(data, nil) }

// ReadSnapshot reads a snapshot for t, as the function ReadSnapshot does, but refuses
// one of another tree definition, as Restore does, once it has read its head (format,
// version, tree and fingerprint), before the rest.
func (t *Tree) ReadSnapshot(data []byte) (*Snapshot, error) {
	if t.root == nil {
		return nil, ErrEmptyTree
	}
	return readSnapshot(data, func(s *Snapshot) error {
		if err := t.checkDefinition(s); err != nil {
			return fmt.Errorf("bt: %w", err)
		}
		return nil
	})
}

// readSnapshot reads either encoding; head, if not nil, is given the snapshot once its
// head is read, and refuses the rest with an error.
func readSnapshot(data []byte, head func(*Snapshot) error) (*Snapshot, error) {
	s := new(Snapshot)
	var err error
	switch json := bytes.TrimLeft(data, " \t\r\n"); {
	case bytes.HasPrefix(data, binaryMagic):
		err = s.readBinary(data, head)
	case len(json) > 0 && json[0] == '{':
		err = s.readJSON(data, head)
	default:
		err = checkVersion(false, 0)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// MarshalJSON writes the snapshot as an indented JSON document, one line per node
// and per blackboard entry. (json.Marshal of a Snapshot compacts it.)
func (s *Snapshot) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 256+64*len(s.states))
	b = append(b, "{\n  \"format\": "...)
	b = appendJSONString(b, snapshotFormat)
	b = append(b, ",\n  \"version\": "...)
	b = strconv.AppendInt(b, int64(s.version), 10)
	if s.tree != "" {
		b = append(b, ",\n  \"tree\": "...)
		b = appendJSONString(b, s.tree)
	}
	b = append(b, ",\n  \"fingerprint\": "...)
	b = appendJSONString(b, s.fingerprint)
	b = append(b, ",\n  \"nodes\": "...)
	b = strconv.AppendInt(b, int64(s.nodes), 10)
	b = append(b, ",\n  \"taken\": "...)
	b = appendJSONString(b, s.taken.UTC().Format(time.RFC3339Nano))
	if s.aborted {
		b = append(b, ",\n  \"aborted\": true"...)
	}
	if s.wakeups > 0 {
		b = append(b, ",\n  \"wakeups\": "...)
		b = strconv.AppendUint(b, uint64(s.wakeups), 10)
	}
	if len(s.restart) > 0 {
		b = append(b, ",\n  \"restart\": ["...)
		for i, p := range s.restart {
			b = appendComma(b, i)
			b = appendJSONString(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, ",\n  \"state\": ["...)
	for i := range s.states {
		st := &s.states[i]
		path := st.path
		if s.of != nil {
			path = s.of.Node(st.uid).Path()
		}
		b = appendComma(b, i)
		b = st.appendJSON(append(b, "\n    "...), path)
	}
	if len(s.states) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "],\n  \"blackboards\": ["...)
	for i, sc := range s.scopes {
		b = appendComma(b, i)
		var err error
		if b, err = sc.appendJSON(append(b, "\n    "...)); err != nil {
			return nil, err
		}
	}
	return append(b, "\n  ]\n}\n"...), nil
}

func appendComma(b []byte, i int) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	return b
}

func (st *nodeState) appendJSON(b []byte, path string) []byte {
	b = append(b, `{"uid": `...)
	b = strconv.AppendUint(b, uint64(st.uid), 10)
	if path != "" && utf8.ValidString(path) { // else JSON cannot carry it as it is: it is only for people
		b = appendJSONString(append(b, `, "path": `...), path)
	}
	if st.status != Idle {
		b = appendJSONString(append(b, `, "status": `...), st.status.String())
	}
	for _, f := range st.fields {
		b = f.appendJSON(append(b, ", "...))
	}
	return append(b, '}')
}

// appendJSON writes a field as "name": value. A JSON field that is JSON as it is, with
// nothing around it, goes in as it is; other bytes as "nameBase64": "…".
func (f *stateField) appendJSON(b []byte) []byte {
	if f.kind == fieldRaw && !isBareJSON(f.text) {
		b = appendJSONString(b, f.name+"Base64")
		b = append(b, ": \""...)
		b = base64.StdEncoding.AppendEncode(b, []byte(f.text))
		return append(b, '"')
	}
	b = append(appendJSONString(b, f.name), ": "...)
	switch f.kind {
	case fieldInt:
		return strconv.AppendInt(b, f.num, 10)
	case fieldBool:
		return strconv.AppendBool(b, f.num == 1)
	case fieldText:
		return appendJSONString(b, f.text)
	}
	return append(b, f.text...)
}

// isBareJSON reports whether s is one JSON value, with no space around it.
func isBareJSON(s string) bool {
	return s != "" && strings.TrimSpace(s) == s && json.Valid([]byte(s))
}

func (sc *scopeState) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	if sc.uid != 0 {
		b = append(strconv.AppendUint(append(b, `"uid": `...), uint64(sc.uid), 10), ", "...)
	}
	b = append(appendJSONString(append(b, `"path": `...), sc.path), `, "entries": [`...)
	for i := range sc.entries {
		e := &sc.entries[i]
		if !utf8.ValidString(e.Key) {
			return nil, fmt.Errorf("bt: %s: entry %q: a key that is not UTF-8 cannot be written as JSON (MarshalBinary can)", treeScope{uid: sc.uid, path: sc.path}.name(), e.Key)
		}
		b = appendComma(b, i)
		b = appendEntryJSON(append(b, "\n      "...), e)
	}
	if len(sc.entries) > 0 {
		b = append(b, "\n    "...)
	}
	return append(b, "]}"...), nil
}

func appendEntryJSON(b []byte, e *blackboard.EntryState) []byte {
	b = appendJSONString(append(b, `{"key": `...), e.Key)
	if e.Type != "" {
		b = appendJSONString(append(b, `, "type": `...), e.Type)
	}
	if e.Declared != "" {
		b = appendJSONString(append(b, `, "declared": `...), e.Declared)
	}
	if e.Value != nil {
		b = append(append(b, `, "value": `...), e.Value...)
	}
	if e.Seq != 0 {
		b = strconv.AppendUint(append(b, `, "seq": `...), e.Seq, 10)
	}
	if !e.Stamp.IsZero() {
		b = appendJSONString(append(b, `, "stamp": `...), e.Stamp.UTC().Format(time.RFC3339Nano))
	}
	if e.Absent {
		b = append(b, `, "absent": true`...)
	}
	return append(b, '}')
}

// appendJSONString writes s as a JSON string (bytes that are not UTF-8 become U+FFFD).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, `\u00`...)
				b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, r)
		i += size
	}
	return append(b, '"')
}

// snapshotJSON is the JSON document as encoding/json reads it. The lines of the nodes,
// whose fields differ from node to node, are read by nodeStateOf.
type snapshotJSON struct {
	Format      string            `json:"format"`
	Version     int               `json:"version"`
	Tree        string            `json:"tree"`
	Fingerprint string            `json:"fingerprint"`
	Nodes       int               `json:"nodes"`
	Taken       time.Time         `json:"taken"`
	Aborted     bool              `json:"aborted"`
	Wakeups     uint32            `json:"wakeups"`
	Restart     []string          `json:"restart"`
	State       []json.RawMessage `json:"state"`
	Blackboards []struct {
		UID     uint16 `json:"uid"`
		Path    string `json:"path"`
		Entries []struct {
			Key      string          `json:"key"`
			Type     string          `json:"type"`
			Declared string          `json:"declared"`
			Value    json.RawMessage `json:"value"`
			Seq      uint64          `json:"seq"`
			Stamp    time.Time       `json:"stamp"`
			Absent   bool            `json:"absent"`
		} `json:"entries"`
	} `json:"blackboards"`
}

// UnmarshalJSON reads a snapshot written by MarshalJSON.
func (s *Snapshot) UnmarshalJSON(data []byte) error { return s.readJSON(data, nil) }

// readJSON reads a JSON snapshot: its head first — what identifies it, which may refuse
// it — then the rest.
func (s *Snapshot) readJSON(data []byte, head func(*Snapshot) error) error {
	// The head is read on its own, so that a snapshot that is none, a newer one (with
	// fields this bt does not know) or one of another tree is said to be so, rather
	// than what in it did not read; its other members are skipped, not decoded.
	var h struct {
		Format      string `json:"format"`
		Version     int    `json:"version"`
		Tree        string `json:"tree"`
		Fingerprint string `json:"fingerprint"`
		Nodes       int    `json:"nodes"`
	}
	if err := decodeJSON(data, &h, false); err != nil {
		return fmt.Errorf("%w: %v", errCorrupt, err)
	}
	if err := checkVersion(h.Format == snapshotFormat, h.Version); err != nil {
		return err
	}
	if head != nil {
		if err := head(&Snapshot{version: h.Version, tree: h.Tree, fingerprint: h.Fingerprint, nodes: h.Nodes}); err != nil {
			return err
		}
	}
	var doc snapshotJSON
	if err := decodeJSON(data, &doc, true); err != nil {
		return fmt.Errorf("%w: %v", errCorrupt, err)
	}
	// A node restarts, or has a state, once at most; a blackboard is the root's or a
	// subtree instance's.
	if n := max(doc.Nodes, 0); len(doc.Restart) > n || len(doc.State) > n || len(doc.Blackboards) > n+1 {
		return fmt.Errorf("%w: it lists more nodes or blackboards than its %d nodes", errCorrupt, n)
	}
	*s = Snapshot{version: doc.Version, tree: doc.Tree, fingerprint: doc.Fingerprint, nodes: doc.Nodes,
		taken: doc.Taken, aborted: doc.Aborted, wakeups: doc.Wakeups, restart: doc.Restart,
		states: make([]nodeState, len(doc.State))}
	var err error
	for i, line := range doc.State {
		if s.states[i], err = nodeStateOf(line); err != nil {
			return fmt.Errorf("%w: %v", errCorrupt, err)
		}
	}
	for _, sc := range doc.Blackboards {
		out := scopeState{uid: sc.UID, path: sc.Path, entries: make([]blackboard.EntryState, len(sc.Entries))}
		for i, e := range sc.Entries {
			out.entries[i] = blackboard.EntryState{Key: e.Key, Type: e.Type, Declared: e.Declared, Seq: e.Seq, Stamp: e.Stamp, Absent: e.Absent}
			if len(e.Value) > 0 && string(e.Value) != "null" {
				out.entries[i].Value = e.Value
			}
		}
		s.scopes = append(s.scopes, out)
	}
	return nil
}

// decodeJSON decodes the one JSON document data into v, strict about the fields.
func decodeJSON(data []byte, v any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("data after the document")
	}
	return err
}

// checkVersion refuses what is not a snapshot, or one of a version this bt cannot read.
func checkVersion(isSnapshot bool, version int) error {
	switch {
	case !isSnapshot:
		return errors.New(`bt: not a bt snapshot (a JSON snapshot says "format": "bt snapshot"; a binary one starts with BTSNAP)`)
	case version > snapshotVersion:
		return fmt.Errorf("bt: the snapshot is of version %d, newer than this bt reads (%d): restore it with a newer bt", version, snapshotVersion)
	case version < 1:
		return fmt.Errorf("%w: version %d", errCorrupt, version)
	}
	return nil
}

// nodeStateOf reads a node's line of the JSON document: an object of "uid", "path",
// "status" and the node's fields, whose kinds are their JSON's. It reads the object
// itself, which encoding/json has checked: most values are numbers, plain strings
// and true.
func nodeStateOf(line []byte) (nodeState, error) {
	var st nodeState
	err := eachMember(line, func(name string, raw []byte) error {
		switch name {
		case "uid":
			n, err := strconv.ParseUint(string(raw), 10, 16)
			if err != nil || n == 0 {
				return fmt.Errorf("uid %s", raw)
			}
			st.uid = uint16(n)
		case "path":
			return jsonString(raw, &st.path)
		case "status":
			var name string
			err := jsonString(raw, &name)
			if err == nil {
				st.status, err = ParseStatus(name)
			}
			return err
		default:
			f, err := fieldOf(name, raw)
			if err != nil {
				return fmt.Errorf("field %q: %v", name, err)
			}
			switch {
			case len(st.fields) == maxFields:
				return fmt.Errorf("more than %d fields", maxFields)
			case slices.ContainsFunc(st.fields, func(g stateField) bool { return g.name == f.name }):
				return fmt.Errorf("field %q twice", f.name)
			}
			st.fields = append(st.fields, f)
		}
		return nil
	})
	switch {
	case err != nil && st.uid != 0:
		return st, fmt.Errorf("node %d: %v", st.uid, err)
	case err != nil:
		return st, err
	case st.uid == 0:
		return st, errors.New(`a node without a "uid"`)
	}
	return st, nil
}

// eachMember calls f with the name and the JSON of each member of the object data,
// which is valid JSON.
func eachMember(data []byte, f func(name string, raw []byte) error) error {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return errors.New("a node is not an object")
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil
	}
	for i < len(data) {
		end := valueEnd(data, i)
		name, err := memberName(data[i:end])
		if err != nil {
			return err
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return errors.New("a member without a value")
		}
		i = skipSpace(data, i+1)
		end = valueEnd(data, i)
		if err := f(name, data[i:end]); err != nil {
			return err
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] == '}' {
			return nil
		}
		i = skipSpace(data, i+1) // ','
	}
	return nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the end of the JSON value at data[i:], which is valid JSON.
func valueEnd(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return min(i+1, len(data))
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// maxFields bounds the fields of a node's state: more than any node writes (each
// writes each of its fields once, and memberNames holds every name they use), so that
// reading a node's line, which compares each field's name with those before it, takes
// time linear in its length, and a binary snapshot cannot make a list of fields bigger.
const maxFields = 64

// memberNames are the names of the members of node lines that bt writes, so that
// reading a line allocates no string for them.
var memberNames = func() map[string]string {
	m := map[string]string{}
	for _, name := range []string{"uid", "path", "status", "child", "skipped", "wake", "done", "successes",
		"failures", "branch", "catching", "count", "started", "timed", "timer", "rang", "timerWake", "result",
		"latched", "seen", "running", "left", "inOneTick", "frames", "armed", "ownQueue", "queue", "state",
		"working", "error", "panic"} {
		m[`"`+name+`"`] = name
	}
	return m
}()

// memberName reads the name of a member.
func memberName(raw []byte) (string, error) {
	if name, ok := memberNames[string(raw)]; ok {
		return name, nil
	}
	var name string
	err := jsonString(raw, &name)
	return name, err
}

// jsonString reads the JSON string raw into s: as it is when it has no escapes.
func jsonString(raw []byte, s *string) error {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		*s = string(raw[1 : len(raw)-1])
		return nil
	}
	return json.Unmarshal(raw, s)
}

// fieldOf reads a field of a node's line: its kind is its JSON's.
func fieldOf(name string, raw []byte) (stateField, error) {
	f := stateField{name: name}
	if len(raw) == 0 {
		return f, errors.New("no value")
	}
	switch c := raw[0]; {
	case c == '"':
		if err := jsonString(raw, &f.text); err != nil {
			return f, err
		}
		f.kind = fieldText
		if base, ok := strings.CutSuffix(name, "Base64"); ok {
			b, err := base64.StdEncoding.DecodeString(f.text)
			if err != nil {
				return f, err
			}
			f = stateField{name: base, kind: fieldRaw, text: string(b)}
		}
	case c == 't' || c == 'f':
		f.kind = fieldBool
		if string(raw) == "true" {
			f.num = 1
		}
	case c == '-' || '0' <= c && c <= '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return f, err
		}
		f.kind, f.num = fieldInt, n
	case c == '{' || c == '[':
		f.kind, f.text = fieldRaw, string(raw)
	default:
		return f, fmt.Errorf("unexpected %s", raw)
	}
	return f, nil
}

// MarshalBinary writes the snapshot in the compact binary encoding.
func (s *Snapshot) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 128+16*len(s.states))
	b = append(b, binaryMagic...)
	b = binary.AppendUvarint(b, uint64(s.version))
	b = appendBinString(b, s.tree)
	b = appendBinString(b, s.fingerprint)
	b = binary.AppendUvarint(b, uint64(s.nodes))
	b = binary.AppendVarint(b, s.taken.UnixNano())
	b = append(b, boolByte(s.aborted))
	b = binary.AppendUvarint(b, uint64(s.wakeups))
	b = binary.AppendUvarint(b, uint64(len(s.restart)))
	for _, p := range s.restart {
		b = appendBinString(b, p)
	}
	b = binary.AppendUvarint(b, uint64(len(s.states)))
	for _, st := range s.states {
		b = binary.AppendUvarint(b, uint64(st.uid))
		b = append(b, byte(st.status))
		b = binary.AppendUvarint(b, uint64(len(st.fields)))
		for _, f := range st.fields {
			b = append(appendBinString(b, f.name), byte(f.kind))
			switch f.kind {
			case fieldInt, fieldBool:
				b = binary.AppendVarint(b, f.num)
			default:
				b = appendBinString(b, f.text)
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(s.scopes)))
	for _, sc := range s.scopes {
		b = binary.AppendUvarint(b, uint64(sc.uid))
		b = appendBinString(b, sc.path)
		b = binary.AppendUvarint(b, uint64(len(sc.entries)))
		for _, e := range sc.entries {
			b = appendBinString(b, e.Key)
			b = appendBinString(b, e.Type)
			b = appendBinString(b, e.Declared)
			b = append(b, boolByte(e.Value != nil))
			if e.Value != nil {
				b = appendBinString(b, string(e.Value))
			}
			b = binary.AppendUvarint(b, e.Seq)
			b = append(b, boolByte(e.Absent)|boolByte(!e.Stamp.IsZero())<<1)
			if !e.Stamp.IsZero() {
				b = binary.AppendVarint(b, e.Stamp.UnixNano())
			}
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

func appendBinString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// UnmarshalBinary reads a snapshot written by MarshalBinary.
func (s *Snapshot) UnmarshalBinary(data []byte) error { return s.readBinary(data, nil) }

// The fewest bytes that encode an item of each list of the binary encoding, by which
// binReader.items bounds a count: the length of a string (a byte, for ""); a node's
// UID, status and count of fields; a field's name, kind and value; a blackboard's UID,
// path and count of entries; an entry's key, type, declared type, value flag, sequence
// number and flags.
const (
	minStringSize = 1
	minStateSize  = 3
	minFieldSize  = 3
	minScopeSize  = 3
	minEntrySize  = 6
)

// readBinary reads a binary snapshot: its checksum, then its head — what identifies
// it, which may refuse it — then the rest. Each list is made once its count is known
// to fit in the bytes left (see binReader.items), so that the memory it takes is
// bounded by what the input can encode: sizeof(blackboard.EntryState)/minEntrySize
// (about 19) bytes per byte of input at most, for a file of empty entries.
func (s *Snapshot) readBinary(data []byte, head func(*Snapshot) error) error {
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
	r := binReader{data: body[len(binaryMagic):]}
	version := r.uvarint()
	if err := checkVersion(true, int(min(version, 1<<30))); err != nil {
		return err
	}
	out := Snapshot{version: int(version), tree: r.str(), fingerprint: r.str(), nodes: int(r.count(1 << 16))}
	if r.err != nil {
		return fmt.Errorf("%w: its content does not read as a snapshot", errCorrupt)
	}
	if head != nil {
		if err := head(&out); err != nil {
			return err
		}
	}
	out.taken = time.Unix(0, r.varint())
	out.aborted = r.byte() == 1
	wakeups := r.uvarint()
	if wakeups > math.MaxUint32 {
		r.fail()
	}
	out.wakeups = uint32(wakeups)
	// A node restarts, or has a state, once at most; a blackboard is the root's or a
	// subtree instance's.
	out.restart = make([]string, r.items(minStringSize, out.nodes))
	for i := range out.restart {
		out.restart[i] = r.str()
	}
	out.states = make([]nodeState, r.items(minStateSize, out.nodes))
	for i := range out.states {
		st := &out.states[i]
		st.uid, st.status = uint16(r.count(1<<16)), Status(r.byte())
		st.fields = make([]stateField, r.items(minFieldSize, maxFields))
		for k := range st.fields {
			f := &st.fields[k]
			f.name, f.kind = r.str(), fieldKind(r.byte())
			switch f.kind {
			case fieldInt, fieldBool:
				f.num = r.varint()
			case fieldText, fieldRaw:
				f.text = r.str()
			default:
				r.fail()
			}
		}
	}
	out.scopes = make([]scopeState, r.items(minScopeSize, out.nodes+1))
	for i := range out.scopes {
		sc := &out.scopes[i]
		sc.uid, sc.path = uint16(r.count(1<<16)), r.str()
		sc.entries = make([]blackboard.EntryState, r.items(minEntrySize, math.MaxInt))
		for k := range sc.entries {
			e := &sc.entries[k]
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

// binReader reads the binary encoding; a read past the end, or of a bad number,
// records an error and returns zeros from then on.
type binReader struct {
	data []byte
	err  error
}

func (r *binReader) fail() {
	if r.err == nil {
		r.err = errCorrupt
	}
	r.data = nil
}

func (r *binReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *binReader) varint() int64 {
	v, n := binary.Varint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

// count reads a number below limit.
func (r *binReader) count(limit int) int {
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
func (r *binReader) items(size, limit int) int {
	return r.count(min(len(r.data)/size, limit) + 1)
}

func (r *binReader) byte() byte {
	if len(r.data) == 0 {
		r.fail()
		return 0
	}
	c := r.data[0]
	r.data = r.data[1:]
	return c
}

func (r *binReader) str() string { return string(r.bytes()) }

// bytes reads a string's bytes, which stay the input's.
func (r *binReader) bytes() []byte {
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
