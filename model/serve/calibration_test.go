package serve

import (
	"math"
	"slices"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
)

// servingCalibration mirrors testdata/serving_calibration.toml.
type servingCalibration struct {
	Model []struct {
		Key                 string
		Layers, Hidden, FFN int
		Heads               int
		KVHeads             int `toml:"kv_heads"`
		HeadDim             int `toml:"head_dim"`
		Vocab               int
		Tied                bool
		Source              string
	}
	GPU []struct {
		Key                 string
		MemoryGiB           float64 `toml:"memory_gib"`
		MemoryBandwidthGBps float64 `toml:"memory_bandwidth_gbps"`
		BF16TFLOPS          float64 `toml:"bf16_tflops"`
		FP8TFLOPS           float64 `toml:"fp8_tflops"`
		InterconnectGBps    float64 `toml:"interconnect_gbps"`
		Source              string
	}
	Memory []struct {
		Case, Model, Note, Quote string
		WeightFormat             string `toml:"weight_format"`
		TP                       int
		MaxModelLen              int `toml:"max_model_len"`
		Util, Tolerance          float64
		KVCacheGiB               float64 `toml:"kv_cache_gib"`
	}
	Throughput []struct {
		Case, Model, Quote, Note string
		WeightFormat             string `toml:"weight_format"`
		KVCacheDType             string `toml:"kv_cache_dtype"`
		TP, Prompt, Output       int
		OutputTokensPerSec       float64 `toml:"output_tokens_per_sec"`
		Tolerance                float64
	}
}

// loadServingCalibration decodes the calibration file strictly: an unknown
// key is a typo that would silently drop an input.
func loadServingCalibration(tb testing.TB) (servingCalibration, map[string]*model.Architecture, *model.GPU) {
	tb.Helper()
	var c servingCalibration
	md, err := toml.DecodeFile("testdata/serving_calibration.toml", &c)
	if err != nil {
		tb.Fatal(err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		tb.Fatalf("serving_calibration.toml: unknown keys %q", und)
	}
	models := map[string]*model.Architecture{}
	for _, m := range c.Model {
		a := &model.Architecture{Key: m.Key, Family: model.FamilyDecoder, Layers: m.Layers, Hidden: m.Hidden, Heads: m.Heads,
			KVHeads: m.KVHeads, HeadDim: m.HeadDim, FFN: m.FFN, GatedMLP: true, Vocab: m.Vocab, Tied: m.Tied, Norm: model.RMSNorm}
		if err := a.Validate(); err != nil {
			tb.Fatalf("model %s: %v", m.Key, err)
		}
		models[m.Key] = a
	}
	if len(c.GPU) != 1 {
		tb.Fatalf("want one GPU in the calibration file, got %d", len(c.GPU))
	}
	g := c.GPU[0]
	gpu := &model.GPU{Key: g.Key, MemoryGiB: g.MemoryGiB, MemoryBandwidthGBps: g.MemoryBandwidthGBps,
		BF16TFLOPS: g.BF16TFLOPS, FP16TFLOPS: g.BF16TFLOPS, FP8TFLOPS: g.FP8TFLOPS, ComputeCapability: "9.0",
		Interconnect: "nvlink", InterconnectGBps: g.InterconnectGBps}
	return c, models, gpu
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// TestServeCalibration checks the serving model against every published
// measurement in testdata/serving_calibration.toml: each within its
// tolerance, the medians within 7% (KV cache memory) and 15% (throughput).
func TestServeCalibration(t *testing.T) {
	c, models, gpu := loadServingCalibration(t)
	if len(c.Memory)+len(c.Throughput) < 10 {
		t.Fatalf("want ≥ 10 calibration cases, got %d", len(c.Memory)+len(c.Throughput))
	}
	var memErr, tputErr []float64
	for _, m := range c.Memory {
		t.Run("memory/"+m.Case, func(t *testing.T) {
			a := models[m.Model]
			if a == nil {
				t.Fatalf("unknown model %q", m.Model)
			}
			s := Serving{WeightFormat: WeightFormat(m.WeightFormat), MaxModelLen: m.MaxModelLen, GPUMemoryUtilization: m.Util,
				PromptTokens: 1, OutputTokens: 1}.Defaults(gpu)
			mem := MemoryOn(a, &s, gpu, m.TP, 1)
			got := mem.KVCache / model.GiB
			e := math.Abs(got-m.KVCacheGiB) / m.KVCacheGiB
			memErr = append(memErr, e)
			t.Logf("KV cache %.2f GiB, published %.2f GiB (%s), error %.1f%%; weights %.2f GiB, activation %.2f GiB",
				got, m.KVCacheGiB, m.Quote, 100*e, mem.Weights/model.GiB, mem.Activation/model.GiB)
			if e > m.Tolerance {
				t.Errorf("KV cache %.2f GiB, want %.2f GiB within %.0f%%", got, m.KVCacheGiB, 100*m.Tolerance)
			}
		})
	}
	for _, m := range c.Throughput {
		t.Run("throughput/"+m.Case, func(t *testing.T) {
			a := models[m.Model]
			if a == nil {
				t.Fatalf("unknown model %q", m.Model)
			}
			// TensorRT-LLM's limits (max_batch_size 2048, max_num_tokens 8192)
			// and its 0.95 KV-cache fraction, under maximum load.
			s := Serving{WeightFormat: WeightFormat(m.WeightFormat), KVCacheDType: KVCacheDType(m.KVCacheDType),
				PromptTokens: m.Prompt, OutputTokens: m.Output, GPUMemoryUtilization: 0.95,
				MaxNumSeqs: 2048, MaxNumBatchedTokens: 8192}.Defaults(gpu)
			mem := MemoryOn(a, &s, gpu, m.TP, 1)
			hw := Hardware{GPU: gpu, InterconnectGBps: gpu.InterconnectGBps, NVLink: true}
			b := serveMaxBatch(&s, &mem)
			p := Speed(a, &s, &mem, &hw, m.TP, 1, b)
			got := p.OutputTokensPerSec
			e := math.Abs(got-m.OutputTokensPerSec) / m.OutputTokensPerSec
			tputErr = append(tputErr, e)
			tol := m.Tolerance
			if tol == 0 {
				tol = 0.35
			}
			t.Logf("%.0f output tok/s at batch %d (memory-bound %v), published %.0f (%s), error %.1f%%",
				got, b, p.MemoryBound, m.OutputTokensPerSec, m.Quote, 100*e)
			if e > tol {
				t.Errorf("output %.0f tok/s, want %.0f within %.0f%%", got, m.OutputTokensPerSec, 100*tol)
			}
		})
	}
	if md := median(memErr); md > 0.07 {
		t.Errorf("median KV-cache memory error %.1f%%, want ≤ 7%%", 100*md)
	} else {
		t.Logf("median KV-cache memory error %.1f%% over %d cases", 100*md, len(memErr))
	}
	if md := median(tputErr); md > 0.15 {
		t.Errorf("median throughput error %.1f%%, want ≤ 15%%", 100*md)
	} else {
		t.Logf("median throughput error %.1f%% over %d cases", 100*md, len(tputErr))
	}
}
