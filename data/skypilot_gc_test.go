package data

import (
	"runtime/debug"
	"testing"
)

// The collector settings a user might run with, set for the test and
// restored after it.
const userPercent, userLimit = 77, int64(256 << 20)

// userGC sets userPercent and userLimit for t and returns how to read the
// settings back (GOGC, the memory limit).
func userGC(t *testing.T) (percent func() int, limit func() int64) {
	t.Helper()
	prevPercent := debug.SetGCPercent(userPercent)
	prevLimit := debug.SetMemoryLimit(userLimit)
	t.Cleanup(func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	})
	percent = func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	limit = func() int64 { return debug.SetMemoryLimit(-1) }
	return percent, limit
}

// TestPaceGC: a large read sets the percentage trigger it asks for and a
// limit no higher than the user's, deferGC inside it turns the trigger
// off, and the user's settings come back when the last one ends.
func TestPaceGC(t *testing.T) {
	percent, limit := userGC(t)

	read := paceGC(20<<20, readGCPercent)
	if percent() != readGCPercent || limit() > userLimit {
		t.Errorf("reading: GOGC %d, limit %d; want %d, ≤ %d", percent(), limit(), readGCPercent, userLimit)
	}
	read()
	build := deferGC(20 << 20)
	if percent() != -1 {
		t.Errorf("building: GOGC %d, want off", percent())
	}
	build()
	if percent() != userPercent || limit() != userLimit {
		t.Errorf("after the read: GOGC %d, limit %d; want %d, %d", percent(), limit(), userPercent, userLimit)
	}
}

// TestAdviseHugePages: the advice changes no content, whether the array
// was written before or after it, and takes arrays of any size.
func TestAdviseHugePages(t *testing.T) {
	for _, n := range []int{0, 1, 3 << 20, 9<<20 + 5} {
		written := make([]uint32, n/4)
		for i := range written {
			written[i] = uint32(i) * 2654435761
		}
		adviseHugePages(written)
		fresh := make([]uint32, n/4)
		adviseHugePages(fresh)
		for i := range fresh {
			if fresh[i] != 0 {
				t.Fatalf("%d bytes: fresh[%d] = %d after the advice, want 0", n, i, fresh[i])
			}
			fresh[i] = uint32(i) * 2654435761
		}
		for i := range written {
			if written[i] != uint32(i)*2654435761 || fresh[i] != written[i] {
				t.Fatalf("%d bytes: element %d changed by the advice", n, i)
			}
		}
	}
}

// TestPaceGCKeepsLowerGOGC: a user's GOGC below the read's, or off, stays
// during the read; deferGC still turns collection off.
func TestPaceGCKeepsLowerGOGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	percent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	for _, user := range []int{-1, 0, 10, readGCPercent, 400} {
		debug.SetGCPercent(user)
		read := paceGC(20<<20, readGCPercent)
		if want := min(user, readGCPercent); percent() != want {
			t.Errorf("user GOGC %d: %d while reading, want %d", user, percent(), want)
		}
		build := deferGC(20 << 20)
		if percent() != -1 {
			t.Errorf("user GOGC %d: %d while building, want off", user, percent())
		}
		build()
		read()
		if percent() != user {
			t.Errorf("user GOGC %d: %d after, want it back", user, percent())
		}
	}
}
