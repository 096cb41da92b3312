package cli

import (
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

// exportFormats are the --format choices: launch.Formats plus the
// Kubeflow Training Operator v1 PyTorchJob and the probe script, which
// launch parses but keeps out of its default list.
var exportFormats = append(slices.Clone(launch.Formats), launch.FormatPyTorchJob, launch.FormatProbe)

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
	fs.StringVar(&ef.modelID, "model-id", "", "Hugging Face repo id the script loads (default: the catalog model's, else "+launch.PlaceholderModelID+")")
	fs.StringVar(&ef.dataset, "dataset", "", "Hugging Face dataset id or path the script trains on (default "+launch.PlaceholderDataset+")")
	fs.StringVar(&ef.bucket, "bucket", "", "object-store bucket for spot checkpoints (default "+launch.PlaceholderBucket+", to replace)")
	fs.StringVar(&ef.k8sPVC, "k8s-pvc", "", "Kubernetes PersistentVolumeClaim mounted at the output directory, so the trained model outlives the pod (default "+launch.DefaultOutputClaim+")")
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
// file's search (its pricing, budget, fallback) under the flags, and the
// GPU count of the file's picked offer when the file leaves the count to
// gpuplan and the instance is the picked one, so a 2-node file stays 2
// nodes. It returns the workload with that count.
func exportQuery(fs *pflag.FlagSet, cat *model.Catalog, ff *fromFile, in *model.Instance, w model.Workload, qf *queryFlags) (model.Workload, model.Query, error) {
	base := ff.query() // recommend's and the configurator's (config.Config.Query)
	autoGPUs := base.AutoGPUs
	if ff.cfg != nil {
		base.Providers, base.Regions = nil, nil // --instance and --region say where
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
// search as the file and flags left it (budget, hours per month, deadline,
// sort, fallback), narrowed to the exported offer's provider, region and
// pricing, so the file reopens on that offer. Lambda's and OCI's price
// region is narrowed to only when --region named it (regionGiven): the
// offer stands for any of the price's regions, which recommend --config
// then shows as one "any of N regions" row, not as the one region gpuplan
// took as the price's key (walk53); [selection] keeps that key, by which
// export --config finds the offer.
func exportSearch(offer *model.Offer, q model.Query, regionGiven bool) config.SearchAnswers {
	regions := []string{offer.Region}
	if !regionGiven && model.RegionsUnconfirmed(offer.Instance.Provider) {
		regions = nil
	}
	return config.SearchAnswers{Providers: []string{offer.Instance.Provider}, Regions: regions, Pricing: offer.Pricing,
		MaxPriceHour: q.MaxUSDPerHour, BudgetMonth: q.BudgetMonthUSD, HoursPerMonth: q.HoursPerMonth, DeadlineHours: q.DeadlineHours,
		AllowMultiNode: q.AllowMultiNode || offer.Instances > 1, AllowPrecisionFallback: q.AllowPrecisionFallback, Sort: q.Sort}
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
