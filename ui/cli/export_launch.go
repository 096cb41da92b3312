package cli

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/launch"
)

// exportFormats are the --format choices: launch.Formats plus vllm (the
// vllm serve script's own name, after torchrun, which writes it for
// --task inference), the Kubeflow Training Operator v1 PyTorchJob and the
// probe script, which launch parses but keeps out of its default list.
var exportFormats = append(slices.Insert(slices.Clone(launch.Formats), slices.Index(launch.Formats, launch.FormatTorchrun)+1, launch.FormatVLLM),
	launch.FormatPyTorchJob, launch.FormatProbe)

// k8sKinds are the --k8s-kind choices, spelled as on the command line.
var k8sKinds = []string{"trainjob", "pytorchjob"}

// parseK8sKind maps --k8s-kind to launch.Options.Kubernetes.
func parseK8sKind(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "trainjob":
		return launch.KindTrainJob, nil
	case "pytorchjob":
		return launch.KindPyTorchJob, nil
	}
	return "", model.Msg("want %s", joinOr(k8sKinds))
}

// k8sKindValue is --k8s-kind; it stores launch's kind name.
type k8sKindValue struct{ v *string }

func (k k8sKindValue) String() string {
	if k.v == nil {
		return ""
	}
	return strings.ToLower(*k.v)
}

func (k k8sKindValue) Set(s string) error {
	kind, err := parseK8sKind(s)
	if err == nil {
		*k.v = kind
	}
	return err
}

func (k8sKindValue) Type() string { return "string" }

// registerLaunchFlags adds the launch options that are neither workload
// nor offer: what the script loads, where spot checkpoints go, and the
// Kubernetes kind across nodes.
func registerLaunchFlags(fs *pflag.FlagSet, ef *exportFlags) {
	fs.StringVar(&ef.modelID, "model-id", "", "Hugging Face repo id the script loads (default: the one --model names, else the catalog model's, else "+launch.PlaceholderModelID+")")
	fs.StringVar(&ef.dataset, "dataset", "", "Hugging Face dataset id or path the script trains on (default "+launch.PlaceholderDataset+")")
	fs.StringVar(&ef.bucket, "bucket", "", "object-store bucket for spot checkpoints (default "+launch.PlaceholderBucket+", to replace)")
	fs.StringVar(&ef.k8sPVC, "k8s-pvc", "", "Kubernetes PersistentVolumeClaim mounted at the output directory, so the trained model outlives the pod (default "+launch.DefaultOutputClaim+"); serving: at the Hugging Face cache, so the weights outlive the pod (default: an emptyDir sized for them)")
	fs.Var(floatValue{&ef.writeGBps}, "checkpoint-write-gbps", "GB/s a node writes a checkpoint at, for spot estimates (default 0.131: a gp3 disk's 125 MiB/s baseline, an assumption)")
	fs.Var(k8sKindValue{&ef.k8sKind}, "k8s-kind", "Kubernetes kind across nodes: trainjob (Kubeflow Trainer v2) or pytorchjob (Training Operator v1) (default trainjob)")
}

// launchOptions sets the launch options the --config file's [launch]
// holds and the flags leave unsaid: its dataset (config.Config.
// LaunchDataset), which the workload does not name, so that exporting a
// file written with --dataset trains on it again (walk37: the re-export
// wrote CHANGE-ME/dataset).
func (ff *fromFile) launchOptions(fs *pflag.FlagSet, opt *launch.Options) {
	if ff.cfg == nil || fs.Changed("dataset") {
		return
	}
	if d := ff.cfg.LaunchDataset; d != "" && d != launch.PlaceholderDataset {
		opt.Dataset = d
	}
}

// exportQuery is the search export prices the instance with: the --config
// file's search (its providers, regions and countries, pricing, budget,
// fallback) under the flags, and the GPU count of the file's picked offer
// when the file leaves the count to gpuplan and the instance is the
// picked one, so a 2-node file stays 2 nodes. It returns the workload
// with that count. --instance and --region say where the job runs
// (exportOffer); the search's places bound where else it may (the
// failover candidates: launch.Alternatives), and the region picked when
// none is named.
func exportQuery(fs *pflag.FlagSet, cat *model.Catalog, ff *fromFile, in *model.Instance, w model.Workload, qf *queryFlags) (model.Workload, model.Query, error) {
	base := ff.query() // recommend's and the configurator's (config.Config.Query)
	autoGPUs := base.AutoGPUs
	if ff.cfg != nil {
		if sel := ff.cfg.Selection; sel != nil && sel.Pricing != "" {
			base.Pricing = sel.Pricing // the picked offer's (a plan's phase has no [search] pricing); --pricing still wins
		}
		if sel := ff.cfg.Selection; autoGPUs && sel != nil && sel.GPUs > 0 &&
			sel.Provider == in.Provider && sel.InstanceType == in.Type {
			w.GPUs, autoGPUs = sel.GPUs, false
			if w.GPUs > 1 && (w.Strategy == "" || w.Strategy == model.Single) {
				w.Strategy = model.DDP // as Defaults and the flags do for several GPUs
			}
		}
	}
	q, err := qf.query(fs, cat, autoGPUs, base)
	if err != nil {
		if ff.cfg != nil && errors.As(err, new(fileValueError)) {
			return w, q, usage(model.Msg("%s: %v", ff.path, err))
		}
		return w, q, err
	}
	return w, q, nil
}

// exportSearch is the [search] table written with --format toml: the
// user's search as the file and flags left it (providers, regions,
// countries, budgets, hours per month, deadline, sort, fallback, the
// exchange rate) at the exported offer's pricing, so that export --config
// fails over within the same search as the export with the flags, and
// recommend --config ranks what recommend ranked. It is not narrowed to
// the offer's provider and region (walk54: the reloaded SkyPilot file
// could then fail over only to that provider's other types in that
// region); [selection] names the offer, which export --config and the
// configurator open on.
func exportSearch(fs *pflag.FlagSet, ff *fromFile, qf *queryFlags, offer *model.Offer, search model.Query) config.SearchAnswers {
	var a config.SearchAnswers
	if ff.cfg != nil {
		a.USDCNY = ff.cfg.Search.USDCNY
	}
	if fs.Changed("usd-cny") {
		a.USDCNY = qf.usdCNY
	}
	a.Providers, a.Regions, a.Countries = search.Providers, search.Regions, search.Countries
	a.Pricing = offer.Pricing
	a.MaxPriceHour, a.BudgetMonth, a.BudgetJob = search.MaxUSDPerHour, search.BudgetMonthUSD, search.BudgetJobUSD
	a.HoursPerMonth, a.DeadlineHours, a.Sort = search.HoursPerMonth, search.DeadlineHours, search.Sort
	a.AllowMultiNode = search.AllowMultiNode || offer.Instances > 1
	a.AllowPrecisionFallback = search.AllowPrecisionFallback
	return a
}

// checkInSearch refuses an instance or region outside the user's search
// (--providers, --regions, --country, or the --config file's search):
// the failover candidates stay in it (launch.Alternatives), so the offer
// the file starts on must too. The message names where the value and the
// search came from.
//
// A plan's phase is not refused: it runs on its own offer whatever its
// answers search (plan.Phase.Configure), and its file still fails over
// within that search only.
func checkInSearch(fs *pflag.FlagSet, cat *model.Catalog, ff *fromFile, in *model.Instance, ef *exportFlags, search model.Query) error {
	if ff.phase != nil {
		return nil
	}
	from := func(flag, key string) string {
		if fs.Changed(flag) || ff.cfg == nil {
			return "--" + flag
		}
		return ff.path + ": search." + key
	}
	instance := cmp.Or(ef.instanceFrom, "--instance")
	if len(search.Providers) > 0 && !slices.Contains(search.Providers, in.Provider) {
		return usage(model.Msg("%s %s/%s: %s is not among the providers of %s (%s); add it there, or name an instance of theirs",
			instance, in.Provider, in.Type, in.Provider, from("providers", "providers"), strings.Join(search.Providers, ", ")))
	}
	if ef.region == "" {
		return nil // exportOffer picks one the search allows
	}
	rf := search.RegionFilter(cat)
	if rf.Match(in.Provider, ef.region) {
		return nil
	}
	var limits []string
	if len(search.Regions) > 0 {
		limits = append(limits, from("regions", "regions")+" "+strings.Join(search.Regions, ","))
	}
	if len(search.Countries) > 0 {
		limits = append(limits, from("country", "countries")+" "+strings.Join(search.Countries, ","))
	}
	return usage(model.Msg("%s %s: outside the search (%s); widen it, or name a region it allows",
		ef.regionLabel(), ef.region, strings.Join(limits, "; ")))
}

func (k8sKindValue) choices() []string { return k8sKinds }

// exportOptionFlags are the flags config.ExportOptions keeps, by key.
var exportOptionFlags = []struct{ flag, key string }{
	{"region", "region"}, {"name", "name"}, {"model-id", "model_id"}, {"script", "script"}, {"script-args", "script_args"},
	{"disk-gb", "disk_gb"}, {"image", "image"}, {"wheel", "wheel"}, {"bucket", "bucket"},
	{"k8s-pvc", "k8s_pvc"}, {"k8s-kind", "k8s_kind"}, {"checkpoint-write-gbps", "checkpoint_write_gbps"},
}

// exportOptionValues are o's values by key, as their flags take them; a
// key o leaves out is absent.
func exportOptionValues(o *config.ExportOptions) map[string]string {
	m := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	set("region", o.Region)
	set("name", o.Name)
	set("model_id", o.ModelID)
	set("script", o.Script)
	if o.ScriptArgs != nil {
		m["script_args"] = *o.ScriptArgs
	}
	if o.DiskGB != 0 {
		m["disk_gb"] = strconv.Itoa(o.DiskGB)
	}
	set("image", o.Image)
	set("wheel", o.Wheel)
	set("bucket", o.Bucket)
	set("k8s_pvc", o.K8sPVC)
	set("k8s_kind", o.K8sKind)
	if o.CheckpointWriteGBps != 0 {
		m["checkpoint_write_gbps"] = strconv.FormatFloat(o.CheckpointWriteGBps, 'g', -1, 64)
	}
	return m
}

// applyExportOptions gives the flags the --config file's [export] holds
// and the command line leaves unsaid (config.ExportOptions), through the
// flags themselves, so a value is checked as the flag checks it; an error
// names the file and key.
func (ff *fromFile) applyExportOptions(fs *pflag.FlagSet, ef *exportFlags) error {
	if ff.cfg == nil || ff.cfg.Export.IsZero() {
		return nil
	}
	o := ff.cfg.Export
	// The ranges exportOptions holds the flags to, said with the key.
	if o.DiskGB != 0 && !fs.Changed("disk-gb") && (o.DiskGB < 1 || o.DiskGB > maxDiskGB) {
		return usage(model.Msg("%s: export.disk_gb must be 1–%d, got %d", ff.path, maxDiskGB, o.DiskGB))
	}
	if g := o.CheckpointWriteGBps; g != 0 && !fs.Changed("checkpoint-write-gbps") && !(g >= decide.MinCheckpointWriteGBps && g <= decide.MaxCheckpointWriteGBps) {
		return usage(model.Msg("%s: export.checkpoint_write_gbps must be %v–%d (GB/s per node), got %v", ff.path, decide.MinCheckpointWriteGBps, decide.MaxCheckpointWriteGBps, g))
	}
	values := exportOptionValues(o)
	for _, f := range exportOptionFlags {
		v, ok := values[f.key]
		if !ok || fs.Changed(f.flag) {
			continue
		}
		if err := fs.Set(f.flag, v); err != nil {
			var invalid *pflag.InvalidValueError
			if errors.As(err, &invalid) && errors.Unwrap(invalid) != nil {
				err = errors.Unwrap(invalid) // the value's own words, without pflag's "for --flag"
			}
			return usage(model.Msg("%s: export.%s = %q: %v", ff.path, f.key, v, err))
		}
		if f.flag == "region" { // an error about the region names the key, not a flag never typed
			ef.regionFrom = ff.path + ": export.region"
		}
	}
	return nil
}

// givenExportOptions are the export options the flags (or the --config
// file's [export], applyExportOptions) gave, for the [export] table of
// --format toml; nil when none was.
func givenExportOptions(fs *pflag.FlagSet, ef *exportFlags) *config.ExportOptions {
	var o config.ExportOptions
	on := fs.Changed
	if on("region") { // pinned: the files name it (launch.Options.RegionGiven)
		o.Region = ef.region
	}
	if on("name") {
		o.Name = ef.name
	}
	if on("model-id") {
		o.ModelID = ef.modelID
	}
	if on("script") {
		o.Script = ef.script
	}
	if on("script-args") {
		o.ScriptArgs = &ef.scriptArgs
	}
	if on("disk-gb") {
		o.DiskGB = ef.diskGB
	}
	if on("image") {
		o.Image = ef.image
	}
	if on("wheel") {
		o.Wheel = ef.wheel
	}
	if on("bucket") {
		o.Bucket = ef.bucket
	}
	if on("k8s-pvc") {
		o.K8sPVC = ef.k8sPVC
	}
	if on("k8s-kind") {
		o.K8sKind = k8sKindValue{&ef.k8sKind}.String()
	}
	if on("checkpoint-write-gbps") {
		o.CheckpointWriteGBps = ef.writeGBps
	}
	if o.IsZero() {
		return nil
	}
	return &o
}
