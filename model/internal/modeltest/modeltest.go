// Package modeltest holds the test fixtures that model's sub-packages
// (serve, config, plan) share: a small catalog whose prices make each
// matching rule visible, a few architectures and GPUs, and a relative comparison of
// floats. model's own
// tests keep their copies: a package model test cannot import a package
// that imports model.
package modeltest

import (
	"math"

	"github.com/gpuplan/gpuplan/model"
)

// Catalog returns a fresh, indexed catalog of three GPU types (g16, g40,
// g80) and instances of two providers, with prices that make each rule of
// model.Recommend visible; model's own tests keep the same catalog as
// testCatalog.
func Catalog() *model.Catalog {
	c := &model.Catalog{
		GPUs: []model.GPU{
			{Key: "g16", Name: "G16", MemoryGiB: 16, ComputeCapability: "7.0", FP32TFLOPS: 15, FP16TFLOPS: 120, MemoryBandwidthGBps: 900},
			{Key: "g40", Name: "G40", MemoryGiB: 40, ComputeCapability: "8.0", FP32TFLOPS: 19.5, TF32TFLOPS: 156, FP16TFLOPS: 312, BF16TFLOPS: 312, MemoryBandwidthGBps: 1555},
			{Key: "g80", Name: "G80", MemoryGiB: 80, ComputeCapability: "9.0", FP32TFLOPS: 67, TF32TFLOPS: 494, FP16TFLOPS: 989, BF16TFLOPS: 989, FP8TFLOPS: 1979, MemoryBandwidthGBps: 3350},
		},
		Instances: []model.Instance{
			{Provider: "p1", Type: "small.1", GPU: "g16", GPUCount: 1, VCPUs: 8, MemoryGiB: 64, Interconnect: "pcie",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 1, SpotUSD: 0.5}, {Region: "eu-west-1", OnDemandUSD: 0.9, SpotUSD: 0.7}}},
			{Provider: "p1", Type: "big.8", GPU: "g16", GPUCount: 8, VCPUs: 64, MemoryGiB: 512, Interconnect: "nvlink",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 8}}},
			{Provider: "p1", Type: "mid.1", GPU: "g40", GPUCount: 1, VCPUs: 12, MemoryGiB: 85,
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 3}}},
			{Provider: "p1", Type: "mid.2", GPU: "g40", GPUCount: 2, VCPUs: 24, MemoryGiB: 170, Interconnect: "pcie",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 6}}},
			{Provider: "p2", Type: "huge.8", GPU: "g80", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 80, SpotUSD: 40}, {Region: "ap-south-1", OnDemandUSD: 90}}},
			{Provider: "p2", Type: "tiny-ram.1", GPU: "g80", GPUCount: 1, VCPUs: 4, MemoryGiB: 4,
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.1}}},
			{Provider: "p2", Type: "old.1", GPU: "g80", GPUCount: 1, VCPUs: 4, MemoryGiB: 64, Retired: "2025-01-01",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.01}}},
		},
		Discounts: []model.Discount{{Provider: "p2", Term: model.Reserved1y, Fraction: 0.25}},
	}
	c.Index()
	return c
}

// Test architectures, shapes from the models' config.json files; model's
// own tests keep the same ones (estimate_test.go).
var (
	Llama2_7B = model.Architecture{Key: "llama-2-7b", Family: model.FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008,
		GatedMLP: true, Vocab: 32000, Norm: model.RMSNorm, MaxPositions: 4096}
	Llama31_8B = model.Architecture{Key: "llama-3.1-8b", Family: model.FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8,
		FFN: 14336, GatedMLP: true, Vocab: 128256, Norm: model.RMSNorm, MaxPositions: 131072}
	BERTBase = model.Architecture{Key: "bert-base", Family: model.FamilyEncoder, Layers: 12, Hidden: 768, Heads: 12, FFN: 3072,
		Vocab: 30522, Tied: true, LinearBias: true, LearnedPositions: 512, TokenTypes: 2, Pooler: true}
	ResNet50 = model.Architecture{Key: "resnet50", Family: model.FamilyCNN, Params: 25557032, ForwardGMACs: 4.089,
		ActivationMiBPerSample: 41.7, ImageSize: 224}
)

// V100 is a Volta GPU (no bf16, no fp8 in vLLM) as the catalog has it;
// model's own tests keep it as fuzzV100.
var V100 = model.GPU{Key: "v100-16gb", Name: "NVIDIA V100", Vendor: "nvidia", ComputeCapability: "7.0", MemoryGiB: 16,
	MemoryBandwidthGBps: 900, FP16TFLOPS: 125, Interconnect: "nvlink", InterconnectGBps: 300}

// Near reports whether got is within rel (relative) of want; within
// 1e-12 of 0 when want is 0.
func Near(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) < 1e-12
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}
