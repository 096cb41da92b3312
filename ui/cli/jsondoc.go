package cli

import (
	"strconv"

	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/ui/report"
)

// The members of recommend's document other than the offers, appended
// as writeJSONStream's encoder writes them (encoding/json's bytes) but
// without its reflection: through go-json-experiment, building the
// encoders of these types and walking the estimate's was ~7% of
// recommend --json's CPU time (~1.2 ms: the warm-up on the other core,
// then the estimate itself), for ~10 KB of a 1.2 MB document. Each
// writes every member of its type in order, with encoding/json's
// omitempty (a struct is never left out); TestRecommendJSONWriterSame
// fills every field by reflection and holds them to the encoder, so a
// member added to one of these types and not here fails there.

// estimateJSON appends a report.EstimateJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) estimateJSON(v *report.EstimateJSON) {
	o.begin('{')
	o.name("model")
	o.modelJSON(&v.Model)
	o.name("workload")
	o.workloadJSON(&v.Workload)
	o.name("params")
	o.b = strconv.AppendInt(o.b, int64(v.Params), 10)
	o.name("trainable_params")
	o.b = strconv.AppendInt(o.b, int64(v.TrainableParams), 10)
	o.name("active_params")
	o.b = strconv.AppendInt(o.b, int64(v.ActiveParams), 10)
	o.name("memory")
	o.memoryJSON(&v.Memory)
	o.name("compute")
	o.computeJSON(&v.Compute)
	o.name("gpu")
	if v.GPU == nil {
		o.raw("null")
	} else {
		o.fitJSON(v.GPU)
	}
	o.name("warnings")
	o.strsValue(v.Warnings)
	o.name("assumptions")
	o.strsValue(v.Assumptions)
	if v.Recipe != "" {
		o.name("recipe")
		o.strValue(v.Recipe)
	}
	o.name("time")
	if v.Time == nil {
		o.raw("null")
	} else {
		o.timeJSON(v.Time)
	}
	o.end('}')
}

// rejectionJSON appends a report.RejectionJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) rejectionJSON(v *report.RejectionJSON) {
	o.begin('{')
	o.name("provider")
	o.strValue(v.Provider)
	o.name("instance_type")
	o.strValue(v.InstanceType)
	o.name("region")
	o.strValue(v.Region)
	o.name("price_per_hour_usd")
	o.floatValue(v.PricePerHourUSD)
	o.name("instances")
	o.b = strconv.AppendInt(o.b, int64(v.Instances), 10)
	o.name("reason")
	o.strValue(v.Reason)
	o.end('}')
}

// riskyAheadJSON appends a report.RiskyAheadJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) riskyAheadJSON(v *report.RiskyAheadJSON) {
	o.begin('{')
	o.name("rank")
	o.b = strconv.AppendInt(o.b, int64(v.Rank), 10)
	o.name("provider")
	o.strValue(v.Provider)
	o.name("instance_type")
	o.strValue(v.InstanceType)
	o.name("region")
	o.strValue(v.Region)
	o.name("gpu")
	o.strValue(v.GPU)
	o.name("gpu_count")
	o.b = strconv.AppendInt(o.b, int64(v.GPUCount), 10)
	o.name("price_per_hour_usd")
	o.floatValue(v.PricePerHourUSD)
	o.name("oom_chance")
	o.floatValue(v.OOMChance)
	o.name("note")
	o.strValue(v.Note)
	o.end('}')
}

// assumptionsJSON appends a report.AssumptionsJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) assumptionsJSON(v *report.AssumptionsJSON) {
	o.begin('{')
	o.name("checkpoint_write_gb_per_s")
	o.floatValue(v.CheckpointWriteGBPerSecond)
	o.name("checkpoint_write_assumption")
	o.b = strconv.AppendBool(o.b, v.CheckpointWriteAssumption)
	o.name("restart_minutes")
	o.floatValue(v.RestartMinutes)
	o.name("restart_assumption")
	o.b = strconv.AppendBool(o.b, v.RestartAssumption)
	o.name("hours_per_month")
	o.floatValue(v.HoursPerMonth)
	o.end('}')
}

// savingsJSON appends a report.SavingsJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) savingsJSON(v *report.SavingsJSON) {
	o.begin('{')
	o.name("base_usd")
	o.floatValue(v.BaseUSD)
	o.name("changes")
	if v.Changes == nil {
		o.raw("null")
	} else {
		o.begin('[')
		for i := range v.Changes {
			o.elem()
			o.adviceSavingJSON(&v.Changes[i])
		}
		o.end(']')
	}
	if v.Error != "" {
		o.name("error")
		o.strValue(v.Error)
	}
	o.end('}')
}

// adviceSavingJSON appends a advice.Saving as the encoder does (jsonIndentOpts).
func (o *jsonOut) adviceSavingJSON(v *advice.Saving) {
	o.begin('{')
	o.name("change")
	o.strValue(v.Change)
	o.name("kind")
	o.strValue(v.Kind)
	o.name("usd")
	o.floatValue(v.USD)
	o.name("saving_usd")
	o.floatValue(v.SavingUSD)
	o.name("saving_pct")
	o.floatValue(v.SavingPct)
	if v.Offer != nil {
		o.name("offer")
		o.adviceSavingOfferJSON(v.Offer)
	}
	if v.OtherOffer {
		o.name("other_offer")
		o.b = strconv.AppendBool(o.b, v.OtherOffer)
	}
	if v.OOMChance != nil {
		o.name("oom_chance")
		o.floatValue(*v.OOMChance)
	}
	o.end('}')
}

// modelJSON appends a report.ModelJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) modelJSON(v *report.ModelJSON) {
	o.begin('{')
	if v.Key != "" {
		o.name("key")
		o.strValue(v.Key)
	}
	if v.Name != "" {
		o.name("name")
		o.strValue(v.Name)
	}
	o.name("family")
	o.strValue(v.Family)
	o.end('}')
}

// workloadJSON appends a report.WorkloadJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) workloadJSON(v *report.WorkloadJSON) {
	o.begin('{')
	o.name("framework")
	o.strValue(v.Framework)
	if v.Torch != "" {
		o.name("torch")
		o.strValue(v.Torch)
	}
	if v.Trainer != "" {
		o.name("trainer")
		o.strValue(v.Trainer)
	}
	if v.ZeroGrad != "" {
		o.name("zero_grad")
		o.strValue(v.ZeroGrad)
	}
	if v.Outputs != "" {
		o.name("outputs")
		o.strValue(v.Outputs)
	}
	o.name("task")
	o.strValue(v.Task)
	o.name("precision")
	o.strValue(v.Precision)
	if v.Optimizer != "" {
		o.name("optimizer")
		o.strValue(v.Optimizer)
	}
	o.name("batch_size")
	o.b = strconv.AppendInt(o.b, int64(v.BatchSize), 10)
	if v.SeqLen != 0 {
		o.name("seq_len")
		o.b = strconv.AppendInt(o.b, int64(v.SeqLen), 10)
	}
	if v.ImageSize != 0 {
		o.name("image_size")
		o.b = strconv.AppendInt(o.b, int64(v.ImageSize), 10)
	}
	o.name("grad_accum")
	o.b = strconv.AppendInt(o.b, int64(v.GradAccum), 10)
	o.name("checkpointing")
	o.b = strconv.AppendBool(o.b, v.Checkpointing)
	o.name("flash_attention")
	o.b = strconv.AppendBool(o.b, v.FlashAttention)
	if v.LoRARank != 0 {
		o.name("lora_rank")
		o.b = strconv.AppendInt(o.b, int64(v.LoRARank), 10)
	}
	if len(v.LoRATargets) != 0 {
		o.name("lora_targets")
		o.strsValue(v.LoRATargets)
	}
	if v.DatasetSamples != 0 {
		o.name("dataset_samples")
		o.floatValue(v.DatasetSamples)
	}
	if v.DatasetTokens != 0 {
		o.name("dataset_tokens")
		o.floatValue(v.DatasetTokens)
	}
	o.name("epochs")
	o.floatValue(v.Epochs)
	o.name("gpus")
	o.b = strconv.AppendInt(o.b, int64(v.GPUs), 10)
	o.name("strategy")
	o.strValue(v.Strategy)
	o.name("tp")
	o.b = strconv.AppendInt(o.b, int64(v.TP), 10)
	if v.ContextLen != 0 {
		o.name("context_len")
		o.b = strconv.AppendInt(o.b, int64(v.ContextLen), 10)
	}
	if v.Sequences != 0 {
		o.name("sequences")
		o.b = strconv.AppendInt(o.b, int64(v.Sequences), 10)
	}
	if v.GenTokens != 0 {
		o.name("gen_tokens")
		o.b = strconv.AppendInt(o.b, int64(v.GenTokens), 10)
	}
	if v.GlobalBatchAsked != 0 {
		o.name("global_batch_asked")
		o.b = strconv.AppendInt(o.b, int64(v.GlobalBatchAsked), 10)
	}
	if v.GlobalBatch != 0 {
		o.name("global_batch")
		o.b = strconv.AppendInt(o.b, int64(v.GlobalBatch), 10)
	}
	if v.Switches.OffloadOptimizer {
		o.name("offload_optimizer")
		o.b = strconv.AppendBool(o.b, v.Switches.OffloadOptimizer)
	}
	if v.Switches.OffloadParams {
		o.name("offload_params")
		o.b = strconv.AppendBool(o.b, v.Switches.OffloadParams)
	}
	if v.Switches.OffloadActivations {
		o.name("offload_activations")
		o.b = strconv.AppendBool(o.b, v.Switches.OffloadActivations)
	}
	if v.Switches.OptimizerInBackward {
		o.name("optimizer_in_backward")
		o.b = strconv.AppendBool(o.b, v.Switches.OptimizerInBackward)
	}
	if v.Switches.ChannelsLast {
		o.name("channels_last")
		o.b = strconv.AppendBool(o.b, v.Switches.ChannelsLast)
	}
	o.end('}')
}

// memoryJSON appends a report.MemoryJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) memoryJSON(v *report.MemoryJSON) {
	o.begin('{')
	o.name("per_gpu_bytes")
	o.breakdownJSON(&v.PerGPUBytes)
	o.name("overhead_bytes")
	o.overheadJSON(&v.OverheadBytes)
	o.name("allocator")
	o.strValue(v.Allocator)
	o.name("torch_allocated_bytes")
	o.b = strconv.AppendInt(o.b, int64(v.TorchAllocatedBytes), 10)
	o.name("torch_reserved_bytes")
	o.b = strconv.AppendInt(o.b, int64(v.TorchReservedBytes), 10)
	o.name("peak_phase")
	o.strValue(v.PeakPhase)
	o.name("phases")
	if v.Phases == nil {
		o.raw("null")
	} else {
		o.begin('[')
		for i := range v.Phases {
			o.elem()
			o.phaseJSON(&v.Phases[i])
		}
		o.end(']')
	}
	o.name("band")
	if v.Band == nil {
		o.raw("null")
	} else {
		o.bandJSON(v.Band)
	}
	if v.TorchAllocatedBand != nil {
		o.name("torch_allocated_band")
		o.bandJSON(v.TorchAllocatedBand)
	}
	if v.TorchReservedBand != nil {
		o.name("torch_reserved_band")
		o.bandJSON(v.TorchReservedBand)
	}
	o.end('}')
}

// computeJSON appends a report.ComputeJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) computeJSON(v *report.ComputeJSON) {
	o.begin('{')
	o.name("flops_per_sample")
	o.floatValue(v.FLOPsPerSample)
	o.name("flops_per_step")
	o.floatValue(v.FLOPsPerStep)
	o.name("samples_per_step")
	o.floatValue(v.SamplesPerStep)
	o.name("steps")
	o.floatValue(v.Steps)
	o.name("total_flops")
	o.floatValue(v.TotalFLOPs)
	o.name("mfu")
	o.floatValue(v.MFU)
	o.name("peak_tflops")
	if v.PeakTFLOPS == nil {
		o.raw("null")
	} else {
		o.floatValue(*v.PeakTFLOPS)
	}
	o.name("samples_per_second")
	if v.SamplesPerSecond == nil {
		o.raw("null")
	} else {
		o.floatValue(*v.SamplesPerSecond)
	}
	o.name("hours")
	if v.Hours == nil {
		o.raw("null")
	} else {
		o.floatValue(*v.Hours)
	}
	o.name("gpu_hours")
	if v.GPUHours == nil {
		o.raw("null")
	} else {
		o.floatValue(*v.GPUHours)
	}
	if v.Network != nil {
		o.name("network")
		o.networkJSON(v.Network)
	}
	o.end('}')
}

// fitJSON appends a report.FitJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) fitJSON(v *report.FitJSON) {
	o.begin('{')
	o.name("key")
	o.strValue(v.Key)
	o.name("name")
	o.strValue(v.Name)
	o.name("memory_gib")
	o.floatValue(v.MemoryGiB)
	o.name("usable_bytes")
	o.b = strconv.AppendInt(o.b, int64(v.UsableBytes), 10)
	o.name("visible_bytes")
	o.b = strconv.AppendInt(o.b, int64(v.VisibleBytes), 10)
	o.name("fits")
	o.b = strconv.AppendBool(o.b, v.Fits)
	o.name("max_micro_batch")
	o.b = strconv.AppendInt(o.b, int64(v.MaxMicroBatch), 10)
	o.name("advice")
	if v.Advice == nil {
		o.raw("null")
	} else {
		o.begin('[')
		for i := range v.Advice {
			o.elem()
			o.adviceJSON(&v.Advice[i])
		}
		o.end(']')
	}
	o.name("verdict")
	o.strValue(v.Verdict)
	if v.OOMChance != nil {
		o.name("oom_chance")
		o.floatValue(*v.OOMChance)
	}
	if v.Refused != "" {
		o.name("refused")
		o.strValue(v.Refused)
	}
	o.name("tips")
	if v.Tips == nil {
		o.raw("null")
	} else {
		o.begin('[')
		for i := range v.Tips {
			o.elem()
			o.tipJSON(&v.Tips[i])
		}
		o.end(']')
	}
	o.end('}')
}

// timeJSON appends a report.TimeJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) timeJSON(v *report.TimeJSON) {
	o.begin('{')
	o.name("hours")
	o.floatValue(v.Hours)
	o.name("band")
	o.bandJSON(&v.Band)
	o.end('}')
}

// adviceSavingOfferJSON appends a advice.SavingOffer as the encoder does (jsonIndentOpts).
func (o *jsonOut) adviceSavingOfferJSON(v *advice.SavingOffer) {
	o.begin('{')
	o.name("provider")
	o.strValue(v.Provider)
	o.name("instance_type")
	o.strValue(v.InstanceType)
	o.name("region")
	o.strValue(v.Region)
	o.name("gpu")
	o.strValue(v.GPU)
	o.name("gpu_count")
	o.b = strconv.AppendInt(o.b, int64(v.GPUs), 10)
	o.name("strategy")
	o.strValue(v.Strategy)
	o.name("pricing")
	o.strValue(v.Pricing)
	o.end('}')
}

// breakdownJSON appends a report.BreakdownJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) breakdownJSON(v *report.BreakdownJSON) {
	o.begin('{')
	o.name("weights")
	o.b = strconv.AppendInt(o.b, int64(v.Weights), 10)
	o.name("gradients")
	o.b = strconv.AppendInt(o.b, int64(v.Gradients), 10)
	o.name("optimizer_states")
	o.b = strconv.AppendInt(o.b, int64(v.OptimizerStates), 10)
	o.name("activations")
	o.b = strconv.AppendInt(o.b, int64(v.Activations), 10)
	o.name("kv_cache")
	o.b = strconv.AppendInt(o.b, int64(v.KVCache), 10)
	o.name("overhead")
	o.b = strconv.AppendInt(o.b, int64(v.Overhead), 10)
	o.name("total")
	o.b = strconv.AppendInt(o.b, int64(v.Total), 10)
	o.name("gathered")
	o.b = strconv.AppendInt(o.b, int64(v.Gathered), 10)
	o.name("cast_cache")
	o.b = strconv.AppendInt(o.b, int64(v.CastCache), 10)
	o.name("buffers")
	o.b = strconv.AppendInt(o.b, int64(v.Buffers), 10)
	o.name("temporaries")
	o.b = strconv.AppendInt(o.b, int64(v.Temporaries), 10)
	o.end('}')
}

// overheadJSON appends a report.OverheadJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) overheadJSON(v *report.OverheadJSON) {
	o.begin('{')
	o.name("cuda_context")
	o.b = strconv.AppendInt(o.b, int64(v.CUDAContext), 10)
	o.name("workspace")
	o.b = strconv.AppendInt(o.b, int64(v.Workspace), 10)
	o.name("communication")
	o.b = strconv.AppendInt(o.b, int64(v.Communication), 10)
	o.name("fragmentation")
	o.b = strconv.AppendInt(o.b, int64(v.Fragmentation), 10)
	o.end('}')
}

// phaseJSON appends a report.PhaseJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) phaseJSON(v *report.PhaseJSON) {
	o.begin('{')
	o.name("phase")
	o.strValue(v.Phase)
	o.name("bytes")
	o.breakdownJSON(&v.Bytes)
	o.end('}')
}

// bandJSON appends a report.BandJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) bandJSON(v *report.BandJSON) {
	o.begin('{')
	o.name("low")
	o.floatValue(v.Low)
	o.name("high")
	o.floatValue(v.High)
	o.name("confidence")
	o.floatValue(v.Confidence)
	o.name("cases")
	o.b = strconv.AppendInt(o.b, int64(v.Cases), 10)
	o.name("sources")
	o.b = strconv.AppendInt(o.b, int64(v.Sources), 10)
	o.name("group")
	o.strValue(v.Group)
	if v.UncalibratedVendor != "" {
		o.name("uncalibrated_vendor")
		o.strValue(v.UncalibratedVendor)
	}
	o.end('}')
}

// networkJSON appends a report.NetworkJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) networkJSON(v *report.NetworkJSON) {
	o.begin('{')
	o.name("nodes")
	o.b = strconv.AppendInt(o.b, int64(v.Nodes), 10)
	o.name("gpus_per_node")
	o.b = strconv.AppendInt(o.b, int64(v.GPUsPerNode), 10)
	o.name("gbps")
	o.floatValue(v.Gbps)
	o.name("per_gpu_gbps")
	o.floatValue(v.PerGPUGBps)
	o.name("source")
	o.strValue(v.Source)
	if v.CatalogTypes != 0 {
		o.name("catalog_types")
		o.b = strconv.AppendInt(o.b, int64(v.CatalogTypes), 10)
	}
	o.end('}')
}

// adviceJSON appends a report.AdviceJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) adviceJSON(v *report.AdviceJSON) {
	o.begin('{')
	o.name("change")
	o.strValue(v.Change)
	o.name("per_gpu_bytes")
	o.b = strconv.AppendInt(o.b, int64(v.PerGPUBytes), 10)
	o.name("fits")
	o.b = strconv.AppendBool(o.b, v.Fits)
	o.end('}')
}

// tipJSON appends a report.TipJSON as the encoder does (jsonIndentOpts).
func (o *jsonOut) tipJSON(v *report.TipJSON) {
	o.begin('{')
	o.name("change")
	o.strValue(v.Change)
	o.name("per_gpu_bytes")
	o.b = strconv.AppendInt(o.b, int64(v.PerGPUBytes), 10)
	o.name("memory_saved_pct")
	o.floatValue(v.MemorySavedPct)
	o.name("gpu_hours")
	if v.GPUHours == nil {
		o.raw("null")
	} else {
		o.floatValue(*v.GPUHours)
	}
	o.name("cost_saved_pct")
	if v.CostSavedPct == nil {
		o.raw("null")
	} else {
		o.floatValue(*v.CostSavedPct)
	}
	o.name("fits")
	o.b = strconv.AppendBool(o.b, v.FitsAfterChange)
	o.end('}')
}
