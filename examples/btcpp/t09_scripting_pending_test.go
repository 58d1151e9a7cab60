//go:build btcpp_pending

// Waits for issue 30 item 3 (a bare "&" in an attribute value): tutorial 9 with the
// reference's XML as it is, "A>-B && color != BLUE".

package btcpp_test

import "strings"

func Example_t09ScriptingBareAmpersands() {
	t09(strings.ReplaceAll(t09XML, "&amp;", "&"))

	// Output:
	// Robot says: 42
	// Robot says: 3.14
	// Robot says: hello world
	// Robot says: 1
}
