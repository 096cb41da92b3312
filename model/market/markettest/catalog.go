// Package markettest holds the test fixture of the market browser: a
// small catalog whose prices exercise each rule of market.Browse. The
// market's tests and those of its renderers (ui/report) and parsers share
// it, as net/http/httptest is shared.
package markettest

import "github.com/gpuplan/gpuplan/model"

// Catalog returns a fresh, indexed catalog of GPUs and instances whose
// prices make each rule of market.Browse visible. Prices are USD per hour
// for the whole instance.
func Catalog() *model.Catalog {
	c := &model.Catalog{
		GPUs: []model.GPU{
			{Key: "h100-sxm", Name: "NVIDIA H100 SXM5 80GB", Aliases: []string{"H100", "H100-SXM"}, Vendor: "nvidia", MemoryGiB: 80},
			{Key: "h100-pcie", Name: "NVIDIA H100 PCIe", Aliases: []string{"H100-PCIe-80GB"}, Vendor: "nvidia", MemoryGiB: 80},
			{Key: "a100-80gb", Name: "NVIDIA A100 80GB", Aliases: []string{"A100-80GB"}, Vendor: "nvidia", MemoryGiB: 80},
			{Key: "a100-40gb", Name: "NVIDIA A100 40GB", Aliases: []string{"A100"}, Vendor: "nvidia", MemoryGiB: 40},
			{Key: "l4", Name: "NVIDIA L4", Aliases: []string{"L4"}, Vendor: "nvidia", MemoryGiB: 24},
			{Key: "l40s", Name: "NVIDIA L40S", Aliases: []string{"L40S"}, Vendor: "nvidia", MemoryGiB: 48},
			{Key: "mi300x", Name: "AMD Instinct MI300X", Aliases: []string{"MI300X"}, Vendor: "amd", MemoryGiB: 192},
			{Key: "gh200", Name: "NVIDIA GH200", Aliases: []string{"GH200"}, Vendor: "nvidia", MemoryGiB: 96},
		},
		Instances: []model.Instance{
			{Provider: "aws", Type: "p5.48xlarge", GPU: "h100-sxm", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", Fabric: "efa",
				Source: "aws src", AsOf: "2026-11-30", Origin: "embedded", Prices: []model.RegionPrice{
					{Region: "us-west-2", OnDemandUSD: 98.32, SpotUSD: 40},
					{Region: "us-east-1", OnDemandUSD: 98.32, SpotUSD: 30},
					{Region: "eu-north-1", OnDemandUSD: 110},
					{Region: "us-east-2", OnDemandUSD: 98.32, SpotUSD: 25},
				}},
			{Provider: "lambda", Type: "gpu_1x_h100_pcie", GPU: "h100-pcie", GPUCount: 1, VCPUs: 26, MemoryGiB: 200, Interconnect: "pcie",
				Source: "lambda src", AsOf: "2026-11-30", Prices: []model.RegionPrice{
					{Region: "us-east-1", OnDemandUSD: 2.49}, {Region: "us-west-1", OnDemandUSD: 2.49}, {Region: "europe-central-1", OnDemandUSD: 2.49},
				}},
			{Provider: "lambda", Type: "gpu_8x_a100_80gb", GPU: "a100-80gb", GPUCount: 8, VCPUs: 240, MemoryGiB: 1800, Interconnect: "nvswitch",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 14.32}}},
			{Provider: "gcp", Type: "a2-highgpu-1g", GPU: "a100-40gb", GPUCount: 1, VCPUs: 12, MemoryGiB: 85, Source: "gcp src",
				Prices: []model.RegionPrice{
					{Region: "us-central1", OnDemandUSD: 3.67, SpotUSD: 1.1},
					{Region: "europe-west4", OnDemandUSD: 3.67, SpotUSD: 1.2, Patch: &model.PricePatch{Source: "our deal", Origin: "deal.toml"}},
					{Region: "asia-east1", OnDemandUSD: 4},
				}},
			{Provider: "gcp", Type: "g2-standard-4", GPU: "l4", GPUCount: 1, VCPUs: 4, MemoryGiB: 16, Interconnect: "pcie",
				Prices: []model.RegionPrice{{Region: "us-central1", OnDemandUSD: 0.71, SpotUSD: 0.22}, {Region: "europe-west1", OnDemandUSD: 0.78}}},
			{Provider: "aws", Type: "g6.12xlarge", GPU: "l4", GPUCount: 4, VCPUs: 48, MemoryGiB: 192, Interconnect: "pcie",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 4.6, SpotUSD: 1.5}}},
			{Provider: "lambda", Type: "gpu_1x_gh200", GPU: "gh200", CPUArch: "arm64", GPUCount: 1, VCPUs: 64, MemoryGiB: 432, Interconnect: "nvlink",
				Prices: []model.RegionPrice{{Region: "us-east-3", OnDemandUSD: 1.49}}},
			{Provider: "azure", Type: "Standard_ND96isr_H100_v5", GPU: "h100-sxm", GPUCount: 8, VCPUs: 96, MemoryGiB: 1900, Interconnect: "nvswitch", Fabric: "infiniband",
				Prices: []model.RegionPrice{{Region: "eastus", OnDemandUSD: 98.32}}},
			{Provider: "vast", Type: "1x-l40s", GPU: "l40s", GPUCount: 1, VCPUs: 16, MemoryGiB: 64,
				Prices: []model.RegionPrice{{Region: "us-ca", OnDemandUSD: 0.6}}},
			{Provider: "aws", Type: "g6-old", GPU: "l4", GPUCount: 1, VCPUs: 4, MemoryGiB: 16, Retired: "2025-01-01",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.1}}},
			{Provider: "oci", Type: "BM.GPU.MI300X.8", GPU: "mi300x", GPUCount: 8, VCPUs: 224, MemoryGiB: 2048, Interconnect: "infinity-fabric",
				Prices: []model.RegionPrice{{Region: "us-ashburn-1", OnDemandUSD: 48}}},
			{Provider: "aws", Type: "g6.xlarge", GPU: "l4", GPUCount: 1, VCPUs: 4, MemoryGiB: 16, Interconnect: "pcie",
				Prices: []model.RegionPrice{{Region: "us-east-1", SpotUSD: 0.3}}}, // spot only
		},
		Discounts: []model.Discount{{Provider: "aws", Term: model.Reserved1y, Fraction: 0.4, Prefixes: []string{"p5."}}},
	}
	c.Index()
	return c
}
