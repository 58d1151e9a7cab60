// Package e2e tests the monitor's page in a real browser: a headless Chromium driven
// through the DevTools protocol (github.com/chromedp/chromedp), which is why it is a
// module of its own — the library keeps to the standard library.
//
// The tests tick a tree step by step and check, in the page's DOM, the status of every
// node, the blackboard and the timeline; and they replay a .btlog file. They look for
// Chromium in $BT_CHROMIUM, then /usr/bin/chromium and the usual names on the PATH
// (Debian: apt-get install chromium), and skip, saying so, when there is none. A
// screenshot of each page is written to $BT_E2E_ARTIFACTS (default: artifacts/ here).
//
//	go test ./e2e/...        from the repository's root (go.work names the module)
package e2e
