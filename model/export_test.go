package model

import "runtime"

// SetSplitScans makes Recommend split its scan across two goroutines
// (splitScan) whatever the number of prices (on), or never (off), on two
// Ps, for tests outside the package; it returns what puts both back.
func SetSplitScans(on bool) (restore func()) {
	was, procs := splitMinPairs, runtime.GOMAXPROCS(2)
	splitMinPairs = 1 << 30
	if on {
		splitMinPairs = 0
	}
	return func() { splitMinPairs = was; runtime.GOMAXPROCS(procs) }
}
