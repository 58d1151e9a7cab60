//go:build btcpp_pending

// Waits for issue 30 item 6 (registering a tree ID again replaces it): tutorial 4 as
// the reference runs it, both documents loaded into one factory.

package btcpp_test

import (
	"testing"

	"github.com/gobt/bt"
)

func TestT04ReactiveSequenceOneFactory(t *testing.T) {
	factory := t04Factory()
	got := captureStdout(t, func() { t04(func() *bt.Factory { return factory }) })
	if got != t04Want {
		t.Errorf("got:\n%s\nwant:\n%s", got, t04Want)
	}
}
