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
// Port names follow other rules, which the engine checks.
func ValidName(s string) error {
	if s == "" {
		return errors.New("empty name")
	}
	if s == "Root" || s == "root" {
		return fmt.Errorf("%q is reserved", s)
	}
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
// '.'; every non-ASCII byte is accepted (input is valid UTF-8).
func isNameStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}

func isNameByte(c byte) bool {
	return isNameStart(c) || '0' <= c && c <= '9' || c == '-' || c == '.'
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
