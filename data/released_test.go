package data

import (
	"testing"

	"github.com/gpuplan/gpuplan/model/serve"
)

// TestReleasedFormats: the catalog rows whose released checkpoint is
// quantized say so, and serve in that format by default (issue 30: R1 was
// sized in bf16, 156 GiB a GPU on 8 × H200). DeepSeek-V3/R1's config.json:
// quantization_config {"quant_method": "fp8", "weight_block_size": [128,
// 128]}; gpt-oss's: quant_method "mxfp4". Everything else is bf16 as released.
func TestReleasedFormats(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]serve.WeightFormat{"deepseek-v3": serve.WeightFP8, "gpt-oss-20b": serve.WeightMXFP4, "gpt-oss-120b": serve.WeightMXFP4}
	for i := range c.Models {
		m := &c.Models[i]
		f, ok := serve.ReleasedFormat(m)
		if f != want[m.Key] || ok != (want[m.Key] != "") {
			t.Errorf("%s: released format %q (%v), want %q", m.Key, f, ok, want[m.Key])
		}
	}
	m, err := c.Model("deepseek-ai/DeepSeek-R1")
	if err != nil || m.WeightBlockSize != [2]int{128, 128} {
		t.Fatalf("DeepSeek-R1: %v, blocks %v; want [128 128]", err, m.WeightBlockSize)
	}
	// 8 × H200 hold R1 in fp8: under 80 GiB a GPU (was 156 in bf16).
	if gib := serve.WeightBytes(m, serve.WeightFP8) / 8 / (1 << 30); gib < 75 || gib > 80 {
		t.Errorf("R1 fp8 weights %.1f GiB per GPU of 8, want 75–80", gib)
	}
}

// TestQuantizedReleaseFormats: a quantized release's id (the names walk:
// Qwen/Qwen3-32B-AWQ, Qwen/Qwen3-8B-FP8) serves in the release's format by
// default; the catalog entries themselves keep theirs (TestReleasedFormats).
func TestQuantizedReleaseFormats(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]serve.WeightFormat{
		"Qwen/Qwen3-32B-AWQ": serve.WeightAWQ, "Qwen/Qwen3-8B-FP8": serve.WeightFP8,
		"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4": serve.WeightGPTQ, "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8": serve.WeightInt8,
		"unsloth/Qwen3-8B-bnb-4bit": serve.WeightBNB, "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4": serve.WeightAWQ,
		"RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8": serve.WeightFP8,
	} {
		m, err := c.Model(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if f, ok := serve.ReleasedFormat(m); f != want || !ok {
			t.Errorf("%s: released format %q (%v), want %q", id, f, ok, want)
		}
	}
}
