package advice

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// MaxMicroBatch returns the largest micro-batch per GPU (sequences for
// inference) that fits capBytes across its 90% band, what the ✓ verdict
// means (model.MemoryVerdict: VerdictFits), or 0 when even a batch of 1
// does not. A batch that fits only at the estimate is borderline, not a
// batch that fits (a new user's walk: "~ borderline … largest
// micro-batch that fits: 2", and batch 2 re-run reached 82.90 GiB, past
// what the driver exposes); MaxBorderlineBatch finds those. Memory never
// falls as the batch grows (each phase is affine in it; the peak is their
// maximum, the band a fixed ratio of it), so a doubling search then a
// bisection find it in O(log batch) evaluations. The error is Compute's.
func MaxMicroBatch(w model.Workload, capBytes float64) (int, error) {
	return maxBatch(w, func(e *model.Estimate) bool {
		return model.MemoryVerdict(e.ResidentNeed(), e.ResidentBand(), capBytes) == model.VerdictFits
	})
}

// MaxBorderlineBatch is MaxMicroBatch at the estimate alone: the largest
// micro-batch whose per-GPU need fits capBytes, its band past it or not
// (fits or borderline), 0 when none.
func MaxBorderlineBatch(w model.Workload, capBytes float64) (int, error) {
	return maxBatch(w, func(e *model.Estimate) bool { return e.ResidentNeed() <= capBytes })
}

// fittingBatch is the micro-batch the advice sizes a change to: the
// largest that fits across its band (MaxMicroBatch), else the largest
// that fits at the estimate (borderline), 0 when none. The estimate's
// search runs first: most widths the advice tries fit nothing, which one
// Compute tells, and a batch that fits across its band fits at the
// estimate too, so the ✓ search runs only when the largest at the
// estimate is borderline.
func fittingBatch(w model.Workload, capBytes float64) (int, error) {
	b, err := MaxBorderlineBatch(w, capBytes)
	if err != nil || b == 0 {
		return b, err
	}
	v := w
	v.Defaults()
	if v.Task == model.TaskInference {
		v.Sequences = b
	} else {
		v.MicroBatch = b
	}
	if e, err := model.Compute(v, nil); err == nil && model.MemoryVerdict(e.ResidentNeed(), e.ResidentBand(), capBytes) == model.VerdictFits {
		return b, nil
	}
	if f, err := MaxMicroBatch(w, capBytes); err == nil && f > 0 {
		return f, nil
	}
	return b, nil
}

// maxBatch is the largest batch of w (micro-batch, or sequences for
// inference) that fits says fits, up to model.MaxBatch; fits must be
// monotone (true up to some batch, false past it).
func maxBatch(w model.Workload, fits func(*model.Estimate) bool) (int, error) {
	batchOf := func(w *model.Workload) *int {
		if w.Task == model.TaskInference {
			return &w.Sequences
		}
		return &w.MicroBatch
	}
	w.Defaults()
	try := func(b int) (bool, error) {
		v := w
		*batchOf(&v) = b
		e, err := model.Compute(v, nil)
		return err == nil && fits(&e), err
	}
	ok, err := try(1)
	if err != nil || !ok {
		return 0, err
	}
	lo, hi := 1, 2 // try(lo); hi unknown
	for hi <= model.MaxBatch {
		if ok, _ := try(hi); !ok {
			break
		}
		lo, hi = hi, hi*2
	}
	if hi > model.MaxBatch {
		return lo, nil
	}
	for hi-lo > 1 { // try(lo), !try(hi)
		mid := lo + (hi-lo)/2
		if ok, _ := try(mid); ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// Advice is one change that lowers the per-GPU memory of a workload.
type Advice struct {
	Change string        // what to change, in words: "turn on activation checkpointing"
	Msg    model.Message // Change as a message, for translation (Msg.String() == Change)
	// Bare is a single change's Msg without the flags that run it, as a
	// tip names it beside its saving (Tips); Msg when zero.
	Bare     model.Message
	Workload model.Workload // the workload with the change applied
	Total    float64        // per-GPU bytes after the change
	Fits     bool           // whether Total fits the capacity asked about
	// Verdict is model.MemoryVerdict of Total and its 90% band against
	// the capacity: a change that fits at the estimate but whose band
	// reaches past it is borderline, as estimate says when the change is
	// run (a new user's trial: ZeRO-3 advised ✓ at 64.49 GiB, estimate's
	// "~ borderline" with the same flags).
	Verdict model.FitVerdict
	// Combined is set on a combination of savers (combine): more than one
	// change, which the words around it must not call "one change".
	Combined bool
	// withSavers is set on sharding with savers (the checkpointing pairs,
	// shardCombine), which dropDominatedShards weighs against each other.
	withSavers bool
	// changes is how many changes the line makes, a sharding and each
	// saver with it one each (sortAdvice: fewer first); 0 for one.
	changes int
}

// FitAdvice returns the changes that lower w's per-GPU memory below
// capBytes, or as far as they go, each applied alone to w: activation
// checkpointing, flash attention, mixed precision, pure bf16 instead of
// autocast, a chunked loss instead of fp32 logits, an 8-bit optimizer,
// ZeRO-3/FSDP over the fewest GPUs (up to 64) that fit and share the
// global batch (Workload.OnGPUs), a smaller micro-batch with gradient
// accumulation to keep the global batch; for inference int8/int4 weights
// of a causal LM (quantizableWeights),
// fewer concurrent sequences and tensor parallelism. Every change keeps
// the job: its task, model and global batch (no LoRA instead of full
// training); the one exception, a per-GPU micro-batch whose global batch
// is too small to share (1 sample), shards at that micro-batch per GPU
// and says the global batch it makes. Changes that do not lower memory
// are left out. Each line names the estimate flags that run it
// ("(--checkpointing)", "(--strategy zero3 --gpus 8 …)"; for inference
// "(--precision int4)", "(--sequences 8)", "(--tp 2 --gpus 2)"), so a
// re-run gives its figure (for a causal LM's inference, the batch
// estimate: estimate without --gpu, as --gpu plans vLLM serving). A "fit" is sized as the ✓ verdict means it where it
// can be (a micro-batch that fits across its 90% band: MaxMicroBatch),
// else at the estimate (~).
//
// When no change fits across its band within one node, sharding is
// tried with the savers together (shardCombine), in smallestSet's order:
// a ✓ before a ~; fewer GPUs; mixed precision kept (no pure bf16) when a
// set without it fits on as many GPUs; fewer savers. A sharding with
// savers that another beats in that order on as few GPUs is left out
// (dropDominatedShards). Listed in that order too (sortAdvice): a ✓
// before a ~ before the rest; of those that fit, fewer GPUs, mixed
// precision kept, fewer changes; then by total.
//
// One node holds w.GPUsPerNode GPUs, model.DefaultGPUsPerNode when unset;
// FitAdviceNode takes the node the catalog rents.
func FitAdvice(w model.Workload, capBytes float64) []Advice {
	return FitAdviceNode(w, capBytes, cmp.Or(w.GPUsPerNode, model.DefaultGPUsPerNode))
}

// FitAdviceNode is FitAdvice where one node holds node GPUs of the type
// (model.Catalog.LargestNode: 8 for the L4, aws g6.48xlarge): a batch
// asked per GPU shards over up to a node past the counts its global
// batch shares, sharding combines with the savers when nothing else fits
// (shardCombine), and changes past one node are left out when one within
// it fits (pastOneNode).
func FitAdviceNode(w model.Workload, capBytes float64, node int) []Advice {
	return fitAdviceOn(w, nil, capBytes, node, false)
}

// FitAdviceRanked is FitAdviceOn for a search that picks the GPU count
// (recommend), g nil for any GPU: a batch asked per GPU (no
// --grad-accum: w.BatchPerGPU) stays per GPU in the changes that move
// the micro-batch, a smaller one alone and the savers combined on w's
// GPUs, flagged --batch-size alone, as recommend ranks every offer's GPUs
// at it. estimate's "--batch-size 1 --grad-accum 4", the same global
// batch on the GPUs it was given, pins a global batch of 4 in recommend,
// which an 8-GPU host cannot split (a verification walk: Llama 3.1 8B's
// full fine-tune on L4 lost its hint, the 8 L4 it had ranked all "did
// not pass: global batch").
func FitAdviceRanked(w model.Workload, g *model.GPU, capBytes float64, node int) []Advice {
	return fitAdviceOn(w, g, capBytes, node, true)
}

// FitAdviceOn is FitAdviceNode for GPUs of type g: a change g cannot run
// (model.CannotRun: pure bf16 on a GPU without bf16, fp16 for a model
// that overflows it) is neither advised nor searched, so the combined
// searches find what runs there instead of a set RunnableOn then drops
// (a new user's walk: Qwen3 4B's full fine-tune on a T4 was told only ✗,
// the smallest sharded sets all holding pure bf16, while FSDP over 8 T4
// with checkpointing and a chunked loss fits).
func FitAdviceOn(w model.Workload, g *model.GPU, capBytes float64, node int) []Advice {
	return fitAdviceOn(w, g, capBytes, node, false)
}

// fitAdviceOn is the one body of the FitAdvice entry points: the advice
// for GPUs of type g (nil: any GPU), searched and kept only where g runs
// it (model.CannotRun), ranked as FitAdviceRanked says.
func fitAdviceOn(w model.Workload, g *model.GPU, capBytes float64, node int, ranked bool) []Advice {
	if g == nil {
		return fitAdvice(w, capBytes, node, ranked, func(*model.Workload) bool { return true })
	}
	return RunnableOn(fitAdvice(w, capBytes, node, ranked, func(v *model.Workload) bool { return model.CannotRun(v, g).IsZero() }), g)
}

// fitAdvice is FitAdviceNode keeping only the changes runs accepts;
// ranked keeps a batch asked per GPU per GPU (FitAdviceRanked).
func fitAdvice(w model.Workload, capBytes float64, node int, ranked bool, runs func(*model.Workload) bool) []Advice {
	node = max(node, 1)
	w.Defaults()
	base, err := model.Compute(w, nil)
	if err != nil {
		return nil
	}
	var out []Advice
	// try adds the change m, the estimate flags that run it (said in
	// the line, so a re-run of them gives its figure; "" when m says
	// them), as v, when it helps.
	try := func(m model.Message, flags string, v model.Workload) {
		if !runs(&v) {
			return
		}
		bare := m
		m = withFlags(m, flags)
		e, err := model.Compute(v, nil)
		if err != nil || e.Memory.Total() >= base.Memory.Total()*0.999 {
			return
		}
		if e.Memory.Total() > capBytes && e.Memory.Total() > base.Memory.Total()*0.9 {
			return // neither fits nor helps much: noise
		}
		out = append(out, Advice{Change: m.String(), Msg: m, Bare: bare, Workload: v, Total: e.Memory.Total(), Fits: e.Memory.Total() <= capBytes,
			Verdict: model.MemoryVerdict(e.Memory.Total(), e.MemoryBand, capBytes)})
	}
	v := w
	if w.Task.Training() {
		if !w.Ckpt() {
			v = w
			v.Checkpointing = model.Bool(true)
			try(model.Msg("turn on activation checkpointing (about 33%% more compute)"), "--checkpointing", v)
		}
		if !w.Flash() && w.Model.HasShape() {
			v = w
			v.FlashAttention = model.Bool(true)
			try(model.Msg("use flash attention (fused scaled_dot_product_attention)"), "--flash-attention", v)
		}
		if w.Precision == model.FP32 || w.Precision == model.TF32 {
			v = w
			v.Precision = model.AMPBF16
			try(model.Msg("train in mixed precision (amp-bf16; amp-fp16 on GPUs without bf16)"), "--precision amp-bf16", v)
		}
		if r := w.TrainingRecipe(); (r == model.RecipeAutocast || r == model.RecipeFSDPMixed) && w.Task != model.TaskQLoRA {
			v = w
			v.Precision, v.Recipe = model.BF16, model.RecipeAuto
			try(model.Msg("load the model in bf16 and train in pure bf16 (no fp32 copy, no cast cache; needs bf16 hardware)"), "--precision bf16", v)
		}
		if w.CountsLogits() && w.LossImpl() == model.LossHFUpcast && w.Model.HasShape() {
			v = w
			v.Loss = model.LossChunked
			try(model.Msg("use a chunked linear cross-entropy (Liger, Cut Cross-Entropy) instead of fp32 logits"), "--loss chunked", v)
		}
		if w.Optimizer == model.Adam || w.Optimizer == model.AdamW || w.Optimizer == model.AdamWFused {
			v = w
			v.Optimizer = model.AdamW8bit
			try(model.Msg("use 8-bit AdamW (bitsandbytes)"), "--optimizer adamw-8bit", v)
		}
		// A smaller micro-batch on the same GPUs, before any sharding, so
		// that the changes below see what fits on the GPUs asked.
		perGPU := ranked && w.BatchPerGPU
		if w.MicroBatch > 1 && perGPU {
			// Per GPU, as the search ranks it: the global batch is the
			// micro-batch times each offer's GPUs, said so.
			if b, err := fittingBatch(w, capBytes); err == nil && b < w.MicroBatch {
				v = w
				v.MicroBatch = max(b, 1)
				try(model.Msg("micro-batch %d per GPU (a global batch of %d × each offer's GPUs)", v.MicroBatch, v.MicroBatch*v.GradAccum), fmt.Sprintf("--batch-size %d", v.MicroBatch), v)
			}
		} else if w.MicroBatch > 1 {
			if b, err := fittingBatch(w, capBytes); err == nil && b >= 1 && b < w.MicroBatch {
				v = w
				v.MicroBatch, v.GradAccum = sameGlobalBatch(w.MicroBatch*w.GradAccum, b)
				// The job's global batch, over all its replicas (a new
				// user's walk: 4 × 2 on 8 GPUs read "same global batch of
				// 8" beside estimate's "per step of 64 samples").
				try(model.Msg("micro-batch %d with gradient accumulation %d (same global batch of %d)", v.MicroBatch, v.GradAccum, w.GlobalBatch()), batchFlags(v), v)
			} else if err == nil && b == 0 {
				v = w
				v.MicroBatch = 1
				v.GradAccum = w.MicroBatch * w.GradAccum
				try(model.Msg("micro-batch 1 with gradient accumulation %d (same global batch)", v.GradAccum), batchFlags(v), v)
			}
		}
		// Sharding over as many or more GPUs keeps the job's global batch, even one
		// whose micro-batch was per GPU: the GPU count is w's, so is the
		// batch (a count that cannot share it is skipped). A per-GPU
		// micro-batch too small to share (a global batch of 1) shards at
		// that micro-batch per GPU, and the advice says the batch it makes.
		// Never fewer GPUs than the job has: the count is the user's (or
		// the near miss's), so ZeRO-3 over 8 GPUs is the advice for an
		// 8-GPU job, not over 2 (issue 31).
		var counts []int
		if w.GPUs >= 2*max(w.TP, 1) {
			counts = append(counts, w.GPUs)
		}
		for n := 2; n <= 64; n *= 2 {
			if c := n * max(w.TP, 1); c > w.GPUs {
				counts = append(counts, c)
			}
		}
		shardOver := func(from model.Workload, strategy model.Strategy) (shard model.Workload) {
			for _, n := range counts {
				v, ok := from.OnGPUs(n)
				if !ok {
					continue
				}
				v.Strategy = strategy
				e, err := model.Compute(v, nil)
				if err != nil {
					continue
				}
				shard = v
				if e.Memory.Total() <= capBytes {
					break
				}
				// On these GPUs at a smaller micro-batch with more
				// accumulation (the same global batch) before more GPUs:
				// an 8-GPU fine-tune was told FSDP over 32 at micro-batch
				// 1 where FSDP over its 8 at 1 × 4 fits (new-user walk).
				if m, err := fittingBatch(v, capBytes); err == nil && m >= 1 && m < v.MicroBatch && !v.BatchPerGPU {
					global := v.MicroBatch * v.GradAccum
					v.MicroBatch, v.GradAccum = sameGlobalBatch(global, m)
					if e, err := model.Compute(v, nil); err == nil && e.Memory.Total() <= capBytes {
						return v
					}
				}
			}
			if from.BatchPerGPU || !w.BatchPerGPU || fitsCap(shard, capBytes) {
				return shard
			}
			// The global batch kept stops at the counts that share it
			// (4 samples: 4 GPUs), but a batch asked per GPU (no
			// --grad-accum) runs on any count, as recommend ranks it: a
			// full fine-tune of Llama 3.1 8B on one L4 was told ZeRO-3
			// over 4 GPUs, all ✗, while 8 L4 in one node (aws
			// g6.48xlarge) fit with savers. Past those counts, up to one
			// node, per GPU: the largest micro-batch up to the one asked
			// that fits (its line says the global batch it makes), kept
			// when it fits; how far the changes go stays at the batch
			// asked, as the note on the strategy states it (estimate's
			// "FSDP over the same 4 GPUs at this batch needs …"), or per
			// GPU past one node when no count shares it (below).
			var past model.Workload
			for _, n := range counts {
				if n <= shard.GPUs || n > node {
					continue
				}
				v := from
				v.BatchPerGPU = true
				v, _ = v.OnGPUs(n)
				v.Strategy = strategy
				m, err := fittingBatch(v, capBytes)
				if err != nil {
					break
				}
				v.MicroBatch = min(max(m, 1), v.MicroBatch)
				past = v
				if m >= 1 {
					break
				}
			}
			if fitsCap(past, capBytes) {
				return past
			}
			return shard
		}
		// ZeRO-3 and FSDP each get their own layout and figure: FSDP keeps
		// more per GPU (its flat-parameter all-gather and unsharded
		// gradients, model/memory.go), so "ZeRO-3 or FSDP → ZeRO-3's
		// figure" did not reproduce with --strategy fsdp (a new user's
		// trial: 64.49 GiB advised, 71.13 GiB with FSDP's flags). One line
		// names both when their layouts and figures agree to the 0.01 GiB
		// printed.
		shards := func(from model.Workload) (z, f model.Workload, same bool) {
			z, f = shardOver(from, model.ZeRO3), shardOver(from, model.FSDP)
			if w.Strategy == model.ZeRO3 || w.Strategy == model.FSDP {
				return z, f, false // one is the strategy asked: each its own line (shardChange)
			}
			if z.GPUs == 0 || f.GPUs == 0 || z.GPUs != f.GPUs || z.MicroBatch != f.MicroBatch || z.GradAccum != f.GradAccum || z.BatchPerGPU != f.BatchPerGPU {
				return z, f, false
			}
			ez, err1 := model.Compute(z, nil)
			ef, err2 := model.Compute(f, nil)
			return z, f, err1 == nil && err2 == nil && math.Abs(ez.Memory.Total()-ef.Memory.Total()) < 0.005*model.GiB
		}
		pinned := w
		pinned.BatchPerGPU = false
		z, f, same := shards(pinned)
		if same {
			f = model.Workload{} // one line for both
		}
		for _, shard := range []model.Workload{z, f} {
			// The strategy asked on the GPUs asked is no change but the
			// micro-batch's, which its own line says (a new user's walk:
			// "shard with ZeRO-3 (--strategy zero3) over 8 GPUs" to a
			// job on ZeRO-3 over 8 GPUs).
			if shard.GPUs > 0 && !(shard.Strategy == w.Strategy && shard.GPUs == w.GPUs) {
				try(withFlags(shardChange(shard, w, same, shard.BatchPerGPU), shardFlags(shard, w, shard.BatchPerGPU)), "", shard)
			}
		}
		if z.GPUs == 0 && f.GPUs == 0 && w.BatchPerGPU {
			z, f, same = shards(w)
			if same {
				f = model.Workload{}
			}
			for _, shard := range []model.Workload{z, f} {
				if shard.GPUs > 0 {
					try(withFlags(shardChange(shard, w, same, true), shardFlags(shard, w, true)), "", shard)
				}
			}
		}
		// No single change fits on the GPUs asked across its 90% band:
		// the smallest combination of the memory savers above that does,
		// on them, before any sharding over more (combine).
		if !fitsOn(out, w.GPUs) {
			if c, ok := combine(w, capBytes, perGPU, runs); ok {
				out = append(out, c)
			}
		}
		// Sharded states and activation checkpointing together: the recipe
		// large models are fine-tuned with (torchtune's Llama 3.1 70B full
		// fine-tune on 8 GPUs, recipes/configs/llama3_1/70B_full.yaml: FSDP
		// with enable_activation_checkpointing: True), then also in pure
		// bf16 (the same config's dtype: bf16) when the two are not enough.
		// Advised when no single change fits (a new user's 70B full
		// fine-tune was told four single changes, all ✗), or when it fits
		// on fewer GPUs than any single change that fits (walk45b: ZeRO-3
		// over 32 MI300X advised where 8 with checkpointing fit). Each line
		// is still one change to the workload as it stands, so it names
		// its flags.
		if minFit := fewestFitting(out, false); !w.Ckpt() && (minFit == 0 || minFit > w.GPUs) {
			ck := w
			ck.Checkpointing = model.Bool(true)
			ck.BatchPerGPU = false
			type combo struct {
				from  model.Workload
				with  model.Message
				flags string
			}
			combos := []combo{{ck, model.Msg("activation checkpointing on"), "--checkpointing"}}
			if r := w.TrainingRecipe(); (r == model.RecipeAutocast || r == model.RecipeFSDPMixed) && w.Task != model.TaskQLoRA {
				bf := ck
				bf.Precision, bf.Recipe = model.BF16, model.RecipeAuto
				combos = append(combos, combo{bf, model.Msg("activation checkpointing on and pure bf16"), "--checkpointing --precision bf16"})
			}
			for _, c := range combos {
				z, f, same := shards(c.from)
				if z.GPUs == 0 && f.GPUs == 0 && w.BatchPerGPU {
					from := c.from
					from.BatchPerGPU = true
					z, f, same = shards(from)
				}
				if same {
					f = model.Workload{}
				}
				fit := false
				for _, shard := range []model.Workload{z, f} {
					if shard.GPUs == 0 {
						continue
					}
					e, err := model.Compute(shard, nil)
					if err != nil {
						continue
					}
					if fits := e.Memory.Total() <= capBytes; minFit > 0 && (!fits || shard.GPUs >= minFit) {
						continue // a single change already fits on as few GPUs
					}
					m := shardChange(shard, w, same, shard.BatchPerGPU)
					n := len(out)
					try(model.Msg("%v, with %v (%s)", m, c.with, strings.TrimSpace(shardFlags(shard, w, shard.BatchPerGPU)+" "+c.flags)), "", shard)
					if len(out) > n {
						out[n].withSavers = true
						out[n].changes = 1 + strings.Count(c.flags, "--") // the sharding and each saver
					}
					fit = fit || (len(out) > n && out[n].Fits)
				}
				if fit {
					break
				}
			}
		}
		// Still nothing fits within a node: sharding with the savers
		// combine knows, together (recommend's hint finds 8 L4 with a
		// chunked loss, checkpointing and pure bf16 for a Llama 3.1 8B
		// full fine-tune whose every line of advice was ✗; a 70B on 4
		// A100 80GB was the same, and on one H100 it was told 32 GPUs
		// where 8 fit with 8-bit AdamW and pure bf16 too).
		// A line that fits only at the estimate (~) does not stop it: a
		// ✓ with the savers together comes before a ~ without them (a
		// new user's walk: Gemma 3 4B on 2 RTX 4090 was told "~ … over 8
		// GPUs … + pure bf16" where ZeRO-3 over 4 with a chunked loss
		// fits across its band).
		// Nor does a sharding ✓ in pure bf16 when w trains in mixed
		// precision: on as many GPUs (or fewer) a set that keeps it comes
		// first (smallestSet's order).
		switch n := fewestFitting(out, true); {
		case n == 0 || n > max(w.GPUs, node):
			out = append(out, shardCombine(w, counts, node, 0, capBytes, runs)...)
		case n > w.GPUs && pureOnly(out, w, n):
			out = append(out, shardCombine(w, counts, node, n, capBytes, runs)...)
		}
		out = dropDominatedShards(out, w)
		// A job already split with tensor parallelism: a larger degree
		// over its own GPUs (one node's NVLink domain at most, 8 GPUs,
		// where Megatron-LM runs it: Narayanan et al. 2021, §3.2), the
		// accumulation raised to keep the global batch (fewer
		// data-parallel replicas), the smallest that fits, else the
		// largest tried; it names the flag, as serving's split hint does.
		if w.TP > 1 && w.Model.HasShape() {
			for n := 2 * w.TP; n <= 8 && n <= w.GPUs && w.GPUs%n == 0 && w.Model.Heads%n == 0; n *= 2 {
				v = w
				v.TP = n
				v.GradAccum = w.GradAccum * n / w.TP
				e, err := model.Compute(v, nil)
				if err != nil {
					break
				}
				last := 2*n > 8 || 2*n > w.GPUs || w.GPUs%(2*n) != 0 || w.Model.Heads%(2*n) != 0
				if e.Memory.Total() <= capBytes || last {
					try(model.Msg("tensor parallelism over %d GPUs (--tp %d) with gradient accumulation %d (same global batch)", n, n, v.GradAccum), "", v)
					break
				}
			}
		}
		// LoRA or QLoRA instead of the task asked are not advice: they
		// train another model (issue 31: advice keeps the job).
	} else {
		for _, p := range []model.Precision{model.INT8, model.INT4} {
			if weightRank(p) < weightRank(w.Precision) && quantizableWeights(&w) {
				v = w
				v.Precision = p
				try(model.Msg("serve %s-quantized weights (GPTQ/AWQ)", p), "--precision "+string(p), v)
			}
		}
		if w.Sequences > 1 {
			if b, err := fittingBatch(w, capBytes); err == nil && b >= 1 && b < w.Sequences {
				v = w
				v.Sequences = b
				try(model.Msg("decode %d sequences at a time", b), fmt.Sprintf("--sequences %d", b), v)
			}
		}
		if w.Model.HasShape() {
			for n := 2; n <= 8; n *= 2 {
				if w.Model.Heads%n != 0 {
					break
				}
				v = w
				v.TP = n
				v.GPUs = max(w.GPUs, n)
				if v.GPUs%n != 0 {
					v.GPUs = n
				}
				e, err := model.Compute(v, nil)
				if err == nil && (e.Memory.Total() <= capBytes || n == 8) {
					try(model.Msg("split the model with tensor parallelism over %d GPUs", n), tpFlags(v, w), v)
					break
				}
			}
		}
	}
	out = pastOneNode(out, w.GPUs, node)
	sortAdvice(out, w)
	return out
}

// pastOneNode is out without sharding over an absurd count: a change
// over more GPUs than the job's and one node's (node: FitAdviceNode)
// is left out when a change on as many fits (ZeRO-3 over 64 GPUs for a 4B
// LoRA, whose activations sharding does not divide, beside checkpointing
// and a chunked loss that fit on its one GPU: a new user's walk), and
// when it does not fit either, unless it needs the least memory of all
// (how far the changes go). When only such changes fit they stay, each
// that fits marked as the only kind found ("nothing fits on 8 GPUs or
// fewer").
func pastOneNode(out []Advice, gpus, node int) []Advice {
	limit := max(gpus, node)
	past := func(a *Advice) bool { return a.Workload.GPUs > limit }
	within, least := false, -1
	for i := range out {
		within = within || out[i].Fits && !past(&out[i])
		if least < 0 || out[i].Total < out[least].Total {
			least = i
		}
	}
	kept := out[:0:0]
	for i := range out {
		a := out[i]
		switch {
		case !past(&a):
		case a.Fits && within:
			continue
		case a.Fits:
			a.Msg = model.Msg("%v (the only kind of change found that fits: nothing fits on %d GPUs or fewer)", a.Msg, limit)
			a.Change = a.Msg.String()
		case i != least || within:
			continue
		}
		kept = append(kept, a)
	}
	return kept
}

// fitsOn reports whether a change in a fits on at most gpus GPUs across
// its 90% band (model.VerdictFits).
func fitsOn(a []Advice, gpus int) bool {
	for i := range a {
		if a[i].Verdict == model.VerdictFits && a[i].Workload.GPUs <= gpus {
			return true
		}
	}
	return false
}

// saver is one memory saver a combination may take (combine).
type saver struct {
	name  model.Message
	flags string
	apply func(*model.Workload)
	micro bool // a smaller micro-batch, sized to what fits with the others
	group int  // savers of one non-zero group exclude each other (the precision)
	bf16  bool // pure bf16, which smallestSet takes last (its convergence cost)
}

// combine returns the best combination of the single memory savers
// FitAdvice knows that fits w on its own GPUs (capBytes per GPU), ok
// false when none does, in smallestSet's order. The savers are tried in
// order of how cheap they are to adopt: those that keep the result and
// the speed (flash attention, fused in PyTorch's
// scaled_dot_product_attention; a chunked linear cross-entropy, Liger or
// Cut Cross-Entropy, which is faster too), then one that keeps the result
// at a slower step (a smaller micro-batch with more accumulation, the
// same global batch), activation checkpointing (the result kept, about
// 33% more compute: Korthikanti et al. 2022 §5), then those that change
// the numerics: mixed precision (PyTorch AMP), 8-bit AdamW
// (bitsandbytes: Dettmers et al. 2022, "8-bit Optimizers via Block-wise
// Quantization", matching 32-bit Adam) and pure bf16 (no fp32 master
// weights). perGPU keeps a batch asked per GPU per GPU (smallestSet),
// as recommend ranks it (FitAdviceRanked). runs keeps the sets the GPU
// can run (FitAdviceOn).
func combine(w model.Workload, capBytes float64, perGPU bool, runs func(*model.Workload) bool) (Advice, bool) {
	c, ok := smallestSet(w, capBytes, 2, perGPU, mixedRecipe(&w), runs)
	if !ok {
		return Advice{}, false
	}
	m := model.Msg("combine %v (%s)", plusMsgs(c.names), strings.Join(c.flags, " "))
	return Advice{Change: m.String(), Msg: m, Workload: c.w, Total: c.total, Fits: true, Combined: true, Verdict: c.verdict, changes: len(c.names)}, true
}

// saverSet is a set of savers smallestSet found: the workload with them
// applied, their names and flags in order, its total and verdict.
type saverSet struct {
	w       model.Workload
	names   []model.Message
	flags   []string
	micro   int // the index in names and flags of the smaller micro-batch, -1 without one
	total   float64
	verdict model.FitVerdict
}

// smallestSet is combine's search over the sets of at least minSize
// savers, best first in this order, the one FitAdvice's combined lines
// follow:
//
//  1. a set that fits across its 90% band (✓) before one that fits only
//     at the estimate (~): the band is the estimate's own error, and a
//     borderline job may run out of memory;
//  2. mixed precision kept (no pure bf16) when such a set fits: pure
//     bf16 has no fp32 master weights and can hurt convergence (Zamirai
//     et al. 2020), a cost no other saver has;
//  3. fewer savers: each is one more thing to change and check;
//  4. among as many, the set whose costliest saver is cheapest in
//     combine's order, then the next.
//
// Every saver is weighed on w as given, the layout it is combined with,
// never pruned for lowering nothing alone: sharding moves the peak
// phase, and a saver idle at one peak lowers the next (a chunked loss
// lowered nothing on Gemma 3 4B's full fine-tune until checkpointing
// and ZeRO-3 had moved the peak to the loss, a new user's walk). Memory
// never rises with one more saver (each lowers a term: Korthikanti et
// al. 2022 for checkpointing, the logits for the chunked loss, the
// states for 8-bit AdamW and pure bf16), so a set that does not fit at
// the estimate rules out all its subsets unevaluated, and one Compute
// per set at micro-batch 1 bounds a set with the smaller micro-batch;
// only the winner's micro-batch is then sized (MaxMicroBatch: the
// largest that fits across its band, else the largest at the estimate).
// With perGPU the smaller micro-batch stays per GPU (w.BatchPerGPU, its
// accumulation as it is), the batch a re-run with --batch-size alone
// gives; otherwise it keeps w's global batch with more accumulation.
// pureBF16 offers pure bf16, which the job before sharding decides
// (mixedRecipe: a sharded job's DeepSpeed recipe would refuse it); runs
// drops the sets the GPU cannot run (model.CannotRun).
func smallestSet(w model.Workload, capBytes float64, minSize int, perGPU, pureBF16 bool, runs func(*model.Workload) bool) (saverSet, bool) {
	var savers []saver
	if !w.Flash() && w.Model.HasShape() {
		savers = append(savers, saver{name: model.Msg("flash attention"), flags: "--flash-attention", apply: func(v *model.Workload) { v.FlashAttention = model.Bool(true) }})
	}
	if w.CountsLogits() && w.LossImpl() == model.LossHFUpcast && w.Model.HasShape() {
		savers = append(savers, saver{name: model.Msg("a chunked linear cross-entropy"), flags: "--loss chunked", apply: func(v *model.Workload) { v.Loss = model.LossChunked }})
	}
	if w.MicroBatch > 1 {
		savers = append(savers, saver{micro: true})
	}
	if !w.Ckpt() {
		savers = append(savers, saver{name: model.Msg("activation checkpointing at about 33%% more compute"), flags: "--checkpointing", apply: func(v *model.Workload) { v.Checkpointing = model.Bool(true) }})
	}
	if w.Precision == model.FP32 || w.Precision == model.TF32 {
		savers = append(savers, saver{name: model.Msg("mixed precision"), flags: "--precision amp-bf16", group: 1, apply: func(v *model.Workload) { v.Precision = model.AMPBF16 }})
	}
	if w.Optimizer == model.Adam || w.Optimizer == model.AdamW || w.Optimizer == model.AdamWFused {
		savers = append(savers, saver{name: model.Msg("8-bit AdamW"), flags: "--optimizer adamw-8bit", apply: func(v *model.Workload) { v.Optimizer = model.AdamW8bit }})
	}
	if pureBF16 {
		savers = append(savers, saver{name: model.Msg("pure bf16 on bf16 hardware"), flags: "--precision bf16", group: 1, bf16: true,
			apply: func(v *model.Workload) { v.Precision, v.Recipe = model.BF16, model.RecipeAuto }})
	}
	n := len(savers)
	if n < minSize || n > 8 {
		return saverSet{}, false
	}
	// apply is w with the savers of mask, the micro-batch at batch (0:
	// as w has it, for a mask without the micro saver).
	apply := func(mask, batch int) model.Workload {
		v := w
		for i := range n {
			if mask&(1<<i) == 0 {
				continue
			}
			if savers[i].micro {
				v.BatchPerGPU = v.BatchPerGPU && perGPU
				if perGPU {
					v.MicroBatch = batch
				} else {
					v.MicroBatch, v.GradAccum = sameGlobalBatch(w.MicroBatch*w.GradAccum, batch)
				}
				continue
			}
			savers[i].apply(&v)
		}
		return v
	}
	// Every mask whose groups do not clash, largest first, so that one
	// that does not fit rules out its subsets before they are reached.
	full := 1<<n - 1
	var masks []int
	for mask := 1; mask <= full; mask++ {
		ok := true
		seen := 0
		for i := range n {
			if g := savers[i].group; mask&(1<<i) != 0 && g != 0 {
				ok = ok && seen&(1<<g) == 0
				seen |= 1 << g
			}
		}
		if ok && bits.OnesCount(uint(mask)) >= minSize {
			masks = append(masks, mask)
		}
	}
	slices.SortStableFunc(masks, func(a, b int) int { return bits.OnesCount(uint(b)) - bits.OnesCount(uint(a)) })
	noFit := make([]bool, full+1)
	verdict := make([]model.FitVerdict, full+1)
	for _, mask := range masks {
		if noFit[mask] {
			continue
		}
		v := apply(mask, 1)
		e, err := model.Compute(v, nil)
		if err != nil || e.Memory.Total() > capBytes {
			for sub := mask; sub > 0; sub = (sub - 1) & mask {
				noFit[sub] = true
			}
			continue
		}
		if runs(&v) {
			verdict[mask] = model.MemoryVerdict(e.Memory.Total(), e.MemoryBand, capBytes)
		}
	}
	// The order above: (✓ first, no pure bf16, fewer savers, then by
	// their places from the costliest down).
	rank := func(mask int) []int {
		r := []int{0, 0, bits.OnesCount(uint(mask))}
		if verdict[mask] != model.VerdictFits {
			r[0] = 1
		}
		for i := n - 1; i >= 0; i-- {
			if mask&(1<<i) != 0 {
				if savers[i].bf16 {
					r[1] = 1
				}
				r = append(r, i)
			}
		}
		return r
	}
	var cands []int
	for _, mask := range masks {
		if verdict[mask] != "" && !noFit[mask] {
			cands = append(cands, mask)
		}
	}
	slices.SortStableFunc(cands, func(a, b int) int { return slices.Compare(rank(a), rank(b)) })
	for _, mask := range cands {
		v := apply(mask, 1)
		micro := slices.IndexFunc(savers, func(s saver) bool { return s.micro })
		if micro >= 0 && mask&(1<<micro) != 0 {
			// The largest micro-batch the others leave room for, of the
			// verdict the set was ranked at; its flags give --grad-accum,
			// which makes the batch the job's; without the micro-batch
			// the batch stays as asked, so a re-run of the other flags
			// alone is the same job (a new user's walk: recommend's hint,
			// batch kept global, named offers its re-run, batch per GPU,
			// did not fit).
			size := MaxMicroBatch
			if verdict[mask] != model.VerdictFits {
				size = MaxBorderlineBatch
			}
			b, err := size(v, capBytes)
			if err != nil || b < 1 || b >= w.MicroBatch {
				continue // the others fit without it: a smaller set ranks first
			}
			v = apply(mask, b)
		}
		e, err := model.Compute(v, nil)
		if err != nil || e.Memory.Total() > capBytes {
			continue
		}
		var names []model.Message
		var flags []string
		at := -1
		for i := range n {
			if mask&(1<<i) == 0 {
				continue
			}
			if savers[i].micro && v.BatchPerGPU {
				// Per GPU, --batch-size alone: without --grad-accum a
				// re-run keeps it per GPU, a global batch of the
				// micro-batch times the GPUs wherever it runs.
				at = len(names)
				names = append(names, model.Msg("micro-batch %d per GPU (a global batch of %d × the GPUs)", v.MicroBatch, v.MicroBatch*v.GradAccum))
				flags = append(flags, fmt.Sprintf("--batch-size %d", v.MicroBatch))
				continue
			}
			if savers[i].micro {
				// The same global batch on w's GPUs, the ones the flags
				// are re-run on (estimate --gpus).
				at = len(names)
				names = append(names, model.Msg("micro-batch %d × accumulation %d, the same global batch", v.MicroBatch, v.GradAccum))
				flags = append(flags, fmt.Sprintf("--batch-size %d --grad-accum %d", v.MicroBatch, v.GradAccum))
				continue
			}
			names = append(names, savers[i].name)
			flags = append(flags, savers[i].flags)
		}
		return saverSet{w: v, names: names, flags: flags, micro: at, total: e.Memory.Total(), verdict: model.MemoryVerdict(e.Memory.Total(), e.MemoryBand, capBytes)}, true
	}
	return saverSet{}, false
}

// shardCombine is sharding with the savers combine knows, together: at
// each width of counts, ZeRO-3 (FSDP when w asks for it: the strategy is
// the user's) with the best set of savers at that width (smallestSet,
// one saver or more). Across widths the order is smallestSet's with the
// width second: a set that fits across its 90% band (✓) on any width
// within one node before one that fits only at the estimate (~) on
// fewer GPUs (a ✓ is a job that runs; a ~ may not), then the fewest
// GPUs, then at that width mixed precision kept and the fewest savers.
// One line: the first ✓, else the first ~. A width shares w's global
// batch when it can; a batch asked per GPU (no --grad-accum) also runs
// on the widths past it, per GPU, as recommend ranks offers of 8 L4.
// Past one node (node GPUs) only when nothing within fits, the first
// that fits there; never past most GPUs when most > 0 (FitAdvice asks
// for a set that keeps mixed precision on as few GPUs as a ✓ in pure
// bf16, which more GPUs would not beat). runs keeps the sets the GPU can
// run (FitAdviceOn).
func shardCombine(w model.Workload, counts []int, node, most int, capBytes float64, runs func(*model.Workload) bool) []Advice {
	strategy := model.ZeRO3
	if w.Strategy == model.FSDP {
		strategy = model.FSDP
	}
	pinned := w
	pinned.BatchPerGPU = false
	var found *saverSet
	for _, n := range counts {
		if found != nil && n > max(w.GPUs, node) || most > 0 && n > most {
			break
		}
		s, ok := pinned.OnGPUs(n)
		if !ok {
			if !w.BatchPerGPU {
				continue
			}
			s, _ = w.OnGPUs(n)
		}
		s.Strategy = strategy
		c, ok := smallestSet(s, capBytes, 1, s.BatchPerGPU, mixedRecipe(&w), runs)
		if !ok {
			continue
		}
		if found == nil || c.verdict == model.VerdictFits {
			found = &c
		}
		if c.verdict == model.VerdictFits {
			break
		}
	}
	if found == nil {
		return nil
	}
	c := *found
	// The micro-batch is the sharding's to say, with its global
	// batch (shardChange), and its flags (shardFlags).
	names, flags := c.names, c.flags
	if c.micro >= 0 {
		names = slices.Delete(slices.Clone(names), c.micro, c.micro+1)
		flags = slices.Delete(slices.Clone(flags), c.micro, c.micro+1)
	}
	m := shardChange(c.w, w, false, c.w.BatchPerGPU)
	if len(names) > 0 {
		m = model.Msg("%v, with %v (%s)", m, plusMsgs(names), strings.TrimSpace(shardFlags(c.w, w, c.w.BatchPerGPU)+" "+strings.Join(flags, " ")))
	} else {
		m = withFlags(m, shardFlags(c.w, w, c.w.BatchPerGPU))
	}
	return []Advice{{Change: m.String(), Msg: m, Workload: c.w, Total: c.total, Fits: true, Combined: len(names) > 0, Verdict: c.verdict, withSavers: true, changes: 1 + len(names)}}
}

// mixedRecipe reports whether w trains in a mixed recipe pure bf16 can
// replace: autocast or FSDP's mixed precision, as FitAdvice's single
// change and its sharded combinations advise it (not QLoRA, whose base
// weights are quantized).
func mixedRecipe(w *model.Workload) bool {
	r := w.TrainingRecipe()
	return (r == model.RecipeAutocast || r == model.RecipeFSDPMixed) && w.Task != model.TaskQLoRA
}

// fitsCap reports whether v, a sharding tried (zero when none), fits
// capBytes per GPU.
func fitsCap(v model.Workload, capBytes float64) bool {
	return v.GPUs > 0 && totalOf(v) <= capBytes
}

// totalOf is v's per-GPU total (Compute's nvidia-smi figure), +Inf when
// it cannot be computed.
func totalOf(v model.Workload) float64 {
	e, err := model.Compute(v, nil)
	if err != nil {
		return math.Inf(1)
	}
	return e.Memory.Total()
}

// plusMsgs joins ms as "a + b + c": a joiner both languages read, where
// "a, b and c" put spaces around 和 in Chinese.
func plusMsgs(ms []model.Message) model.Message {
	m := ms[0]
	for _, n := range ms[1:] {
		m = model.Msg("%v + %v", m, n)
	}
	return m
}

// shardChange names a sharding change to w: shard, ZeRO-3 or FSDP over
// its GPUs, as one line for both when same (their layouts and figures
// agree), with its micro-batch and accumulation when they differ from w's
// (the same global batch), or with the global batch its per-GPU
// micro-batch makes when perGPU.
func shardChange(shard, w model.Workload, same, perGPU bool) model.Message {
	name := "ZeRO-3"
	if shard.Strategy == model.FSDP {
		name = "FSDP"
	}
	kept := shard.MicroBatch == w.MicroBatch && shard.GradAccum == w.GradAccum
	if shard.Strategy == w.Strategy {
		// The strategy asked: advice names what changes, the GPUs or
		// the batch, never the flag the user gave (a new user's walk).
		return keptStrategyChange(shard, w, kept, perGPU)
	}
	switch {
	case perGPU && same:
		return model.Msg("shard with ZeRO-3 or FSDP over %d GPUs (micro-batch %d per GPU: a global batch of %d)", shard.GPUs, shard.MicroBatch, shard.GlobalBatch())
	case perGPU:
		return model.Msg("shard with %s over %d GPUs (micro-batch %d per GPU: a global batch of %d)", name, shard.GPUs, shard.MicroBatch, shard.GlobalBatch())
	case same && kept:
		return model.Msg("shard with ZeRO-3 or FSDP over %d GPUs", shard.GPUs)
	case same:
		return model.Msg("shard with ZeRO-3 or FSDP over %d GPUs at micro-batch %d × accumulation %d (same global batch)", shard.GPUs, shard.MicroBatch, shard.GradAccum)
	case kept:
		return model.Msg("shard with %s over %d GPUs", name, shard.GPUs)
	}
	return model.Msg("shard with %s over %d GPUs at micro-batch %d × accumulation %d (same global batch)", name, shard.GPUs, shard.MicroBatch, shard.GradAccum)
}

// withFlags is m followed by the flags that run it, "(--strategy fsdp
// --gpus 4)"; m alone when there are none.
func withFlags(m model.Message, flags string) model.Message {
	if flags == "" {
		return m
	}
	return model.Msg("%v (%s)", m, flags)
}

// shardFlags are the estimate flags that turn w into shard, so a line of
// advice re-run as written gives its figure (a new user's walk: "✓ shard
// with ZeRO-3 or FSDP over 4 GPUs at micro-batch 1 × accumulation 1 …
// (--checkpointing --precision bf16)" run with those flags alone was
// 77.37 GiB on one GPU): the strategy unless it is w's (where the two
// give one figure, ZeRO-3's, which shards alike); the GPU count unless
// w's own strategy says it in its words (keptStrategyChange); and the
// batch: with perGPU the micro-batch per GPU, which a run without
// --grad-accum keeps per GPU (model.Workload.BatchPerGPU); otherwise the
// micro-batch and accumulation of the global batch kept, given whenever
// they move or w's batch was per GPU, as --grad-accum makes it the job's.
func shardFlags(shard, w model.Workload, perGPU bool) string {
	var f []string
	if shard.Strategy != w.Strategy {
		s := "zero3"
		if shard.Strategy == model.FSDP {
			s = "fsdp"
		}
		f = append(f, "--strategy "+s)
		if shard.GPUs != w.GPUs {
			f = append(f, fmt.Sprintf("--gpus %d", shard.GPUs))
		}
	}
	switch {
	case perGPU:
		if shard.MicroBatch != w.MicroBatch {
			f = append(f, fmt.Sprintf("--batch-size %d", shard.MicroBatch))
		}
	case w.BatchPerGPU || shard.MicroBatch != w.MicroBatch || shard.GradAccum != w.GradAccum:
		f = append(f, fmt.Sprintf("--batch-size %d --grad-accum %d", shard.MicroBatch, shard.GradAccum))
	}
	return strings.Join(f, " ")
}

// keptStrategyChange is shardChange for w's own strategy, ZeRO-3 or
// FSDP: over w's GPUs it is kept ("keep ZeRO-3 over 8 GPUs", with a
// combination's other change after it), over more it is spread with
// --gpus; the micro-batch and accumulation are said when they move.
func keptStrategyChange(shard, w model.Workload, kept, perGPU bool) model.Message {
	name := "ZeRO-3"
	if shard.Strategy == model.FSDP {
		name = "FSDP"
	}
	switch {
	case shard.GPUs == w.GPUs && kept:
		return model.Msg("keep %s over %d GPUs", name, shard.GPUs)
	case shard.GPUs == w.GPUs:
		return model.Msg("keep %s over %d GPUs at micro-batch %d × accumulation %d (same global batch)", name, shard.GPUs, shard.MicroBatch, shard.GradAccum)
	case perGPU:
		return model.Msg("spread %s over %d GPUs (--gpus %d; micro-batch %d per GPU: a global batch of %d)", name, shard.GPUs, shard.GPUs, shard.MicroBatch, shard.GlobalBatch())
	case kept:
		return model.Msg("spread %s over %d GPUs (--gpus %d)", name, shard.GPUs, shard.GPUs)
	}
	return model.Msg("spread %s over %d GPUs (--gpus %d) at micro-batch %d × accumulation %d (same global batch)", name, shard.GPUs, shard.GPUs, shard.MicroBatch, shard.GradAccum)
}

// fewestFitting is the fewest GPUs among the changes found so far that
// fit (with band, across their 90% band: ✓), 0 when none fits.
func fewestFitting(a []Advice, band bool) int {
	n := 0
	for i := range a {
		if a[i].Fits && (!band || a[i].Verdict == model.VerdictFits) && (n == 0 || a[i].Workload.GPUs < n) {
			n = a[i].Workload.GPUs
		}
	}
	return n
}

// tpFlags are the estimate flags that split w as v, tensor parallelism
// over v's GPUs: --tp, and --gpus when the count moves (estimate refuses
// a degree that does not divide its GPUs).
func tpFlags(v, w model.Workload) string {
	if v.GPUs == w.GPUs {
		return fmt.Sprintf("--tp %d", v.TP)
	}
	return fmt.Sprintf("--tp %d --gpus %d", v.TP, v.GPUs)
}

// batchFlags are the estimate flags of v's micro-batch and accumulation,
// as a line of advice that moves them names them: --grad-accum makes the
// batch the job's, so a re-run keeps v's per-GPU memory whether w's batch
// was given per GPU or not.
func batchFlags(v model.Workload) string {
	return fmt.Sprintf("--batch-size %d --grad-accum %d", v.MicroBatch, v.GradAccum)
}

// pureBF16Of reports whether a trains in pure bf16 where w did not.
func pureBF16Of(a *Advice, w model.Workload) bool {
	return a.Workload.Precision == model.BF16 && w.Precision != model.BF16
}

// pureOnly reports whether every change in a that fits across its band
// (✓) on n GPUs trains in pure bf16 where w did not.
func pureOnly(a []Advice, w model.Workload, n int) bool {
	for i := range a {
		if a[i].Verdict == model.VerdictFits && a[i].Workload.GPUs == n && !pureBF16Of(&a[i], w) {
			return false
		}
	}
	return true
}

// dropDominatedShards is a without the shardings with savers over more
// GPUs than w's that another change over as few GPUs or fewer beats in
// smallestSet's
// order: one that fits only at the estimate (~) beside a ✓, one in pure
// bf16 beside a ✓ that keeps mixed precision. What is dropped is the same
// advice said worse: a ✓ is the ~ made safe, and pure bf16 costs
// convergence (Zamirai et al. 2020) another set does not.
func dropDominatedShards(a []Advice, w model.Workload) []Advice {
	fits, mixed := 0, 0 // fewest GPUs of a ✓, of a ✓ that keeps the precision
	for i := range a {
		if a[i].Verdict != model.VerdictFits {
			continue
		}
		if n := a[i].Workload.GPUs; fits == 0 || n < fits {
			fits = n
		}
		if n := a[i].Workload.GPUs; !pureBF16Of(&a[i], w) && (mixed == 0 || n < mixed) {
			mixed = n
		}
	}
	return slices.DeleteFunc(a, func(x Advice) bool {
		n := x.Workload.GPUs
		switch {
		case n <= w.GPUs || !x.Fits || !x.withSavers:
			return false
		case x.Verdict == model.VerdictBorderline:
			return fits > 0 && n >= fits
		}
		return pureBF16Of(&x, w) && mixed > 0 && n >= mixed
	})
}

// sameGlobalBatch returns the largest micro-batch ≤ limit that divides the
// global batch, and the accumulation steps that keep it exact.
func sameGlobalBatch(global, limit int) (micro, accum int) {
	for d := min(limit, global); d >= 1; d-- {
		if global%d == 0 {
			return d, global / d
		}
	}
	return 1, global
}

// quantizableWeights reports whether int8/int4 weights, as gpuplan prices
// them for inference (weight-only GPTQ/AWQ: group-128 scales, 16-bit
// activations), have a path for w's model: a causal LM, a decoder without
// a task head. The tools that write such checkpoints quantize causal LMs
// only: AutoAWQ's AutoAWQForCausalLM raises "<model_type> isn't supported
// yet" for a type outside AWQ_CAUSAL_LM_MODEL_MAP (casper-hansen/AutoAWQ
// awq/models/auto.py check_and_get_model_type), and AutoGPTQ's
// AutoGPTQForCausalLM has GPTQ_CAUSAL_LM_MODEL_MAP (auto_gptq/modeling/
// auto.py), decoder LMs both. An encoder (BERT, ModernBERT), an
// encoder-decoder (T5, Whisper) or a vision model has no GPTQ/AWQ
// checkpoint to serve: advising int4 there names a path that does not
// exist (a new user's walk: "serve int4 weights saves $208 (40%)" for
// ModernBERT, which only priced its 16-bit activations on a T4 that its
// bf16 was refused on).
func quantizableWeights(w *model.Workload) bool {
	return w.Model.Family == model.FamilyDecoder && w.Model.Head == ""
}

// weightRank orders inference precisions by bytes per weight.
func weightRank(p model.Precision) int {
	switch p {
	case model.FP32:
		return 5
	case model.FP16, model.BF16:
		return 4
	case model.FP8:
		return 3
	case model.INT8:
		return 2
	case model.INT4:
		return 1
	}
	return 4
}

// sortAdvice orders advice to w in smallestSet's order, the one
// docs/cli.md states: the changes that fit across their band (✓) first,
// then those that fit only at the estimate (~), then the rest; among
// those that fit, fewer GPUs before more (a change on the GPUs asked
// before sharding over more: a student's one L4 was shown ZeRO-3 over 2
// GPUs above what fit on it), then mixed precision kept before pure
// bf16 (its convergence cost), then fewer changes; then by total. A ~
// on fewer GPUs came before a ✓ on more, and pure bf16 before 8-bit
// AdamW on as many GPUs by its smaller total (a verification walk:
// Mistral 7B's LoRA on a T4, Llama 3.1 70B's fine-tune on 16 H100).
func sortAdvice(a []Advice, w model.Workload) {
	class := func(x *Advice) int {
		switch {
		case x.Fits && x.Verdict == model.VerdictFits:
			return 0
		case x.Fits:
			return 1
		}
		return 2
	}
	pure := func(x *Advice) int {
		if pureBF16Of(x, w) {
			return 1
		}
		return 0
	}
	sort.SliceStable(a, func(i, j int) bool {
		x, y := &a[i], &a[j]
		if cx, cy := class(x), class(y); cx != cy {
			return cx < cy
		}
		if x.Fits {
			if x.Workload.GPUs != y.Workload.GPUs {
				return x.Workload.GPUs < y.Workload.GPUs
			}
			if px, py := pure(x), pure(y); px != py {
				return px < py
			}
			if nx, ny := max(x.changes, 1), max(y.changes, 1); nx != ny {
				return nx < ny
			}
		}
		return x.Total < y.Total
	})
}

// Tip is one single change to a workload with what it saves on the same
// GPU type: per-GPU memory and GPU-hours (the job's cost at a fixed price
// per GPU-hour, as every offer of one GPU type bills).
type Tip struct {
	Change   string
	Msg      model.Message  // Change as a message, for translation, ending in its flags
	Bare     model.Message  // Msg without its flags, for a line too narrow for them (the configurator's panel)
	Workload model.Workload // the workload with the change applied
	// Bytes and BaseBytes are per-GPU memory after and before (Compute's
	// nvidia-smi total).
	Bytes, BaseBytes float64
	// GPUHours and BaseGPUHours are the job's GPU-hours after and before;
	// both 0 without a job time (no dataset, or no compute rate for the GPU).
	GPUHours, BaseGPUHours float64
	Fits                   bool // Bytes fits the GPU's usable memory
}

// MemorySavedPct is the per-GPU memory the change saves, % of before.
func (t Tip) MemorySavedPct() float64 { return pctSaved(t.BaseBytes, t.Bytes) }

// CostSavedPct is the GPU-hours (so job cost) the change saves, % of
// before; negative when it costs more, 0 without a job time.
func (t Tip) CostSavedPct() float64 { return pctSaved(t.BaseGPUHours, t.GPUHours) }

func pctSaved(before, after float64) float64 {
	if before <= 0 {
		return 0
	}
	return (before - after) / before * 100
}

// Tip thresholds: on a job that fits, a change is worth a line when it
// saves at least TipMinCostPct of the job's cost, or without a job time
// TipMinMemoryPct of its memory; smaller figures are inside the
// estimate's own error (the calibration bands are all wider than ±5%).
const (
	TipMinCostPct   = 5.0
	TipMinMemoryPct = 10.0
)

// keepFitting reports whether t is worth a line on a job that already
// fits: with a job time it must save TipMinCostPct of the job's cost (a
// memory saving on a job that fits saves no money on the same GPU type:
// "turn on activation checkpointing … job cost ±0%" is no saving);
// without one, memory alone ranks, as TipMinMemoryPct.
func keepFitting(t Tip, timed bool) bool {
	if timed {
		return t.CostSavedPct() >= TipMinCostPct
	}
	return t.MemorySavedPct() >= TipMinMemoryPct
}

// Tips returns the single changes that save the most on w's GPUs of type
// g, at most n, largest saving first, each computed with Compute on g.
// The candidates are FitAdvice's (activation checkpointing, flash
// attention, mixed or pure bf16 precision, a chunked loss, 8-bit AdamW,
// ZeRO-3, micro-batch with gradient accumulation, int8/int4 weights,
// fewer sequences, tensor parallelism), less those g cannot run (pure
// bf16 on a GPU without bf16: CannotRun).
//
// When w does not fit g, the changes that make it fit come first, then by
// memory (FitAdvice's order). When it fits, a change must pay without the
// memory: it is ranked by the job cost it saves (GPU-hours on the same
// GPU type), then the memory; it is kept when it saves TipMinCostPct of
// the cost (keepFitting: a memory saving alone saves nothing on a job
// that fits), and changes of the GPU count are left out (the offer would
// change with them). Without a job time, memory alone ranks.
func Tips(w model.Workload, g *model.GPU, n int) []Tip {
	w.Defaults()
	base, err := model.Compute(w, g)
	if err != nil || n <= 0 {
		return nil
	}
	usable := model.UsableBytes(g)
	fits := base.Memory.Total() <= usable
	cands := FitAdvice(w, usable)
	var out []Tip
	for _, c := range cands {
		if fits && c.Workload.GPUs != w.GPUs || !model.CannotRun(&c.Workload, g).IsZero() {
			continue // another GPU count is another offer; a precision g lacks is no tip for g
		}
		e, err := model.Compute(c.Workload, g)
		if err != nil {
			continue
		}
		m := c.Msg // with its flags, as the advice line says it: a tip is acted on the same way (a walk: "↓ turn on activation checkpointing" named none)
		t := Tip{Change: m.String(), Msg: m, Bare: c.Bare, Workload: c.Workload, Bytes: e.Memory.Total(), BaseBytes: base.Memory.Total(), Fits: e.Memory.Total() <= usable}
		if base.HasTime && e.HasTime {
			t.GPUHours, t.BaseGPUHours = e.GPUHours, base.GPUHours
		}
		if fits && !keepFitting(t, base.HasTime && e.HasTime) {
			continue
		}
		if !fits && t.MemorySavedPct() <= 0 {
			continue
		}
		out = append(out, t)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !fits {
			if a.Fits != b.Fits {
				return a.Fits
			}
			return a.Bytes < b.Bytes
		}
		if ca, cb := a.CostSavedPct(), b.CostSavedPct(); ca != cb {
			return ca > cb
		}
		return a.Bytes < b.Bytes
	})
	return out[:min(n, len(out))]
}
