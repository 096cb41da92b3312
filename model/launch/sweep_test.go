package launch_test

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"bytes"
	"encoding/json"

	"github.com/BurntSushi/toml"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// SkyPilot's rules beyond the JSON schema, each with where SkyPilot applies it.
var (
	// skyNameRE: sky/utils/common_utils.py _VALID_NAME_REGEX (cluster and
	// task names), '[a-zA-Z]([-_.a-zA-Z0-9]*[a-zA-Z0-9])?'.
	skyNameRE = regexp.MustCompile(`^[a-zA-Z]([-_.a-zA-Z0-9]*[a-zA-Z0-9])?$`)
	// skyNetworkTiers: sky/utils/resources_utils.py NetworkTier values.
	skyNetworkTiers = []string{"standard", "best"}
	// skyNetworkTierClouds: clouds that do not list CUSTOM_NETWORK_TIER in
	// their unsupported features (GCP GPUDirect in sky/provision/gcp,
	// Nebius InfiniBand in sky/clouds/nebius.py, AWS EFA in
	// sky/provision/aws/constants.py, Kubernetes per cluster); SkyPilot
	// refuses network_tier best elsewhere.
	skyNetworkTierClouds = []string{"aws", "gcp", "nebius", "kubernetes"}
	// skyRecoveryStrategies: sky/jobs/recovery_strategy.py registered
	// strategies.
	skyRecoveryStrategies = []string{"FAILOVER", "EAGER_NEXT_REGION"}
	// skyStorageModes: sky/data/storage.py StorageMode.
	skyStorageModes = []string{"MOUNT", "COPY", "MOUNT_CACHED"}
	// bucketRE: S3 and GCS bucket names, 3–63 lowercase letters, digits,
	// hyphens and dots, starting and ending with a letter or digit.
	bucketRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	// gcpAttach: sky/catalog/gcp_catalog.py _ACC_INSTANCE_TYPE_DICTS
	// (copied from the source, acc_type → count → vm types), enforced by
	// check_accelerator_attachable_to_host; other GPUs attach to N1 only
	// (_DEFAULT_HOST_VM_FAMILY n1-standard, n1-highmem, n1-highcpu).
	gcpAttach = map[string]map[int][]string{
		"A100":      {1: {"a2-highgpu-1g"}, 2: {"a2-highgpu-2g"}, 4: {"a2-highgpu-4g"}, 8: {"a2-highgpu-8g"}, 16: {"a2-megagpu-16g"}},
		"A100-80GB": {1: {"a2-ultragpu-1g"}, 2: {"a2-ultragpu-2g"}, 4: {"a2-ultragpu-4g"}, 8: {"a2-ultragpu-8g"}},
		"L4": {1: {"g2-standard-4", "g2-standard-8", "g2-standard-12", "g2-standard-16", "g2-standard-32"},
			2: {"g2-standard-24"}, 4: {"g2-standard-48"}, 8: {"g2-standard-96"}},
		"H100":      {1: {"a3-highgpu-1g"}, 2: {"a3-highgpu-2g"}, 4: {"a3-highgpu-4g"}, 8: {"a3-highgpu-8g"}},
		"H100-MEGA": {8: {"a3-megagpu-8g"}},
		"H200":      {8: {"a3-ultragpu-8g"}},
		"B200":      {8: {"a4-highgpu-8g"}},
	}
)

// skyCatalog indexes the catalog as SkyPilot's: (cloud, instance type as
// the provider spells it) → the accelerator names and counts SkyPilot
// gives it, with the regions that have a spot price.
type skyCatalog map[[2]string][]*model.Instance

func newSkyCatalog(cat *model.Catalog) skyCatalog {
	c := skyCatalog{}
	for i := range cat.Instances {
		in := &cat.Instances[i]
		k := [2]string{in.Provider, launch.ProviderInstanceType(in.Provider, in.Type)}
		c[k] = append(c[k], in)
	}
	return c
}

// validateSkyPilot decodes a SkyPilot task strictly and returns every rule
// it breaks.
func validateSkyPilot(t *testing.T, b []byte, sc skyCatalog) (skyTask, []string) {
	t.Helper()
	task := parseSkyPilot(t, b)
	var bad []string
	add := func(f string, a ...any) { bad = append(bad, fmt.Sprintf(f, a...)) }
	if !skyNameRE.MatchString(task.Name) {
		add("name %q: SkyPilot names start with a letter", task.Name)
	}
	if task.NumNodes != nil && *task.NumNodes < 1 {
		add("num_nodes %d", *task.NumNodes)
	}
	r := task.Resources
	offers := append(append([]skyOffer{}, r.AnyOf...), r.Ordered...)
	if len(offers) == 0 {
		offers = []skyOffer{r.skyOffer}
	} else if r.Cloud != "" || r.InstanceType != "" || r.Accelerators != "" {
		add("resources has both an inline offer and candidates")
	}
	spot := r.UseSpot != nil && *r.UseSpot
	for _, o := range offers {
		if !slices.Contains(skyClouds, o.Cloud) {
			add("cloud %q is not one of SkyPilot's", o.Cloud)
		}
		if o.Cloud == "gcp" && strings.Contains(o.InstanceType, "+") {
			add("instance_type %q is not a GCP machine type", o.InstanceType)
		}
		// SkyPilot's own rows for the type (testdata/skypilot_accelerators.csv):
		// accelerators must equal one of them, name and count
		// (_check_instance_type_accelerators_combination); without
		// accelerators SkyPilot takes its row's.
		own := skyPilotAccelerators(t)[[2]string{o.Cloud, o.InstanceType}]
		if o.Accelerators == "" && len(own) > 0 {
			if o.Cloud == "gcp" {
				add("gcp %s without accelerators", o.InstanceType)
			}
			o.Accelerators = fmt.Sprintf("%s:%g", own[0].name, own[0].count)
			var in *model.Instance
			for _, c := range sc[[2]string{o.Cloud, o.InstanceType}] {
				in = c
			}
			if in != nil && float64(in.GPUCount) != own[0].count && strings.Contains(task.Run, "$SKYPILOT_NUM_GPUS_PER_NODE") {
				add("%s %s: SkyPilot counts %g GPUs, the node has %d, and run reads $SKYPILOT_NUM_GPUS_PER_NODE", o.Cloud, o.InstanceType, own[0].count, in.GPUCount)
			}
		}
		m := acceleratorsRE.FindStringSubmatch(o.Accelerators)
		if m == nil {
			add("accelerators %q: want NAME:COUNT", o.Accelerators)
			continue
		}
		n, _ := strconv.Atoi(m[2])
		if len(own) > 0 && !slices.ContainsFunc(own, func(a skyAccel) bool { return strings.EqualFold(a.name, m[1]) && a.count == float64(n) }) {
			add("%s %s with %s: SkyPilot's catalog gives it %+v (Infeasible resource demands)", o.Cloud, o.InstanceType, o.Accelerators, own)
		}
		var match *model.Instance
		for _, in := range sc[[2]string{o.Cloud, o.InstanceType}] {
			if strings.EqualFold(in.SkyPilotAccelerator, m[1]) && (in.GPUCount == n || len(own) > 0) {
				match = in
			}
		}
		if match == nil {
			add("%s %s with %s: not an accelerator SkyPilot's catalog gives that instance type (Infeasible resource demands)", o.Cloud, o.InstanceType, o.Accelerators)
			continue
		}
		if o.Cloud == "gcp" {
			byCount, ok := gcpAttach[m[1]]
			if ok && !slices.Contains(byCount[n], o.InstanceType) ||
				!ok && !strings.HasPrefix(o.InstanceType, "n1-standard-") && !strings.HasPrefix(o.InstanceType, "n1-highmem-") && !strings.HasPrefix(o.InstanceType, "n1-highcpu-") {
				add("gcp %s cannot take %s (check_accelerator_attachable_to_host)", o.InstanceType, o.Accelerators)
			}
		}
		region := o.Region
		if region == "" {
			region = r.Region
		}
		// No region: SkyPilot tries every region its catalog offers the
		// type in (regions_with_offering), so one must.
		if !slices.ContainsFunc(match.Prices, func(p model.RegionPrice) bool {
			return (region == "" || p.Region == region) && (!spot || p.SpotUSD > 0)
		}) {
			add("%s %s is not offered in %s (spot %v)", o.Cloud, o.InstanceType, region, spot)
		}
		tier := o.NetworkTier
		if tier == "" {
			tier = r.NetworkTier
		}
		if tier != "" && !slices.Contains(skyNetworkTiers, tier) {
			add("network_tier %q", tier)
		}
		if tier == "best" && !slices.Contains(skyNetworkTierClouds, o.Cloud) {
			add("network_tier best on %s, which SkyPilot does not support", o.Cloud)
		}
	}
	if r.JobRecovery != nil && (r.JobRecovery.Strategy == nil || !slices.Contains(skyRecoveryStrategies, *r.JobRecovery.Strategy)) {
		add("job_recovery strategy %v", r.JobRecovery.Strategy)
	}
	if r.DiskSize == nil || *r.DiskSize <= 0 {
		add("disk_size %v", r.DiskSize)
	}
	for path, st := range task.FileMounts {
		if !strings.HasPrefix(path, "/") || !slices.Contains(skyStorageModes, st.Mode) || !bucketRE.MatchString(st.Name) {
			add("file_mounts %s: %+v", path, st)
		}
	}
	for k, v := range task.Secrets {
		if k == "HF_TOKEN" && v != nil {
			add("HF_TOKEN is written into the file")
		}
	}
	if task.Service != nil && (task.Service.ReadinessProbe == nil || task.Service.ReadinessProbe.Path == "") {
		add("service without readiness_probe.path")
	}
	for name, script := range map[string]string{"setup": task.Setup, "run": task.Run} {
		if err := bashSyntax(script); err != nil {
			add("%s: %v", name, err)
		}
	}
	if task.NumNodes != nil && *task.NumNodes > 1 && !strings.Contains(task.Run, "$SKYPILOT_NODE_RANK") {
		add("multi-node run does not use $SKYPILOT_NODE_RANK")
	}
	return task, bad
}

// bashSyntax parses src as bash (mvdan.cc/sh, in process; TestShellSyntax
// runs the real bash -n on the golden cases).
func bashSyntax(src string) error {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	return err
}

var boolWords = append(slices.Clone(boolTrue), boolFalse...)

// checkScriptArgs parses args as TRL's SFT script does (sftParser) and
// returns what it would stop on.
func checkScriptArgs(t *testing.T, args []string) []string {
	t.Helper()
	if _, err := sftParser(t).parse(args); err != nil {
		return []string{err.Error()}
	}
	return nil
}

// TestScriptArgsTF32 is the named defect: --tf32 was written bare, which
// HfArgumentParser refuses ("argument --tf32: expected one argument").
func TestScriptArgsTF32(t *testing.T) {
	if bad := checkScriptArgs(t, []string{"--tf32", "--per_device_train_batch_size", "16"}); len(bad) != 1 {
		t.Fatalf("the checker accepts a bare --tf32: %v", bad)
	}
	tc := cases[1]
	tc.w.Model = model.Architecture{Family: model.FamilyDecoder, Params: 1e9}
	tc.w.Strategy, tc.w.Precision = model.DDP, model.TF32
	p := plan(t, tc, launch.Options{})
	i := slices.Index(p.ScriptArgs, "--tf32")
	if i < 0 || i+1 >= len(p.ScriptArgs) || p.ScriptArgs[i+1] != "true" {
		t.Fatalf("tf32 args %q, want --tf32 true", p.ScriptArgs)
	}
	if bad := checkScriptArgs(t, p.ScriptArgs); len(bad) > 0 {
		t.Error(bad)
	}
	for _, f := range launch.Formats {
		out, err := p.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		if f != launch.FormatTOML && !strings.Contains(string(out), "--tf32 true") {
			t.Errorf("%s lacks --tf32 true:\n%s", f, out)
		}
	}
}

// TestJobNames is the named defect: --name 8b-run gave a PyTorchJob name
// Kubeflow's webhook rejects and a cluster name SkyPilot rejects.
func TestJobNames(t *testing.T) {
	for in, want := range map[string]string{"8b-run": "run-8b-run", "Llama-3.1 8B": "llama-3-1-8b", "": "gpuplan", "---": "gpuplan",
		"9": "run-9", strings.Repeat("x", 80): strings.Repeat("x", 52)} {
		if got := launch.Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
	p := plan(t, cases[2], launch.Options{Name: "8b-run"})
	for _, kind := range []string{launch.KindTrainJob, launch.KindPyTorchJob} {
		p.K8sKind = kind
		b, err := p.Kubernetes()
		if err != nil {
			t.Fatal(err)
		}
		if _, bad := validateK8s(t, b); len(bad) > 0 {
			t.Errorf("%s: %v", kind, bad)
		}
	}
	sky, err := p.SkyPilot()
	if err != nil {
		t.Fatal(err)
	}
	if task := parseSkyPilot(t, sky); !skyNameRE.MatchString(task.Name) {
		t.Errorf("SkyPilot name %q", task.Name)
	}
}

// sweepOffer builds the offer export would make for in: n nodes at the
// pricing, a small fine-tune (ZeRO-3 on several nodes), so every instance
// type of the catalog goes through every format.
func sweepOffer(in *model.Instance, g *model.GPU, nodes int, pricing model.Pricing, region string) *model.Offer {
	strategy := model.FSDP
	if nodes > 1 {
		strategy = model.ZeRO3
	}
	gpus := nodes * in.GPUCount
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Strategy: strategy, MicroBatch: 1, GradAccum: 2, SeqLen: 2048, GPUs: gpus}, Model: llama8B}
	if gpus == 1 {
		w.Strategy = model.Single
	}
	w.Defaults()
	return &model.Offer{Instance: in, GPU: g, Region: region, Pricing: pricing, Instances: nodes, GPUs: gpus,
		Strategy: w.Strategy, USDPerHour: 1, Estimate: &model.Estimate{Workload: w, Params: 8e9}}
}

// TestSweepCatalog: every instance type of the embedded catalog × every
// format, on one node and on two spot nodes: each file is checked by the
// receiving tool's rules above; a format may refuse an instance only with
// ErrNoStack (no software for the GPU) or ErrPlan (SkyPilot cannot launch
// it), and those refusals are counted.
func TestSweepCatalog(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	sc := newSkyCatalog(cat)
	refused := map[string]int{}
	files := 0
	var offers []*model.Offer
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if _, _, retired := in.Retirement(); retired || len(in.Prices) == 0 {
			continue
		}
		g, err := cat.GPU(in.GPU)
		if err != nil {
			t.Fatalf("%s/%s: %v", in.Provider, in.Type, err)
		}
		var od, spot string
		for _, p := range in.Prices {
			if od == "" && p.OnDemandUSD > 0 {
				od = p.Region
			}
			if spot == "" && p.SpotUSD > 0 {
				spot = p.Region
			}
		}
		if od != "" {
			offers = append(offers, sweepOffer(in, g, 1, model.OnDemand, od))
		}
		if spot != "" {
			offers = append(offers, sweepOffer(in, g, 2, model.Spot, spot))
		}
	}
	for i, o := range offers {
		// The next offers of the same shape are the failover candidates.
		var alts []*model.Offer
		for _, a := range offers[i+1:] {
			if len(alts) < 8 && a.Pricing == o.Pricing && a.Instances == o.Instances {
				alts = append(alts, a)
			}
		}
		for _, kind := range []string{launch.KindTrainJob, launch.KindPyTorchJob} {
			if kind == launch.KindPyTorchJob && o.Instances == 1 {
				continue
			}
			p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Alternatives: alts, Kubernetes: kind})
			if err != nil {
				t.Fatalf("%s/%s: %v", o.Instance.Provider, o.Instance.Type, err)
			}
			where := fmt.Sprintf("%s/%s %d× %s", o.Instance.Provider, o.Instance.Type, o.Instances, o.Pricing)
			if bad := checkScriptArgs(t, p.ScriptArgs); len(bad) > 0 {
				t.Errorf("%s: script args: %v", where, bad)
			}
			checkDeepSpeed(t, where, p)
			for _, f := range launch.Formats {
				if kind == launch.KindPyTorchJob && f != launch.FormatK8s {
					continue
				}
				out, err := p.Render(f)
				switch {
				case errors.Is(err, launch.ErrNoStack), errors.Is(err, launch.ErrPlan):
					refused[fmt.Sprintf("%s: %v", f, err)]++
					continue
				case err != nil:
					t.Fatalf("%s %s: %v", where, f, err)
				}
				files++
				var bad []string
				switch f {
				case launch.FormatSkyPilot:
					_, bad = validateSkyPilot(t, out, sc)
				case launch.FormatK8s:
					_, bad = validateK8s(t, out)
				case launch.FormatTorchrun, launch.FormatDocker:
					if err := bashSyntax(string(out)); err != nil {
						bad = append(bad, err.Error())
					}
				case launch.FormatTOML:
					var v map[string]any
					if _, err := toml.Decode(string(out), &v); err != nil {
						bad = append(bad, err.Error())
					}
				}
				for _, m := range bad {
					t.Errorf("%s %s: %s", where, f, m)
				}
			}
		}
	}
	reasons := make([]string, 0, len(refused))
	for r, n := range refused {
		reasons = append(reasons, fmt.Sprintf("%4d × %s", n, r))
	}
	sort.Strings(reasons)
	t.Logf("%d offers, %d files checked; refused:\n%s", len(offers), files, strings.Join(reasons, "\n"))
	if files < 1500 {
		t.Errorf("only %d files checked", files)
	}
}

// checkDeepSpeed: the config's keys are DeepSpeed's, its batch arithmetic
// holds (train_batch_size = micro × accumulation × world size,
// deepspeed/runtime/config.py _batch_assertion) and it agrees with the
// script's batch flags, which Hugging Face's integration requires.
func checkDeepSpeed(t *testing.T, where string, p *launch.Plan) {
	t.Helper()
	ds := p.DeepSpeedConfig()
	if ds == nil {
		return
	}
	c := decodeDeepSpeed(t, ds)
	if c.TrainBatch != c.Micro*c.Accum*p.GPUs() {
		t.Errorf("%s: train_batch_size %d ≠ %d × %d × %d GPUs", where, c.TrainBatch, c.Micro, c.Accum, p.GPUs())
	}
	arg := func(flag string) int {
		i := slices.Index(p.ScriptArgs, flag)
		if i < 0 || i+1 >= len(p.ScriptArgs) {
			return -1
		}
		n, _ := strconv.Atoi(p.ScriptArgs[i+1])
		return n
	}
	if arg("--per_device_train_batch_size") != c.Micro || arg("--gradient_accumulation_steps") != c.Accum {
		t.Errorf("%s: DeepSpeed micro %d accum %d disagree with the script args %q", where, c.Micro, c.Accum, p.ScriptArgs)
	}
}

// dsConfig mirrors the DeepSpeed config keys gpuplan writes, by their names
// in deepspeed/runtime/constants.py (TRAIN_BATCH_SIZE,
// TRAIN_MICRO_BATCH_SIZE_PER_GPU, GRADIENT_ACCUMULATION_STEPS, BFLOAT16 /
// FP16 "enabled") and zero/config.py DeepSpeedZeroConfig (stage,
// overlap_comm, contiguous_gradients,
// stage3_gather_16bit_weights_on_model_save). DeepSpeed's config models
// forbid extra keys, so the decode does too.
type dsConfig struct {
	TrainBatch int `json:"train_batch_size"`
	Micro      int `json:"train_micro_batch_size_per_gpu"`
	Accum      int `json:"gradient_accumulation_steps"`
	BF16       struct {
		Enabled bool `json:"enabled"`
	} `json:"bf16"`
	FP16 struct {
		Enabled bool `json:"enabled"`
	} `json:"fp16"`
	ZeRO struct {
		Stage               int   `json:"stage"`
		OverlapComm         *bool `json:"overlap_comm"`
		ContiguousGradients *bool `json:"contiguous_gradients"`
		Gather16Bit         *bool `json:"stage3_gather_16bit_weights_on_model_save"`
	} `json:"zero_optimization"`
}

func decodeDeepSpeed(t *testing.T, b []byte) dsConfig {
	t.Helper()
	var c dsConfig
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("DeepSpeed config: %v\n%s", err, b)
	}
	return c
}
