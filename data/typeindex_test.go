package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestByProviderSameAsPairMap: byProvider answers as the map keyed by
// (provider, name) it replaced, sets and look-ups interleaved, runs of
// one provider and switches between them, names shared by providers and
// the empty string included.
func TestByProviderSameAsPairMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	providers := []string{"", "aws", "gcp", "lambda", "aws2"}
	for round := range 200 {
		var b byProvider[int]
		want := map[[2]string]int{}
		provider := providers[r.IntN(len(providers))]
		for op := range 500 {
			if r.IntN(8) == 0 { // runs of one provider, as in a file
				provider = providers[r.IntN(len(providers))]
			}
			name := fmt.Sprint("t", r.IntN(40))
			if r.IntN(30) == 0 {
				name = ""
			}
			if r.IntN(3) == 0 {
				b.set(provider, name, op)
				want[[2]string{provider, name}] = op
				continue
			}
			got, ok := b.get(provider, name)
			w, wok := want[[2]string{provider, name}]
			if got != w || ok != wok || b.at(provider, name) != w {
				t.Fatalf("round %d op %d: get(%q, %q) = %d, %v; want %d, %v", round, op, provider, name, got, ok, w, wok)
			}
		}
	}
}

// TestFlaggedAddedParallel: the instances with findings are found in two
// halves as in one pass, in order.
func TestFlaggedAddedParallel(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	insts := make([]model.Instance, 3*parallelBuild)
	var at byProvider[[]*Guard]
	for i := range insts {
		insts[i].Provider, insts[i].Type = []string{"aws", "gcp"}[r.IntN(2)], fmt.Sprint("t", r.IntN(len(insts)))
		if r.IntN(50) == 0 {
			at.set(insts[i].Provider, insts[i].Type, []*Guard{{}})
		}
	}
	for _, nb := range []int{0, 7, parallelBuild} {
		got := flaggedAdded(&at, insts, nb)
		func() {
			defer func(n int) { parallelBuild = n }(parallelBuild)
			parallelBuild = math.MaxInt
			if want := flaggedAdded(&at, insts, nb); !slices.Equal(got, want) || len(want) == 0 {
				t.Errorf("from %d: two goroutines found %d, one %d", nb, len(got), len(want))
			}
		}()
	}
}
