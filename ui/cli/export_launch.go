package cli

import (
	"errors"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
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
// pricing, so the file reopens on that offer.
func exportSearch(offer *model.Offer, q model.Query) config.SearchAnswers {
	return config.SearchAnswers{Providers: []string{offer.Instance.Provider}, Regions: []string{offer.Region}, Pricing: offer.Pricing,
		MaxPriceHour: q.MaxUSDPerHour, BudgetMonth: q.BudgetMonthUSD, HoursPerMonth: q.HoursPerMonth, DeadlineHours: q.DeadlineHours,
		AllowMultiNode: q.AllowMultiNode || offer.Instances > 1, AllowPrecisionFallback: q.AllowPrecisionFallback, Sort: q.Sort}
}

func (k8sKindValue) choices() []string { return k8sKinds }
