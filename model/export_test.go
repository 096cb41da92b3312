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

// SetShapeSharing turns off (or on) the shapes shared by instance types
// that differ only in what shape does not read of their host
// (shapeKeyOf): off, every type is shaped with its whole host, memory
// included. It returns what puts it back.
func SetShapeSharing(on bool) (restore func()) {
	was := shareShapes
	shareShapes = on
	return func() { shareShapes = was }
}
