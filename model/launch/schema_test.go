package launch_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
)

// The structs below mirror SkyPilot's task schema, sky/utils/schemas.py
// (skypilot-org/skypilot; the newest copy in the search index, the version
// with resources.infra, ephemeral_storage and max_hourly_cost;
// get_task_schema, get_resources_schema, _get_single_resources_schema,
// get_storage_schema, get_service_schema), limited to the fields gpuplan
// can write plus their neighbours. Every object there has
// additionalProperties: False, so decoding with KnownFields(true) fails on
// any key the schema does not have.

// skyTask is get_task_schema's properties.
type skyTask struct {
	Name       string                `yaml:"name"`
	Workdir    string                `yaml:"workdir"`
	NumNodes   *int                  `yaml:"num_nodes"`
	Resources  skyResources          `yaml:"resources"`
	Envs       map[string]*string    `yaml:"envs"`
	Secrets    map[string]*string    `yaml:"secrets"`
	FileMounts map[string]skyStorage `yaml:"file_mounts"`
	Service    *skyService           `yaml:"service"`
	Setup      string                `yaml:"setup"`
	Run        string                `yaml:"run"`
	Config     map[string]any        `yaml:"config"`
	Volumes    map[string]any        `yaml:"volumes"`
}

// skyOffer is _get_single_resources_schema's properties, which the items
// of any_of and ordered also follow.
type skyOffer struct {
	Cloud           string         `yaml:"cloud"`
	Region          string         `yaml:"region"`
	Zone            string         `yaml:"zone"`
	Infra           string         `yaml:"infra"`
	Accelerators    string         `yaml:"accelerators"`
	AcceleratorArgs map[string]any `yaml:"accelerator_args"`
	CPUs            any            `yaml:"cpus"`
	Memory          any            `yaml:"memory"`
	InstanceType    string         `yaml:"instance_type"`
	UseSpot         *bool          `yaml:"use_spot"`
	DiskSize        *int           `yaml:"disk_size"`
	DiskTier        string         `yaml:"disk_tier"`
	NetworkTier     string         `yaml:"network_tier"`
	ImageID         any            `yaml:"image_id"`
	Ports           any            `yaml:"ports"`
	Labels          map[string]any `yaml:"labels"`
	Autostop        any            `yaml:"autostop"`
	JobRecovery     *struct {
		Strategy            *string `yaml:"strategy"`
		MaxRestartsOnErrors *int    `yaml:"max_restarts_on_errors"`
	} `yaml:"job_recovery"`
}

// skyResources is get_resources_schema: the single-resource fields plus
// any_of and ordered lists of them.
type skyResources struct {
	skyOffer `yaml:",inline"`
	AnyOf    []skyOffer `yaml:"any_of"`
	Ordered  []skyOffer `yaml:"ordered"`
}

// skyStorage is get_storage_schema (file_mounts values that are buckets).
type skyStorage struct {
	Name       string `yaml:"name"`
	Source     any    `yaml:"source"`
	Store      string `yaml:"store"`
	Persistent *bool  `yaml:"persistent"`
	Mode       string `yaml:"mode"`
}

// skyService is get_service_schema (SkyServe): readiness_probe is required.
type skyService struct {
	ReadinessProbe *struct {
		Path                string `yaml:"path"`
		InitialDelaySeconds *int   `yaml:"initial_delay_seconds"`
		TimeoutSeconds      *int   `yaml:"timeout_seconds"`
		PostData            any    `yaml:"post_data"`
		Headers             any    `yaml:"headers"`
	} `yaml:"readiness_probe"`
	ReplicaPolicy       map[string]any `yaml:"replica_policy"`
	Ports               *int           `yaml:"ports"`
	Replicas            *int           `yaml:"replicas"`
	LoadBalancingPolicy string         `yaml:"load_balancing_policy"`
}

// skyClouds is constants.ALL_CLOUDS of sky/skylet/constants.py as stored,
// and the clouds with a reader sky/catalog/<cloud>_catalog.py in
// skypilot-org/skypilot added since: the values resources.cloud accepts.
var skyClouds = []string{"aws", "azure", "gcp", "ibm", "lambda", "scp", "oci", "kubernetes", "runpod", "vast",
	"vsphere", "cudo", "fluidstack", "paperspace", "do", "nebius", "ssh", "hyperbolic",
	"daytona", "lium", "mithril", "primeintellect", "seeweb", "shadeform", "spheron", "verda", "yotta",
	"cloudrift", "latitude", "modal", "novita", "ppio", "quantacloud"}

// notSkyClouds are catalog providers SkyPilot has no cloud for (no
// sky/catalog reader): launch files for them are refused.
var notSkyClouds = []string{"hyperstack", "jarvislabs", "simplepod"}

func strictDecode(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode %T: %v\n%s", v, err, b)
	}
}

func parseSkyPilot(t *testing.T, b []byte) skyTask {
	t.Helper()
	var task skyTask
	strictDecode(t, b, &task)
	return task
}

var acceleratorsRE = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9 .-]*):([0-9]+)$`)

func TestSkyPilotSchema(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := plan(t, tc, launch.Options{})
			b, err := p.SkyPilot()
			if err != nil {
				t.Fatal(err)
			}
			task := parseSkyPilot(t, b)
			r := task.Resources
			if r.Infra != "" && r.Cloud != "" {
				t.Error("resources has both infra and cloud; SkyPilot accepts one")
			}
			if !slices.Contains(skyClouds, r.Cloud) || r.Cloud != p.Provider {
				t.Errorf("resources.cloud = %q, want %q (one of SkyPilot's clouds)", r.Cloud, p.Provider)
			}
			if r.Region != p.Region || r.InstanceType != p.InstanceType {
				t.Errorf("resources region %q instance_type %q, want %q %q", r.Region, r.InstanceType, p.Region, p.InstanceType)
			}
			m := acceleratorsRE.FindStringSubmatch(r.Accelerators)
			if m == nil {
				t.Fatalf("resources.accelerators = %q, want <name>:<count>", r.Accelerators)
			}
			if n, _ := strconv.Atoi(m[2]); m[1] != p.Accelerator || n != p.GPUsPerInstance {
				t.Errorf("accelerators %q, want %s:%d", r.Accelerators, p.Accelerator, p.GPUsPerInstance)
			}
			if r.UseSpot == nil || *r.UseSpot != p.Spot() {
				t.Errorf("use_spot = %v, want %v", r.UseSpot, p.Spot())
			}
			if r.DiskSize == nil || *r.DiskSize != p.DiskGB || *r.DiskSize <= 0 {
				t.Errorf("disk_size = %v, want %d", r.DiskSize, p.DiskGB)
			}
			if task.NumNodes == nil || *task.NumNodes != p.Nodes {
				t.Errorf("num_nodes = %v, want %d", task.NumNodes, p.Nodes)
			}
			if task.Name != p.Name || task.Workdir != "." {
				t.Errorf("name %q workdir %q", task.Name, task.Workdir)
			}
			if !strings.Contains(task.Setup, "pip install torch --index-url https://download.pytorch.org/whl/"+p.Wheel) {
				t.Errorf("setup does not install the %s wheel:\n%s", p.Wheel, task.Setup)
			}
			for _, v := range []string{"$SKYPILOT_NUM_NODES", "$SKYPILOT_NUM_GPUS_PER_NODE", "$SKYPILOT_NODE_RANK", `"$SKYPILOT_NODE_IPS" | head -n1`, "torchrun"} {
				if !strings.Contains(task.Run, v) {
					t.Errorf("run lacks %s:\n%s", v, task.Run)
				}
			}
			if ds := p.DeepSpeedConfig(); ds != nil && !strings.Contains(task.Setup, "cat > gpuplan-deepspeed.json <<'EOF'") {
				t.Errorf("ZeRO setup does not write the DeepSpeed config:\n%s", task.Setup)
			}
		})
	}
}

func TestDeepSpeedConfig(t *testing.T) {
	for _, tc := range []struct {
		strategy  model.Strategy
		precision model.Precision
		stage     int
		bf16      bool
		fp16      bool
	}{
		{model.ZeRO1, model.AMPBF16, 1, true, false},
		{model.ZeRO2, model.AMPFP16, 2, false, true},
		{model.ZeRO3, model.FP32, 3, false, false},
	} {
		c := cases[1]
		c.w.Model = model.Architecture{Family: model.FamilyDecoder, Params: 1e9} // small enough for fp32
		c.w.Strategy, c.w.Precision, c.w.SeqLen = tc.strategy, tc.precision, 1024
		p := plan(t, c, launch.Options{})
		var ds struct {
			Micro int `json:"train_micro_batch_size_per_gpu"`
			Accum int `json:"gradient_accumulation_steps"`
			BF16  struct {
				Enabled bool `json:"enabled"`
			} `json:"bf16"`
			FP16 struct {
				Enabled bool `json:"enabled"`
			} `json:"fp16"`
			ZeRO struct {
				Stage int `json:"stage"`
			} `json:"zero_optimization"`
		}
		if err := json.Unmarshal(p.DeepSpeedConfig(), &ds); err != nil {
			t.Fatal(err)
		}
		if ds.ZeRO.Stage != tc.stage || ds.BF16.Enabled != tc.bf16 || ds.FP16.Enabled != tc.fp16 || ds.Micro != 4 || ds.Accum != 4 {
			t.Errorf("%s %s: %+v", tc.strategy, tc.precision, ds)
		}
	}
	for _, s := range []model.Strategy{model.DDP, model.FSDP} {
		c := cases[1]
		c.w.Model, c.w.Strategy = model.Architecture{Family: model.FamilyDecoder, Params: 1e9}, s
		if ds := plan(t, c, launch.Options{}).DeepSpeedConfig(); ds != nil {
			t.Errorf("%s has a DeepSpeed config: %s", s, ds)
		}
	}
}

// TestSkyPilotAcceleratorNames checks the accelerator names against the
// AcceleratorName column of SkyPilot's own catalog rows kept in
// data/testdata/skypilot: each row's GPU, resolved as the importer does,
// must map back to SkyPilot's name for that instance type.
func TestSkyPilotAcceleratorNames(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	resolve := data.CatalogGPUResolver(cat)
	checked := 0
	for _, provider := range []string{"aws", "azure", "cudo", "do", "lambda", "paperspace", "vast"} {
		f, err := os.Open("../../data/testdata/skypilot/" + provider + ".csv")
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col := map[string]int{}
		for i, name := range rows[0] {
			col[name] = i
		}
		for _, r := range rows[1:] {
			typ, accel := r[col["InstanceType"]], r[col["AcceleratorName"]]
			key, ok := resolve(accel, 0, typ)
			if typ == "" || !ok {
				continue // FPGAs and GPUs the catalog does not have
			}
			g, _ := cat.GPU(key)
			if got := cloud.SkyPilotAccelerator(g, provider, typ); got != accel {
				t.Errorf("%s %s (%s): accelerator %q, SkyPilot's is %q", provider, typ, key, got, accel)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("checked only %d rows", checked)
	}
}

// TestProvidersAreSkyPilotClouds: every provider of the catalog is a cloud
// name SkyPilot accepts in resources.cloud, but for the few it has no
// cloud for, which are refused by name.
func TestProvidersAreSkyPilotClouds(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range cat.Instances {
		if !slices.Contains(skyClouds, in.Provider) && !slices.Contains(notSkyClouds, in.Provider) {
			t.Errorf("provider %q is not a SkyPilot cloud", in.Provider)
		}
	}
}
