// Package e2e tests the monitor's page in a real browser: a headless Chromium driven
// through the DevTools protocol (github.com/chromedp/chromedp), which is why it is a
// module of its own — the library keeps to the standard library.
//
// The tests tick a tree step by step and check, in the page's DOM, the status of every
// node, the blackboard and the timeline; and they replay a .btlog file. On a Nav2-sized
// tree (testdata/nav2-recovery.xml) in a 1400×900 viewport, they check the view: the
// fit on load, zoom (keys, wheel), pan (drag, arrows), follow, the list of what runs,
// find, the detail panel (against btlog.Stats), a replay's view, and the picker of
// many trees; and that a tree reloaded with a new definition (bt.Tree.Reload) is drawn
// anew without a reload of the page. With BT_UPDATE_DOCS=1, TestNav2View writes the README's screenshot,
// docs/monitor-nav2.png. They look for
// Chromium in $BT_CHROMIUM, then /usr/bin/chromium and the usual names on the PATH
// (Debian: apt-get install chromium), and skip, saying so, when there is none. A
// screenshot of each page is written to $BT_E2E_ARTIFACTS (default: artifacts/ here).
//
//	go test ./e2e/...        from the repository's root (go.work names the module)
package e2e
