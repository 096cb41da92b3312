package cli

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/google/shlex"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/probescript"
	"github.com/gpuplan/gpuplan/model/launch/stack"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/internal/atomicfile"
	"github.com/gpuplan/gpuplan/ui/report"
)

// exportFlags are export's own flags; the workload and pricing flags are
// the shared workloadFlags and queryFlags.
type exportFlags struct {
	instance, region string
	format           launch.Format
	output           string
	force            bool
	name, script     string
	scriptArgs       string
	diskGB           int
	image, wheel     string
	config           string
	// Launch options of model/launch.Options.
	modelID, dataset, bucket string
	k8sKind, k8sPVC          string
	// writeGBps is --checkpoint-write-gbps, recommend's spot assumption:
	// with the spot data's rate it sets how often a spot job checkpoints.
	writeGBps float64
	json      bool // --json: a summary of what was written on stdout
	// instanceFrom and regionFrom name where instance and region came
	// from when no flag gave them (fromFile.origin); "" for the flags.
	instanceFrom, regionFrom string
}

// exportRegionIn is the region as an export's stderr line names it, as
// the file does (launch.Plan.RegionShown, launch.Serve.RegionShown):
// Lambda's and OCI's price regions as "any of N regions" (anyOf, the
// plan's AnyOfRegions), not the first of them (walk51: "in
// asia-northeast-1" beside a file naming no region); any other as
// report.RegionIn writes it.
func exportRegionIn(lang *i18n.Printer, region string, anyOf int) string {
	if anyOf > 0 {
		return lang.Message(model.Msg("any of %d regions", anyOf))
	}
	return report.RegionIn(lang, region)
}

// regionFrom is what an error about the region names: --region, or the
// file and key it came from.
func (ef *exportFlags) regionLabel() string {
	return cmp.Or(ef.regionFrom, "--region")
}

// exportJSON is export --json: the files written, their formats, and the
// offer they launch on, for scripts.
type exportJSON struct {
	Files []exportFileJSON `json:"files"`
	Offer exportOfferJSON  `json:"offer"`
}

type exportFileJSON struct {
	Path   string `json:"path"`
	Format string `json:"format"`
}

type exportOfferJSON struct {
	Provider     string  `json:"provider"`
	InstanceType string  `json:"instance_type"`
	Region       string  `json:"region"`
	Pricing      string  `json:"pricing"`
	USDPerHour   float64 `json:"usd_per_hour"`
	Nodes        int     `json:"nodes"`
	GPUsPerNode  int     `json:"gpus_per_node"`
	GPU          string  `json:"gpu"`
}

// writeExportJSON prints export --json's document on stdout.
func writeExportJSON(env *Env, ef *exportFlags, o exportOfferJSON) error {
	return writeJSONStream(env.Stdout, exportJSON{Files: []exportFileJSON{{Path: ef.output, Format: string(ef.format)}}, Offer: o})
}

// queryFlags that make no sense when --instance names the instance:
// export lists one offer and its failover candidates, cheapest first.
// --providers, --regions and --country do apply: the region export picks
// when --region names none, and the SkyPilot file's failover candidates
// and the regions it names, stay in them (launch.Alternatives).
var exportIgnoredQueryFlags = []string{"limit", "sort"}

// maxDiskGB bounds --disk-gb: 1 PiB, far above any cloud's largest root
// disk, so a typo (1e14) is refused rather than written to a launch file.
const maxDiskGB = 1 << 20

func newExportCmd(env *Env, overlays *[]string) *cobra.Command {
	var wf workloadFlags
	var qf queryFlags
	ef := exportFlags{format: launch.FormatTOML, output: "-"}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the files that launch a workload on a chosen instance (SkyPilot, torchrun, docker, Kubernetes)",
		Long: `export resolves the workload on one instance type (--instance PROVIDER/TYPE) the way
recommend does, in --region or else the cheapest region that prices it in the --pricing
mode, and writes the files that launch it: a SkyPilot task YAML, a torchrun script, a
docker run script with the NGC PyTorch image for the GPU, a Kubernetes Job (a Kubeflow
Trainer TrainJob across nodes; --k8s-kind pytorchjob for the Training Operator's
PyTorchJob), or gpuplan's TOML with its [launch] section. A SkyPilot file lists the
next-best equivalent offers of the ranking as ordered failover candidates, all within
--providers, --regions and --country (or the file's search); a Lambda or OCI offer, priced
for any of several regions, names those they allow. With --config
the file's answers (GPU count, nodes, pricing, region, picked instance) hold unless a
flag overrides them. The strategy carries
through: ZeRO gets a DeepSpeed config, FSDP the Trainer's --fsdp flag.

Each file starts with the software the GPU needs (CUDA, driver, PyTorch wheel, bf16/fp8)
and, on spot, a reminder to checkpoint and resume. Without --gpus the fewest whole
instances that fit are used. Files are written atomically and never overwritten
without --force; -o - (the default) writes to stdout.`,
		Example: `  gpuplan export --model llama-3.1-8b --task qlora --batch-size 1 --seq-len 2048 --instance aws/g5.2xlarge --format skypilot -o qlora.yaml
  gpuplan export --model llama-3.1-8b --task finetune --strategy zero3 --gpus 8 --batch-size 2 --checkpointing --instance aws/p4de.24xlarge --format k8s
  gpuplan export --model llama-3.1-8b --task finetune --gpus 16 --strategy fsdp --batch-size 1 --checkpointing --instance aws/p5.48xlarge --pricing spot --format torchrun
  gpuplan export --model bert-large --task finetune --script train_bert.py --instance gcp/g2-standard-4 --region us-central1 --format docker
  gpuplan export --model llama-3.1-8b --task inference --instance aws/g5.2xlarge --format vllm -o serve.sh
  gpuplan export --config gpuplan.toml --format skypilot -o run.yaml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runExport(cmd, env, *overlays, &wf, &qf, &ef)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&ef.instance, "instance", "", "PROVIDER/TYPE to launch on, e.g. aws/p4de.24xlarge (list: gpuplan catalog instances)")
	fs.StringVar(&ef.region, "region", "", "region to launch in (default: the cheapest that prices the instance)")
	fs.Var(enumValue[launch.Format]{&ef.format, launch.ParseFormat, exportFormats, nil}, "format", "toml, skypilot, torchrun, vllm (the vllm serve script of --task inference), docker, k8s, pytorchjob or probe (a script that measures the plan on the GPU)")
	fs.StringVarP(&ef.output, "output", "o", "-", "file to write; - writes to stdout")
	fs.BoolVar(&ef.force, "force", false, "overwrite the output file if it exists")
	fs.StringVar(&ef.name, "name", "", "job, task and cluster name (default gpuplan-MODEL)")
	fs.StringVar(&ef.script, "script", "", "your training script for torchrun (default: TRL's SFT script, "+launch.TRLSFTModule+", for fine-tuning a decoder LM; other workloads need one)")
	fs.StringVar(&ef.scriptArgs, "script-args", "", "arguments for the script, replacing the Hugging Face Trainer flags derived from the plan ('' passes none)")
	fs.Var(intValue{v: &ef.diskGB}, "disk-gb", "root disk per node in GB (default: sized from the weights, checkpoints and dataset)")
	fs.StringVar(&ef.image, "image", "", "container image for docker and k8s (default: the NGC PyTorch image for the GPU)")
	fs.StringVar(&ef.wheel, "wheel", "", "PyTorch wheel variant SkyPilot installs, e.g. cu126 (default: the one for the GPU)")
	_ = cmd.RegisterFlagCompletionFunc("wheel", func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return list(s, stack.Wheels())
	})
	fs.BoolVar(&ef.json, "json", false, "print a JSON summary on stdout (the files written, their formats, the offer); needs -o FILE")
	fs.StringVar(&ef.config, "config", "", "start from an exported configuration: its workload, and its picked offer as --instance, --region and --pricing unless given")
	addPhaseFlag(cmd)
	registerLaunchFlags(fs, &ef)
	wf.register(fs)
	qf.register(fs)
	for _, name := range exportIgnoredQueryFlags {
		_ = fs.MarkHidden(name)
	}
	cmd.Flags().SortFlags = false
	return cmd
}

func runExport(cmd *cobra.Command, env *Env, overlays []string, wf *workloadFlags, qf *queryFlags, ef *exportFlags) error {
	fs := cmd.Flags()
	for _, name := range exportIgnoredQueryFlags {
		if fs.Changed(name) {
			return usage(model.Msg("--%s does not apply to export: it writes the files of one offer, --instance", name))
		}
	}
	if ef.json && ef.output == "-" {
		return usage(model.Msg("--json prints a summary on stdout, where -o - would write the file: give -o FILE"))
	}
	if err := checkOutputPath(ef.output); err != nil {
		return err
	}
	cat, warnings, err := env.LoadCatalog(overlays)
	if err != nil {
		return err
	}
	ff, err := readFromFileCmd(cmd, ef.config, cmd.InOrStdin()) // phase.go: --config PLAN.toml --phase NAME
	if err != nil {
		return err
	}
	if err := ff.applyExportOptions(fs, ef); err != nil { // walk50, walk53: --region, --name, --model-id … held on reload
		return err
	}
	if task := ff.request().Task; ef.format == launch.FormatVLLM && (fs.Changed("task") && wf.set.Task != model.TaskInference || !fs.Changed("task") && task != model.TaskInference) {
		// The vllm serve script is a serving deployment's (runServeExport);
		// said before --instance is asked for, as a bad format is.
		return usage(model.Msg("--format vllm is the vllm serve script, for --task inference; a training job's launcher is --format torchrun"))
	}
	ff.phaseGPU(cat)
	in, err := exportInstance(fs, cat, &ff, qf, ef)
	if err != nil {
		return err
	}
	if ok, err := runServeExport(cmd, env, cat, ff, in, wf, qf, ef); ok || err != nil {
		printWarningsIn(env.lang, env.Stderr, warnings) // the catalog's; the request's are printed with the files
		return err
	}
	w, ws, err := ff.workload(fs, cat, env.Readers, wf)
	if err != nil {
		return err
	}
	if why := serve.Unserved(&w.Model); w.Task == model.TaskInference && !why.IsZero() && ef.script == "" &&
		ef.format != launch.FormatTOML && ef.format != launch.FormatProbe {
		// A vllm serve file for a model vLLM does not serve would not
		// start (walk49: export --model t5-large --task inference wrote
		// one): say which server does, in one line.
		return usage(model.Msg("--format %s: %s: gpuplan writes serving files for vLLM only; name your inference script with --script and its arguments with --script-args", ef.format, why))
	}
	warnings = append(warnings, ws...)
	warnings = append(warnings, w.PastPositions()...) // the file runs that length: say what it means, as recommend does
	if fs.Changed("gpu") {
		g, err := cat.GPU(wf.gpu)
		if err != nil {
			return usage(model.Msg("--gpu: %v", err))
		}
		if g.Key != in.GPU {
			return usage(model.Msg("--gpu %s does not match %s/%s, which has %s; drop --gpu", wf.gpu, in.Provider, in.Type, in.GPU))
		}
	}
	// The phase's workload as its answers and the flags give it, before
	// exportQuery puts it on the picked offer's GPUs: plan.JobOnOffer
	// splits the answers' global batch over the offer's GPUs itself, as
	// plan and estimate --phase give it (walk37: the answers' micro-batch
	// 4 × accumulation 2 was taken as per GPU on all 8 of a p5en, 8 times
	// the batch plan priced, and refused as 280 GiB per GPU).
	asked := w
	w, q, err := exportQuery(fs, cat, &ff, in, w, qf)
	if err != nil {
		return err
	}
	warnings = append(warnings, qf.retiredLeftOut...) // --providers cudo,aws: cudo is not written
	if q.Pricing == "" {
		q.Pricing = model.OnDemand
	}
	// A plan's phase on its own offer is written as gpuplan plan checks it
	// (plan.JobOnOffer): the offer's GPUs and instances whatever the
	// answers' gpus say, the strategy plan takes there, its verdict
	// (walk36b: answers of 16 GPUs on one 8-GPU p4d were written as 2
	// nodes).
	var verdict, jobNote model.Message
	if job, ok, depart, err := ff.phaseJob(fs, cat, in, ef.region, asked); err != nil {
		return err
	} else if !depart.IsZero() {
		verdict = depart // --gpus departs from the phase: said on stderr and in the file, as plan's verdict is
	} else if ok {
		v, _ := job.Verdict()
		if r := jobRefusal(ff.phase.Name, &job); !r.IsZero() {
			return usage(r)
		}
		w = job.Workload
		q.AutoGPUs, q.MaxGPUs, q.AllowMultiNode, q.MaxNodes, q.KeepStrategy = false, 0, job.Nodes > 1, job.Nodes, true
		q.MaxUSDPerHour, q.BudgetMonthUSD, q.BudgetJobUSD, q.DeadlineHours = 0, 0, 0, 0 // the ranking's limits, not the plan's
		// Said on stderr and in the file, as a departure is.
		if !job.Note.IsZero() {
			warnings = append(warnings, job.Note)
			jobNote = job.Note
		}
		if !v.IsZero() {
			verdict = model.Msg("phase %q: %v", ff.phase.Name, v)
		}
	}
	if err := checkPriced(cat, in, ef.region, ef.regionLabel(), q.Pricing); err != nil {
		return usage(err)
	}
	// The user's search, before exportOffer narrows it to the instance:
	// the failover candidates and the regions the files name stay in it,
	// and the TOML keeps it as [search].
	search := q
	if err := checkInSearch(fs, cat, &ff, in, ef, search); err != nil {
		return err
	}
	if ff.phase != nil {
		q.Countries = nil // a plan's phase runs on its own offer, wherever its answers search (checkInSearch)
	}
	offer, err := exportOffer(cat, in, ef.region, &w, &q)
	if err != nil {
		return err
	}
	opt, err := exportOptions(fs, cat, ef, w, offer, search)
	if err != nil {
		return err
	}
	ff.launchOptions(fs, &opt)
	opt.NamedAs = ff.req.Model // a Hugging Face id given is the checkpoint loaded (RepoIDAsNamed)
	// The file says what gpuplan plan says of the phase, as stderr does:
	// the offer's GPUs in place of the file's one, its verdict, the
	// plan's own price beside the header's catalog one (priceNote).
	said := []model.Message{jobNote, verdict}
	if ff.phase == nil && offer.Estimate != nil {
		// Shared over the offer's GPUs as recommend shares it: the file
		// writes the per-GPU batch, so it says where it came from (a new
		// user's walk: 4 × 2 asked, 1 × 1 written, unsaid).
		a := asked
		a.Defaults()
		runs := &offer.Estimate.Workload
		n := a.BatchShared(runs)
		one := asked // the batch the defaults show on one GPU
		one.GPUs = 1
		one.Defaults()
		if n.IsZero() && runs.Task.Training() && (one.MicroBatch != runs.MicroBatch || one.GradAccum != runs.GradAccum) {
			// A defaulted batch moved too: the QLoRA recipe's 1 × 16 on
			// the header became 1 × 2 on 8 GPUs, unsaid (fresh-user
			// walk), with --gpus 8 as without (it compared with the
			// batch --gpus 8 gives, the same, and said nothing);
			// BatchShared leaves it to BatchNote, which says it.
			n = runs.BatchNote()
		}
		if !n.IsZero() {
			opt.Notes = append(opt.Notes, n)
		}
	}
	if ff.phase == nil && offer.Verdict == model.VerdictBorderline && offer.Estimate != nil {
		// The file says the chance stderr says, as a serving export's
		// and a plan phase's do (a verification walk: a ~10% chance on a
		// V100 was said on stderr only, the SkyPilot file silent).
		said = append(said, model.Msg("borderline (~ in recommend): the 90%% range reaches %.2f GiB per GPU, past the %.2f GiB usable; about %.0f%% chance of running out of memory",
			offer.Estimate.ResidentBand()[1]/model.GiB, offer.UsableBytes/model.GiB, model.RoundChance(offer.OOMChance)*100))
	}
	for _, n := range said {
		if !n.IsZero() {
			opt.Notes = append(opt.Notes, n)
		}
	}
	if n := ff.priceNote(in, offer.Region, offer.Instances, offer.Pricing, offer.USDPerHour, cat.AsOf); !n.IsZero() {
		opt.Notes = append(opt.Notes, n)
	}
	spotWarnings, err := exportSpotRate(env, offer, &opt)
	if err != nil {
		return err
	}
	warnings = append(warnings, spotWarnings...)
	plan, err := launch.NewPlan(w, offer, opt)
	if err != nil {
		return usage(err)
	}
	out, err := renderExport(fs, cat, &ff, wf, qf, ef, plan, w, offer, search)
	if err != nil {
		return err
	}
	if !verdict.IsZero() {
		warnings = append(warnings, verdict)
	}
	printWarningsIn(env.lang, env.Stderr, warnings)
	for _, m := range offer.WarningMessages() {
		if m.Key != model.SpotWarning && m.Key != model.ArmHostWarning { // the plan's notes say them, in the file too
			printWarningsIn(env.lang, env.Stderr, []model.Message{m})
		}
	}
	if toFile, err := writeExport(env, ef, out, false); !toFile || err != nil {
		return err
	}
	if ef.json {
		if err := writeExportJSON(env, ef, exportOfferJSON{Provider: plan.Provider, InstanceType: plan.InstanceType, Region: plan.Region,
			Pricing: string(plan.Pricing), USDPerHour: plan.USDPerHour, Nodes: plan.Nodes, GPUsPerNode: plan.ProcsPerNode, GPU: plan.GPU.Key}); err != nil {
			return err
		}
	}
	gpus := fmt.Sprintf("%d × %s", plan.ProcsPerNode, plan.Accelerator)
	if plan.Nodes > 1 { // "2 个节点" in Chinese (walk37: "2 nodes" stayed English)
		gpus = env.lang.Message(model.Msg("%v × %s", model.CountMsg(plan.Nodes, "node"), gpus))
	}
	what := model.Msg("%s", ef.format)
	if ef.format == launch.FormatPyTorchJob && plan.Nodes == 1 { // the file says so too (model/launch k8s.go)
		what = model.Msg("a Kubernetes Job (one node: a PyTorchJob is for a job across nodes)")
	}
	if model.RegionUnstated(plan.Region) { // not "in location not stated" (Daytona's "earth")
		sayf(env.lang, env.Stderr, "gpuplan: wrote %s for %s/%s (location not stated; %s, %s) to %s\n",
			what, plan.Provider, plan.InstanceType, gpus, env.lang.T(string(plan.Pricing)), ef.output)
	} else {
		sayf(env.lang, env.Stderr, "gpuplan: wrote %s for %s/%s in %s (%s, %s) to %s\n",
			what, plan.Provider, plan.InstanceType, exportRegionIn(env.lang, plan.Region, plan.AnyOfRegions), gpus, env.lang.T(string(plan.Pricing)), ef.output)
	}
	for _, n := range plan.NoteMessages() {
		if slices.ContainsFunc(said, func(m model.Message) bool { return !m.IsZero() && m.String() == n.String() }) {
			continue // warned above: once on stderr (walk37: a borderline phase's verdict was said twice)
		}
		notef(env.lang, env.Stderr, n)
	}
	return nil
}

// exportInstance returns the instance type to export for: --instance, or
// the configuration's picked offer (which also gives --region and
// --pricing unless flags do); retired types and types missing from the
// latest fetch are refused.
func exportInstance(fs *pflag.FlagSet, cat *model.Catalog, ff *fromFile, qf *queryFlags, ef *exportFlags) (*model.Instance, error) {
	if sel := ff.selection(); sel != nil { // the configuration's picked offer, unless flags say otherwise
		if ef.instance == "" {
			ef.instance, ef.instanceFrom = sel.Provider+"/"+sel.InstanceType, ff.origin("instance")
		}
		if ef.region == "" && !fs.Changed("region") {
			ef.region, ef.regionFrom = sel.Region, ff.origin("region")
		}
		if !fs.Changed("pricing") && sel.Pricing != "" {
			qf.pricing = sel.Pricing
		}
	}
	if ef.instance == "" {
		return nil, usage(model.Msg("--instance PROVIDER/TYPE is required, e.g. --instance aws/p4de.24xlarge (list: gpuplan catalog instances)"))
	}
	in, err := findInstance(cat, ef.instance, cmp.Or(ef.instanceFrom, "--instance"))
	if err != nil {
		return nil, usage(err)
	}
	if in.Retired != "" {
		return nil, usage(model.Msg("%s/%s was retired by the provider on %s; pick another instance (gpuplan recommend)", in.Provider, in.Type, in.Retired))
	}
	if in.MissingSince != "" { // as recommend, which does not rank it
		return nil, usage(model.Msg("%s/%s was not in the latest catalog fetch (since %s), so it is not priced; pick another instance (gpuplan recommend)",
			in.Provider, in.Type, in.MissingSince))
	}
	// The file's region is its picked offer's: beside --instance of
	// another provider not offered there it is no typo to correct (walk54:
	// a Lambda file's us-south-1, Texas, got "did you mean ap-south-1?",
	// Mumbai). A picked offer's region pins nothing (docs/launch.md): the
	// new instance goes to its cheapest region the file's search allows,
	// which keeps where the data may go (walk57). A region --region
	// pinned ([export] region) or a plan phase's is refused: the user
	// names the new one.
	if sel := ff.selection(); sel != nil && fs.Changed("instance") && ef.regionFrom != "" && ef.region != "" &&
		sel.Provider != in.Provider && !slices.ContainsFunc(in.Prices, func(rp model.RegionPrice) bool { return rp.Region == ef.region }) {
		if ff.phase == nil && !strings.HasSuffix(ef.regionFrom, ": export.region") {
			ef.region, ef.regionFrom = "", ""
			return in, nil
		}
		regions := make([]string, len(in.Prices))
		for i := range in.Prices {
			regions[i] = in.Prices[i].Region
		}
		return nil, usage(model.Msg("%s %s is %s/%s's region; %s/%s is not offered there: give --region (regions: %s)",
			ef.regionFrom, ef.region, sel.Provider, sel.InstanceType, in.Provider, in.Type, strings.Join(regions, ", ")))
	}
	return in, nil
}

// exportOffer matches w (defaulted here) on instance type in alone, in
// region (any when ""), and returns its cheapest region's offer; q is left
// as the match ran it.
func exportOffer(cat *model.Catalog, in *model.Instance, region string, w *model.Workload, q *model.Query) (*model.Offer, error) {
	// Match against this instance type alone: Recommend keeps only the
	// cheapest type per provider, region and GPU, which may not be this
	// one. The query names it (Query.InstanceType), not a catalog cut down
	// to it: a type without a network figure is timed across nodes at the
	// median of the catalog's types of its GPU and node size, as
	// recommend and the configurator time it (exportnet: the cut catalog
	// had no such type, and 32 H200s were written at an assumed 10 Gbps,
	// 556 h for recommend's 1.8).
	// Without a region, the cheapest of those the search allows
	// (--regions, --country, the file's search.regions).
	q.Providers, q.InstanceType = []string{in.Provider}, in.Type
	if region != "" {
		q.Regions = []string{region}
	}
	// More GPUs than one instance has means several nodes: allow them.
	w.Defaults()
	q.AllowMultiNode = q.AllowMultiNode || !q.AutoGPUs && w.GPUs > in.GPUCount
	rec, err := model.Recommend(*w, cat, *q)
	if err != nil {
		return nil, usage(err)
	}
	if len(rec.Offers) == 0 {
		reason, verdict := "does not run the workload", "does not fit"
		if len(rec.Rejected) > 0 {
			reason = rec.Rejected[0].Reason
			switch rec.Rejected[0].Kind {
			case model.RejectVRAM, model.RejectHostRAM:
			case model.RejectPrecision, model.RejectSoftware:
				verdict = "cannot run the job" // not memory: the GPU lacks the precision or the framework
			default:
				verdict = "is refused" // a limit: GPU count, nodes, price, budget, deadline
			}
		}
		return nil, usage(model.Msg("%s/%s %s: %s (see gpuplan recommend for instances that do)", in.Provider, in.Type, verdict, reason))
	}
	// The cheapest region; ties keep Recommend's order. Without --region,
	// never one the catalog warns about as a typo (data.RegionWarned: a
	// mirror's region the embedded catalog does not know for the provider).
	var offer *model.Offer
	for i := range rec.Offers {
		o := &rec.Offers[i]
		if region == "" && data.RegionWarned(in.Provider, o.Region) {
			continue
		}
		if offer == nil || o.USDPerHour < offer.USDPerHour {
			offer = o
		}
	}
	if offer == nil {
		var regions []string
		for i := range rec.Offers {
			regions = append(regions, strconv.Quote(rec.Offers[i].Region))
		}
		return nil, usage(model.Msg("%s/%s is priced only in regions the catalog does not know for %s (%s); name one with --region to export it there", in.Provider, in.Type, in.Provider, strings.Join(regions, ", ")))
	}
	return offer, nil
}

// exportOptions are the launch options the flags give: names, script and
// its arguments, disk, image and wheel, the regions the user's search
// allows, and for SkyPilot the next-best equivalent offers under that
// search as failover candidates.
func exportOptions(fs *pflag.FlagSet, cat *model.Catalog, ef *exportFlags, w model.Workload, offer *model.Offer, search model.Query) (launch.Options, error) {
	if err := stack.CheckWheel(ef.wheel); err != nil {
		return launch.Options{}, usage(model.Msg("--wheel %v", err))
	}
	opt := launch.Options{Name: ef.name, Script: ef.script, DiskGB: ef.diskGB, Image: ef.image, Wheel: ef.wheel,
		ModelID: ef.modelID, Dataset: ef.dataset, Bucket: ef.bucket, Kubernetes: ef.k8sKind, OutputClaim: ef.k8sPVC,
		RegionGiven: fs.Changed("region"), // a region the configuration picked stands for any of the price's (AnyOfRegions)
		Where:       search.RegionFilter(cat)}
	if ef.format == launch.FormatSkyPilot {
		opt.Alternatives = launch.Alternatives(w, cat, offer, search)
		// Nor is a typo-warned region a failover candidate.
		opt.Alternatives = slices.DeleteFunc(opt.Alternatives, func(o *model.Offer) bool {
			return data.RegionWarned(o.Instance.Provider, o.Region)
		})
	}
	if fs.Changed("script-args") {
		words, err := shlex.Split(ef.scriptArgs)
		if err != nil {
			return opt, usage(model.Msg("--script-args: %v (quote as in a shell)", err))
		}
		opt.ScriptArgs = words
	}
	if fs.Changed("disk-gb") && (ef.diskGB <= 0 || ef.diskGB > maxDiskGB) {
		return opt, usage(model.Msg("--disk-gb must be 1–%d, got %d", maxDiskGB, ef.diskGB))
	}
	if fs.Changed("checkpoint-write-gbps") {
		if !(ef.writeGBps >= decide.MinCheckpointWriteGBps && ef.writeGBps <= decide.MaxCheckpointWriteGBps) {
			return opt, usage(model.Msg("--checkpoint-write-gbps must be %v–%d (GB/s per node), got %v", decide.MinCheckpointWriteGBps, decide.MaxCheckpointWriteGBps, ef.writeGBps))
		}
		opt.CheckpointWriteBytesPerSecond = ef.writeGBps * 1e9
	}
	return opt, nil
}

// exportSpotRate gives a spot offer's plan the interruption rate
// recommend's spot estimate uses for it (env.SpotRates: the AWS advisor
// feed if saved, else the embedded defaults), so the file checkpoints
// every τ of that estimate; it returns the spot data's warnings. Without
// a loader the plan falls back to launch.FallbackSpotRate.
func exportSpotRate(env *Env, offer *model.Offer, opt *launch.Options) ([]model.Message, error) {
	if offer.Pricing != model.Spot || env.SpotRates == nil || offer.Estimate == nil || !offer.Estimate.Workload.Task.Training() {
		return nil, nil
	}
	rate, warnings, err := env.SpotRates()
	if err != nil {
		return nil, err
	}
	if rate != nil {
		r := rate(offer.Instance.Provider, offer.Region, offer.Instance.Type)
		opt.SpotRate = &r
	}
	return warnings, nil
}

// renderExport renders plan in --format: the launch file, or for toml the
// whole configuration of offer with its [launch] section, so that
// `gpuplan --config` reopens it.
func renderExport(fs *pflag.FlagSet, cat *model.Catalog, ff *fromFile, wf *workloadFlags, qf *queryFlags, ef *exportFlags, plan *launch.Plan, w model.Workload, offer *model.Offer, search model.Query) ([]byte, error) {
	var out []byte
	var l *config.Launch
	var err error
	if ef.format == launch.FormatTOML {
		l, err = plan.Launch()
	} else {
		out, err = probescript.Render(plan, ef.format)
	}
	if l != nil {
		// The whole configuration, so `gpuplan --config` reopens it, with
		// the [launch] section after it.
		cfg := config.Config{Workload: config.AnswersFor(offer.Estimate.Workload), Estimate: config.NewEstimateSummary(offer.Estimate),
			Selection: config.NewSelection(offer, cat.AsOf), Launch: l, Export: givenExportOptions(fs, ef)}
		cfg.Workload.Precision = w.Precision // as asked; the offer's fallback is in [launch]
		if fs.Changed("hf-config") {
			cfg.Workload.Model, cfg.Workload.Custom, cfg.Workload.HFConfig = "", nil, wf.set.HFConfig
		}
		cfg.Search = exportSearch(fs, ff, qf, offer, search)
		if out, err = config.EncodeBy(&cfg, config.WriterExport); err != nil {
			return nil, model.Msg("--format toml: %v", err)
		}
	}
	if err != nil {
		if errors.Is(err, launch.ErrNoStack) && !launch.FixNamed(err) {
			flag := "--image IMAGE"
			if ef.format == launch.FormatSkyPilot {
				flag = "--wheel VARIANT"
			}
			err = model.Msg("%v (%s)", err, flag)
		}
		return nil, usage(model.Msg("--format %s: %v", ef.format, err))
	}
	return out, nil
}

// writeExport writes out to --output: standard output for "-", else a
// file written atomically (executable for the torchrun and docker
// scripts) and never overwritten without --force. toFile says a file was
// written, for the caller's "wrote" line. serving says out is a serving
// deployment's (launch.Serve.Render), whose files have their own names
// (launch.Format.ServeFileName: gpuplan-vllm-serve.sh), suggested in a
// directory given as -o as the configurator's dialog suggests them.
func writeExport(env *Env, ef *exportFlags, out []byte, serving bool) (toFile bool, err error) {
	if ef.output == "-" {
		_, err := env.Stdout.Write(out)
		return false, err
	}
	mode := os.FileMode(0o644)
	if ef.format == launch.FormatTorchrun || ef.format == launch.FormatVLLM || ef.format == launch.FormatDocker {
		mode = 0o755 // scripts
	}
	name := ef.format.FileName()
	if serving {
		name = ef.format.ServeFileName()
	}
	name = cmp.Or(name, "gpuplan.toml") // suggested in a directory given as -o
	if err := atomicfile.WriteFileAtomicNamed(ef.output, out, mode, ef.force, name); err != nil {
		if errors.Is(err, atomicfile.ErrFileExists) {
			return false, usage(model.Msg("%s exists; pass --force to overwrite it", ef.output))
		}
		return false, usage(model.Msg("-o: %v", err))
	}
	return true, nil
}

// findInstance resolves PROVIDER/TYPE; the error, which names the value
// as from (--instance, or the file and key it came from), suggests the
// closest provider or type. Retired types are found too (Recommend skips them, and
// says so through an empty result).
func findInstance(cat *model.Catalog, spec, from string) (*model.Instance, error) {
	provider, typ, ok := strings.Cut(strings.TrimSpace(spec), "/")
	if !ok || provider == "" || typ == "" {
		return nil, model.Msg("%s %q: want PROVIDER/TYPE, e.g. aws/p4de.24xlarge (list: gpuplan catalog instances)", from, spec)
	}
	provider = strings.ToLower(provider)
	var providers, types []string
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !slices.Contains(providers, in.Provider) {
			providers = append(providers, in.Provider)
		}
		if in.Provider != provider {
			continue
		}
		if in.Type == typ {
			return in, nil
		}
		types = append(types, in.Type)
	}
	if len(types) == 0 {
		if s := model.Closest(provider, providers, 1); len(s) > 0 {
			return nil, model.Msg("%s %s: unknown provider %q; did you mean %q? (list: gpuplan catalog instances)", from, spec, provider, s[0])
		}
		return nil, model.Msg("%s %s: unknown provider %q (list: gpuplan catalog instances)", from, spec, provider)
	}
	for i := range cat.Instances { // case-insensitive second chance: "P4DE.24XLARGE"
		if in := &cat.Instances[i]; in.Provider == provider && strings.EqualFold(in.Type, typ) {
			return in, nil
		}
	}
	if date, _, ok := cat.ProviderRetirement(provider); ok {
		// Its list is refused without --all (walk, 2026-12-06): point there.
		return nil, model.Msg("%s %s: unknown %s instance type %q, and %s shut down on %s (its former types: gpuplan catalog instances --all --providers %s)", from, spec, provider, typ, provider, date, provider)
	}
	if s := model.Closest(typ, types, 3); len(s) > 0 {
		q := make([]string, len(s))
		for i, v := range s {
			q[i] = provider + "/" + v
		}
		return nil, model.Msg("%s %s: unknown %s instance type %q; did you mean %s? (list: gpuplan catalog instances --provider %s)", from, spec, provider, typ, joinOr(q), provider)
	}
	return nil, model.Msg("%s %s: unknown %s instance type %q (list: gpuplan catalog instances --provider %s)", from, spec, provider, typ, provider)
}

// checkPriced reports, as one sentence, why in cannot be rented in region
// (any region when "") at pricing p: an unknown region, named as from
// (--region, or the file and key it came from), or no price in that mode
// there.
func checkPriced(cat *model.Catalog, in *model.Instance, region, from string, p model.Pricing) error {
	name := in.Provider + "/" + in.Type
	var regions, priced []string
	for _, rp := range in.Prices {
		regions = append(regions, rp.Region)
		if hasPrice(cat, in, &rp, p) {
			priced = append(priced, rp.Region)
		}
	}
	if region != "" && !slices.Contains(regions, region) {
		if s := model.Closest(region, regions, 1); len(s) > 0 {
			return model.Msg("%s %s: %s is not offered there; did you mean %q? (regions: %s)", from, region, name, s[0], strings.Join(regions, ", "))
		}
		return model.Msg("%s %s: %s is not offered there (regions: %s)", from, region, name, strings.Join(regions, ", "))
	}
	if region != "" && !slices.Contains(priced, region) {
		return model.Msg("%s has no %s price in %s; %s", name, model.Msg(string(p)), region, otherModes(cat, in, region, p))
	}
	if len(priced) == 0 {
		return model.Msg("%s has no %s price in any region; %s", name, model.Msg(string(p)), otherModes(cat, in, "", p))
	}
	return checkHeld(cat, in, region, p)
}

// checkHeld names the overlay price the guards held (RegionPrice.Held) that
// is in's only price at p in region (any region when ""), which the search
// would otherwise report as "no instance matches" (issue #29), and how to
// use it anyway.
func checkHeld(cat *model.Catalog, in *model.Instance, region string, p model.Pricing) error {
	if cat.TrustOverlays {
		return nil
	}
	var held *model.RegionPrice
	disc := cat.DiscountFor(in, p) // a reserved price off an overlay's discount may be held on its own
	for i := range in.Prices {
		rp := &in.Prices[i]
		if region != "" && rp.Region != region || !hasPrice(cat, in, rp, p) {
			continue
		}
		if !rp.Held && !disc.HeldFor(in.Type, rp.Region) {
			return nil
		}
		if held == nil {
			held = rp
		}
	}
	if held == nil {
		return nil
	}
	usd, ok := cat.ListPrice(in, held, p, nil)
	if v, has := held.Price(p); !ok && has && in.PriceCurrency() == "USD" {
		// ListPrice has none for an on-demand price below the region's
		// spot (the guard's very finding): the message printed "—/h"
		// (attack round 13), so the file's own figure is shown.
		usd = v
	}
	_, origin, _ := model.PriceProvenance(in, held)
	if !held.Held && disc != nil {
		origin = disc.Origin
	}
	return model.Msg("%s/%s %s: the %s price %s/h from %s looks fake or mistyped, so the price guards held it (the load's warning says why); pass --trust-overlay to use it",
		in.Provider, in.Type, report.RegionArg(held.Region), model.Msg(string(p)), report.USDPerHour(usd), origin)
}

// otherModes suggests the pricing modes that do have a price.
func otherModes(cat *model.Catalog, in *model.Instance, region string, not model.Pricing) model.Message {
	var modes []string
	for _, m := range model.PricingModes {
		if m == not {
			continue
		}
		for _, rp := range in.Prices {
			if (region == "" || rp.Region == region) && hasPrice(cat, in, &rp, m) {
				modes = append(modes, "--pricing "+string(m))
				break
			}
		}
	}
	if len(modes) == 0 {
		return model.Msg("the catalog has no price for it there")
	}
	return model.Msg("try %s", joinOr(modes))
}

// hasPrice mirrors model's pricing rules: spot and on-demand need their own
// price; reserved needs on-demand and a published discount for the type.
func hasPrice(cat *model.Catalog, in *model.Instance, rp *model.RegionPrice, p model.Pricing) bool {
	switch p {
	case model.Spot:
		return rp.SpotUSD > 0
	case model.Reserved1y, model.Reserved3y:
		if rp.OnDemandUSD <= 0 {
			return false
		}
		return cat.DiscountFor(in, p) != nil
	}
	return rp.OnDemandUSD > 0
}
