package serve

import "github.com/gpuplan/gpuplan/model"

// Tuning is every constant of the serving model that is fitted to
// published measurements rather than read from vLLM's source or a
// datasheet. DefaultTuning (calibration_bands.go, generated) is the fit
// on every source of testdata/serving_calibration*.toml; the serving
// calibration test refits it without each source in turn
// (leave-one-source-out cross-validation), as the training suite does
// with model.Tuning, and builds the 90% ranges from those out-of-sample
// errors (model.ConformalBand).
type Tuning struct {
	// MFU is the share of the dense peak that prefill (and decode steps
	// with enough sequences to be compute-bound) reaches.
	MFU float64
	// MBU is the share of peak memory bandwidth a decode step reaches
	// while streaming the weights and the KV cache (the MBU of
	// Databricks, "LLM Inference Performance Engineering: Best
	// Practices", 2023).
	MBU float64
	// NonTorchTPGiB is the memory outside PyTorch's allocator that tensor
	// parallelism adds on each GPU, GiB, beyond NonTorchBytes: NCCL's
	// communicators and channel buffers (NCCL_BUFFSIZE, 4 MiB per channel
	// and peer by default) and vLLM's custom all-reduce buffers
	// (vllm/distributed/device_communicators/custom_all_reduce.py). It
	// depends on the NCCL version, its channel count and the links, so it
	// is fitted: the suite's readings run from 0.12 GiB (two PCIe cards,
	// vllm#13061: 0.25 GiB in all) to 1.79 GiB (two H100s, vllm#10511).
	NonTorchTPGiB float64
	// StepOverheadSec is the fixed time of one engine step that the
	// roofline does not see, seconds: vLLM's scheduler, input preparation,
	// sampling and output processing on the CPU, and kernel launches not
	// hidden by CUDA graphs. vLLM's own profile of Llama 3 8B on one H100
	// (vLLM blog, "vLLM v0.6.0: 2.7x Throughput Improvement and 5x Latency
	// Reduction", 2024-09-05, "Performance Diagnosis") found that "29% of
	// the total execution time is spent on scheduling" (v0.5.3); how much
	// of it later releases overlap with the GPU (multi-step and
	// asynchronous scheduling) varies, so it is fitted, from 0 (the
	// roofline alone).
	StepOverheadSec float64
	// LayerOverheadSec is the fixed time of one decoder layer in one
	// engine step, seconds, whatever the step's size: the floor of the
	// layer's kernels (norms, QKV and output projections, rotary, cache
	// write, attention, MLP or an MoE's router, top-k, token sort and
	// grouped GEMMs), each of which takes a few µs to launch and drain
	// even under CUDA graphs, which remove the CPU's launch cost but not
	// the GPU's per-kernel latency (NVIDIA CUDA C++ Best Practices Guide,
	// "CUDA Graphs"; vLLM docs, "CUDA Graphs": decode runs as captured
	// graphs). It is what makes a decode step of a small share of the
	// weights (high TP, an MoE's few active experts) slower than the
	// bandwidth roofline: issue #30's walk found single-stream TPOTs of
	// ~2 ms for DeepSeek-R1 on 8×H200 where published figures are several
	// times slower. The tensor-parallel all-reduces' own latency is
	// separate (tpCommSec, customAllReduceLatency). Fitted, from 0.
	LayerOverheadSec float64
}

// TuningPrior is what each fitted constant is before any serving
// measurement informs it (a fold of the cross-validation whose remaining
// sources say nothing of it): MFU 0.52, Megatron-LM's share of peak on
// A100s (Narayanan et al., 2021, abstract; model.TuningPrior's
// HFUTransformer); MBU 1, the bandwidth roofline itself (Williams et al.,
// 2009); no tensor-parallel memory and no step or layer overhead.
var TuningPrior = Tuning{MFU: 0.52, MBU: 1, NonTorchTPGiB: 0, StepOverheadSec: 0, LayerOverheadSec: 0}

// tuning returns the constants s is estimated with: s.Tuning when set
// (the calibration's cross-validation), else DefaultTuning.
func (s *Serving) tuning() *Tuning {
	if s.Tuning != nil {
		return s.Tuning
	}
	return &DefaultTuning
}

// newBand is calibration_bands.go's constructor of a band.
func newBand(group string, cases, sources int, q [model.BandLevels]float64) *model.Band {
	b := model.NewBand(group, cases, sources, q)
	return &b
}

// CalibrationBand returns the 90% range of a serving estimate of kind
// "kv-cache" (vLLM's KV cache per GPU) or "throughput" (output tokens/s):
// the published figure over the estimate, from the leave-one-source-out
// errors of the serving calibration.
func CalibrationBand(kind string) (model.Band, bool) {
	b, ok := calibrationBands["serve/"+kind]
	if !ok {
		return model.Band{}, false
	}
	return *b, true
}
