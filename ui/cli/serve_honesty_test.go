package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// serveEstimateJSON runs estimate --task serve --json with args and
// decodes it.
func serveEstimateJSON(t *testing.T, args ...string) report.ServeEstimateJSON {
	t.Helper()
	code, out, errOut := runServeCLI(t, append([]string{"estimate", "--task", "serve", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var j report.ServeEstimateJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return j
}

// A TP the user did not ask for is said in one line, text and JSON, with
// why the next smaller TP lost and how to pin it (a new user's trial:
// Llama 3.1 8B on an L4 at --replicas 1 served on 2 GPUs at TP 2 with no
// word). A pinned --tp or --gpus that does not fit says so, at the split
// pinned, and no choice line.
//
// Hand-worked: Qwen2.5 14B in bf16 holds 27.5 GiB of weights, above an
// L4's 20.2 GiB budget (22.49 GiB × 0.9), so TP 1 cannot fit; its KV
// cache per token is 2 × 48 layers × 8 KV heads × 128 × 2 B = 192 KiB,
// 0.75 GiB for one 4096-token request, so TP 1 is 27.5 + 1.4 activations
// + 0.1 non-torch − 20.2 + 0.75 ≈ 9.6 GiB per GPU short. Llama 3.1 8B
// fits one L4 (15.0 GiB of weights) but its TPOT range, 55.9–124.6 ms,
// crosses the default 100 ms target, so TP 2 is chosen (betterPlan).
// On 2 L4s TP 1 cannot fit, so TP 2.
func TestServeEstimateSaysChosenTP(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		tp     int
		fits   bool
		chosen []string // in the chosen line; none: no line
		reason string   // in the plan's reasons
	}{
		{"8b on L4, auto", []string{"--model", "llama-3.1-8b", "--gpu", "l4", "--replicas", "1"}, 2, true,
			[]string{"TP 2 chosen, not TP 1: TP 1 meets the targets only at the estimate", "crosses the 100.0 ms target", "--tp pins the split"}, ""},
		{"14b on 2 L4s, TP auto", []string{"--model", "qwen2.5-14b", "--gpu", "l4", "--gpus", "2"}, 2, true,
			[]string{"TP 2 chosen, not TP 1: one NVIDIA L4 cannot hold the weights and the KV cache of one 4096-token request", "9.6 GiB per GPU short of one 4096-token request", "--tp pins the split"}, ""},
		// On 8 L4s TP 2, 4 and 8 all fit and fill the 8 GPUs; TP 8 serves
		// the most output tokens/s on them, the split recommend ranks
		// first on an 8 × L4 instance (the lower cost per million output
		// tokens at the same price), and the line says the rates.
		{"14b on 8 L4s, TP auto", []string{"--model", "qwen2.5-14b", "--gpu", "l4", "--gpus", "8"}, 8, true,
			[]string{"TP 8 chosen, not TP 4: TP 4 serves ", " output tokens/s on the same 8 GPUs where TP 8 serves ", "--tp pins the split"}, ""},
		// 70B in bf16 at TP 2 leaves 71.3 − 65.7 − 4.8 − 0.2 GiB, about
		// 0.6 GiB of KV cache per GPU on an H100 (81089 MiB CUDA total),
		// 3760 tokens, short of one 4096-token request: TP 4.
		{"70b on H100, auto: TP 2 does not fit", []string{"--model", "llama-3.1-70b", "--gpu", "h100-sxm"}, 4, true,
			[]string{"TP 4 chosen, not TP 2: TP 2 does not fit (TP 2 × PP 1: KV cache holds 3760 tokens, less than one 4096-token request)"}, ""},
		{"8b on L4, --tp 2", []string{"--model", "llama-3.1-8b", "--gpu", "l4", "--replicas", "1", "--tp", "2"}, 2, true, nil, ""},
		{"14b, --tp 1 --pp 1 pinned", []string{"--model", "qwen2.5-14b", "--gpu", "l4", "--replicas", "1", "--tp", "1", "--pp", "1"}, 1, false, nil,
			"TP 1 × PP 1: weights 27.5 GiB + activations 1.4 GiB per GPU leave no KV cache in 20.2 GiB (gpu_memory_utilization 0.9), 9.6 GiB per GPU short of one 4096-token request"},
		{"14b, --gpus 1 pinned", []string{"--model", "qwen2.5-14b", "--gpu", "l4", "--replicas", "1", "--gpus", "1"}, 1, false, nil,
			"9.6 GiB per GPU short of one 4096-token request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := serveEstimateJSON(t, tc.args...)
			if j.Plan.TP != tc.tp || j.Plan.Fits != tc.fits {
				t.Fatalf("TP %d fits %v, want TP %d fits %v (reasons %q)", j.Plan.TP, j.Plan.Fits, tc.tp, tc.fits, j.Plan.Reasons)
			}
			if len(tc.chosen) == 0 && j.Plan.Chosen != "" {
				t.Errorf("chosen %q for a split the user pinned", j.Plan.Chosen)
			}
			for _, w := range tc.chosen {
				if !strings.Contains(j.Plan.Chosen, w) {
					t.Errorf("chosen %q, want %q in it", j.Plan.Chosen, w)
				}
			}
			if tc.reason != "" && !strings.Contains(strings.Join(j.Plan.Reasons, "\n"), tc.reason) {
				t.Errorf("reasons %q, want %q", j.Plan.Reasons, tc.reason)
			}
			code, out, errOut := runServeCLI(t, append([]string{"estimate", "--task", "serve"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			lines := 0
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "chosen, not TP") {
					lines++
					if j.Plan.Chosen == "" || !strings.Contains(l, j.Plan.Chosen) {
						t.Errorf("text line %q, JSON chosen %q", l, j.Plan.Chosen)
					}
				}
			}
			if want := min(len(tc.chosen), 1); lines != want {
				t.Errorf("%d chosen lines in the text, want %d:\n%s", lines, want, out)
			}
		})
	}
}

// Tensor parallelism across nodes: recommend refuses TP 16 on every
// H100 instance type (the catalog's largest H100 node holds 8: "TP 16
// needs 16 GPUs in one node"), and estimate, which timed it as one
// 16-GPU NVLink domain (DeepSeek-R1 at 8.1 ms per token), refuses it
// with or without --gpus, exit 2 (it printed "✗ does not fit" with exit
// 0 where docs/serving.md says refused). Where the catalog has a 16-GPU
// node (GCP a2-megagpu-16g, A100 40GB) both accept TP 16.
func TestServeEstimateCrossNodeTPAsRecommend(t *testing.T) {
	const refusal = "TP 16 needs 16 GPUs in one node"
	for _, args := range [][]string{
		{"--model", "deepseek-r1", "--gpu", "h100-sxm", "--tp", "16", "--gpus", "16"},
		{"--model", "deepseek-r1", "--gpu", "h100-sxm", "--tp", "16"},
	} {
		code, _, errOut := runServeCLI(t, append([]string{"estimate", "--task", "serve"}, args...)...)
		if want := "--tp 16 is more than the 8 GPUs of the catalog's largest NVIDIA H100 SXM5 80GB node: tensor parallelism stays inside a node"; code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("estimate %v: exit %d, %q; want exit 2 and %q", args, code, errOut, want)
		}
	}
	code, out, errOut := runServeCLI(t, "recommend", "--task", "serve", "--json", "--model", "deepseek-r1", "--gpu", "h100-sxm", "--tp", "16")
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, errOut)
	}
	var r report.ServeRecommendJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Meeting != 0 || len(r.Rejected) == 0 {
		t.Fatalf("recommend: %d meeting, %d rejected; want none meeting", r.Meeting, len(r.Rejected))
	}
	for _, x := range r.Rejected {
		if !strings.Contains(x.Reason, refusal) {
			t.Errorf("recommend rejects %s %s for %q, want %q", x.Provider, x.InstanceType, x.Reason, refusal)
		}
	}

	// --gpus 16 on H100 is two nodes of 8: TP 8 inside each, a pipeline
	// of 2 across them, which needs a Ray cluster as in recommend; a
	// warning says how the 16 were laid out.
	j := serveEstimateJSON(t, "--model", "deepseek-r1", "--gpu", "h100-sxm", "--gpus", "16")
	if j.Plan.TP != 8 || j.Plan.PP != 2 || !j.Plan.Fits || j.Plan.Meets || !strings.Contains(strings.Join(j.Plan.Reasons, "; "), "needs a Ray cluster") {
		t.Errorf("estimate on --gpus 16: TP %d × PP %d fits %v meets %v, reasons %q; want TP 8 × PP 2 needing a Ray cluster", j.Plan.TP, j.Plan.PP, j.Plan.Fits, j.Plan.Meets, j.Plan.Reasons)
	}
	if _, _, errOut := runServeCLI(t, "estimate", "--task", "serve", "--model", "deepseek-r1", "--gpu", "h100-sxm", "--gpus", "16"); !strings.Contains(errOut, "--gpus 16 is more than the catalog's largest NVIDIA H100 SXM5 80GB node, 8 GPUs") {
		t.Errorf("no warning for --gpus 16 on 8-GPU nodes: %q", errOut)
	}

	// A100 40GB comes in 16-GPU nodes: TP 16 is no refusal in either.
	j = serveEstimateJSON(t, "--model", "llama-3.1-70b", "--gpu", "a100-40gb", "--tp", "16", "--gpus", "16")
	if !j.Plan.Meets || j.Plan.TP != 16 {
		t.Errorf("estimate 70B at TP 16 on 16 A100s: TP %d meets %v, reasons %q", j.Plan.TP, j.Plan.Meets, j.Plan.Reasons)
	}
	code, out, errOut = runServeCLI(t, "recommend", "--task", "serve", "--json", "--model", "llama-3.1-70b", "--gpu", "a100-40gb", "--tp", "16")
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, errOut)
	}
	r = report.ServeRecommendJSON{}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Meeting == 0 || r.Offers[0].GPUsPerNode != 16 {
		t.Errorf("recommend 70B at TP 16 on A100 40GB: %d meeting", r.Meeting)
	}
}

// When no split fits, the report names the split it tried nearest to
// fitting, the largest, and the shortfall there (a new user's trial:
// DeepSeek-R1 on 8 H100s was reported as TP 1 with 626.9 GiB of weights
// per GPU). Hand-worked at TP 8: 78.4 GiB of fp8 weights + 4.8 GiB
// activations + 0.2 GiB non-torch − 71.3 GiB budget (79.19 GiB, the
// CUDA total of 81089 MiB, × 0.9) = 12.1 GiB, plus one 4096-token
// request's MLA KV cache, 61 layers × (512 + 64) × 2 B = 68.6 KiB per
// token, 0.27 GiB: 12.4 GiB short.
func TestServeEstimateNoFitNamesLargestSplit(t *testing.T) {
	j := serveEstimateJSON(t, "--model", "deepseek-r1", "--gpu", "h100-sxm", "--gpus", "8")
	if j.Plan.Fits || j.Plan.TP != 8 || j.Plan.PP != 1 {
		t.Fatalf("TP %d × PP %d fits %v, want TP 8 × PP 1 not fitting", j.Plan.TP, j.Plan.PP, j.Plan.Fits)
	}
	m := j.Plan.Memory
	short := m.WeightsGiB + m.ActivationGiB + m.NonTorchGiB - m.BudgetGiB + float64(m.KVBytesPerToken)*4096/model.GiB
	if short < 12.3 || short > 12.5 {
		t.Errorf("shortfall from the JSON's memory %.2f GiB, want 12.4 by hand", short)
	}
	want := "TP 8 × PP 1: weights 78.4 GiB + activations 4.8 GiB per GPU leave no KV cache in 71.3 GiB (gpu_memory_utilization 0.9), 12.4 GiB per GPU short of one 4096-token request"
	if len(j.Plan.Reasons) == 0 || j.Plan.Reasons[0] != want {
		t.Errorf("reasons %q, want %q", j.Plan.Reasons, want)
	}
	if j.Plan.Chosen != "" {
		t.Errorf("chosen %q for a plan that does not fit", j.Plan.Chosen)
	}
}
