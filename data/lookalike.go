package data

import (
	"sync"
)

// LookKey is what two names that read as one share: the confusables
// skeleton (UTS #39 §4) of the name with its accents dropped (NFD, then
// no combining marks), folded to lower case, with its separators
// (. _ - : / , + and spaces) left out. So "GPU_1X_H100_PCIE",
// "gpu-1x-h100-pcie", "gpu_1x_h100_pcie.", "gpu__1x_h100_pcie",
// "gpu_1x_h100_pcie+", "gpu1xh100pcie" and "us-éast-1" or "us-east-1,"
// read as Lambda's gpu_1x_h100_pcie and us-east-1 (re-attacks ranked a
// case-only copy of a real type first at 59% off, then trailing-dot and
// '+' copies first over the real row). An ASCII name takes a table of
// each character's key (the skeleton maps ASCII character by character,
// and NFD leaves it alone): a 100,000-row overlay's names cost no
// skeleton each (TestLookKeyASCIITable holds it to lookKeySlow).
func LookKey(s string) string {
	if k, ok := appendLookKey(nil, s); ok {
		return string(k)
	}
	return lookKeySlow(s)
}

// appendLookKey appends LookKey(s) to dst when s is ASCII (ok), from the
// table; a name with other characters is left to lookKeySlow (not ok).
func appendLookKey(dst []byte, s string) (key []byte, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return dst, false
		}
	}
	t, one := asciiKeys(), asciiOne() // pointers: tables copied per call by value cost more
	for i := 0; i < len(s); i++ {
		if b := one[s[i]]; b != 0 {
			dst = append(dst, b) // nearly every character: a byte, not a string
		} else {
			dst = append(dst, t[s[i]]...)
		}
	}
	return dst, true
}

// asciiOne is asciiKeys' entry as a byte where it is one byte, else 0.
var asciiOne = sync.OnceValue(func() *[128]byte {
	var one [128]byte
	for c, k := range asciiKeys() {
		if len(k) == 1 {
			one[c] = k[0]
		}
	}
	return &one
})

// asciiKeys is lookKeySlow of each ASCII character: "" for a separator.
var asciiKeys = sync.OnceValue(func() *[128]string {
	var t [128]string
	for c := range t {
		t[c] = lookKeySlow(string(rune(c)))
	}
	return &t
})
