package data

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// mapLookalikes is lookalikes as it was, over a map: the reference
// nameTable is checked against.
type mapLookalikes struct {
	first map[string]string
	more  map[string][]string
}

func (l *mapLookalikes) known(k, s string) {
	f, ok := l.first[k]
	switch {
	case !ok:
		l.first[k] = s
	case f != s && !slices.Contains(l.more[k], s):
		l.more[k] = append(l.more[k], s)
	}
}

func (l *mapLookalikes) check(s string) string {
	k := LookKey(s)
	f, ok := l.first[k]
	if !ok {
		l.first[k] = s
		return ""
	}
	if f == s || slices.Contains(l.more[k], s) {
		return ""
	}
	return f
}

// TestLookalikesSameAsMap: lookalikes over a nameTable refuses and
// accepts what the map it replaced did, names known up front (two real
// names of one key among them) and checked in turn, from a few to past
// the table's first size (it grows), ASCII or not, empty keys included.
func TestLookalikesSameAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	parts := []string{"g5", "G5", "g-5", "h1OO", "h100", "l", "1", "I", ".", "_", "-", "xlarge", "x1arge", "а", "ⅼ", "sxm", "8x", ""}
	name := func() string {
		s := ""
		for range 1 + r.IntN(4) {
			s += parts[r.IntN(len(parts))]
		}
		if r.IntN(3) == 0 {
			s += fmt.Sprint(r.IntN(50))
		}
		return s
	}
	for round := range 100 {
		expect := 0
		if round%2 == 0 {
			expect = r.IntN(200)
		}
		got, want := newLookalikes(expect), mapLookalikes{first: map[string]string{}, more: map[string][]string{}}
		for range r.IntN(20) {
			s := name()
			got.known(LookKey(s), s)
			want.known(LookKey(s), s)
		}
		for i := range 1 + r.IntN(2000) {
			s := name()
			if g, w := got.check(s), want.check(s); g != w {
				t.Fatalf("round %d, name %d: check(%q) = %q, want %q", round, i, s, g, w)
			}
		}
		for k, f := range want.first {
			if g, ok := got.first.get(k); !ok || g != f {
				t.Fatalf("round %d: first[%q] = %q, %v; want %q", round, k, g, ok, f)
			}
		}
		if len(got.first.entries) != len(want.first) {
			t.Fatalf("round %d: %d keys, want %d", round, len(got.first.entries), len(want.first))
		}
	}
}

// TestNameTableGrows: a table made empty or small takes many keys, each
// found again with its name.
func TestNameTableGrows(t *testing.T) {
	for _, n := range []int{0, 1, 100} {
		var tb nameTable
		if n > 0 {
			tb = newNameTable(n)
		}
		for i := range 5000 {
			k := fmt.Sprint("k", i)
			if _, ok := tb.getOrAdd(k, fmt.Sprint("n", i), nil); ok {
				t.Fatalf("size %d: %s found before it was added", n, k)
			}
		}
		for i := range 5000 {
			if got, ok := tb.get(fmt.Sprint("k", i)); !ok || got != fmt.Sprint("n", i) {
				t.Fatalf("size %d: k%d → %q, %v", n, i, got, ok)
			}
		}
		if _, ok := tb.get("k5000"); ok {
			t.Fatalf("size %d: k5000 found", n)
		}
	}
}

// FuzzBadTypeRune: the byte loop finds what the rune loop finds.
func FuzzBadTypeRune(f *testing.F) {
	for _, s := range []string{"", "g5.xlarge", "gpu_8x_h100_sxm5", "a:b+c-d", "syn$bad", "h1\u00a0", "\xff", "g\u0261", "ａ", "x y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		j, r := badTypeRune(s)
		wj, wr := badRune(s, typeRune)
		if j != wj || r != wr {
			t.Fatalf("badTypeRune(%q) = %d, %q; badRune: %d, %q", s, j, r, wj, wr)
		}
	})
}
