package blackboard

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

var (
	durationType        = reflect.TypeFor[time.Duration]()
	stringType          = reflect.TypeFor[string]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// jsonPrefix introduces JSON text in a string to convert ("json:[1,2,3]").
const jsonPrefix = "json:"

// Parse converts s into a value of type t; the result's dynamic type is exactly t.
// This is how strings — port literals, SetBlackboard values, strings stored in the
// blackboard — become typed values. Recognised forms:
//
//   - integers of every size, signed or unsigned: decimal or "0x" hexadecimal, with an
//     optional sign; the whole string must be a number that fits the type. For
//     integer-kinded types enums(s) is tried first, so enum names work.
//   - floats: decimal or exponent notation, "inf" and "nan" (any case); no hex floats.
//   - bool: "1", "0", "true", "True", "TRUE", "false", "False", "FALSE".
//   - string and named string types: s itself.
//   - time.Duration: time.ParseDuration syntax ("1.5s", "200ms"), or a bare number of
//     milliseconds ("250").
//   - any type whose pointer implements encoding.TextUnmarshaler (checked first).
//   - slices: elements separated by ';' ("1;2;3"; "" is an empty slice, a trailing ';'
//     is ignored), or "json:" followed by a JSON array.
//   - other types (structs, maps, arrays, pointers): "json:" followed by JSON, decoded
//     with encoding/json.
//
// A nil t, the empty interface, and interfaces that string implements give s unchanged.
// Errors are *ParseError values such as `cannot parse "abc" as int`.
func Parse(s string, t reflect.Type, enums func(name string) (int64, bool)) (any, error) {
	if t == nil {
		return s, nil
	}
	if tc := codeOf(t); tc != tcNamed {
		if v, handled, err := parseBasic(s, &basicDecls[tc], enums); handled {
			if err != nil {
				return nil, err
			}
			return v.Any(), nil
		}
	}
	rv, err := parse(s, t, enums)
	if err != nil {
		return nil, err
	}
	return rv.Interface(), nil
}

// parseBasic parses s into a basic scalar type (the numbers, bool, time.Duration)
// without reflection or allocation; handled is false for every other type.
func parseBasic(s string, d *declared, enums func(string) (int64, bool)) (v Value, handled bool, err error) {
	fail := func(msg string) (Value, bool, error) {
		return Value{}, true, &ParseError{Text: s, Type: d.t.String(), Msg: msg}
	}
	switch k := basicKinds[d.tc]; {
	case d.tc == tcNamed || d.tc == tcString:
		return Value{}, false, nil
	case d.tc == tcDuration:
		n, ok := parseDuration(s)
		if !ok {
			return fail("")
		}
		return scalar(KindInt, uint64(n), "", d), true, nil
	case isIntKind(k):
		n, msg := parseInt(s, bitSize(k), enums)
		if msg != "" {
			return fail(msg)
		}
		return scalar(KindInt, uint64(n), "", d), true, nil
	case isUintKind(k):
		u, msg := parseUint(s, bitSize(k), enums)
		if msg != "" {
			return fail(msg)
		}
		return uintValue(u, d.tc), true, nil
	case isFloatKind(k):
		f, msg := parseFloat(s, bitSize(k))
		if msg != "" {
			return fail(msg)
		}
		return scalar(KindFloat, math.Float64bits(f), "", d), true, nil
	}
	b, ok := parseBool(s)
	if !ok {
		return fail("")
	}
	return scalar(KindBool, b2u(b), "", d), true, nil
}

func parse(s string, t reflect.Type, enums func(string) (int64, bool)) (reflect.Value, error) {
	fail := func(msg string) (reflect.Value, error) {
		return reflect.Value{}, &ParseError{Text: s, Type: t.String(), Msg: msg}
	}
	if t == durationType {
		d, ok := parseDuration(s)
		if !ok {
			return fail("")
		}
		return reflect.ValueOf(d), nil
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		p := reflect.New(t)
		if err := p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return fail(err.Error())
		}
		return p.Elem(), nil
	}
	out := reflect.New(t).Elem()
	switch k := t.Kind(); {
	case k == reflect.String:
		out.SetString(s)
	case k == reflect.Bool:
		b, ok := parseBool(s)
		if !ok {
			return fail("")
		}
		out.SetBool(b)
	case isIntKind(k):
		n, msg := parseInt(s, bitSize(k), enums)
		if msg != "" {
			return fail(msg)
		}
		out.SetInt(n)
	case isUintKind(k):
		u, msg := parseUint(s, bitSize(k), enums)
		if msg != "" {
			return fail(msg)
		}
		out.SetUint(u)
	case isFloatKind(k):
		f, msg := parseFloat(s, bitSize(k))
		if msg != "" {
			return fail(msg)
		}
		out.SetFloat(f)
	case k == reflect.Interface && stringType.Implements(t):
		out.Set(reflect.ValueOf(s))
	case k == reflect.Slice && !strings.HasPrefix(s, jsonPrefix):
		return parseSlice(s, t, enums)
	default:
		text, ok := strings.CutPrefix(s, jsonPrefix)
		if !ok {
			return fail(`want "json:" followed by JSON`)
		}
		p := reflect.New(t)
		if err := json.Unmarshal([]byte(text), p.Interface()); err != nil {
			return fail(err.Error())
		}
		return p.Elem(), nil
	}
	return out, nil
}

func parseBool(s string) (value, ok bool) {
	switch s {
	case "1", "true", "True", "TRUE":
		return true, true
	case "0", "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

// number reads text that a script assigns to an entry holding a number, as BT.CPP's
// scripts do: "true" and "false" are 1 and 0, then come the enum names, then integers
// (decimal or 0x hex) and real numbers.
func number(s string, enums func(string) (int64, bool)) (Value, bool) {
	switch s {
	case "true":
		return Int(1), true
	case "false":
		return Int(0), true
	}
	if n, msg := parseInt(s, 64, enums); msg == "" {
		return Int(n), true
	}
	if f, msg := parseFloat(s, 64); msg == "" {
		return Float(f), true
	}
	return Value{}, false
}

// splitNumber separates an optional sign and a "0x" prefix from the digits.
func splitNumber(s string) (neg bool, base int, digits string) {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return neg, 16, s[2:]
	}
	return neg, 10, s
}

// parseMagnitude parses the digits of an integer (no sign, no underscores).
func parseMagnitude(s string) (neg bool, u uint64, msg string) {
	neg, base, digits := splitNumber(s)
	if digits == "" || digits[0] == '+' || digits[0] == '-' {
		return false, 0, "invalid syntax"
	}
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if err.(*strconv.NumError).Err == strconv.ErrRange {
			return false, 0, "out of range"
		}
		return false, 0, "invalid syntax"
	}
	return neg, u, ""
}

func parseInt(s string, size int, enums func(string) (int64, bool)) (int64, string) {
	if enums != nil {
		if n, ok := enums(s); ok {
			if !intSizeOK(n, size) {
				return 0, "out of range"
			}
			return n, ""
		}
	}
	neg, u, msg := parseMagnitude(s)
	if msg != "" {
		return 0, msg
	}
	var n int64
	switch {
	case neg && u <= 1<<63:
		n = -int64(u)
	case !neg && u <= math.MaxInt64:
		n = int64(u)
	default:
		return 0, "out of range"
	}
	if !intSizeOK(n, size) {
		return 0, "out of range"
	}
	return n, ""
}

func parseUint(s string, size int, enums func(string) (int64, bool)) (uint64, string) {
	if enums != nil {
		if n, ok := enums(s); ok {
			if n < 0 || (size < 64 && uint64(n) > 1<<size-1) {
				return 0, "out of range"
			}
			return uint64(n), ""
		}
	}
	neg, u, msg := parseMagnitude(s)
	switch {
	case msg != "":
		return 0, msg
	case neg && u != 0, size < 64 && u > 1<<size-1:
		return 0, "out of range"
	}
	return u, ""
}

func parseFloat(s string, size int) (float64, string) {
	if _, base, _ := splitNumber(s); base == 16 || strings.ContainsRune(s, '_') {
		return 0, "invalid syntax"
	}
	f, err := strconv.ParseFloat(s, size)
	if err != nil {
		if err.(*strconv.NumError).Err == strconv.ErrRange {
			return 0, "out of range"
		}
		return 0, "invalid syntax"
	}
	return f, ""
}

// parseDuration accepts time.ParseDuration syntax or a bare number of milliseconds.
func parseDuration(s string) (time.Duration, bool) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, true
	}
	if n, msg := parseInt(s, 64, nil); msg == "" {
		if n > math.MaxInt64/int64(time.Millisecond) || n < math.MinInt64/int64(time.Millisecond) {
			return 0, false
		}
		return time.Duration(n) * time.Millisecond, true
	}
	f, msg := parseFloat(s, 64)
	if msg != "" || math.IsNaN(f) {
		return 0, false
	}
	ns := math.Round(f * float64(time.Millisecond))
	if ns < -two63 || ns >= two63 {
		return 0, false
	}
	return time.Duration(ns), true
}

func parseSlice(s string, t reflect.Type, enums func(string) (int64, bool)) (reflect.Value, error) {
	parts := strings.Split(s, ";")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // "" → no element; "1;2;" → two
	}
	out := reflect.MakeSlice(t, len(parts), len(parts))
	for i, p := range parts {
		ev, err := parse(p, t.Elem(), enums)
		if err != nil {
			return reflect.Value{}, &ParseError{Text: s, Type: t.String(), Msg: fmt.Sprintf("element %d: %v", i+1, err)}
		}
		out.Index(i).Set(ev)
	}
	return out, nil
}
