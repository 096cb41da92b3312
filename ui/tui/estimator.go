package tui

import (
	"charm.land/huh/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/ui/report"
)

// Estimator v2 settings in the configurator (issue 13): the training
// recipe and loss implementation on one page for training, QLoRA's 4-bit
// format on its own page shown only for QLoRA. Zero values are "auto".

// recipePages ask for the training recipe and, for a language model, the
// loss; training only. The loss implementation is the LM head's
// cross-entropy over the vocabulary, which a vision model does not have,
// so its page asks the recipe alone (issue 31: the loss was asked for
// CNNs). Two pages, not a field hidden on one: huh builds a page's
// fields once, so a page shows or hides as the model changes.
func (w *wizard) recipePages() []page {
	a, cat := w.a, w.cat
	T := w.lang.T
	recipe := func() huh.Field {
		return newSelect[model.Recipe](w.theme).Title(T("Training recipe")).
			Description(T("which copies of the weights exist: auto follows precision and strategy")).Options(
			huh.NewOption(T("auto        from precision and strategy"), model.RecipeAuto),
			huh.NewOption(T("autocast    torch.autocast: fp32 weights, 16-bit cast cache"), model.RecipeAutocast),
			huh.NewOption(T("fsdp-mixed  FSDP MixedPrecision: sharded fp32, 16-bit units"), model.RecipeFSDPMixed),
			huh.NewOption(T("deepspeed   DeepSpeed ZeRO: 16-bit weights, fp32 master"), model.RecipeDeepSpeed),
			huh.NewOption(T("pure16      model loaded in bf16, states in bf16"), model.RecipePure16),
			huh.NewOption(T("fp32        fp32 throughout"), model.RecipeFP32)).Value(&a.Recipe)
	}
	return []page{
		{title: "Recipe and loss", hide: func() bool { return !a.Task.Training() || a.vision(cat) }, fields: func(bool) []huh.Field {
			return []huh.Field{recipe(),
				newSelect[model.Loss](w.theme).Title(T("Loss (language models)")).Options(
					huh.NewOption(T("hf-fp32  Hugging Face: fp32 copy of the logits (default)"), model.LossAuto),
					huh.NewOption(T("fused    fused cross-entropy, in-place gradient"), model.LossFused),
					huh.NewOption(T("chunked  Liger / Cut Cross-Entropy: no full logits"), model.LossChunked),
					huh.NewOption(T("native   F.cross_entropy in the logits' dtype"), model.LossNative)).Value(&a.Loss),
			}
		}},
		{title: "Recipe", hide: func() bool { return !a.Task.Training() || !a.vision(cat) }, fields: func(bool) []huh.Field {
			return []huh.Field{recipe()}
		}},
	}
}

// switchQuestion asks for one model.Switches field as an on/off
// question on a page of its own, shown while shown holds for the answers'
// task and strategy (a page shows and hides as they change, which a field
// on a page could not: huh builds a page's fields once). The file gets the
// field only if shown holds for the workload written, whose strategy is
// single on one GPU.
type switchQuestion struct {
	page, title, description string
	field                    func(*model.Switches) *bool
	shown                    func(t model.Task, s model.Strategy, ckpt bool) bool // ckpt: activation checkpointing on
}

// switchQuestions are the configurator's switch questions, in the order of
// their pages after the recipe: a new switch is one row.
var switchQuestions = []switchQuestion{
	{"Optimizer offload", "Offload optimizer to CPU", "DeepSpeed ZeRO-Offload: optimizer states and fp32 master in host RAM, stepped on the CPU",
		func(s *model.Switches) *bool { return &s.OffloadOptimizer },
		func(t model.Task, s model.Strategy, _ bool) bool { return t.Training() && s.OffloadsOptimizer() }},
	{"Parameter offload", "Offload parameters to CPU", "DeepSpeed ZeRO-3: the 16-bit parameter partition in host RAM, each layer fetched when used",
		func(s *model.Switches) *bool { return &s.OffloadParams },
		func(t model.Task, s model.Strategy, _ bool) bool { return t.Training() && s == model.ZeRO3 }},
	{"FSDP CPU offload", "Offload parameters to CPU", "torch FSDP CPUOffload(offload_params=True): parameter shards, gradients and optimizer states in host RAM, the optimizer stepped on the CPU",
		func(s *model.Switches) *bool { return &s.OffloadParams },
		func(t model.Task, s model.Strategy, _ bool) bool { return t.Training() && s == model.FSDP }},
	{"Activation offload", "Offload activations to CPU", "offloaded gradient checkpointing (Unsloth): each block's checkpointed input in host RAM, brought back one block at a time",
		func(s *model.Switches) *bool { return &s.OffloadActivations },
		func(t model.Task, _ model.Strategy, ckpt bool) bool { return t.Training() && ckpt }},
}

// switchPages are the pages of switchQuestions.
func (w *wizard) switchPages() []page {
	a := w.a
	T := w.lang.T
	pages := make([]page, len(switchQuestions))
	for i, q := range switchQuestions {
		pages[i] = page{title: q.page, hide: func() bool { return !q.shown(a.Task, a.Strategy, a.Checkpointing && !a.fill.noAttention) }, fields: func(bool) []huh.Field {
			return []huh.Field{huh.NewConfirm().Title(T(q.title)).Description(T(q.description)).
				Affirmative(T("on")).Negative(T("off")).Value(q.field(&a.Switches))}
		}}
	}
	return pages
}

// quantPage asks for bitsandbytes' 4-bit format; QLoRA only.
func (w *wizard) quantPage() page {
	a := w.a
	T := w.lang.T
	return page{title: "4-bit base", hide: func() bool { return a.Task != model.TaskQLoRA }, fields: func(bool) []huh.Field {
		return []huh.Field{
			newSelect[model.QuantType](w.theme).Title(T("4-bit type")).Options(
				huh.NewOption(T("NF4  the QLoRA recipe (default)"), model.QuantAuto),
				huh.NewOption(T("FP4  load_in_4bit's own default"), model.QuantFP4)).Value(&a.QuantType),
			huh.NewConfirm().Title(T("Double quantization")).
				Description(T("quantize the absmax constants again: 0.516 instead of 0.5625 bytes per parameter")).
				Affirmative(T("on")).Negative(T("off")).Value(&a.DoubleQuant),
		}
	}}
}

// estimatorConfig writes the estimator answers into w: recipe and loss
// for training, the 4-bit format for QLoRA; double quantization on (the
// default) is left unset.
func (a *answers) estimatorConfig(w *config.WorkloadAnswers) {
	if !a.Task.Training() {
		return
	}
	w.Recipe, w.Loss = a.Recipe, a.Loss
	ckpt := w.Checkpointing != nil && *w.Checkpointing && !a.fill.noAttention // activation offload moves transformer blocks' inputs
	for _, q := range switchQuestions {
		if q.shown(w.Task, w.Strategy, ckpt) { // two questions share offload_params, one shown per strategy
			*q.field(&w.Switches) = *q.field(&a.Switches)
		}
	}
	// Asked on the Memory savers page whatever the strategy: a DeepSpeed
	// strategy or gradient accumulation with it on is refused by the
	// workload's validation, which says why.
	w.OptimizerInBackward = a.Switches.OptimizerInBackward
	if a.Task == model.TaskQLoRA {
		w.QuantType = a.QuantType
		if !a.DoubleQuant {
			w.DoubleQuant = model.Bool(false)
		}
	}
}

// estimatorFromConfig fills the estimator answers from a loaded file.
// NF4 is the default, shown as such.
func (a *answers) estimatorFromConfig(w *config.WorkloadAnswers) {
	a.Recipe, a.Loss, a.QuantType, a.Switches = w.Recipe, w.Loss, w.QuantType, w.Switches
	if a.QuantType == model.QuantNF4 {
		a.QuantType = model.QuantAuto
	}
	a.DoubleQuant = w.DoubleQuant == nil || *w.DoubleQuant
}

// recipeLines is the panel's recipe line under the workload summary,
// none for inference.
func (p panel) recipeLines(e *model.Estimate) []string {
	if s := report.RecipeLineIn(p.lang, e); s != "" {
		return []string{p.st.Muted.Render(printable(s))}
	}
	return nil
}

// memoryDetailLines follow the VRAM bar: the band, both PyTorch totals
// and the peak phase, and on the best offer a borderline warning when the
// band's top is past its usable memory.
func (p panel) memoryDetailLines(e *model.Estimate, best *model.Offer) []string {
	st, lang := p.st, p.lang
	band := lang.Sprintf("%.0f%% range %.2f–%s", report.BandConfidence*100, e.MemoryBand[0]/model.GiB, report.GiB(e.MemoryBand[1]))
	if e.PeakPhase != "" {
		band += lang.Sprintf(" · peak at %s", report.PhaseNameIn(lang, e.PeakPhase))
	}
	totals := lang.Sprintf("torch allocated %s, reserved %s", report.GiB(e.TorchAllocated), report.GiB(e.TorchReserved))
	if fw := e.Workload.Framework; fw == model.TensorFlow || fw == model.JAX {
		totals = lang.Sprintf("%s allocator peak in use %s, pool %s", report.FrameworkName(fw), report.GiB(e.TorchAllocated), report.GiB(e.TorchReserved))
	}
	lines := []string{st.Muted.Render(band), st.Muted.Render(totals)}
	if best != nil && model.MemoryVerdict(e.ResidentNeed(), e.MemoryBand, best.UsableBytes) == model.VerdictBorderline {
		// Two limits: the band against the usable memory (FitMargin kept
		// free) makes it borderline; running out is needing more than all
		// the driver exposes (model.OOMBytes).
		lines = append(lines, st.Warn.Render(lang.Sprintf("~ borderline on %s: the band reaches %s of %s usable; about %.0f%% chance of running out of the %s the driver exposes",
			printable(best.GPU.Name), report.GiB(e.MemoryBand[1]), report.GiB(best.UsableBytes),
			model.RoundChance(e.OOMChance(model.OOMBytes(best.GPU)))*100, report.GiB(model.OOMBytes(best.GPU)))))
	}
	return lines
}
