package cli

import (
	"strings"
	"testing"
)

// TestNoOffersNamesTheRate: an AutoDL overlay with its CNY prices filled
// in, searched with --providers autodl and no --usd-cny, has no offer;
// the error says the rate is what is missing, not the catalog (walk48),
// and the rate ranks the row. A search whose providers have no CNY-priced
// type says no more than before.
func TestNoOffersNamesTheRate(t *testing.T) {
	base := []string{"recommend", "--model", "qwen3-8b", "--task", "qlora", "--catalog", "testdata/cny.toml"}
	code, _, errs := runCLI(t, append(base, "--providers", "autodl")...)
	const want = "gpuplan: no offers: no instance in the catalog matches providers autodl, pricing on-demand (list them with gpuplan catalog instances); 1 CNY-priced instance type (autodl/rtx4090-1x) not ranked: needs --usd-cny RATE (1 USD = RATE CNY)\n"
	if code != 2 || errs != want {
		t.Errorf("exit %d, stderr\n%s\nwant exit 2 and\n%s", code, errs, want)
	}
	if code, out, errs := runCLI(t, append(base, "--providers", "autodl", "--usd-cny", "7.1")...); code != 0 {
		t.Errorf("with --usd-cny 7.1: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runCLI(t, append(base, "--providers", "aws", "--gpu", "rtx-4090")...)
	if code != 2 || errs == "" || strings.Contains(errs, "--usd-cny") {
		t.Errorf("aws rtx-4090: exit %d, stderr %q; want exit 2 and no rate hint", code, errs)
	}
}
