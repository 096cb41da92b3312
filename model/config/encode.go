package config

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// Encode writes c as TOML a person can read: one key per line with a
// short comment, tables in the order workload, search, estimate,
// selection. Unknown and default values (0, empty) are left out, so a
// price is never written as 0; dates are quoted strings. It validates c
// first and writes nothing invalid: Decode reads the output back
// into an equal Config.
func Encode(c *Config) ([]byte, error) {
	return EncodeBy(c, WriterConfigurator)
}

// Who writes a configuration file, as its first comment line says.
const (
	WriterConfigurator = "the configurator"
	WriterExport       = "gpuplan export" // the command line: export --format toml
)

// EncodeBy is Encode with the header naming the writer by (WriterExport
// from the command line; a new user read "written by the configurator"
// in a file `gpuplan export --format toml` wrote). The header is a
// comment: Decode reads the same Config whoever wrote it.
func EncodeBy(c *Config, by string) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	var e encoder
	e.comment("gpuplan configuration, written by " + by + ".")
	e.comment("Reopen it with `gpuplan --config FILE`; rank offers from a script with")
	e.comment("`gpuplan recommend --config FILE` (command-line flags override the file).")
	e.kv("schema_version", strconv.Itoa(SchemaVersion), "")
	e.str("lang", c.Lang, "output language: en or zh-CN")

	w := &c.Workload
	e.table("workload", "What runs: every answer of the configurator.")
	e.str("framework", string(w.Framework), "pytorch, tensorflow or jax")
	e.str("task", string(w.Task), "train, finetune, lora, qlora or inference")
	e.str("model", w.Model, "catalog key: gpuplan catalog models")
	e.str("hf_config", w.HFConfig, "read the architecture from this config.json")
	e.str("precision", string(w.Precision), "dtype of weights and compute")
	e.str("optimizer", string(w.Optimizer), "")
	batchNote := "micro-batch per GPU"
	if w.Task == model.TaskInference {
		// The load in all (model.Workload.Defaults: Sequences; serving's
		// Concurrency, WorkloadAnswers.Serving), which the planner spreads
		// over the replicas (model/serve planOne), not each replica's
		// (walk35: a file said "per model replica" of 4 requests served
		// by 8 replicas).
		batchNote = "concurrent requests in all, spread over the replicas"
	}
	e.int("batch_size", w.MicroBatch, batchNote)
	e.int("seq_len", w.SeqLen, "tokens per sample")
	e.int("image_size", w.ImageSize, "pixels per side")
	e.int("grad_accum", w.GradAccum, "micro-batches per optimizer step")
	e.boolp("checkpointing", w.Checkpointing, "recompute activations in backward")
	e.boolp("flash_attention", w.FlashAttention, "fused attention, no s² scores stored")
	e.int("lora_rank", w.LoRARank, "adapter rank r")
	e.strs("lora_targets", w.LoRATargets, "projections with adapters", false)
	e.float("dataset_samples", w.DatasetSamples, "samples per epoch")
	e.float("dataset_tokens", w.DatasetTokens, "tokens per epoch")
	e.float("epochs", w.Epochs, "passes over the dataset")
	switch {
	case w.AutoGPUs:
		e.kv("gpus", `"auto"`, "the fewest whole instances that fit")
	case w.GPUs > 0:
		e.int("gpus", w.GPUs, "total GPUs")
	}
	e.str("strategy", string(w.Strategy), "single, ddp, fsdp, zero1, zero2 or zero3")
	e.int("tp", w.TP, "tensor-parallel degree")
	e.int("gpus_per_node", w.GPUsPerNode, "estimate: GPUs per node for multi-node time (default 8)")
	e.float("network_gbps", w.NetworkGbps, "estimate: node-to-node network, Gbps per node (default: the catalog's for the GPU)")
	e.int("context_len", w.ContextLen, "inference: tokens in the KV cache per sequence")
	e.int("sequences", w.Sequences, "inference: sequences decoded concurrently")
	e.int("gen_tokens", w.GenTokens, "inference: tokens generated per sequence")
	// The range Validate takes (model.MinMFU to 1; 0 is refused, the key
	// left out is the calibrated default), not "0–1".
	e.float("mfu", w.MFU, fmt.Sprintf("model FLOPs utilisation, %g–1 (default: calibrated per family and precision)", model.MinMFU))
	e.str("recipe", string(w.Recipe), "autocast, fsdp-mixed, deepspeed, pure16 or fp32 (default: from precision and strategy)")
	e.str("loss", string(w.Loss), "hf-fp32, fused, chunked or native (default hf-fp32)")
	e.str("quant_type", string(w.QuantType), "qlora: nf4 or fp4 (default nf4)")
	e.str("torch", w.Torch.String(), "PyTorch release the job runs on (default the current stable)")
	e.str("trainer", string(w.Trainer), "hf, litgpt or torchtune (default hf)")
	e.str("zero_grad", string(w.ZeroGrad), "where the loop calls optimizer.zero_grad(): after-step or before-backward (default after-step)")
	e.str("outputs", string(w.Outputs), "how long the loop holds the model's outputs: dropped before backward or kept until the next forward returns (default dropped)")
	e.boolp("double_quant", w.DoubleQuant, "qlora: quantize the absmax constants again (default true)")
	e.switches(&w.Switches)
	if m := w.Custom; m != nil {
		e.table("workload.custom", "A model given by its shape (or parameter count).")
		e.str("family", string(m.Family), "decoder, encoder, encoder-decoder, vit, cnn or unet")
		e.float("params", m.Params, "parameters, when no shape is given")
		e.int("layers", m.Layers, "transformer blocks")
		e.int("hidden", m.Hidden, "hidden size (d_model)")
		e.int("heads", m.Heads, "attention heads")
		e.int("kv_heads", m.KVHeads, "key/value heads (GQA)")
		e.int("ffn", m.FFN, "MLP inner size")
		e.int("vocab", m.Vocab, "vocabulary size")
	}
	if c.ServeLaunch != nil && w.Serve != (serve.Serving{}) {
		return nil, model.Msg("a serving export's [serve] section replaces the workload's serving answers: set one of them")
	}
	e.encodeServe(&w.Serve)

	s := &c.Search
	e.table("search", "Where to rent and how to pay; left-out keys mean no limit.")
	e.strs("providers", s.Providers, "empty: every provider but marketplaces", true)
	e.strs("regions", s.Regions, "names, or prefixes ending in '-'; empty: all", true)
	e.strs("countries", s.Countries, "ISO codes or English names; empty: any", false)
	e.strs("gpus", s.GPUs, "GPU keys the offers are limited to; empty: all", false)
	e.str("pricing", string(s.Pricing), "on-demand, spot, reserved-1y or reserved-3y")
	e.float("max_price_hour", s.MaxPriceHour, "USD per hour, whole deployment")
	e.float("budget_month", s.BudgetMonth, "USD per month")
	e.float("budget_job", s.BudgetJob, "USD for the whole job")
	e.float("hours_per_month", s.HoursPerMonth, "hours used per month (730 is always on)")
	e.float("deadline_hours", s.DeadlineHours, "the job must finish within this")
	e.kv("allow_multi_node", strconv.FormatBool(s.AllowMultiNode), "rent more than one instance")
	e.int("max_gpus", s.MaxGPUs, `gpus = "auto" rents at most this many GPUs`)
	e.kv("allow_precision_fallback", strconv.FormatBool(s.AllowPrecisionFallback), "accept GPUs that run a fallback of the precision")
	e.str("sort", string(s.Sort), "price, monthly, job, time or headroom")
	e.float("usd_cny", s.USDCNY, "1 USD = this many CNY, to rank CNY-priced rows; none is assumed")

	if est := c.Estimate; est != nil {
		e.table("estimate", "What gpuplan estimated on export; for reading only, recomputed on load.")
		e.str("gpu", est.GPU, "GPU the time is for")
		e.float("weights_gib", est.WeightsGiB, "per GPU, incl. gathered parameters and the autocast cast cache")
		e.float("gradients_gib", est.GradientsGiB, "incl. communication buffers")
		e.float("optimizer_states_gib", est.OptimizerStatesGiB, "incl. optimizer-step temporaries")
		e.float("activations_gib", est.ActivationsGiB, "")
		e.float("kv_cache_gib", est.KVCacheGiB, "")
		e.float("overhead_gib", est.OverheadGiB, "CUDA context, workspaces, NCCL, fragmentation")
		e.float("total_gib", est.TotalGiB, "per GPU: the parts above, as nvidia-smi shows it")
		e.float("total_flops", est.TotalFLOPs, "the whole job")
		e.float("hours", est.Hours, "wall clock")
		e.float("gpu_hours", est.GPUHours, "")
		if a := est.Model; a != nil {
			e.table("estimate.model", "The architecture as derived (from the config.json or the custom shape).")
			e.str("family", string(a.Family), "")
			e.float("params", a.Params, "parameters, all resident")
			e.float("active_params", a.ActiveParams, "used per token (MoE: active experts)")
			for _, kv := range []struct {
				k string
				v int
			}{{"layers", a.Layers}, {"decoder_layers", a.DecoderLayers}, {"hidden", a.Hidden}, {"heads", a.Heads},
				{"kv_heads", a.KVHeads}, {"head_dim", a.HeadDim}, {"ffn", a.FFN}, {"vocab", a.Vocab}, {"experts", a.Experts},
				{"experts_per_token", a.ExpertsPerToken}, {"max_positions", a.MaxPositions}} {
				e.int(kv.k, kv.v, "")
			}
			e.kv("gated_mlp", strconv.FormatBool(a.GatedMLP), "")
			e.kv("tied_embeddings", strconv.FormatBool(a.Tied), "")
		}
	}
	if sel := c.Selection; sel != nil {
		e.table("selection", "The offer picked. Prices in USD from the catalog dated below.")
		e.str("provider", sel.Provider, "")
		e.str("instance_type", sel.InstanceType, "")
		e.str("region", sel.Region, "")
		e.str("gpu", sel.GPU, "")
		e.int("gpus", sel.GPUs, "GPUs the job uses")
		e.int("instances", sel.Instances, "instances rented")
		e.str("pricing", string(sel.Pricing), "")
		e.float("price_per_hour_usd", sel.USDPerHour, "whole deployment")
		e.float("monthly_cost_usd", sel.MonthlyUSD, "")
		e.float("job_hours", sel.JobHours, "")
		e.float("job_cost_usd", sel.JobUSD, "the whole job")
		e.str("catalog_as_of", sel.CatalogAsOf, "prices change: check before renting")
		e.str("price_origin", sel.PriceOrigin, "the price is this overlay file's, not the catalog's")
		e.str("price_source", sel.PriceSource, "")
		e.str("price_as_of", sel.PriceAsOf, "")
	}
	// The export sections, each by the TOML library after a blank line.
	for _, sec := range []struct {
		on     bool
		encode func() ([]byte, error)
	}{
		{!c.Export.IsZero(), func() ([]byte, error) { return EncodeExportOptions(c.Export) }},
		{c.ServeLaunch != nil, func() ([]byte, error) { return EncodeServeLaunch(c.ServeLaunch) }},
		{c.Launch != nil, func() ([]byte, error) { return EncodeLaunch(c.Launch) }},
	} {
		if !sec.on {
			continue
		}
		b, err := sec.encode()
		if err != nil {
			return nil, err
		}
		e.b.WriteString("\n")
		e.b.Write(b)
	}
	return []byte(e.b.String()), nil
}

// switches writes the switches that are on, one line each from the
// field's toml and note tags (see Switches).
func (e *encoder) switches(s *model.Switches) {
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if v.Field(i).Bool() {
			f := v.Type().Field(i)
			e.kv(f.Tag.Get("toml"), "true", f.Tag.Get("note"))
		}
	}
}

// encoder writes TOML lines with aligned trailing comments.
type encoder struct{ b strings.Builder }

const commentColumn = 32

func (e *encoder) comment(s string) { fmt.Fprintf(&e.b, "# %s\n", s) }

func (e *encoder) table(name, note string) {
	e.b.WriteString("\n")
	e.comment(note)
	fmt.Fprintf(&e.b, "[%s]\n", name)
}

func (e *encoder) kv(key, value, note string) {
	line := key + " = " + value
	if note != "" {
		pad := max(commentColumn-utf8.RuneCountInString(line), 1)
		line += strings.Repeat(" ", pad) + "# " + note
	}
	e.b.WriteString(line + "\n")
}

func (e *encoder) str(key, v, note string) {
	if v != "" {
		e.kv(key, QuoteTOML(v), note)
	}
}

func (e *encoder) int(key string, v int, note string) {
	if v != 0 {
		e.kv(key, strconv.Itoa(v), note)
	}
}

func (e *encoder) float(key string, v float64, note string) {
	if v != 0 {
		e.kv(key, tomlFloat(v), note)
	}
}

func (e *encoder) boolp(key string, v *bool, note string) {
	if v != nil {
		e.kv(key, strconv.FormatBool(*v), note)
	}
}

func (e *encoder) strs(key string, v []string, note string, always bool) {
	if len(v) == 0 && !always {
		return
	}
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = QuoteTOML(s)
	}
	e.kv(key, "["+strings.Join(q, ", ")+"]", note)
}

// tomlFloat writes v so that it reads back as the same float64 and as a
// TOML float (never an integer): 3.0, 0.25, 1e+18.
func tomlFloat(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return groupDigits(strconv.FormatFloat(v, 'f', 0, 64)) + ".0"
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// groupDigits writes 20000000 as 20_000_000 (TOML allows underscores
// between digits), for reading.
func groupDigits(s string) string {
	if len(s) <= 5 {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// QuoteTOML quotes s as a TOML basic string: quotes, backslashes and
// control characters escaped, everything else (CJK, emoji) as is.
func QuoteTOML(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		case r == utf8.RuneError:
			b.WriteString(`\uFFFD`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
