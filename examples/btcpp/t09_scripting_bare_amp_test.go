// Tutorial 9 with the reference's XML as it is, "A>-B && color != BLUE": a bare "&"
// in an attribute value loads, with a note, as tinyxml2 reads it.

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
