package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/report"
)

// TestServeBandsJSON: serving --json carries the three 90% ranges the
// text prints, in training's band shape (low, high, confidence, cases,
// sources, group). Each end is the estimate times the calibration band's
// multiplier (model.Band: true/estimated at the ends of the range): the
// KV cache × Lo and × Hi, the output tokens/s × Lo and × Hi, and the TPOT,
// whose band is of speed (1 / TPOT), ÷ Hi and ÷ Lo.
func TestServeBandsJSON(t *testing.T) {
	args := []string{"--model", "mistral-7b", "--task", "inference", "--gpu", "rtx-a6000", "--gpus", "1", "--replicas", "1"}
	code, out, errs := runServeCLI(t, append([]string{"estimate", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var e report.ServeEstimateJSON
	if err := json.Unmarshal([]byte(out), &e); err != nil {
		t.Fatal(err)
	}
	p := e.Plan
	if !p.Fits {
		t.Fatalf("Mistral 7B does not fit an RTX A6000: %q", p.Reasons)
	}
	for _, tc := range []struct {
		kind     string
		got      *report.BandJSON
		estimate float64
		invert   bool // the band is of 1/value
	}{
		{"kv-cache", p.Memory.KVCacheBand, p.Memory.KVCacheGiB, false},
		{"tpot", p.TPOTBand, p.TPOTMs, true},
		{"throughput", p.OutputTokensPerSBand, p.OutputTokensPerS, false},
	} {
		b, ok := serve.CalibrationBand(tc.kind)
		if !ok {
			t.Fatalf("no serving calibration band %q", tc.kind)
		}
		if tc.got == nil {
			t.Errorf("%s: no band in the JSON", tc.kind)
			continue
		}
		lo, hi := tc.estimate*b.Lo, tc.estimate*b.Hi
		if tc.kind == "kv-cache" { // held to what vLLM can allocate (serve.Memory.KVCacheRange)
			m := p.Memory
			hi = min(hi, m.BudgetGiB-m.WeightsGiB-m.NonTorchGiB)
		}
		if tc.invert {
			lo, hi = tc.estimate/b.Hi, tc.estimate/b.Lo
		}
		// The estimate and the band's ends are each rounded to 4 decimals.
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-3*max(1, math.Abs(b)) }
		if !near(tc.got.Low, lo) || !near(tc.got.High, hi) || tc.got.Low > tc.estimate || tc.got.High < tc.estimate {
			t.Errorf("%s: band %v–%v around %v, want %v–%v (× %v–%v)", tc.kind, tc.got.Low, tc.got.High, tc.estimate, lo, hi, b.Lo, b.Hi)
		}
		if tc.got.Cases != b.Cases || tc.got.Sources != b.Sources || tc.got.Group != b.Group || tc.got.Confidence != report.BandConfidence {
			t.Errorf("%s: %d cases, %d sources, group %q, confidence %v; want %d, %d, %q, %v", tc.kind,
				tc.got.Cases, tc.got.Sources, tc.got.Group, tc.got.Confidence, b.Cases, b.Sources, b.Group, report.BandConfidence)
		}
	}

	// The text prints the same ranges.
	code, text, errs := runServeCLI(t, append([]string{"estimate"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	kv := p.Memory.KVCacheBand
	for _, want := range []string{
		fmt.Sprintf("90%% range of the KV cache: %.2f GiB–%.2f GiB per GPU", kv.Low, kv.High),
		fmt.Sprintf("90%% range of the TPOT: %.1f–%.1f ms", p.TPOTBand.Low, p.TPOTBand.High),
		fmt.Sprintf("90%% range of the output: %.0f–%.0f tokens/s", p.OutputTokensPerSBand.Low, p.OutputTokensPerSBand.High),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}

	// A plan that does not fit has no KV cache and no speed: no bands.
	code, out, errs = runServeCLI(t, "estimate", "--json", "--model", "llama-3.1-70b", "--task", "inference", "--gpu", "h100-sxm", "--gpus", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var miss report.ServeEstimateJSON
	if err := json.Unmarshal([]byte(out), &miss); err != nil {
		t.Fatal(err)
	}
	if miss.Plan.Fits || miss.Plan.Memory.KVCacheBand != nil || miss.Plan.TPOTBand != nil || miss.Plan.OutputTokensPerSBand != nil {
		t.Errorf("fits %v with bands %+v %+v %+v: want no band for a plan that does not fit", miss.Plan.Fits,
			miss.Plan.Memory.KVCacheBand, miss.Plan.TPOTBand, miss.Plan.OutputTokensPerSBand)
	}
	for _, field := range []string{"kv_cache_band", "tpot_band", "output_tokens_per_s_band"} {
		if strings.Contains(out, field) {
			t.Errorf("%s printed for a plan that does not fit", field)
		}
	}
}

// TestServeRecommendBandsJSON: every serving offer recommend --json
// lists carries the three ranges, each holding its estimate.
func TestServeRecommendBandsJSON(t *testing.T) {
	code, out, errs := runServeCLI(t, "recommend", "--json", "--model", "llama-3.1-8b", "--task", "inference",
		"--max-model-len", "8K", "--concurrency", "8", "--providers", "lambda", "--limit", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r report.ServeRecommendJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Offers) == 0 {
		t.Fatalf("no offer: %s", out)
	}
	for i, o := range r.Offers {
		kv, tp, th := o.Memory.KVCacheBand, o.TPOTBand, o.OutputTokensPerSBand
		if kv == nil || tp == nil || th == nil {
			t.Errorf("offer %d %s: bands %v %v %v, want all three", i, o.Offer, kv, tp, th)
			continue
		}
		if !(kv.Low <= o.Memory.KVCacheGiB && o.Memory.KVCacheGiB <= kv.High) || !(tp.Low <= o.TPOTMs && o.TPOTMs <= tp.High) ||
			!(th.Low <= o.OutputTokensPerS && o.OutputTokensPerS <= th.High) || kv.Group != "serve/kv-cache" {
			t.Errorf("offer %d %s: a band misses its estimate: kv %v in %+v, tpot %v in %+v, output %v in %+v", i, o.Offer,
				o.Memory.KVCacheGiB, kv, o.TPOTMs, tp, o.OutputTokensPerS, th)
		}
	}
}
