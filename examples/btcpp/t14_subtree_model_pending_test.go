//go:build btcpp_pending

// Waits for issue 30 item 3 (a bare "&" in an attribute value): tutorial 14 with the
// reference's XML as it is, "sub_in_value==42 && sub_in_name=='john'".

package btcpp_test

import "strings"

func Example_t14SubtreeModelBareAmpersands() {
	t14(strings.ReplaceAll(t14XMLSubtree, "&amp;", "&"), strings.ReplaceAll(t14XMLMain, "&amp;", "&"))

	// Output:
	// [0.000]: Sequence                  IDLE -> RUNNING
	// [0.000]: Script                    IDLE -> SUCCESS
	// [0.000]: MySub                     IDLE -> RUNNING
	// [0.000]: Sequence                  IDLE -> RUNNING
	// [0.000]: ScriptCondition           IDLE -> SUCCESS
	// [0.000]: Script                    IDLE -> SUCCESS
	// [0.000]: ScriptCondition           SUCCESS -> IDLE
	// [0.000]: Script                    SUCCESS -> IDLE
	// [0.000]: Sequence                  RUNNING -> SUCCESS
	// [0.000]: Sequence                  SUCCESS -> IDLE
	// [0.000]: MySub                     RUNNING -> SUCCESS
	// [0.000]: ScriptCondition           IDLE -> SUCCESS
	// [0.000]: Script                    SUCCESS -> IDLE
	// [0.000]: MySub                     SUCCESS -> IDLE
	// [0.000]: ScriptCondition           SUCCESS -> IDLE
	// [0.000]: Sequence                  RUNNING -> SUCCESS
	// [0.000]: Sequence                  SUCCESS -> IDLE
}
