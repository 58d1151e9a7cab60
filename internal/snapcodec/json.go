package snapcodec

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gobt/bt/blackboard"
)

// format is the JSON encoding's "format".
const format = "bt snapshot"

// EncodeJSON writes the snapshot as an indented JSON document, one line per node and
// per blackboard entry; paths, if not nil, gives the paths of its nodes.
func (s *Snapshot) EncodeJSON(paths Paths) ([]byte, error) {
	b := make([]byte, 0, 256+64*len(s.States))
	b = append(b, "{\n  \"format\": "...)
	b = appendJSONString(b, format)
	b = append(b, ",\n  \"version\": "...)
	b = strconv.AppendInt(b, int64(s.Version), 10)
	if s.Tree != "" {
		b = append(b, ",\n  \"tree\": "...)
		b = appendJSONString(b, s.Tree)
	}
	b = append(b, ",\n  \"fingerprint\": "...)
	b = appendJSONString(b, s.Fingerprint)
	b = append(b, ",\n  \"nodes\": "...)
	b = strconv.AppendInt(b, int64(s.Nodes), 10)
	b = append(b, ",\n  \"taken\": "...)
	b = appendJSONString(b, s.Taken.UTC().Format(time.RFC3339Nano))
	if s.Aborted {
		b = append(b, ",\n  \"aborted\": true"...)
	}
	if s.Wakeups > 0 {
		b = append(b, ",\n  \"wakeups\": "...)
		b = strconv.AppendUint(b, uint64(s.Wakeups), 10)
	}
	if len(s.Restart) > 0 {
		b = append(b, ",\n  \"restart\": ["...)
		for i, p := range s.Restart {
			b = appendComma(b, i)
			b = appendJSONString(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, ",\n  \"state\": ["...)
	for i := range s.States {
		st := &s.States[i]
		path := st.Path
		if paths != nil {
			path = paths.Path(st.UID)
		}
		b = appendComma(b, i)
		b = st.appendJSON(append(b, "\n    "...), path)
	}
	if len(s.States) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "],\n  \"blackboards\": ["...)
	for i := range s.Scopes {
		b = appendComma(b, i)
		var err error
		if b, err = s.Scopes[i].appendJSON(append(b, "\n    "...)); err != nil {
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

func (st *Node) appendJSON(b []byte, path string) []byte {
	b = append(b, `{"uid": `...)
	b = strconv.AppendUint(b, uint64(st.UID), 10)
	if path != "" && utf8.ValidString(path) { // else JSON cannot carry it as it is: it is only for people
		b = appendJSONString(append(b, `, "path": `...), path)
	}
	if st.Status != 0 {
		b = appendJSONString(append(b, `, "status": `...), StatusName(st.Status))
	}
	for i := range st.Fields {
		b = st.Fields[i].appendJSON(append(b, ", "...))
	}
	return append(b, '}')
}

// appendJSON writes a field as "name": value. A JSON field that is JSON as it is, with
// nothing around it, goes in as it is; other bytes as "nameBase64": "…".
func (f *Field) appendJSON(b []byte) []byte {
	if f.Kind == Raw && !isBareJSON(f.Text) {
		b = appendJSONString(b, f.Name+"Base64")
		b = append(b, ": \""...)
		b = base64.StdEncoding.AppendEncode(b, []byte(f.Text))
		return append(b, '"')
	}
	b = append(appendJSONString(b, f.Name), ": "...)
	switch f.Kind {
	case Int:
		return strconv.AppendInt(b, f.Num, 10)
	case Bool:
		return strconv.AppendBool(b, f.Num == 1)
	case Text:
		return appendJSONString(b, f.Text)
	}
	return append(b, f.Text...)
}

// isBareJSON reports whether s is one JSON value, with no space around it.
func isBareJSON(s string) bool {
	return s != "" && strings.TrimSpace(s) == s && json.Valid([]byte(s))
}

func (sc *Scope) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	if sc.UID != 0 {
		b = append(strconv.AppendUint(append(b, `"uid": `...), uint64(sc.UID), 10), ", "...)
	}
	b = append(appendJSONString(append(b, `"path": `...), sc.Path), `, "entries": [`...)
	for i := range sc.Entries {
		e := &sc.Entries[i]
		if !utf8.ValidString(e.Key) {
			return nil, fmt.Errorf("bt: %s: entry %q: a key that is not UTF-8 cannot be written as JSON (MarshalBinary can)", ScopeName(sc.UID, sc.Path), e.Key)
		}
		b = appendComma(b, i)
		b = appendEntryJSON(append(b, "\n      "...), e)
	}
	if len(sc.Entries) > 0 {
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

// document is the JSON document as encoding/json reads it. The lines of the nodes,
// whose fields differ from node to node, are read by nodeOf.
type document struct {
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

// DecodeJSON reads a JSON snapshot into s: its head first — what identifies it, given
// to head (if not nil), which may refuse it — then the rest.
func (s *Snapshot) DecodeJSON(data []byte, head func(*Head) error) error {
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
	if err := checkVersion(h.Format == format, h.Version); err != nil {
		return err
	}
	if head != nil {
		if err := head(&Head{Version: h.Version, Tree: h.Tree, Fingerprint: h.Fingerprint, Nodes: h.Nodes}); err != nil {
			return err
		}
	}
	var doc document
	if err := decodeJSON(data, &doc, true); err != nil {
		return fmt.Errorf("%w: %v", errCorrupt, err)
	}
	// A node restarts, or has a state, once at most; a blackboard is the root's or a
	// subtree instance's.
	if n := max(doc.Nodes, 0); len(doc.Restart) > n || len(doc.State) > n || len(doc.Blackboards) > n+1 {
		return fmt.Errorf("%w: it lists more nodes or blackboards than its %d nodes", errCorrupt, n)
	}
	*s = Snapshot{Head: Head{Version: doc.Version, Tree: doc.Tree, Fingerprint: doc.Fingerprint, Nodes: doc.Nodes},
		Taken: doc.Taken, Aborted: doc.Aborted, Wakeups: doc.Wakeups, Restart: doc.Restart,
		States: make([]Node, len(doc.State))}
	var err error
	for i, line := range doc.State {
		if s.States[i], err = nodeOf(line); err != nil {
			return fmt.Errorf("%w: %v", errCorrupt, err)
		}
	}
	for _, sc := range doc.Blackboards {
		out := Scope{UID: sc.UID, Path: sc.Path, Entries: make([]blackboard.EntryState, len(sc.Entries))}
		for i, e := range sc.Entries {
			out.Entries[i] = blackboard.EntryState{Key: e.Key, Type: e.Type, Declared: e.Declared, Seq: e.Seq, Stamp: e.Stamp, Absent: e.Absent}
			if len(e.Value) > 0 && string(e.Value) != "null" {
				out.Entries[i].Value = e.Value
			}
		}
		s.Scopes = append(s.Scopes, out)
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

// nodeOf reads a node's line of the JSON document: an object of "uid", "path",
// "status" and the node's fields, whose kinds are their JSON's. It reads the object
// itself, which encoding/json has checked: most values are numbers, plain strings
// and true.
func nodeOf(line []byte) (Node, error) {
	var st Node
	err := eachMember(line, func(name string, raw []byte) error {
		switch name {
		case "uid":
			n, err := strconv.ParseUint(string(raw), 10, 16)
			if err != nil || n == 0 {
				return fmt.Errorf("uid %s", raw)
			}
			st.UID = uint16(n)
		case "path":
			return jsonString(raw, &st.Path)
		case "status":
			var name string
			err := jsonString(raw, &name)
			if err == nil {
				st.Status, err = ParseStatus(name)
			}
			return err
		default:
			f, err := fieldOf(name, raw)
			if err != nil {
				return fmt.Errorf("field %q: %v", name, err)
			}
			switch {
			case len(st.Fields) == MaxFields:
				return fmt.Errorf("more than %d fields", MaxFields)
			case slices.ContainsFunc(st.Fields, func(g Field) bool { return g.Name == f.Name }):
				return fmt.Errorf("field %q twice", f.Name)
			}
			st.Fields = append(st.Fields, f)
		}
		return nil
	})
	switch {
	case err != nil && st.UID != 0:
		return st, fmt.Errorf("node %d: %v", st.UID, err)
	case err != nil:
		return st, err
	case st.UID == 0:
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
func fieldOf(name string, raw []byte) (Field, error) {
	f := Field{Name: name}
	if len(raw) == 0 {
		return f, errors.New("no value")
	}
	switch c := raw[0]; {
	case c == '"':
		if err := jsonString(raw, &f.Text); err != nil {
			return f, err
		}
		f.Kind = Text
		if base, ok := strings.CutSuffix(name, "Base64"); ok {
			b, err := base64.StdEncoding.DecodeString(f.Text)
			if err != nil {
				return f, err
			}
			f = Field{Name: base, Kind: Raw, Text: string(b)}
		}
	case c == 't' || c == 'f':
		f.Kind = Bool
		if string(raw) == "true" {
			f.Num = 1
		}
	case c == '-' || '0' <= c && c <= '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return f, err
		}
		f.Kind, f.Num = Int, n
	case c == '{' || c == '[':
		f.Kind, f.Text = Raw, string(raw)
	default:
		return f, fmt.Errorf("unexpected %s", raw)
	}
	return f, nil
}
