package launch_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestServeFormatFlags: over every catalog offer that serves Llama 3.1 8B,
// the vllm serve flags say the format the plan was sized at, as vLLM needs
// it on that GPU (serve.FormatOn): fp8 where vLLM runs it (W8A8 from
// 8.9, FP8 Marlin from 7.5) with float16 activations where there is no
// bf16; bf16 → float16 below 8.0; with the fallback allowed, fp8 on Volta
// is the 16-bit checkpoint in float16 and no --quantization, with a note.
// Without the fallback those GPUs have no plan to write.
func TestServeFormatFlags(t *testing.T) {
	seen := map[string]int{}
	for _, tt := range []struct {
		asked serve.WeightFormat
		allow bool
	}{{serve.WeightFP8, false}, {serve.WeightFP8, true}, {serve.WeightBF16, false}, {serve.WeightBF16, true}} {
		s := serve.Serving{WeightFormat: tt.asked, MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256, Concurrency: 4,
			AllowPrecisionFallback: tt.allow}
		_, a, plans, regions := servePlans(t, "llama-3.1-8b", s)
		for i := range plans {
			sp := &plans[i]
			g := sp.Offer.GPU
			cc := g.ComputeCapability
			nvidia := g.Vendor == "nvidia"
			ccf, _ := strconv.ParseFloat(cc, 64)                        // "7.0", "12.0": one decimal, so a float orders them
			noFP8 := nvidia && ccf < 7.5 || !nvidia && g.FP8TFLOPS == 0 // Volta; ROCm without fp8 hardware
			noBF16 := g.BF16TFLOPS == 0
			if !tt.allow && (tt.asked == serve.WeightFP8 && noFP8 || tt.asked == serve.WeightBF16 && noBF16) {
				t.Errorf("%s (%s %s): planned %s without the fallback", sp.Offer.Name, g.Key, cc, tt.asked)
				continue
			}
			srv, err := launch.NewServe(a, sp, launch.ServeOptions{Region: regions[i]})
			if err != nil {
				continue // a replica across nodes
			}
			args := srv.VLLMArgs()
			flag := func(name string) string {
				if j := slices.Index(args, name); j >= 0 && j+1 < len(args) {
					return args[j+1]
				}
				return ""
			}
			var wantQ, wantDtype, wantNote string
			switch {
			case tt.asked == serve.WeightFP8 && noFP8:
				wantQ, wantDtype, wantNote = "", "bfloat16", "fp8 weights asked for: "+g.Name+" has no fp8"
				if noBF16 {
					wantDtype = "float16"
				}
			case tt.asked == serve.WeightFP8 && noBF16:
				wantQ, wantDtype, wantNote = "fp8", "float16", "fp8 weight-only (FP8 Marlin) with float16 activations"
			case tt.asked == serve.WeightFP8:
				wantQ = "fp8"
			case noBF16:
				wantDtype, wantNote = "float16", "has no bf16 (compute capability below 8.0): served in float16"
			default:
				wantDtype = "bfloat16"
			}
			if q, d := flag("--quantization"), flag("--dtype"); q != wantQ || d != wantDtype {
				t.Errorf("%s (%s %s) asked %s: --quantization %q --dtype %q, want %q %q", sp.Offer.Name, g.Key, cc, tt.asked, q, d, wantQ, wantDtype)
			}
			script := string(srv.Script())
			if wantNote != "" && !strings.Contains(script, wantNote) {
				t.Errorf("%s (%s) asked %s: no note %q in\n%s", sp.Offer.Name, g.Key, tt.asked, wantNote, script)
			}
			seen[string(tt.asked)+" "+cc]++
		}
	}
	// The cases above are exercised: Volta falls back, Turing runs FP8 Marlin in fp16.
	for _, k := range []string{"fp8 7.0", "fp8 7.5", "fp8 9.0", "bf16 7.0", "bf16 8.0"} {
		if seen[k] == 0 {
			t.Errorf("no plan for %s: the catalog no longer exercises it (seen %v)", k, seen)
		}
	}
}

// TestServeDiskFP8Download: --quantization fp8 quantizes a 16-bit
// checkpoint on load, so the disk is sized for the 16-bit download
// (ServeDiskGB: (60 GB + weights) × 1.2, rounded up to 50 GB): Llama 3.1
// 70B at 2 bytes per weight (70.55e9 parameters) is 141.1 GB → (60 +
// 141.1) × 1.2 = 241.3 → 250 GB, where fp8 (1 byte per linear weight, the
// 2.1e9 embedding and head parameters at 2) is 72.7 GB → 159.2 → 200 GB,
// what an fp8 checkpoint (its repo says FP8) downloads.
func TestServeDiskFP8Download(t *testing.T) {
	s := serve.Serving{WeightFormat: serve.WeightFP8, MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256, Concurrency: 4}
	_, a, plans, regions := servePlans(t, "llama-3.1-70b", s)
	for _, tt := range []struct {
		modelID string
		want    int
	}{
		{"", 250}, // the catalog's 16-bit repo
		{"neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8", 200},
	} {
		checked := 0
		for i := range plans {
			sp := &plans[i]
			if sp.TP*sp.PP > sp.Offer.GPUsPerNode {
				continue
			}
			srv, err := launch.NewServe(a, sp, launch.ServeOptions{Region: regions[i], ModelID: tt.modelID})
			if err != nil {
				continue
			}
			if srv.DiskGB != tt.want {
				t.Errorf("%s, model id %q: disk %d GB, want %d", sp.Offer.Name, srv.ModelID, srv.DiskGB, tt.want)
			}
			checked++
		}
		if checked == 0 {
			t.Fatal("no fp8 70B plan to check")
		}
	}
}

// TestServeDiskReleasedFP8: DeepSeek-V3/R1 are released in fp8 (config.json
// quant_method "fp8"), so the download is the fp8 checkpoint though the
// repo's name does not say FP8: 626.96 GiB of weights (WeightBytes: fp8
// linear layers with 128×128 block scales, embeddings and head bf16) =
// 673.2 GB → (60 + 673.2) × 1.2 = 879.8 → 900 GB, not the 1700 GB of a
// 16-bit download (1342 GB).
func TestServeDiskReleasedFP8(t *testing.T) {
	s := serve.Serving{WeightFormat: serve.WeightFP8, AsReleased: true, MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256, Concurrency: 4}
	_, a, plans, regions := servePlans(t, "deepseek-v3", s)
	checked := 0
	for i := range plans {
		sp := &plans[i]
		if sp.TP*sp.PP > sp.Offer.GPUsPerNode || sp.Serving.WeightFormat != serve.WeightFP8 {
			continue
		}
		srv, err := launch.NewServe(a, sp, launch.ServeOptions{Region: regions[i]})
		if err != nil {
			continue
		}
		if srv.DiskGB != 900 {
			t.Errorf("%s, model id %q: disk %d GB, want 900", sp.Offer.Name, srv.ModelID, srv.DiskGB)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no fp8 DeepSeek-V3 plan on one node to check")
	}
}
