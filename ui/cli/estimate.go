package cli

import (
	"cmp"
	"slices"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/report"
)

func newEstimateCmd(env *Env, overlays *[]string) *cobra.Command {
	var wf workloadFlags
	var asJSON bool
	var output string
	var configPath string
	cmd := &cobra.Command{
		Use:   "estimate",
		Short: "VRAM per GPU, FLOPs and time for a workload",
		Long: `estimate computes, for one workload, the memory each GPU needs (weights, gradients,
optimizer states, activations, KV cache, overhead), the FLOPs per step and for the
whole dataset, and with --gpu the wall-clock time, whether it fits and what to change
when it does not. Every formula is listed under Assumptions.`,
		Example: `  gpuplan estimate --model llama-3.1-8b --task qlora --gpu l4
  gpuplan estimate --model bert-large --task finetune --batch-size 32 --seq-len 384 --gpu a10g
  gpuplan estimate --params 7B --task finetune --strategy zero3 --gpus 8 --gpu a100-80gb --json
  gpuplan estimate --model resnet50 --dataset-samples 1.28M --epochs 90 --gpus 8 --gpu a100-80gb
  gpuplan estimate --config gpuplan.toml --batch-size 16
  gpuplan estimate --model llama-3.1-70b --task inference --precision int4 --context-len 8192 --sequences 16 --gpu h100-sxm`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sl, serving, err := loadServe(cmd, env, *overlays, &wf, configPath)
			switch {
			case err != nil:
				return err
			case serving && sl.gpu(&wf) != "":
				asJSON, err := serveJSON(cmd, asJSON, output)
				if err != nil {
					return err
				}
				sl.warnings = append(sl.warnings, unusedEpochs(cmd.Flags(), &sl.w, true)...)
				return runServeEstimate(cmd, env, sl, &wf, asJSON)
			case serving:
				printWarningsIn(env.lang, env.Stderr, []model.Message{model.Msg("without --gpu this is the batch estimate; give --gpu NAME for vLLM's serving layout (KV capacity, concurrent sequences, TTFT/TPOT, tokens/s)")})
			}
			cat, w, file, warnings, err := loadWorkload(cmd, env, *overlays, &wf, configPath)
			if err != nil {
				return err
			}
			if why := serve.Unserved(&w.Model); w.Task == model.TaskInference && !why.IsZero() {
				// An encoder-decoder vLLM does not serve (T5) keeps the
				// batch estimate, and says why it has no serving plan.
				if w.Model.Head != "" {
					warnings = append(warnings, model.Msg("no serving plan: %s; this is the batch estimate (one forward pass, as transformers runs the model)", why))
				} else {
					warnings = append(warnings, model.Msg("no serving plan: %s; this is the batch estimate (Hugging Face generate)", why))
				}
			}
			var notExported model.Message
			asked := w // the phase's workload before its offer, as export --phase takes it

			warnings = append(warnings, unusedEpochs(cmd.Flags(), &w, false)...)
			var gpu *model.GPU
			switch {
			case wf.gpu != "":
				if gpu, err = cat.GPU(wf.gpu); err != nil {
					return usage(model.Msg("--gpu: %v", err))
				}
			case file.cfg != nil && file.cfg.Selection != nil && file.cfg.Selection.GPU != "":
				// The file's picked offer gives the GPU for time and fit.
				if gpu, err = cat.GPU(file.cfg.Selection.GPU); err != nil {
					return usage(model.Msg("%s: selection.gpu: %v", file.path, err))
				}
			}
			// A plan's phase runs on its own offer, as gpuplan plan
			// estimates it: its GPU and its GPU count.
			w, gpu, notes, asPlan := file.onPhaseOffer(cmd.Flags(), cat, w, gpu)
			warnings = append(warnings, notes...)
			if asPlan {
				var unpriced bool
				if notExported, unpriced = file.phaseNotExported(cmd.Flags(), cat, asked); unpriced {
					// Said as the serving phase's (unpricedPinned).
					warnings = append(warnings, model.Msg("phase %q: export --phase writes nothing for it: %v", file.phase.Name, notExported))
				}
			}
			// The batch estimate sizes the weights at --precision (bf16 by
			// default), not at a quantized release's own format, which the
			// serving layout (--gpu) takes: say so rather than print 218 GiB
			// for gpt-oss-120b beside the configurator's 61 (attack r17).
			if f, ok := serve.ReleasedFormat(&w.Model); ok && serving && gpu == nil && w.Model.Release == "" && // a release's id: its format's precision (config.WorkloadAnswers.Workload)
				!cmd.Flags().Changed("precision") && (file.cfg == nil || file.cfg.Workload.Precision == "") {
				d := w
				d.Defaults()
				warnings = append(warnings, model.Msg("%s is released in %s; this batch estimate sizes %s weights; give --gpu NAME to size vLLM serving of the release as it is (or --precision)", w.Model.Name, f, d.Precision))
			}
			if gpu == nil && cmd.Flags().Changed("mfu") {
				warnings = append(warnings, model.Msg("--mfu is used for time, which needs --gpu NAME; ignored"))
			}
			// A job on several nodes is timed over a network (model.WorkloadHost).
			if cat.FillNetwork(&w, gpu); w.NetworkFrom == model.NetworkAssumedSource && w.Task.Training() {
				warnings = append(warnings, model.Msg("multi-node: the catalog has no network figure for %s nodes with %s; timed at an assumed %.0f Gbps per node (the slowest documented in the catalog); give --network-gbps",
					gpu.Name, model.CountMsg(cmp.Or(w.GPUsPerNode, model.DefaultGPUsPerNode), "GPU"), w.NetworkGbps))
			}
			e, err := model.Compute(w, gpu)
			if err != nil {
				return err
			}
			var strategyNote model.Message
			if !asPlan && !file.req.NamesStrategy() {
				e, strategyNote = openStrategy(w, e, gpu)
			}
			var fit *advice.Fit
			if gpu != nil {
				// The precision weighed as recommend weighs it: --precision
				// typed (model.Query.PrecisionAsked) that the GPU runs only
				// by a fallback, or fp8, is "✗ cannot run" unless the
				// fallback is allowed, as it is a near miss there.
				allow := file.query().AllowPrecisionFallback
				if f := cmd.Flags().Lookup("allow-precision-fallback"); f != nil && f.Changed {
					allow, _ = cmd.Flags().GetBool("allow-precision-fallback")
				}
				// Its advice shards over up to the largest node the
				// catalog rents of the GPU (8 L4: aws g6.48xlarge).
				f := advice.CheckFitAskedNode(&e, gpu, cmd.Flags().Changed("precision"), allow, cat.LargestNode(gpu))
				fit = &f
			}
			probeText, probeJSON, pw := estimateProbe(env, cat, &e) // the user's kept probes close to it
			warnings = append(warnings, pw...)
			printWarningsIn(env.lang, env.Stderr, warnings)
			if !strategyNote.IsZero() {
				notef(env.lang, env.Stderr, strategyNote)
			}
			if output, err = outputFormat(cmd, asJSON, output); err != nil {
				return err
			}
			if output == outJSON {
				j := report.NewEstimateJSON(&e, fit)
				if asPlan && w.Task.Training() {
					return writeJSON(env.Stdout, estimatePhaseJSON{j, probeJSON, notExported.IsZero(), notExported.String()})
				}
				return writeJSON(env.Stdout, withProbe(j, probeJSON))
			}
			r, width := renderer(env, env.Stdout)
			if err := report.WriteEstimate(env.Stdout, r, &e, fit, width); err != nil {
				return err
			}
			return writeProbeLine(env, probeText)
		},
	}
	wf.register(cmd.Flags())
	cmd.Flags().StringVar(&configPath, "config", "", "start from an exported configuration (TOML); flags override it; its picked GPU is the default --gpu")
	addPhaseFlag(cmd)
	// Read by resolveServe, as on recommend, and by the fit of a batch
	// estimate (advice.CheckFitAsked).
	cmd.Flags().Bool("allow-precision-fallback", false, "accept a GPU without the precision asked for: training runs the framework's fallback (bf16 → fp16, fp8 → bf16), serving the weight format vLLM would load (fp8 or bf16 → fp16)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the report")
	addOutputFlag(cmd, &output, outTable, outJSON)
	cmd.Flags().SortFlags = false
	return cmd
}

// openStrategy is the layout estimate takes for w's training on several
// data-parallel GPUs (e its estimate on gpu, nil for none) when no
// strategy is named (no --strategy, no strategy in the file), and the
// note that says so. With a GPU it is the layout recommend, export and
// plan take on that GPU count (model.OpenLayout, the matcher's rule with
// model.Query.KeepStrategy unset): FSDP over the same GPUs where DDP does
// not fit, or fits only at the estimate (its 90% band past the usable
// memory: borderline), and FSDP fits across its band; else DDP, and when
// neither fits the note says FSDP's need too. Without a GPU nothing says
// what fits: DDP, the default (Workload.Defaults), and the note says it
// was assumed and how to change it. A plan's phase on its own offer is
// left as gpuplan plan resolves it (plan.JobOnOffer) and the caller does
// not call this for one; --gpus or --gpu departing from the offer is
// resolved here.
func openStrategy(w model.Workload, e model.Estimate, gpu *model.GPU) (model.Estimate, model.Message) {
	if d := e.Workload; !d.Task.Training() || d.Strategy != model.DDP || d.GPUs/max(d.TP, 1) < 2 {
		return e, model.Message{}
	}
	if gpu == nil {
		return e, model.Msg("no --strategy: %v estimated as DDP, each holding the whole model; --strategy fsdp shards it, and with --gpu NAME estimate takes FSDP where DDP does not fit, as recommend does", model.CountMsg(w.GPUs, "GPU"))
	}
	l := model.OpenLayout(w, e, gpu)
	usable := model.UsableBytes(gpu)
	switch {
	case l.Replaced == model.VerdictNoFit:
		return l.Estimate, model.Msg("no --strategy: DDP needs %.2f GiB per GPU, more than the %.2f GiB usable on %s; estimated as FSDP over the same %v, as recommend takes it (--strategy ddp keeps DDP)",
			e.ResidentNeed()/model.GiB, usable/model.GiB, gpu.Name, model.CountMsg(w.GPUs, "GPU"))
	case l.Replaced == model.VerdictBorderline:
		// Said with the figures the verdict line prints (two decimals),
		// and the chance estimate --strategy ddp would give.
		return l.Estimate, model.Msg("no --strategy: DDP is borderline on %s (its 90%% range reaches %.2f GiB per GPU, past the %.2f GiB usable; about %.0f%% chance of running out of memory); estimated as FSDP over the same %v, which fits across its range, as recommend takes it (--strategy ddp keeps DDP)",
			gpu.Name, e.ResidentBand()[1]/model.GiB, usable/model.GiB, model.RoundChance(e.OOMChance(model.OOMBytes(gpu)))*100, model.CountMsg(w.GPUs, "GPU"))
	case e.ResidentNeed() <= usable:
		// DDP fits across its range, or it and FSDP fit only at the
		// estimate: DDP kept, as recommend keeps it, and the verdict says
		// borderline.
		return e, model.Message{}
	case l.TriedErr != nil:
		return e, model.Msg("no --strategy: estimated as DDP, which does not fit %s; --strategy fsdp shards the model", gpu.Name)
	case l.Tried != nil:
		// Rounded as the fit advice and the verdict line print GiB (two
		// decimals): a new user read 269.2 here and 269.13 in the advice.
		return e, model.Msg("no --strategy: estimated as DDP; FSDP over the same %v at this batch needs %.2f GiB per GPU and does not fit %s either (%.2f GiB usable); the fit advice says what does",
			model.CountMsg(w.GPUs, "GPU"), l.Tried.ResidentNeed()/model.GiB, gpu.Name, usable/model.GiB)
	}
	return e, model.Message{}
}

// estimatePhaseJSON is estimate --phase --json of a job phase on its own
// offer: the estimate, and whether export --phase writes it, with why not
// in export's words (fromFile.phaseNotExported), as a serving phase's
// plan says them.
type estimatePhaseJSON struct {
	report.EstimateJSON
	ProbeCorrection *report.ProbeCorrectionJSON `json:"probe_correction,omitempty"`
	Exportable      bool                        `json:"exportable"`
	NotExported     string                      `json:"not_exported,omitempty"`
}

// withNotes is js, a serving estimate's JSON warnings, with the notes
// the command printed on stderr (in English) that it lacks, so --json
// says what the terminal did (walk54: estimate --phase --json gave
// "warnings": [] for a serving phase whose plan rents 3 instances where
// the phase rents 1, which stderr and gpuplan plan mark ✗). A training
// estimate's stay its workload's: its notes on stderr are about the
// flags given (--epochs without a dataset), and the same request from
// a file must give the same JSON (TestOneRequestThreeWays).
func withNotes(js []string, notes []model.Message) []string {
	for _, n := range notes {
		if s := n.String(); !slices.Contains(js, s) {
			js = append(js, s)
		}
	}
	return js
}
