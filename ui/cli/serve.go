package cli

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/probescript"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/report"
)

// autoInt is a count flag that also takes "auto" (0).
type autoInt struct{ n *int }

func (a autoInt) String() string {
	if a.n == nil || *a.n == 0 {
		return "auto"
	}
	return strconv.Itoa(*a.n)
}

func (a autoInt) Set(s string) error {
	n, err := config.ParseAutoWhole(s)
	if err != nil {
		return err
	}
	*a.n = n
	return nil
}

func (autoInt) Type() string { return "count|auto" }

func (a autoInt) target() any { return a.n }

// serveLoad is a serving request resolved: task inference of a generative
// transformer with a known shape.
type serveLoad struct {
	cat      *model.Catalog
	w        model.Workload // defaults applied
	s        serve.Serving  // the request; PlanServing applies vLLM's defaults per GPU
	req      config.WorkloadAnswers
	file     fromFile
	warnings []model.Message
	// trained is the plan's phase that trains what a serving phase
	// serves (fromFile.linked), said in notes (gpuplan: note:); zero
	// outside a plan or when it trains nothing of the model.
	trained plan.Trained
	notes   []model.Message
}

// loadServe resolves the request as loadWorkload does when it is a serving
// one; ok is false (and nothing is reported) when it is not: another task,
// or an inference model without a shape or not generative, which keep the
// batch estimate. Training strategies are an error with a hint.
func loadServe(cmd *cobra.Command, env *Env, overlays []string, wf *workloadFlags, configPath string) (sl *serveLoad, ok bool, err error) {
	fs := cmd.Flags()
	ff, err := readFromFileCmd(cmd, configPath, rereadableStdin(cmd, configPath))
	if err != nil {
		return nil, true, err
	}
	task := ff.request().Task
	if fs.Changed("task") {
		task = wf.set.Task
	}
	if task != model.TaskInference {
		return nil, false, nil
	}
	cat, warnings, err := env.LoadCatalog(overlays)
	if err != nil {
		return nil, true, err
	}
	ff.phaseGPU(cat) // phase.go
	sl, ok, err = resolveServe(fs, env, cat, ff, wf)
	if sl != nil {
		sl.warnings = append(warnings, sl.warnings...)
	}
	return sl, ok, err
}

// resolveServe is loadServe with the catalog and the file read; the task
// is not checked.
func resolveServe(fs *pflag.FlagSet, env *Env, cat *model.Catalog, ff fromFile, wf *workloadFlags) (sl *serveLoad, ok bool, err error) {
	req, ws, err := wf.request(fs, cat, ff.request())
	if err != nil {
		return nil, true, err
	}
	// tp and strategy are the serving split here, not the workload's.
	tp, strategy := req.TP, req.Strategy
	req.TP, req.Strategy = 0, ""
	w, rws, err := ff.resolve(req, cat, env.Readers, fs)
	if err != nil {
		return nil, true, err
	}
	if !serve.ServesModel(&w.Model) || w.Task != model.TaskInference {
		return nil, false, nil
	}
	fileStrategy := ff.cfg != nil && ff.cfg.Workload.Strategy != ""
	if (fs.Changed("strategy") || fileStrategy) && strategy != "" && strategy != model.Single {
		src := "--strategy " + string(strategy)
		if !fs.Changed("strategy") && ff.path != "" {
			src = ff.path + ": workload.strategy " + string(strategy)
		}
		return nil, true, usage(model.Msg("%s does not apply to --task inference: serving splits the model with --tp (tensor parallel inside a node), --pp (pipeline parallel across nodes) and --replicas", src))
	}
	w.Defaults()
	req.TP = tp
	sl = &serveLoad{cat: cat, w: w, s: req.Serving(&w), file: ff, req: req}
	// A GPU without the weight format is a near miss unless the search allows
	// the fallback, as for training (serve.FormatOn). bf16 derived from
	// the precision is vLLM's auto (WorkloadAnswers.Serving), a file's
	// precision bf16 included (the configurator's default answer), but
	// --precision bf16 typed on the command line asks for bf16 itself.
	if fs.Changed("precision") {
		sl.s.AllowPrecisionFallback, sl.s.DTypeAuto = false, false
	}
	if ff.cfg != nil {
		ff.cfg.Search.ServeSearch(&sl.s)
	}
	// A TP the model's heads refuse lists the sizes that pass up to the
	// largest node it could run in, so none listed is refused next as more
	// than a node's GPUs (runServeEstimate's rule).
	if sl.s.TP > 0 {
		if err := serve.TPOn(&w.Model, sl.s.TP, largestNodeFor(cat, sl.gpu(wf))); err != nil {
			return nil, true, usage(model.Msg("serving: %s", err))
		}
	}
	if lora, t, msg, ok := ff.linked(env, cat, &w); ok {
		// A serving phase after a LoRA phase of its model serves that
		// adapter, as gpuplan plan prices it; --model-id names a
		// checkpoint to serve instead (a merged fine-tune), without it.
		sl.trained = t
		switch f := fs.Lookup("model-id"); {
		case lora != nil && f != nil && f.Changed:
			sl.notes = append(sl.notes, model.Msg("phase %q: --model-id serves that checkpoint (the adapter of phase %q merged into it, say) without --enable-lora", ff.phase.Name, t.Phase))
		case f != nil && f.Changed: // the fine-tuned checkpoint, as the note asks
		default:
			sl.s.LoRA = lora
			sl.notes = append(sl.notes, msg)
		}
	}
	if f := fs.Lookup("allow-multi-node"); f != nil && f.Changed {
		sl.s.AllowMultiNode, _ = fs.GetBool("allow-multi-node")
	}
	if f := fs.Lookup("allow-precision-fallback"); f != nil && f.Changed {
		sl.s.AllowPrecisionFallback, _ = fs.GetBool("allow-precision-fallback")
	}
	sl.warnings = append(append(rws, ws...), ignoredFlags(fs, &w)...)
	if fs.Changed("batch-size") {
		sl.warnings = append(sl.warnings, model.Msg("--batch-size ignored: serving takes --concurrency or --rps"))
	}
	// --max-model-len is vLLM's ceiling on a request; without a prompt
	// length every request is planned to fill it (WorkloadAnswers.Serving),
	// which a user raising the ceiling for headroom did not ask (walk57:
	// --max-model-len 32K rented 8 × 4 L4 for 32 requests of 32,512
	// prompt tokens, 4 L4 at 2K). Said, as the request the plan is for.
	if as := req.Serve; as.MaxModelLen > 0 && as.PromptTokens == 0 && !serve.AudioInput(&w.Model) && sl.s.PromptTokens == sl.s.MaxModelLen-sl.s.OutputTokens {
		sl.warnings = append(sl.warnings, model.Msg("max_model_len %d without a prompt length: every request is planned at %d prompt + %d output tokens, the whole context; give --prompt-tokens (and --output-tokens) for a typical request, as --max-model-len is only vLLM's ceiling",
			sl.s.MaxModelLen, sl.s.PromptTokens, sl.s.OutputTokens))
	}
	// A YaRN scaling asked without a length keeps the default length
	// (WorkloadAnswers.Serving: the model's default sequence length, on
	// purpose not vLLM's whole derived context, docs/serving.md), which
	// the launch files pass as --max-model-len: vLLM would derive original
	// × factor only without it (_get_and_verify_max_len). Said, so that a
	// user asking for 131,072 positions does not rent for 4096 unaware
	// (new-user walk).
	if as := req.Serve; !sl.s.RopeScaling.IsZero() && as.MaxModelLen == 0 && req.ContextLen == 0 && req.SeqLen == 0 {
		if pos := sl.s.RopeScaling.Positions(&w.Model); sl.s.MaxModelLen < pos {
			sl.warnings = append(sl.warnings, model.Msg("--rope-scaling %s without --max-model-len: max_model_len stays %d, gpuplan's default, which the launch files pass, not the %d positions YaRN gives; give --max-model-len %d (or the longest request's length) to plan for them",
				sl.s.RopeScaling, sl.s.MaxModelLen, pos, pos))
		}
	}
	return sl, true, nil
}

// largestNodeFor is the GPUs of the catalog's largest node of the GPU
// keyed gpu (model.Catalog.LargestNode), or of any GPU when gpu is "" or
// not in the catalog (whose error is said where the GPU is read).
func largestNodeFor(cat *model.Catalog, gpu string) int {
	if g, err := cat.GPU(gpu); gpu != "" && err == nil {
		return cat.LargestNode(g)
	}
	n := 0
	for i := range cat.Instances {
		if in := &cat.Instances[i]; in.Offered() {
			n = max(n, in.GPUCount)
		}
	}
	return n
}

// kvOnPinned refuses a KV-cache dtype vLLM does not run on g, a GPU the
// user pinned (--gpu, or the file's picked GPU), as other flag
// combinations are refused: one line saying why and what to give, exit 2
// (serve.KVOn: fp8_e5m2 on ROCm). A new user's walk: estimate
// --kv-cache-dtype fp8_e5m2 --gpu mi300x printed a whole report ending
// "✗ cannot serve" and exited 0. Offers the user did not pin (recommend
// without --gpu) are rejected with the same reason by the planner, and
// export --instance refuses its one offer with it.
func kvOnPinned(sl *serveLoad, g *model.GPU) error {
	why := serve.KVOn(sl.s.KVCacheDType, g)
	if why.IsZero() {
		return nil
	}
	return usage(model.Msg("--gpu %s (%s): %s", g.Key, g.Name, why))
}

// replicaSpans is export's refusal of plan p on instance type in when
// one replica of it needs more GPUs than one instance has (a pipeline
// across instances, which needs a Ray cluster gpuplan does not write):
// it names the instance types of in's provider and GPU whose one node
// holds a replica, each planned as export --instance would plan it (the
// request s on that type, in the regions and pricing q allows), cheapest
// per hour first, at most three, and the --instance that exports on the
// first; with none, recommend on the GPU. A new user's walk: Qwen3 32B
// AWQ on an aws/g5.xlarge (1 × A10G) said only that a Ray cluster was
// needed, where estimate --gpu a10g serves it at TP 2 on two A10Gs, as a
// g5.12xlarge (4 × A10G) does.
func replicaSpans(cat *model.Catalog, sl *serveLoad, in *model.Instance, q model.Query, p *serve.Plan) model.Message {
	type fit struct {
		in *model.Instance
		p  serve.Plan
	}
	var fits []fit
	for i := range cat.Instances {
		c := &cat.Instances[i]
		if c.Provider != in.Provider || c.GPU != in.GPU || c.GPUCount <= in.GPUCount || !c.Offered() {
			continue
		}
		one := *cat
		one.Instances = []model.Instance{*c}
		offers := serve.Offers(&one, q)
		if len(offers) == 0 {
			continue
		}
		cp, err := serve.PlanServing(&sl.w.Model, sl.s, offers[0])
		if err != nil || !cp.Fits || cp.TP*cp.PP > c.GPUCount {
			continue
		}
		fits = append(fits, fit{c, cp})
	}
	slices.SortStableFunc(fits, func(a, b fit) int {
		return cmp.Or(cmp.Compare(a.p.USDPerHour, b.p.USDPerHour), cmp.Compare(a.in.GPUCount, b.in.GPUCount), strings.Compare(a.in.Type, b.in.Type))
	})
	why := model.Msg("%s/%s cannot hold one replica: it needs %d GPUs (TP %d × PP %d), more than the %d of one %s, and a replica across instances needs a Ray cluster, which gpuplan does not write",
		in.Provider, in.Type, p.TP*p.PP, p.TP, p.PP, in.GPUCount, in.Type)
	if !p.Fallback.IsZero() {
		// Why the model takes more GPUs than asked: float32 where the
		// GPU has no bf16 (Gemma 3 on one T4), said with the refusal.
		why = model.Msg("%v; %v", why, p.Fallback)
	}
	g, _ := cat.GPU(in.GPU)
	gpuName := in.GPU
	if g != nil {
		gpuName = g.Name
	}
	if len(fits) == 0 {
		return model.Msg("%v; gpuplan recommend --task inference --gpu %s ranks the instance types that hold it", why, in.GPU)
	}
	var items []model.Message
	for _, f := range fits[:min(len(fits), 3)] {
		items = append(items, model.Msg("%s (%d GPUs: TP %d × PP %d, %v, $%.2f/h)", f.in.Type, f.in.GPUCount, f.p.TP, f.p.PP, model.CountMsg(f.p.Replicas, "replica"), f.p.USDPerHour))
	}
	list := items[0]
	for _, m := range items[1:] {
		list = model.Msg("%v, %v", list, m)
	}
	return model.Msg("%v; %s types with more %s GPUs serve it: %v; export with --instance %s/%s", why, in.Provider, gpuName, list, in.Provider, fits[0].in.Type)
}

// serveErr turns a serve.ErrInvalid error into a usage error that
// names the flag.
func serveErr(err error) error {
	var ke *model.KindError
	if errors.As(err, &ke) && ke.Kind == serve.ErrInvalid {
		return usage(model.Msg("serving: %s", ke.Msg))
	}
	return err
}

// estimateOffer is the GPUs estimate plans on: one node of --gpus GPUs
// (default: --tp, else 1), linked by NVLink when the GPU has it, or
// nodes of perNode (the catalog's largest node of g) when --gpus is more:
// tensor parallelism does not cross them, as in recommend
// (serve.NodeOffer).
func estimateOffer(g *model.GPU, gpus int, s *serve.Serving, perNode int) serve.Offer {
	n := gpus
	if n < 1 {
		n = max(s.TP*max(s.PP, 1), 1)
	}
	return serve.NodeOffer(g, n, perNode)
}

// gpu is the GPU a serving estimate is for: --gpu, else the file's picked
// offer's; "" for none.
func (sl *serveLoad) gpu(wf *workloadFlags) string {
	switch {
	case wf.gpu != "":
		return wf.gpu
	case sl.file.cfg != nil && sl.file.cfg.Selection != nil:
		return sl.file.cfg.Selection.GPU
	}
	return ""
}

// runServeEstimate is estimate for a serving request: the plan on --gpu
// (or the file's picked GPU).
func runServeEstimate(cmd *cobra.Command, env *Env, sl *serveLoad, wf *workloadFlags, asJSON bool) error {
	var g *model.GPU
	var err error
	switch {
	case wf.gpu != "":
		if g, err = sl.cat.GPU(wf.gpu); err != nil {
			return usage(model.Msg("--gpu: %v", err))
		}
	case sl.file.cfg != nil && sl.file.cfg.Selection != nil && sl.file.cfg.Selection.GPU != "":
		if g, err = sl.cat.GPU(sl.file.cfg.Selection.GPU); err != nil {
			return usage(model.Msg("%s: selection.gpu: %v", sl.file.path, err))
		}
	default:
		return usage(model.Msg("--task inference plans serving per GPU as vLLM does: give --gpu NAME (list: gpuplan catalog gpus) and --gpus N, or rank offers with gpuplan recommend"))
	}
	if why := serve.Unservable(g); !why.IsZero() {
		return usage(model.Msg("--gpu %s: %s; pick another GPU (gpuplan recommend --task inference ranks those that serve)", g.Key, why))
	}
	if err := kvOnPinned(sl, g); err != nil {
		return err
	}
	gpus, given := 0, false // given: the user's --gpus (or workload.gpus), which binds
	switch {
	case cmd.Flags().Changed("gpus") || sl.file.cfg != nil && sl.file.cfg.Workload.GPUs > 0:
		gpus, given = sl.w.GPUs, true
	case wf.gpu == "" && sl.file.cfg != nil && sl.file.cfg.Selection != nil && sl.file.cfg.Selection.GPUs > 0: // the picked offer's node
		gpus = sl.file.cfg.Selection.GPUs / max(sl.file.cfg.Selection.Instances, 1)
	}
	// --gpus or --gpu asking for another offer than a phase's: said, as
	// for a job phase (fromFile.departs). A flag equal to what the phase
	// has (--gpus 4 on a phase renting one 4-GPU instance, --gpu naming
	// its GPU) is the phase itself (walk37: it left the pinned offer and
	// its price).
	var departs model.Message
	if ph := sl.file.phase; ph != nil {
		if in, n := plan.PhaseOffer(sl.cat, ph); in != nil {
			departs = sl.file.departs(cmd.Flags(), in, n, sl.w.GPUs, g)
		}
	}
	if wf.gpu == "" && !cmd.Flags().Changed("gpus") || sl.file.phase != nil && departs.IsZero() {
		// A plan's phase on its own offer as rented, as gpuplan plan
		// judges it (plan.PinnedServing): the instances it rents, a
		// pipeline over no more of them.
		if pin, ok, err := sl.pinnedServing(); err != nil {
			return serveErr(err)
		} else if ok {
			sl.pastRent(&pin)
			return writeServeEstimate(env, sl, &pin.Plan, asJSON, pin.Refusal(sl.file.phase.Name))
		}
		if pin, why, ok, err := sl.unpricedPinned(); err != nil {
			return serveErr(err)
		} else if ok {
			if why.IsZero() {
				why = pin.Refusal(sl.file.phase.Name)
			}
			sl.pastRent(&pin)
			return writeServeEstimate(env, sl, &pin.Plan, asJSON, why)
		}
	}
	if !departs.IsZero() {
		sl.warnings = append(sl.warnings, departs)
	}
	perNode := sl.cat.LargestNode(g)
	nodeGPUs := perNode // GPUs in each node the plan is held to
	// Out-of-range sizes are refused, not planned (a new user's walk:
	// --tp 16 on H100 printed "✗ does not fit" with exit 0, and --gpus
	// 1000 a 125-replica plan for 4 requests). Tensor parallelism stays
	// inside a node (docs/serving.md: vLLM runs it inside a node and
	// pipeline parallelism across nodes, "Distributed inference and
	// serving"), and the planner rents at most serve.MaxNodes nodes.
	if sl.s.TP > perNode {
		return usage(model.Msg("--tp %d is more than the %d GPUs of the catalog's largest %s node: tensor parallelism stays inside a node; give --tp %d or less, and --pp to span nodes",
			sl.s.TP, perNode, g.Name, perNode))
	}
	if most := serve.MaxNodes * perNode; gpus > most {
		return usage(model.Msg("--gpus %d is more than %d nodes of %d × %s (%d GPUs), the most gpuplan plans on one offer; give --gpus %d or less",
			gpus, serve.MaxNodes, perNode, g.Name, most, most))
	}
	if gpus > perNode {
		// More GPUs than the catalog's largest node of g: nodes of
		// perNode, tensor parallel inside each, as recommend plans on
		// the instance types (a new user's trial: TP 16 on 16 H100s was
		// timed as one NVLink domain in estimate, refused in recommend).
		// Given GPUs bind, so the nodes are the largest power of two of
		// GPUs (the sizes tensor parallel takes, as the catalog's nodes
		// come) that divides them: 20 H100s are 5 nodes of 4, not 2 of 8
		// (new-user trial: --gpus 20 was planned on 16).
		nodeGPUs = 1
		for nodeGPUs*2 <= perNode && gpus%(nodeGPUs*2) == 0 {
			nodeGPUs *= 2
		}
		sl.warnings = append(sl.warnings, model.Msg("--gpus %d is more than the catalog's largest %s node, %s: planned as nodes of %d, tensor parallel inside each, pipeline stages across them (as recommend plans it)",
			gpus, g.Name, model.CountMsg(perNode, "GPU"), nodeGPUs))
	} else if gpus > 0 && sl.s.PP == 0 && !given {
		sl.s.PP = 1 // the picked offer's node: no pipeline across nodes unless --pp says so
	}
	// One replica must fit in the GPUs given. A split that does not
	// divide them leaves the rest idle, as the search may choose (TP 2 on
	// 3 GPUs), and the plan says so.
	if per := sl.s.TP * max(sl.s.PP, 1); sl.s.TP > 0 && gpus > 0 && per > gpus {
		if sl.s.PP > 1 { // a replica is TP × PP GPUs (a new user read "--tp 2 does not divide --gpus 2")
			return usage(model.Msg("one replica is TP × PP = %d × %d = %d GPUs, more than --gpus %d", sl.s.TP, sl.s.PP, per, gpus))
		}
		return usage(model.Msg("--tp %d is more than --gpus %d", sl.s.TP, gpus))
	}
	var p serve.Plan
	switch {
	case given:
		// --gpus binds: nodes of that many GPUs in all (one node up to
		// the catalog's largest), auto replicas fill them and add none
		// (serve.PlanOnNodes); a load they cannot carry is a miss that
		// names the replicas that would, unless --replicas asks.
		p, err = serve.PlanOnNodes(&sl.w.Model, sl.s, estimateOffer(g, gpus, &sl.s, nodeGPUs), max(gpus/nodeGPUs, 1))
	case gpus > 0: // the picked offer's node, as recommend planned it: auto replicas rent its instances
		p, err = serve.PlanServing(&sl.w.Model, sl.s, estimateOffer(g, gpus, &sl.s, perNode))
	default: // no node: TP 1, 2, 4 or 8, the fewest GPUs that carry the load
		p, err = serve.PlanOnGPUNodes(&sl.w.Model, sl.s, g, perNode)
	}
	if err != nil {
		return serveErr(err)
	}
	if given && sl.s.Replicas > 0 && p.GPUs > gpus {
		// Replicas given rent what they need (docs/serving.md), never
		// silently past the GPUs given (walk49: --tp 2 --gpus 4
		// --replicas 4 printed "✓ serves 8 × …").
		sl.warnings = append(sl.warnings, model.Msg("--replicas %d of TP %d × PP %d need %d GPUs, more than --gpus %d: planned on %d; leave --replicas out to hold the plan to the %d given",
			p.Replicas, p.TP, p.PP, p.Replicas*p.TP*p.PP, gpus, p.GPUs, gpus))
	}
	return writeServeEstimate(env, sl, &p, asJSON, model.Message{})
}

// writeServeEstimate prints the serving estimate p: the request's
// warnings on stderr, the plan on stdout (--json: one object). refused,
// when set, is why export writes nothing for it (a plan phase's
// plan.Pinned.Refusal): --json's exportable is false and not_exported
// says it, as export --phase exits with it.
func writeServeEstimate(env *Env, sl *serveLoad, p *serve.Plan, asJSON bool, refused model.Message) error {
	printWarningsIn(env.lang, env.Stderr, sl.warnings)
	for _, n := range sl.notes {
		notef(env.lang, env.Stderr, n)
	}
	if asJSON {
		j := report.NewServeEstimateJSON(&sl.w, p)
		j.Warnings = withNotes(j.Warnings, sl.warnings)
		if !refused.IsZero() {
			j.Plan.Exportable, j.Plan.NotExported = false, refused.String()
		}
		return writeJSON(env.Stdout, j)
	}
	r, _ := renderer(env, env.Stdout)
	return report.WriteServeEstimate(env.Stdout, r, &sl.w, p, nil)
}

// pinnedServing is a plan phase's serving request on the phase's pinned
// offer as rented (plan.PinnedServing on its instance type, region and
// pricing mode, instances nodes), the plan and verdict gpuplan plan
// gives it; ok is false when the file is no phase or the phase names no
// offer the catalog prices to serve from.
func (sl *serveLoad) pinnedServing() (pin plan.Pinned, ok bool, err error) {
	ph := sl.file.phase
	if ph == nil || sl.file.cfg == nil || ph.Provider == "" || ph.Instance == "" {
		return plan.Pinned{}, false, nil
	}
	ps := plan.PhaseScenarioFor(ph, sl.w, sl.file.cfg.Query(), sl.cat)
	offers := ps.PinnedOffers(sl.cat, ph.Instance)
	if len(offers) == 0 {
		return plan.Pinned{}, false, nil
	}
	pin, err = plan.PinnedServing(&sl.w.Model, sl.s, offers[0], ph.Instances)
	return pin, err == nil, err
}

// pastRent warns, in gpuplan plan's words, when the phase's plan rents
// more instances than the phase does (replicas given: serve.replicas = 3
// on one instance), which the headline alone does not say (walk52: it
// read "3 replicas on 3 nodes" where plan priced 1 instance).
func (sl *serveLoad) pastRent(pin *plan.Pinned) {
	if ph := sl.file.phase; ph != nil && !pin.Refused && !pin.Verdict.IsZero() && pin.Plan.Nodes > max(ph.Instances, 1) {
		sl.warnings = append(sl.warnings, model.Msg("phase %q: %v", ph.Name, pin.Verdict))
	}
}

// unpricedPinned is a plan phase's serving request on its pinned offer
// when the catalog has no price for it in the phase's pricing mode and
// region (a reserved-1y g5.xlarge, say), which pinnedServing then does
// not find: the plan on the instances it rents at the phase's own price
// (usd_per_hour, as gpuplan plan prices it, with a warning), and why
// export --phase writes nothing for it, checkPriced's line (walk36c:
// estimate --phase lost the offer, "1 × NVIDIA A10G", and export wrote
// on-demand; training's export refused it with that line). ok is false
// when the file is no phase, its offer is not in the catalog, or the
// catalog prices it (pinnedServing's case).
func (sl *serveLoad) unpricedPinned() (pin plan.Pinned, why model.Message, ok bool, err error) {
	ph := sl.file.phase
	if ph == nil || sl.file.cfg == nil {
		return plan.Pinned{}, model.Message{}, false, nil
	}
	in, _ := plan.PhaseOffer(sl.cat, ph)
	if in == nil {
		return plan.Pinned{}, model.Message{}, false, nil
	}
	pricing := cmp.Or(ph.Pricing, model.OnDemand)
	e := checkPriced(sl.cat, in, ph.Region, sl.file.origin("region"), pricing)
	if e == nil || !errors.As(e, &why) {
		return plan.Pinned{}, model.Message{}, false, nil
	}
	g, gerr := sl.cat.GPU(in.GPU)
	if gerr != nil || !serve.Unservable(g).IsZero() {
		return plan.Pinned{}, model.Message{}, false, nil
	}
	nodes := max(ph.Instances, 1)
	o := serve.OfferFor(in, g, ph.USDPerHour/float64(nodes), fmt.Sprintf("%s %s %s %s", in.Provider, in.Type, ph.Region, pricing))
	o.Region, o.Pricing = ph.Region, pricing
	pin, err = plan.PinnedServing(&sl.w.Model, sl.s, o, nodes)
	if err != nil {
		return plan.Pinned{}, model.Message{}, false, err
	}
	sl.warnings = append(sl.warnings, model.Msg("phase %q: this estimate is on the phase's own usd_per_hour, and export --phase writes nothing for it: %v", ph.Name, why))
	return pin, why, true, nil
}

// runServeRecommend ranks the catalog's offers for a serving request
// among those meeting the load and latency targets (serve.RankServing):
// by the cost per hour of a load given, else per million output tokens;
// auto TP and replicas unless given.
func runServeRecommend(cmd *cobra.Command, env *Env, sl *serveLoad, wf *workloadFlags, qf *queryFlags, asJSON bool) error {
	fs := cmd.Flags()
	var base model.Query
	if sl.file.cfg != nil {
		base = sl.file.cfg.Search.Query(false)
	}
	base, sl.warnings = sl.file.phaseSearch(fs, base, sl.warnings)
	q, err := qf.query(fs, sl.cat, true, base)
	if err != nil {
		if sl.file.cfg != nil && errors.As(err, new(fileValueError)) { // a value of the file: name it, as recommend does
			return usage(model.Msg("%s: %v", sl.file.path, err))
		}
		return err
	}
	if wf.gpu != "" {
		g, err := sl.cat.GPU(wf.gpu)
		if err != nil {
			return usage(model.Msg("--gpu: %v", err))
		}
		if why := serve.Unservable(g); !why.IsZero() {
			return usage(model.Msg("--gpu %s: %s; pick another GPU, or leave --gpu out to rank those that serve", g.Key, env.lang.Message(why)))
		}
		if err := kvOnPinned(sl, g); err != nil {
			return err
		}
		q.GPUs = []string{g.Key}
	}
	sl.s.BudgetMonthUSD, sl.s.HoursPerMonth = q.BudgetMonthUSD, q.HoursPerMonth // a plan over it is a near miss
	for _, n := range []string{"gpus", "deadline-hours", "sort"} {              // --allow-multi-node is the search's: a replica may span instances (serve.Serving.AllowMultiNode)
		if fs.Changed(n) {
			sl.warnings = append(sl.warnings, model.Msg("--%s ignored: serving picks nodes, TP and replicas for the load (--tp, --pp, --replicas) and ranks by the cost of the load given (per hour), or per million output tokens without one", n))
		}
	}
	plans, err := serve.RankServing(&sl.w.Model, sl.s, serve.Offers(sl.cat, q))
	if err != nil {
		return serveErr(err)
	}
	sl.warnings = append(sl.warnings, hiddenTypes(env, sl.cat, q.Providers)...)
	sl.warnings = append(sl.warnings, qf.retiredLeftOut...)
	s := sl.s
	if len(plans) > 0 {
		s = plans[0].Serving
		s.WeightFormat = sl.s.WeightFormat // the format asked, whatever plans[0] falls back to
	}
	printWarningsIn(env.lang, env.Stderr, sl.warnings)
	if asJSON {
		return writeJSON(env.Stdout, report.NewServeRecommendJSON(&sl.w, &s, plans, qf.limit))
	}
	r, _ := renderer(env, env.Stdout)
	return report.WriteServeRecommend(env.Stdout, r, &sl.w, &s, plans, qf.limit, q.HoursPerMonth)
}

// serveSearchAsked is the search a serving export writes: the file's
// [search] under the flags, as runServeRecommend ranks with (and --gpu),
// not narrowed to the exported offer, so the file reopens on the same
// ranking; the offer is in [selection].
func serveSearchAsked(fs *pflag.FlagSet, cat *model.Catalog, ff *fromFile, qf *queryFlags, wf *workloadFlags) (config.SearchAnswers, error) {
	var a config.SearchAnswers
	if ff.cfg != nil {
		a = ff.cfg.Search
	}
	q, err := qf.query(fs, cat, true, a.Query(false))
	if err != nil {
		return a, err
	}
	a.Providers, a.Regions, a.Countries, a.GPUs, a.Pricing = q.Providers, q.Regions, q.Countries, q.GPUs, q.Pricing
	a.MaxPriceHour, a.HoursPerMonth, a.AllowPrecisionFallback = q.MaxUSDPerHour, q.HoursPerMonth, q.AllowPrecisionFallback
	if f := fs.Lookup("allow-multi-node"); f != nil && f.Changed {
		a.AllowMultiNode = q.AllowMultiNode
	}
	if wf.gpu != "" {
		if g, err := cat.GPU(wf.gpu); err == nil {
			a.GPUs = []string{g.Key}
		}
	}
	return a, nil
}

// exportServeIgnored are export flags for training launchers.
var exportServeIgnored = []string{"script", "script-args", "wheel", "disk-gb", "gpus"}

// runServeExport writes the serving files (model/launch Serve: a vllm
// serve script, docker run of the vLLM image, a SkyServe service YAML, a
// Kubernetes Deployment and Service, or the configuration with its [serve]
// table) for a serving request on instance in; ok is false when the
// request is not a serving one.
func runServeExport(cmd *cobra.Command, env *Env, cat *model.Catalog, ff fromFile, in *model.Instance, wf *workloadFlags, qf *queryFlags, ef *exportFlags) (ok bool, err error) {
	fs := cmd.Flags()
	task := ff.request().Task
	if fs.Changed("task") {
		task = wf.set.Task
	}
	if task != model.TaskInference {
		return false, nil
	}
	sl, ok, err := resolveServe(fs, env, cat, ff, wf)
	if !ok || err != nil {
		return ok, err
	}
	if ef.format == launch.FormatPyTorchJob { // it wrote a Deployment under that name (walk36b)
		return true, usage(model.Msg("--format pytorchjob is the Training Operator's job for training across nodes; a serving deployment is a Kubernetes Deployment and Service: --format k8s"))
	}
	for _, n := range exportServeIgnored {
		if fs.Changed(n) {
			sl.warnings = append(sl.warnings, model.Msg("--%s ignored: serving runs vllm serve; the split is --tp, --pp and --replicas", n))
		}
	}
	// The picked offer's pricing (a plan phase's own), unless --pricing
	// says otherwise, as training's export takes it (exportQuery): a
	// phase on reserved-1y was written on-demand where training refused
	// it with checkPriced's line (walk36c).
	var base model.Query
	if sel := ff.selection(); sel != nil {
		base.Pricing = sel.Pricing
	}
	q, err := qf.query(fs, cat, true, base)
	if err != nil {
		return true, err
	}
	if q.Pricing == "" {
		q.Pricing = model.OnDemand
	}
	if err := checkPriced(cat, in, ef.region, ef.regionLabel(), q.Pricing); err != nil {
		return true, usage(err)
	}
	// The search asked (the file's under the flags), as the TOML keeps it:
	// without --region the offer is served from a region it allows, and a
	// price region stands for the regions of its price it allows (walk54).
	search, err := serveSearchAsked(fs, cat, &sl.file, qf, wf)
	if err != nil {
		return true, err
	}
	sl.warnings = append(sl.warnings, qf.retiredLeftOut...) // --providers cudo,aws: cudo is not written
	asked := search.Query(false)
	if err := checkInSearch(fs, cat, &ff, in, ef, asked); err != nil {
		return true, err
	}
	one := *cat
	one.Instances = []model.Instance{*in}
	q.Providers, q.Regions, q.Countries, q.GPUs, q.MaxUSDPerHour = []string{in.Provider}, asked.Regions, asked.Countries, nil, 0
	if ef.region != "" {
		q.Regions = []string{ef.region}
	}
	if ff.phase != nil {
		q.Countries = nil // a plan's phase serves from its own offer (checkInSearch)
	}
	if g, err := cat.GPU(in.GPU); err == nil {
		if why := serve.Unservable(g); !why.IsZero() {
			return true, usage(model.Msg("%s/%s cannot serve with vLLM: %s; pick another instance (gpuplan recommend --task inference ranks those that serve)",
				in.Provider, in.Type, env.lang.Message(why)))
		}
	}
	offers := serve.Offers(&one, q)
	if len(offers) == 0 {
		return true, usage(model.Msg("%s/%s has no %s price to serve from", in.Provider, in.Type, model.Msg(string(q.Pricing))))
	}
	var p serve.Plan
	var verdict model.Message // gpuplan plan's of the phase it writes
	if ph := sl.file.phase; ph != nil && ph.Provider == in.Provider && ph.Instance == in.Type && (ef.region == "" || ef.region == ph.Region) {
		// A plan's phase: on the instances it rents, with gpuplan plan's
		// verdict and reason when it cannot run there (plan.PinnedServing).
		pin, ok, err := sl.pinnedServing()
		switch {
		case err != nil:
			return true, serveErr(err)
		case ok && pin.Refused:
			return true, usage(pin.Refusal(ph.Name))
		case ok:
			p = pin.Plan
			if !pin.Verdict.IsZero() {
				// Written, since it runs, but not as the plan wants it
				// (more instances carry the load, a borderline, a missed
				// target): said as gpuplan plan marks the row (walk36b).
				verdict = model.Msg("phase %q: %v", ph.Name, pin.Verdict)
			}
		}
	}
	if p.Offer.GPU == nil {
		if p, err = serve.PlanServing(&sl.w.Model, sl.s, offers[0]); err != nil {
			return true, serveErr(err)
		}
	}
	if !p.Fits {
		return true, usage(model.Msg("%s/%s cannot serve the model: %v (see gpuplan recommend --task inference)", in.Provider, in.Type, p.ReasonMsg()))
	}
	if need := p.TP * p.PP; need > in.GPUCount {
		return true, usage(replicaSpans(cat, sl, in, q, &p))
	}
	var notes []model.Message
	if !verdict.IsZero() { // the file says what gpuplan plan says of the phase, as stderr does
		notes = append(notes, verdict)
	} else if !p.Borderline.IsZero() {
		// The row recommend marks "~": the file and stderr say it, as a
		// phase's verdict and training's notes are said (a new user's
		// walk: a 1-GPU RTX 4090 instance was written at TP 1 × 2
		// replicas, borderline, with no word in the script).
		// Left to the planner, the replicas are those that clear the
		// range when any do (serve.PlanServing), so a borderline plan
		// here is one the replicas given pin, or one no replicas clear.
		b := model.Msg("borderline (~ in recommend): this split meets the targets only at the estimate, not across its 90%% range: %s", p.Borderline)
		notes = append(notes, b)
		sl.warnings = append(sl.warnings, b)
	}
	if !p.Cleared.IsZero() {
		// The replicas written are more than the fewest that carry the
		// load, as recommend's row marks "↑": said in the file and on
		// stderr, with the --replicas that plans the fewer.
		notes = append(notes, p.Cleared)
	}
	// The plan's own price of the phase beside the header's catalog one,
	// as training's export says it.
	priceNote := sl.file.priceNote(in, p.Offer.Region, p.Nodes, p.Offer.Pricing, p.USDPerHour, cat.AsOf)
	if !priceNote.IsZero() {
		notes = append(notes, priceNote)
	}
	var adapter *launch.ServeAdapter
	if t := sl.trained; t.Phase != "" {
		if t.Index < len(sl.file.whole.Phases) {
			adapter = &launch.ServeAdapter{From: t.Phase,
				OutputDir: launch.DefaultOutputDir(sl.w.Model.Key, sl.file.whole.Phases[t.Index].Pricing == model.Spot)}
		}
		if !t.Task.Adapters() && ef.modelID == "" { // a full fine-tune: its checkpoint is what to serve
			notes = append(notes, model.Msg("phase %q fine-tunes the whole model: serve its checkpoint with --model-id (its --output_dir, or the repo you push it to), not the base", t.Phase))
		}
	}
	srv, err := launch.NewServe(&sl.w.Model, &p, launch.ServeOptions{Name: ef.name, ModelID: ef.modelID, NamedAs: sl.req.Model,
		Region: p.Offer.Region, RegionGiven: fs.Changed("region"), Where: asked.RegionFilter(cat), Pricing: p.Offer.Pricing, Image: ef.image, Notes: notes, CacheClaim: ef.k8sPVC,
		Adapter: adapter})
	if err != nil {
		if !p.Fallback.IsZero() {
			// Why the model takes more GPUs than asked: float32 where the
			// GPU has no bf16 (Gemma 3 on one T4), said with the refusal.
			return true, usage(model.Msg("%v; %v", err, p.Fallback))
		}
		return true, usage(err)
	}
	out, err := probescript.RenderServe(srv, ef.format)
	if err != nil {
		return true, usage(model.Msg("--format %s: %v", ef.format, err))
	}
	if ef.format == launch.FormatTOML {
		// The whole configuration, so `gpuplan --config` reopens it: the
		// [serve] table is the plan's (model/launch), with the request's
		// lengths, load and targets.
		// The answers as asked, not the offer's derived split and
		// engine settings (those are in vllm_args): reopened, the file
		// ranks what `gpuplan recommend` ranked for the same answers.
		cfg := config.Config{Workload: sl.req}
		cw := &cfg.Workload
		cw.GPUs, cw.AutoGPUs, cw.Strategy, cw.TP, cw.Serve = 0, false, "", 0, serve.Serving{}
		cfg.Search = search
		cfg.Selection = &config.Selection{Provider: in.Provider, InstanceType: in.Type, Region: p.Offer.Region, GPU: in.GPU,
			GPUs: p.GPUs, Instances: p.Nodes, Pricing: p.Offer.Pricing, USDPerHour: p.USDPerHour, CatalogAsOf: cat.AsOf}
		cfg.ServeLaunch = srv.ServeLaunch()
		cfg.ServeLaunch.Asked(&sl.req)
		cfg.Export = givenExportOptions(fs, ef)
		if out, err = config.EncodeBy(&cfg, config.WriterExport); err != nil {
			return true, model.Msg("--format toml: %v", err)
		}
	}
	if !verdict.IsZero() {
		sl.warnings = append(sl.warnings, verdict)
	}
	printWarningsIn(env.lang, env.Stderr, sl.warnings)
	if toFile, err := writeExport(env, ef, out, true); !toFile || err != nil {
		return true, err
	}
	if ef.json {
		if err := writeExportJSON(env, ef, exportOfferJSON{Provider: in.Provider, InstanceType: in.Type, Region: p.Offer.Region,
			Pricing: string(p.Offer.Pricing), USDPerHour: p.Offer.USDPerHour, Nodes: p.Nodes, GPUsPerNode: in.GPUCount, GPU: in.GPU}); err != nil {
			return true, err
		}
	}
	nodes, replicas := env.lang.Message(model.CountMsg(p.Nodes, "node")), env.lang.Message(model.CountMsg(p.Replicas, "replica")) // "1 个节点", "4 个副本" in Chinese (walk37)
	if model.RegionUnstated(srv.Region) {                                                                                         // not "in location not stated" (Daytona's "earth")
		sayf(env.lang, env.Stderr, "gpuplan: wrote %s serving files for %s/%s (location not stated; %s × %d × %s, TP %d × PP %d, %s, %s) to %s\n",
			ef.format, in.Provider, in.Type, nodes, in.GPUCount, in.GPU, p.TP, p.PP, replicas, env.lang.T(string(p.Offer.Pricing)), ef.output)
	} else {
		sayf(env.lang, env.Stderr, "gpuplan: wrote %s serving files for %s/%s in %s (%s × %d × %s, TP %d × PP %d, %s, %s) to %s\n",
			ef.format, in.Provider, in.Type, exportRegionIn(env.lang, srv.Region, srv.AnyOfRegions), nodes, in.GPUCount, in.GPU, p.TP, p.PP, replicas, env.lang.T(string(p.Offer.Pricing)), ef.output)
	}
	if !p.Cleared.IsZero() { // the file says it too
		notef(env.lang, env.Stderr, p.Cleared)
	}
	if n := srv.ServersNote(ef.format); !n.IsZero() { // the file says it too: the ports to balance
		notef(env.lang, env.Stderr, n)
	}
	if n := srv.InstancesNote(ef.format); !n.IsZero() { // the file says it too; run as written it serves 1/Nodes
		notef(env.lang, env.Stderr, n)
	}
	if !priceNote.IsZero() {
		notef(env.lang, env.Stderr, priceNote)
	}
	return true, nil
}
