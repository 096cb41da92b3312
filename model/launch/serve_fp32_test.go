package launch_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestServeFloat32Flags (walk55): over every catalog offer that serves
// Gemma 3 4B (model type gemma3, which vLLM refuses float16 for:
// vllm/config/model.py _FLOAT16_NOT_SUPPORTED_MODELS), a GPU without bf16
// runs it in float32, what vLLM's --dtype auto loads there, so the file
// says --dtype float32 with a note that names the refusal, never --dtype
// float16 (which does not start) nor the old "served in float16 … as vLLM
// requires"; its disk holds the 16-bit checkpoint, and the [serve] table
// keeps the format asked (bf16), which reopens. GPUs with bf16 are
// unchanged. Without a GPU of each kind the test proves nothing, so it
// counts them.
func TestServeFloat32Flags(t *testing.T) {
	s := serve.Serving{WeightFormat: serve.WeightBF16, DTypeAuto: true, MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256, Concurrency: 4}
	_, a, plans, regions := servePlans(t, "gemma-3-4b", s)
	fp32, bf16 := 0, 0
	for i := range plans {
		sp := &plans[i]
		srv, err := launch.NewServe(a, sp, launch.ServeOptions{Region: regions[i]})
		if err != nil {
			continue // a replica across nodes
		}
		args := srv.VLLMArgs()
		dtype := ""
		if j := slices.Index(args, "--dtype"); j >= 0 && j+1 < len(args) {
			dtype = args[j+1]
		}
		head := strings.Join(srv.HeaderLines(), "\n")
		g := sp.Offer.GPU
		noBF16 := g.BF16TFLOPS == 0 || g.Vendor == "nvidia" && !g.CCAtLeast(8, 0)
		switch {
		case noBF16:
			fp32++
			if dtype != "float32" || !srv.Float32 || sp.Serving.WeightFormat != serve.WeightFP32 {
				t.Errorf("%s (%s): --dtype %q, format %s; want float32", sp.Offer.Name, g.Key, dtype, sp.Serving.WeightFormat)
			}
			if !strings.Contains(head, "vLLM refuses float16 for gemma3 models (numerical instability; --dtype float16 does not start): the model runs in float32 (--dtype float32") ||
				strings.Contains(head, "as vLLM requires") || strings.Contains(head, "weights asked for") {
				t.Errorf("%s: header does not say float32 once and rightly:\n%s", sp.Offer.Name, head)
			}
			if want := launch.ServeDiskGB(serve.WeightBytes(a, serve.WeightBF16)); srv.DiskGB != want {
				t.Errorf("%s: disk %d GB, want %d GB (the bf16 checkpoint, upcast on load)", sp.Offer.Name, srv.DiskGB, want)
			}
			if v := srv.ServeLaunch(); v.WeightFormat != "bf16" {
				t.Errorf("%s: [serve] weight_format %q, want the bf16 asked", sp.Offer.Name, v.WeightFormat)
			}
		default:
			bf16++
			if dtype != "bfloat16" || srv.Float32 {
				t.Errorf("%s (%s): --dtype %q, float32 %v; want bfloat16", sp.Offer.Name, g.Key, dtype, srv.Float32)
			}
		}
	}
	if fp32 == 0 || bf16 == 0 {
		t.Fatalf("%d float32 and %d bfloat16 files: the catalog should give both (T4, V100; A100, H100)", fp32, bf16)
	}
}

// TestServeBNBFloat32Flag: bitsandbytes Gemma 3 on a GPU without bf16
// runs in float32 (serve.FormatFor); the file says --dtype float32 beside
// --quantization bitsandbytes, with the note.
func TestServeBNBFloat32Flag(t *testing.T) {
	s := serve.Serving{WeightFormat: serve.WeightBNB, MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256, Concurrency: 1}
	_, a, plans, regions := servePlans(t, "gemma-3-4b", s)
	seen := 0
	for i := range plans {
		sp := &plans[i]
		if g := sp.Offer.GPU; g.Key != "t4" {
			continue
		}
		srv, err := launch.NewServe(a, sp, launch.ServeOptions{Region: regions[i]})
		if err != nil {
			continue
		}
		seen++
		args := strings.Join(srv.VLLMArgs(), " ")
		if !strings.Contains(args, "--quantization bitsandbytes --dtype float32") {
			t.Errorf("%s: %s; want --quantization bitsandbytes --dtype float32", sp.Offer.Name, args)
		}
		if head := strings.Join(srv.HeaderLines(), "\n"); !strings.Contains(head, "the model runs in float32") {
			t.Errorf("%s: no float32 note:\n%s", sp.Offer.Name, head)
		}
	}
	if seen == 0 {
		t.Fatal("no T4 offer wrote a file")
	}
}
