package data

import (
	"hash/maphash"
	"math/bits"
)

// nameTable maps look-alike keys (LookKey) to a name, as the map of
// lookalikes.first did: an open-addressing table that finds a key and,
// when it is missing, adds it in one probe. Checking a file's 100,000
// types was a map look-up, nearly always missing, and then an insert that
// hashed and probed again; and the map sized for them up front cost a
// fifth of the check (NameCheck, BenchmarkRunRecommendCSV100k).
type nameTable struct {
	seed maphash.Seed
	// slots hold an entry's index + 1 in the low 32 bits (0: empty) and
	// its key's hash's high 32 bits above; entries are in the order
	// added.
	slots   []uint64
	entries []nameEntry
}

// nameEntry is a key and the name it maps to.
type nameEntry struct{ key, name string }

// newNameTable returns a table sized for n keys. For a file's 100,000
// types its arrays are 5 MB of fresh memory, written all over: backed by
// huge pages (adviseHugePages), not faulted in 4 KiB at a time.
func newNameTable(n int) nameTable {
	t := nameTable{seed: maphash.MakeSeed()}
	t.entries = make([]nameEntry, 0, n)
	t.slots = make([]uint64, slotsFor(n))
	adviseHugePages(t.entries)
	adviseHugePages(t.slots)
	return t
}

// slotsFor is the number of slots for n keys: a power of two that keeps
// the table at most three quarters full.
func slotsFor(n int) int {
	return 1 << bits.Len(uint(max(n, 6)*4/3))
}

// get returns the name key maps to and whether it maps to one.
func (t *nameTable) get(key string) (string, bool) {
	if len(t.slots) == 0 {
		return "", false
	}
	h := maphash.String(t.seed, key)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return "", false
		}
		if e := &t.entries[uint32(s)-1]; s>>32 == h>>32 && e.key == key {
			return e.name, true
		}
	}
}

// getOrAdd returns the name key maps to and true; else it maps key to
// name and returns "", false. When keep is set, the key is stored as
// keep returns it (key may then be scratch memory).
func (t *nameTable) getOrAdd(key, name string, keep func(string) string) (string, bool) {
	if len(t.entries)+1 > len(t.slots)*3/4 {
		t.grow()
	}
	h := maphash.String(t.seed, key)
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for ; t.slots[i] != 0; i = (i + 1) & mask {
		if s := t.slots[i]; s>>32 == h>>32 && t.entries[uint32(s)-1].key == key {
			return t.entries[uint32(s)-1].name, true
		}
	}
	if keep != nil {
		key = keep(key)
	}
	t.entries = append(t.entries, nameEntry{key, name})
	t.slots[i] = h>>32<<32 | uint64(len(t.entries))
	return "", false
}

// grow doubles the slots (or makes the first ones) and places the
// entries again.
func (t *nameTable) grow() {
	if t.slots == nil {
		t.seed = maphash.MakeSeed()
	}
	t.slots = make([]uint64, max(2*len(t.slots), slotsFor(len(t.entries)+1)))
	mask := uint64(len(t.slots) - 1)
	for j := range t.entries {
		h := maphash.String(t.seed, t.entries[j].key)
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = h>>32<<32 | uint64(j+1)
	}
}
