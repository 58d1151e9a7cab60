package btxml

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// ValidName checks a tree or model ID against BehaviorTree.CPP 4.10's rules:
// not empty, not "Root" or "root", no control character and none of
// space < > & " ' / \ : * ? | . (other UTF-8 characters are fine).
// Port names follow other rules (ValidPortName).
func ValidName(s string) error {
	if s == "" {
		return errors.New("empty name")
	}
	if s == "Root" || s == "root" {
		return fmt.Errorf("%q is reserved", s)
	}
	return checkNameChars(s)
}

// ValidPortName checks a port name against BehaviorTree.CPP 4.10's rules (its
// IsAllowedPortName): it starts with an ASCII letter, has no control character
// and none of space < > & " ' / \ : * ? | . (other UTF-8 characters are fine),
// and is not an attribute every node has: name, ID, _autoremap and the pre- and
// post-conditions (_skipIf, _onSuccess …).
func ValidPortName(s string) error {
	if IsPortName(s) {
		return nil
	}
	switch {
	case s == "":
		return errors.New("empty port name")
	case isReservedAttr(s):
		return fmt.Errorf("port name %q is reserved: every node has that attribute", s)
	case '0' <= s[0] && s[0] <= '9':
		return fmt.Errorf("port name %q starts with a digit", s)
	case !isLetter(s[0]):
		return fmt.Errorf("port name %q must start with a letter", s)
	}
	return fmt.Errorf("port name %q: %w", s, checkNameChars(s))
}

// IsPortName reports whether ValidPortName accepts s. It does not allocate: the
// engine asks it of every attribute, to tell ports from the attributes every node
// has.
func IsPortName(s string) bool {
	if s == "" || !isLetter(s[0]) || isReservedAttr(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x80 && (c < ' ' || c == 0x7f || isForbiddenNameRune(rune(c))) {
			return false
		}
	}
	// Past ASCII, the characters are checked as in names: valid UTF-8, no control
	// character (which checkNameChars does without allocating when all is well).
	return checkNameChars(s) == nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isReservedAttr reports whether s is an attribute every node has.
func isReservedAttr(s string) bool {
	return s == "name" || s == "ID" || s == "_autoremap" || isScriptAttr(s)
}

// checkNameChars checks the characters of a name (see ValidName).
func checkNameChars(s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !validRuneAt(s, i):
			return errors.New("invalid UTF-8")
		case unicode.IsControl(r):
			return fmt.Errorf("contains control character %U", r)
		case isForbiddenNameRune(r):
			return fmt.Errorf("contains %q", r)
		}
	}
	return nil
}

func validRuneAt(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size > 1
}

func isForbiddenNameRune(r rune) bool {
	switch r {
	case ' ', '<', '>', '&', '"', '\'', '/', '\\', ':', '*', '?', '|', '.':
		return true
	}
	return false
}

// isNameStart and isNameByte accept the XML name characters that matter in
// practice: ASCII letters, '_' and ':' to start, then also digits, '-' and
// '.'; every non-ASCII byte is accepted (input is valid UTF-8). The masks
// have a bit for each accepted byte below 0x40 (low) and from 0x40 to 0x7F
// (high).
const (
	nameStartLow  uint64 = 1 << ':'
	nameStartHigh uint64 = (1<<26-1)<<('A'-0x40) | 1<<('_'-0x40) | (1<<26-1)<<('a'-0x40)
	nameByteLow          = nameStartLow | (1<<10-1)<<'0' | 1<<'-' | 1<<'.'
	nameByteHigh         = nameStartHigh
)

func isNameStart(c byte) bool { return inMask(c, nameStartLow, nameStartHigh) }

func isNameByte(c byte) bool { return inMask(c, nameByteLow, nameByteHigh) }

func inMask(c byte, low, high uint64) bool {
	if c >= 0x80 {
		return true
	}
	if c >= 0x40 {
		low = high
	}
	return low>>(c&63)&1 != 0
}

// isXMLName reports whether s can be written as an element or attribute name.
func isXMLName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}
