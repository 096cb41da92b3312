package serve

import (
	"errors"
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// FuzzPlanServing feeds hostile serving workloads (as a TOML file or flags
// could give them) to the planner: it must return a plan or an error
// wrapping ErrInvalid, never panic, hang or return NaN costs.
func FuzzPlanServing(f *testing.F) {
	f.Add(8192, 6144, 2048, 32, 0.0, 50.0, 0.0, 2, 0, 0, 0.9, "awq", "auto")
	f.Add(0, 1, 1, 0, 1e9, 0.0, 1.0, 0, 0, 0, 0.0, "fp8", "fp8")
	f.Add(-1, 0, 0, -5, math.NaN(), math.Inf(1), -1.0, 3, 99, -1, 2.0, "nf4", "int8")
	f.Add(131072, 130000, 1000, 2, 0.0, 0.0, 0.0, 0, 0, 0, 0.9, "bf16", "auto")
	f.Add(1, 1, 1, 3, 0.0, 0.0, 0.0, 1, 1, 1, 0.95, "fp8", "fp8")
	f.Fuzz(func(t *testing.T, maxLen, prompt, output, conc int, rps, tpot, ttft float64, tp, pp, replicas int, util float64, wf, kv string) {
		s := Serving{WeightFormat: WeightFormat(wf), KVCacheDType: KVCacheDType(kv), MaxModelLen: maxLen % (1 << 20),
			PromptTokens: prompt % (1 << 20), OutputTokens: output % (1 << 20), Concurrency: conc % (1 << 20),
			RequestsPerSec: rps, TPOTTargetMs: tpot, TTFTTargetMs: ttft, TP: tp % 64, PP: pp % 64, Replicas: replicas % 1024,
			GPUMemoryUtilization: util}
		// A Volta node too, with and without the precision fallback: its
		// formats fall back or are refused (FormatOn).
		s.AllowPrecisionFallback = conc&1 == 1
		// Gemma 3 27B (swa_test.go) too: a sliding window on 52 of 62
		// layers (KVLayout), on odd lengths.
		a := &modeltest.Llama31_8B
		if conc&2 == 2 {
			a = &gemma3_27B
		}
		for _, o := range []Offer{{Name: "fuzz", GPU: &h100SXM, GPUsPerNode: 8, Interconnect: "nvswitch", USDPerHour: 20},
			{Name: "volta", GPU: &modeltest.V100, GPUsPerNode: 8, Interconnect: "nvlink", USDPerHour: 6}} {
			p, err := PlanServing(a, s, o)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("error %v does not wrap ErrInvalid", err)
				}
				return
			}
			if math.IsNaN(p.USDPerMOutput) || math.IsNaN(p.OutputTokensPerSec) || math.IsNaN(p.Memory.MaxConcurrency) || p.Memory.KVTokens < 0 {
				t.Fatalf("NaN in plan for %+v: %+v", s, p)
			}
			if p.Fits {
				if run, _, ok := FormatOn(p.Serving.WeightFormat, o.GPU); !ok || run != p.Serving.WeightFormat {
					t.Fatalf("%s planned at %s, which it cannot run", o.Name, p.Serving.WeightFormat)
				}
			}
		}
	})
}
