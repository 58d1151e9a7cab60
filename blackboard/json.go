package blackboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// MarshalJSON exports the existing entries stored in this scope (not its parent's) as
// one JSON object with sorted keys, the shape of BT.CPP's ExportBlackboardToJSON:
// empty entries are null, integers are JSON integers, floats are numbers with a
// fraction or exponent (2.0, 1e+21; NaN and infinities are null), bools, strings, and
// other values (slices, maps, structs) as encoding/json writes them. A value that
// encoding/json cannot write is an error naming its key.
func (b *Blackboard) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	first := true
	for _, e := range b.entries() {
		v, meta := e.load()
		if meta&metaExists == 0 {
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		var err error
		if buf, err = appendJSON(buf, e.Key()); err != nil {
			return nil, err
		}
		buf = append(buf, ':')
		if buf, err = v.appendJSON(buf); err != nil {
			return nil, fmt.Errorf("entry %q: %w", e.Key(), err)
		}
	}
	return append(buf, '}'), nil
}

// MarshalJSON writes the value as MarshalJSON of a Blackboard writes an entry.
func (v Value) MarshalJSON() ([]byte, error) { return v.appendJSON(nil) }

func (v Value) appendJSON(buf []byte) ([]byte, error) {
	switch v.kind {
	case KindEmpty:
		return append(buf, "null"...), nil
	case KindInt:
		return strconv.AppendInt(buf, int64(v.bits), 10), nil
	case KindUint:
		return strconv.AppendUint(buf, v.bits, 10), nil
	case KindFloat:
		return appendFloat(buf, math.Float64frombits(v.bits)), nil
	case KindBool:
		return strconv.AppendBool(buf, v.bits != 0), nil
	case KindString:
		return appendJSON(buf, v.s())
	}
	switch x := v.other().(type) {
	case []float64:
		return appendFloats(buf, x), nil
	case []float32:
		return appendFloats(buf, x), nil
	}
	return appendJSON(buf, v.other())
}

// appendFloat writes f so that it reads back as a float: "2.0", not "2".
func appendFloat(buf []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(buf, "null"...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(buf)
	buf = strconv.AppendFloat(buf, f, format, -1, 64)
	if n := len(buf); format == 'e' && n >= 4 && buf[n-4] == 'e' && buf[n-3] == '-' && buf[n-2] == '0' {
		buf[n-2] = buf[n-1] // 1e-07 → 1e-7, as encoding/json writes it
		buf = buf[:n-1]
	}
	if format == 'f' && !bytes.ContainsRune(buf[start:], '.') {
		buf = append(buf, ".0"...)
	}
	return buf
}

// appendFloats writes a float slice so that it reads back as floats.
func appendFloats[F float32 | float64](buf []byte, list []F) []byte {
	buf = append(buf, '[')
	for i, f := range list {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendFloat(buf, float64(f))
	}
	return append(buf, ']')
}

// appendJSON encodes x with encoding/json, without HTML escaping.
func appendJSON(buf []byte, x any) ([]byte, error) {
	var w bytes.Buffer
	enc := json.NewEncoder(&w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return append(buf, bytes.TrimSuffix(w.Bytes(), []byte{'\n'})...), nil
}

// UnmarshalJSON imports a JSON object (BT.CPP's ImportBlackboardFromJSON): each key is
// resolved like Entry (so remapped keys reach the parent) and its value is written
// with Set, keys in sorted order. JSON values become: integers (no fraction, no
// exponent) int64 (uint64 above the int64 range), other numbers float64, strings,
// bools; arrays []int64, []float64 (numbers with at least one non-integer), []string or
// []bool when homogeneous, []any otherwise; objects map[string]any with the same rules
// inside (BT.CPP's "__type" objects stay plain maps). An object written into an entry
// of a struct type, or of a pointer to one, is decoded into that type (a port declared
// it); Get[T] decodes an object held as a map into such a T, so that a value exported
// from a struct reads back as one. null declares the entry without a value. Every
// failing key is reported, joined in one error.
func (b *Blackboard) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("blackboard JSON: %w", err)
	}
	if doc == nil {
		return errors.New("blackboard JSON: want an object, got null")
	}
	if dec.More() {
		return errors.New("blackboard JSON: unexpected data after the object")
	}
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var errs []error
	for _, k := range keys {
		e, err := b.Resolve(k)
		var x any
		if err == nil {
			x, err = fromJSON(doc[k])
			if err != nil {
				err = fmt.Errorf("entry %q: %w", k, err)
			}
		}
		switch {
		case err != nil:
		case x == nil:
			err = e.Declare(nil)
		default:
			err = e.Set(ValueOf(x))
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// fromJSON converts a value decoded with UseNumber into the types listed in
// UnmarshalJSON.
func fromJSON(x any) (any, error) {
	var err error
	switch v := x.(type) {
	case json.Number:
		return fromNumber(v)
	case []any:
		for i, e := range v {
			if v[i], err = fromJSON(e); err != nil {
				return nil, err
			}
		}
		return typedSlice(v), nil
	case map[string]any:
		for k, e := range v {
			if v[k], err = fromJSON(e); err != nil {
				return nil, err
			}
		}
	}
	return x, nil
}

func fromNumber(n json.Number) (any, error) {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return u, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("number %s out of range", shorten(s))
	}
	return f, nil
}

// typedSlice makes a typed slice of a homogeneous array.
func typedSlice(list []any) any {
	if len(list) == 0 {
		return list
	}
	var ints, floats, strs, bools int
	for _, e := range list {
		switch e.(type) {
		case int64:
			ints++
		case float64:
			floats++
		case string:
			strs++
		case bool:
			bools++
		}
	}
	switch n := len(list); {
	case ints == n:
		return convertAll(list, func(e any) int64 { return e.(int64) })
	case ints+floats == n:
		return convertAll(list, func(e any) float64 {
			if i, ok := e.(int64); ok {
				return float64(i)
			}
			return e.(float64)
		})
	case strs == n:
		return convertAll(list, func(e any) string { return e.(string) })
	case bools == n:
		return convertAll(list, func(e any) bool { return e.(bool) })
	}
	return list
}

func convertAll[T any](list []any, f func(any) T) []T {
	out := make([]T, len(list))
	for i, e := range list {
		out[i] = f(e)
	}
	return out
}

// isObjectType reports the types a JSON object converts into: structs and pointers to
// structs (BT.CPP's JSON import of a registered type).
func isObjectType(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

// jsonObject returns the JSON object v holds as UnmarshalJSON imports one.
func jsonObject(v Value) (map[string]any, bool) {
	m, ok := v.other().(map[string]any)
	return m, ok && v.kind == KindOther
}

// isJSONObjectFor reports whether v holds a JSON object that decodeObject converts
// into t.
func isJSONObjectFor(v Value, t reflect.Type) bool {
	_, ok := jsonObject(v)
	return ok && isObjectType(t)
}

// decodeObject converts a JSON object, as UnmarshalJSON imports one, into a value of
// t, a struct or pointer to struct type, through its JSON (so `json` tags and
// UnmarshalJSON methods apply).
func decodeObject(m map[string]any, t reflect.Type) (any, error) {
	data, err := appendJSON(nil, m)
	if err != nil {
		return nil, err
	}
	p := reflect.New(t)
	if err := json.Unmarshal(data, p.Interface()); err != nil {
		return nil, fmt.Errorf("cannot decode the JSON object %s as %s: %w", shorten(string(data)), t, err)
	}
	return p.Elem().Interface(), nil
}
