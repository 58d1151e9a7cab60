package blackboard

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"
)

// EntryState is the saved state of one entry of a scope: what SaveState returns for
// each of the scope's own entries and PrepareRestore takes back. Unlike MarshalJSON,
// which exports values for people and for BehaviorTree.CPP, it keeps everything that
// decides what the entry does next: the value's Go type, the entry's fixed type, the
// write count that nodes watching the entry compare (Seq) and the stamp.
type EntryState struct {
	Key string
	// Type is the Go type of the value, as reflect.Type.String writes it ("int64",
	// "time.Duration", "[]string", "main.Pose"); "" when the entry holds no value.
	Type string
	// Declared is the entry's fixed type ("" for a generic entry, which takes any type).
	Declared string
	// Value is the value as JSON; nil when the entry holds none. Numbers keep every bit
	// (floats that are not finite are the strings "NaN", "+Inf" and "-Inf"), a string
	// that is not UTF-8 is {"base64": "…"}, and values of other types are what
	// encoding/json writes of them: their MarshalJSON, their MarshalText, or their
	// exported fields.
	Value []byte
	// Seq is the number of writes (Entry.Seq), Stamp the time of the last one (the zero
	// time when the scope has no clock or there was none).
	Seq   uint64
	Stamp time.Time
	// Absent is true for an entry that was unset: it does not exist, and its Seq
	// continues when it is written again.
	Absent bool
}

// maxSeq bounds a restored write count, so that the entry's version (at least the
// count) and the versions after it fit in the bits of Entry.head that hold it.
const maxSeq = 1 << (62 - headVersion)

// maxRestoreGap bounds how far an entry's version may be past the write count it is
// restored with: the difference is kept in silent (see Entry.restore), which must keep
// room for the unsets and declarations that follow.
const maxRestoreGap = 1 << 31

// SaveState returns the state of the entries stored in this scope (not its parent's),
// sorted by key: those that exist, and those that were written once and unset since.
// A value that cannot be written as JSON (a channel, a function, a type whose
// MarshalJSON fails) is an error naming its key.
func (b *Blackboard) SaveState() ([]EntryState, error) {
	var out []EntryState
	var errs []error
	for _, e := range b.entries() {
		s, seq, ns := e.saved()
		if !s.exists() && seq == 0 {
			continue // reserved by a handle, never written: nothing to keep
		}
		es := EntryState{Key: e.Key(), Seq: seq, Stamp: stampTime(ns), Absent: !s.exists()}
		if s.decl != nil {
			es.Declared = s.decl.t.String()
		}
		if v := s.value(); !v.IsEmpty() {
			es.Type = v.Type().String()
			js, err := MarshalTyped(v)
			if err != nil {
				errs = append(errs, fmt.Errorf("entry %q: the value (%s) cannot be saved: %w", e.Key(), es.Type, err))
				continue
			}
			es.Value = js
		}
		out = append(out, es)
	}
	return out, errors.Join(errs...)
}

// saved returns the entry's state, write count and stamp, from one consistent read.
func (e *Entry) saved() (state, uint64, int64) {
	for i := 0; ; i++ {
		h := e.head.Load()
		if h&headLock == 0 {
			s := state{meta: metaOf(h), bits: e.bits.Load(), box: e.box.Load(), decl: e.decl.Load()}
			silent, ns := e.silent.Load(), e.stamp.Load()
			if e.head.Load() == h {
				return s, version(h) - uint64(silent), ns
			}
		}
		spin(i)
	}
}

// RestoreState makes this scope's own entries what saved says (see PrepareRestore), or
// changes nothing and returns the problems.
func (b *Blackboard) RestoreState(saved []EntryState, types func(name string) reflect.Type) error {
	apply, err := b.PrepareRestore(saved, types)
	if err != nil {
		return err
	}
	apply()
	return nil
}

// PrepareRestore checks saved, the state of a scope's entries as SaveState returned it,
// against this scope, and returns the function that restores it: afterwards each
// entry of saved holds its type, value, Seq and stamp again, and this scope's own
// entries that saved does not list are absent and never written, as when the scope
// was made. Handles taken from the scope stay valid. Until apply is called nothing
// changes, so restoring several scopes can be all or nothing: prepare each, then
// apply each.
//
// A type is found by its name: the basic types and time.Duration, the slices of
// them, []any and map[string]any are known; another type is the one the scope's entry
// of that key has or holds (a port declared it when the tree was built), or else the
// one types returns for the name (types may be nil). A type that none of them knows,
// or a value that does not read back as its type, is an error naming the key; every
// problem is reported, joined. Values inside []any and map[string]any come back as
// UnmarshalJSON makes them (integers as int64, other numbers as float64).
func (b *Blackboard) PrepareRestore(saved []EntryState, types func(name string) reflect.Type) (apply func(), err error) {
	type restored struct {
		key string
		s   state
		seq uint64
		ns  int64
	}
	list := make([]restored, 0, len(saved))
	seen := make(map[string]bool, len(saved))
	var errs []error
	for i := range saved {
		es := &saved[i]
		if err := checkKey(es.Key); err != nil || es.Key[0] == '@' {
			errs = append(errs, fmt.Errorf("entry %q: not a key of a scope's own entries", es.Key))
			continue
		}
		if seen[es.Key] {
			errs = append(errs, fmt.Errorf("entry %q: saved twice", es.Key))
			continue
		}
		seen[es.Key] = true
		dst := b.local(es.Key, false)
		s, err := es.state(dst, types)
		if err == nil {
			err = restorable(dst, es.Seq)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("entry %q: %w", es.Key, err))
			continue
		}
		ns := int64(noStamp)
		if !es.Stamp.IsZero() {
			ns = es.Stamp.UnixNano()
		}
		list = append(list, restored{key: es.Key, s: s, seq: es.Seq, ns: ns})
	}
	for _, e := range b.entries() {
		if seen[e.Key()] {
			continue
		}
		if err := restorable(e, 0); err != nil { // made absent: count 0
			errs = append(errs, fmt.Errorf("entry %q, not in the saved state: %w", e.Key(), err))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return func() {
		for _, e := range b.entries() {
			if !seen[e.Key()] {
				e.restore(state{}, 0, noStamp)
			}
		}
		for _, r := range list {
			b.local(r.key, true).restore(r.s, r.seq, r.ns)
		}
	}, nil
}

// restorable reports whether the entry e (nil: none yet) can be given the write count
// seq: not if its version has gone more than maxRestoreGap past it — billions of
// writes since the state was saved.
func restorable(e *Entry, seq uint64) error {
	if e == nil {
		return nil
	}
	_, h := e.snapshot()
	if v := version(h) + 1; v > seq && v-seq > maxRestoreGap {
		return fmt.Errorf("its write count went %d past the saved one (%d): restore into a new blackboard", v-1-seq, seq)
	}
	return nil
}

// state checks a saved entry and returns the state it restores; dst is the scope's
// entry of that key, if it has one, whose types help find the saved ones.
func (es *EntryState) state(dst *Entry, types func(string) reflect.Type) (state, error) {
	if es.Seq > maxSeq {
		return state{}, fmt.Errorf("a write count of %d is more than an entry can have", es.Seq)
	}
	if es.Absent {
		if es.Type != "" || es.Declared != "" || es.Value != nil {
			return state{}, errors.New("an absent entry has no type and no value")
		}
		return state{}, nil
	}
	s := state{meta: metaExists}
	if es.Declared != "" {
		t, err := lookupType(es.Declared, dst, types)
		if err != nil {
			return state{}, err
		}
		s.decl = declOf(t)
		if s.decl == nil {
			return state{}, fmt.Errorf("declared as %s, which is not a fixed type", es.Declared)
		}
	}
	switch {
	case es.Type == "" && es.Value == nil:
		return s, nil
	case es.Type == "":
		return state{}, errors.New("a value without a type")
	case es.Value == nil:
		return state{}, fmt.Errorf("a type (%s) without a value", es.Type)
	}
	t, err := lookupType(es.Type, dst, types)
	if err != nil {
		return state{}, err
	}
	v, err := UnmarshalTyped(es.Value, t)
	if err != nil {
		return state{}, fmt.Errorf("the value is not a %s: %w", es.Type, err)
	}
	if d := s.decl; d != nil && v.Type() != d.t && !(d.t.Kind() == reflect.Interface && v.Type().Implements(d.t)) {
		return state{}, fmt.Errorf("a value of type %s in an entry declared as %s", es.Type, es.Declared)
	}
	s.setValue(v)
	return s, nil
}

// restore gives the entry a saved state, write count and stamp. The version moves
// forward, as every change of an entry's words does, so that a reader or a writer in
// another goroutine never takes a mix of the old words and the new for a consistent
// read; the critical sections that were not writes (silent) make up the difference to
// the write count, which PrepareRestore keeps within maxRestoreGap (restorable).
func (e *Entry) restore(next state, seq uint64, stamp int64) {
	for {
		_, h := e.snapshot()
		if !e.head.CompareAndSwap(h, h|headLock) {
			continue
		}
		nv := max(version(h)+1, seq)
		e.bits.Store(next.bits)
		e.box.Store(next.box)
		e.decl.Store(next.decl)
		e.silent.Store(uint32(min(nv-seq, math.MaxUint32))) // within maxRestoreGap but for writes since the check
		e.stamp.Store(stamp)
		e.head.Store(nv<<headVersion | next.meta<<headMeta)
		return
	}
}

// knownTypes are the types a saved entry may have without anyone declaring them: those
// the basic codes stand for, their slices and the shapes JSON import makes.
var knownTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for _, t := range basicTypes {
		if t != nil {
			m[t.String()] = t
			m[reflect.SliceOf(t).String()] = reflect.SliceOf(t)
		}
	}
	for _, t := range []reflect.Type{anyType, reflect.TypeFor[[]any](), reflect.TypeFor[map[string]any]()} {
		m[t.String()] = t
	}
	return m
}()

// lookupType finds the type named name (see PrepareRestore).
func lookupType(name string, dst *Entry, types func(string) reflect.Type) (reflect.Type, error) {
	if t := knownTypes[name]; t != nil {
		return t, nil
	}
	if dst != nil {
		if t := dst.Type(); t != nil && t.String() == name {
			return t, nil
		}
		if t := dst.Load().Type(); t != nil && t.String() == name {
			return t, nil
		}
	}
	if types != nil {
		if t := types(name); t != nil {
			if t.String() != name {
				return nil, fmt.Errorf("the type given for %s is %s", name, t)
			}
			return t, nil
		}
	}
	return nil, fmt.Errorf("type %s is unknown here: no port declares it, and it was not given", name)
}

// MarshalTyped writes v as EntryState.Value holds it: JSON that UnmarshalTyped reads
// back into the same value, given v's type. The empty Value is null.
func MarshalTyped(v Value) ([]byte, error) {
	switch v.kind {
	case KindEmpty:
		return []byte("null"), nil
	case KindInt:
		if isUintKind(scalarKind(v.tc, v.Type())) {
			return strconv.AppendUint(nil, v.bits, 10), nil
		}
		return strconv.AppendInt(nil, int64(v.bits), 10), nil
	case KindUint:
		return strconv.AppendUint(nil, v.bits, 10), nil
	case KindFloat:
		return appendStateFloat(nil, math.Float64frombits(v.bits)), nil
	case KindBool:
		return strconv.AppendBool(nil, v.bits != 0), nil
	case KindString:
		return appendStateString(nil, v.s())
	}
	switch x := v.other().(type) {
	case []float64:
		return appendStateFloats(x), nil
	case []float32:
		return appendStateFloats(x), nil
	case []string:
		buf := []byte{'['}
		for i, s := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = appendStateString(buf, s); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	}
	return appendJSON(nil, v.other())
}

// appendStateFloat writes f so that it reads back with every bit: the shortest decimal
// form, or "NaN", "+Inf", "-Inf".
func appendStateFloat(buf []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(buf, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(buf, `"+Inf"`...)
	case math.IsInf(f, -1):
		return append(buf, `"-Inf"`...)
	}
	return strconv.AppendFloat(buf, f, 'g', -1, 64)
}

func appendStateFloats[F float32 | float64](list []F) []byte {
	buf := []byte{'['}
	for i, f := range list {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendStateFloat(buf, float64(f))
	}
	return append(buf, ']')
}

// appendStateString writes s as a JSON string, or as {"base64": "…"} when it is not
// UTF-8 (JSON strings are: encoding/json would replace the bytes that are not).
func appendStateString(buf []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		buf = append(buf, `{"base64":"`...)
		buf = base64.StdEncoding.AppendEncode(buf, []byte(s))
		return append(buf, `"}`...), nil
	}
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			buf = append(buf, '\\', c)
		case c < 0x20:
			buf = append(buf, `\u00`...)
			buf = append(buf, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		default:
			buf = append(buf, c)
		}
	}
	return append(buf, '"'), nil
}

// UnmarshalTyped reads a value of type t written by MarshalTyped.
func UnmarshalTyped(data []byte, t reflect.Type) (Value, error) {
	if t == nil {
		return Value{}, errors.New("no type to read the value as")
	}
	rv := reflect.New(t).Elem()
	var err error
	switch k := t.Kind(); {
	case isIntKind(k):
		var n int64
		if n, err = strconv.ParseInt(string(data), 10, 64); err == nil {
			if rv.OverflowInt(n) {
				return Value{}, fmt.Errorf("%d is out of its range", n)
			}
			rv.SetInt(n)
		}
	case isUintKind(k):
		var n uint64
		if n, err = strconv.ParseUint(string(data), 10, 64); err == nil {
			if rv.OverflowUint(n) {
				return Value{}, fmt.Errorf("%d is out of its range", n)
			}
			rv.SetUint(n)
		}
	case isFloatKind(k):
		var f float64
		if f, err = stateFloat(data); err == nil {
			if k == reflect.Float32 && float64(float32(f)) != f && !math.IsNaN(f) {
				return Value{}, fmt.Errorf("%v is not a float32", f)
			}
			rv.SetFloat(f)
		}
	case k == reflect.Bool:
		switch string(data) {
		case "true":
			rv.SetBool(true)
		case "false":
		default:
			err = errors.New("want true or false")
		}
	case k == reflect.String:
		var s string
		if s, err = stateString(data); err == nil {
			rv.SetString(s)
		}
	case t == reflect.TypeFor[[]float64](), t == reflect.TypeFor[[]float32]():
		err = stateFloats(data, rv)
	case t == reflect.TypeFor[[]string]():
		err = stateStrings(data, rv)
	case t == reflect.TypeFor[[]any](), t == reflect.TypeFor[map[string]any]():
		err = stateAny(data, rv)
	default:
		// A type that reads itself from text (UnmarshalText, as BehaviorTree.CPP's
		// convertFromString) but does not write itself as text was written by
		// encoding/json as what it is, an object for a struct, which encoding/json
		// cannot read back into it: read it as its shape without methods.
		if err = json.Unmarshal(data, rv.Addr().Interface()); err != nil && unmarshalPlain(data, rv) == nil {
			err = nil
		}
	}
	if err != nil {
		return Value{}, err
	}
	return ValueOf(rv.Interface()), nil
}

// unmarshalPlain reads data into rv as encoding/json would if the types in rv's type had
// no methods: through a shadow type of the same shape — structs of their exported fields
// (the only ones written), slices, arrays, maps and pointers of those — whose value it
// then copies into rv.
func unmarshalPlain(data []byte, rv reflect.Value) (err error) {
	defer func() { // reflect.StructOf refuses some fields by panicking
		if recover() != nil {
			err = fmt.Errorf("cannot read %s back: it reads itself from text but does not write itself as text (give it a MarshalText)", rv.Type())
		}
	}()
	shadow := reflect.New(plainType(rv.Type(), 0))
	if err := json.Unmarshal(data, shadow.Interface()); err != nil {
		return err
	}
	copyPlain(rv, shadow.Elem())
	return nil
}

// plainType returns a type of t's shape without methods (see unmarshalPlain); it panics
// on a type it cannot mirror, or one nested deeper than 32 (a recursive type).
func plainType(t reflect.Type, depth int) reflect.Type {
	if depth > 32 {
		panic("too deep")
	}
	switch t.Kind() {
	case reflect.Struct:
		var fields []reflect.StructField
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				panic("embedded") // its fields are promoted: a shadow would not read alike
			}
			if f.IsExported() {
				fields = append(fields, reflect.StructField{Name: f.Name, Type: plainType(f.Type, depth+1), Tag: f.Tag})
			}
		}
		return reflect.StructOf(fields)
	case reflect.Slice:
		return reflect.SliceOf(plainType(t.Elem(), depth+1))
	case reflect.Array:
		return reflect.ArrayOf(t.Len(), plainType(t.Elem(), depth+1))
	case reflect.Map:
		return reflect.MapOf(t.Key(), plainType(t.Elem(), depth+1))
	case reflect.Pointer:
		return reflect.PointerTo(plainType(t.Elem(), depth+1))
	case reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return t
	}
	return basicType(t.Kind())
}

// basicType returns the predeclared type of a kind of number, string or bool.
func basicType(k reflect.Kind) reflect.Type {
	for _, t := range []reflect.Type{reflect.TypeFor[bool](), reflect.TypeFor[string](),
		reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int64](),
		reflect.TypeFor[uint](), reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](),
		reflect.TypeFor[uintptr](), reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[complex64](), reflect.TypeFor[complex128]()} {
		if t.Kind() == k {
			return t
		}
	}
	panic("kind")
}

// copyPlain copies src, of the shadow type of dst's (plainType), into dst.
func copyPlain(dst, src reflect.Value) {
	switch dst.Kind() {
	case reflect.Struct:
		j := 0
		for i := range dst.NumField() {
			if dst.Type().Field(i).IsExported() {
				copyPlain(dst.Field(i), src.Field(j))
				j++
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
		fallthrough
	case reflect.Array:
		for i := range src.Len() {
			copyPlain(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeMapWithSize(dst.Type(), src.Len()))
		for it := src.MapRange(); it.Next(); {
			v := reflect.New(dst.Type().Elem()).Elem()
			copyPlain(v, it.Value())
			dst.SetMapIndex(it.Key(), v)
		}
	case reflect.Pointer:
		if !src.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
			copyPlain(dst.Elem(), src.Elem())
		}
	default:
		dst.Set(src.Convert(dst.Type()))
	}
}

func stateFloat(data []byte) (float64, error) {
	switch string(data) {
	case `"NaN"`:
		return math.NaN(), nil
	case `"+Inf"`:
		return math.Inf(1), nil
	case `"-Inf"`:
		return math.Inf(-1), nil
	}
	if len(data) == 0 || data[0] == '"' || data[0] == '+' || !json.Valid(data) {
		return 0, fmt.Errorf("%s is not a number", shorten(string(data)))
	}
	return strconv.ParseFloat(string(data), 64)
}

func stateString(data []byte) (string, error) {
	if len(data) > 0 && data[0] == '{' {
		var b struct {
			Base64 []byte `json:"base64"`
		}
		if err := json.Unmarshal(data, &b); err != nil {
			return "", err
		}
		if b.Base64 == nil {
			return "", errors.New(`want a string or {"base64": "…"}`)
		}
		return string(b.Base64), nil
	}
	var s string
	err := json.Unmarshal(data, &s)
	return s, err
}

func stateFloats(data []byte, rv reflect.Value) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw == nil {
		return nil // null: a nil slice
	}
	out := reflect.MakeSlice(rv.Type(), len(raw), len(raw))
	for i, r := range raw {
		f, err := stateFloat(r)
		if err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
		out.Index(i).SetFloat(f)
	}
	rv.Set(out)
	return nil
}

func stateStrings(data []byte, rv reflect.Value) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw == nil {
		return nil
	}
	out := make([]string, len(raw))
	for i, r := range raw {
		s, err := stateString(r)
		if err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
		out[i] = s
	}
	rv.Set(reflect.ValueOf(out))
	return nil
}

// stateAny reads a []any or a map[string]any as UnmarshalJSON would make it.
func stateAny(data []byte, rv reflect.Value) error {
	if !json.Valid(data) {
		return json.Unmarshal(data, rv.Addr().Interface()) // for the error it says
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(rv.Addr().Interface()); err != nil {
		return err
	}
	switch v := rv.Interface().(type) {
	case []any:
		for i, e := range v {
			c, err := fromJSON(e)
			if err != nil {
				return err
			}
			v[i] = c
		}
	case map[string]any:
		if _, err := fromJSON(v); err != nil {
			return err
		}
	}
	return nil
}
