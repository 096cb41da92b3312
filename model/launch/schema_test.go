package launch_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
)

// The structs below mirror the engines' documented schemas, limited to the
// fields the docs list. Decoding with KnownFields(true) fails on any key the
// schema does not have, so a typo or an invented field fails the test.

// skyTask is a SkyPilot task (docs.skypilot.co, "SkyPilot YAML": top-level
// fields name, workdir, num_nodes, resources, envs, secrets, file_mounts,
// setup, run, config).
type skyTask struct {
	Name       string            `yaml:"name"`
	Workdir    string            `yaml:"workdir"`
	NumNodes   *int              `yaml:"num_nodes"`
	Resources  skyResources      `yaml:"resources"`
	Envs       map[string]string `yaml:"envs"`
	Secrets    map[string]string `yaml:"secrets"`
	FileMounts map[string]any    `yaml:"file_mounts"`
	Setup      string            `yaml:"setup"`
	Run        string            `yaml:"run"`
	Config     map[string]any    `yaml:"config"`
}

// skyResources are the resources fields of the same page and of
// sky/utils/schemas.py (cloud, region and zone are still accepted next to
// infra; additionalProperties is false).
type skyResources struct {
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
	JobRecovery     any            `yaml:"job_recovery"`
}

// skyClouds is constants.ALL_CLOUDS of sky/skylet/constants.py: the values
// resources.cloud accepts.
var skyClouds = []string{"aws", "azure", "gcp", "ibm", "lambda", "scp", "oci", "kubernetes", "runpod", "vast",
	"vsphere", "cudo", "fluidstack", "paperspace", "do", "nebius", "ssh", "hyperbolic"}

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
			if ds := p.DeepSpeedConfig(); ds != nil && !strings.Contains(task.Setup, "cat > ds_config.json <<'EOF'") {
				t.Errorf("ZeRO setup does not write the DeepSpeed config:\n%s", task.Setup)
			}
		})
	}
}

// Kubernetes objects (kubernetes.io API reference: ObjectMeta, Job, PodSpec,
// Container, Volume) and Kubeflow's PyTorchJob (kubeflow.org/v1,
// training-operator pkg/apis/kubeflow.org/v1: PyTorchJobSpec.pytorchReplicaSpecs
// keyed Master and Worker; ReplicaSpec replicas, restartPolicy, template).
type objectMeta struct {
	Name   string            `yaml:"name"`
	Labels map[string]string `yaml:"labels"`
}

type configMap struct {
	APIVersion string            `yaml:"apiVersion"`
	Kind       string            `yaml:"kind"`
	Metadata   objectMeta        `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
}

type job struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	Spec       struct {
		BackoffLimit *int            `yaml:"backoffLimit"`
		Template     podTemplateSpec `yaml:"template"`
	} `yaml:"spec"`
}

type pytorchJob struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	Spec       struct {
		PyTorchReplicaSpecs map[string]replicaSpec `yaml:"pytorchReplicaSpecs"`
	} `yaml:"spec"`
}

type replicaSpec struct {
	Replicas      *int            `yaml:"replicas"`
	RestartPolicy string          `yaml:"restartPolicy"`
	Template      podTemplateSpec `yaml:"template"`
}

type podTemplateSpec struct {
	Metadata objectMeta `yaml:"metadata"`
	Spec     podSpec    `yaml:"spec"`
}

type podSpec struct {
	RestartPolicy string            `yaml:"restartPolicy"`
	NodeSelector  map[string]string `yaml:"nodeSelector"`
	Containers    []container       `yaml:"containers"`
	Volumes       []volume          `yaml:"volumes"`
}

type container struct {
	Name       string   `yaml:"name"`
	Image      string   `yaml:"image"`
	WorkingDir string   `yaml:"workingDir"`
	Command    []string `yaml:"command"`
	Args       []string `yaml:"args"`
	Ports      []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	Resources struct {
		Limits   map[string]int `yaml:"limits"`
		Requests map[string]int `yaml:"requests"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
		ReadOnly  bool   `yaml:"readOnly"`
	} `yaml:"volumeMounts"`
}

type volume struct {
	Name     string `yaml:"name"`
	EmptyDir *struct {
		Medium string `yaml:"medium"`
	} `yaml:"emptyDir"`
	ConfigMap *struct {
		Name string `yaml:"name"`
	} `yaml:"configMap"`
}

// manifests splits a multi-document stream, decoding each document strictly
// into the struct for its kind.
func manifests(t *testing.T, b []byte) (cms []configMap, jobs []job, ptjs []pytorchJob) {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, b)
		}
		var head struct {
			Kind string `yaml:"kind"`
		}
		if err := n.Decode(&head); err != nil {
			t.Fatal(err)
		}
		doc, err := yaml.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		switch head.Kind {
		case "ConfigMap":
			var c configMap
			strictDecode(t, doc, &c)
			cms = append(cms, c)
		case "Job":
			var j job
			strictDecode(t, doc, &j)
			jobs = append(jobs, j)
		case "PyTorchJob":
			var j pytorchJob
			strictDecode(t, doc, &j)
			ptjs = append(ptjs, j)
		default:
			t.Fatalf("unexpected kind %q", head.Kind)
		}
	}
	return
}

// containers returns every container of every pod template in b.
func containers(t *testing.T, b []byte) []container {
	t.Helper()
	_, jobs, ptjs := manifests(t, b)
	var out []container
	for _, j := range jobs {
		out = append(out, j.Spec.Template.Spec.Containers...)
	}
	for _, j := range ptjs {
		for _, k := range []string{"Master", "Worker"} {
			out = append(out, j.Spec.PyTorchReplicaSpecs[k].Template.Spec.Containers...)
		}
	}
	return out
}

// dns1123 is a Kubernetes object name that is also a DNS label.
var dns1123 = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

func checkPod(t *testing.T, p *launch.Plan, spec podSpec, wantContainer string) {
	t.Helper()
	if len(spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(spec.Containers))
	}
	c := spec.Containers[0]
	if wantContainer != "" && c.Name != wantContainer {
		t.Errorf("container name %q, want %q", c.Name, wantContainer)
	}
	if got := c.Resources.Limits[launch.GPUResource]; got != p.ProcsPerNode {
		t.Errorf("limits[%s] = %d, want %d", launch.GPUResource, got, p.ProcsPerNode)
	}
	if r, ok := c.Resources.Requests[launch.GPUResource]; ok && r != c.Resources.Limits[launch.GPUResource] {
		t.Errorf("GPU request %d differs from the limit; Kubernetes requires them equal", r)
	}
	if c.Image != p.Image || len(c.Args) != 1 || !slices.Equal(c.Command, []string{"bash", "-c"}) {
		t.Errorf("image %q command %q args %d", c.Image, c.Command, len(c.Args))
	}
	if spec.NodeSelector["node.kubernetes.io/instance-type"] != p.InstanceType {
		t.Errorf("nodeSelector %v, want instance type %s", spec.NodeSelector, p.InstanceType)
	}
	vols := map[string]bool{}
	for _, v := range spec.Volumes {
		vols[v.Name] = true
	}
	shm := false
	for _, m := range c.VolumeMounts {
		if !vols[m.Name] {
			t.Errorf("volumeMount %q has no volume", m.Name)
		}
		shm = shm || m.MountPath == "/dev/shm"
	}
	if !shm {
		t.Error("no /dev/shm mount for the data loader")
	}
}

func TestKubernetesSchema(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := plan(t, tc, launch.Options{})
			b, err := p.Kubernetes()
			if err != nil {
				t.Fatal(err)
			}
			cms, jobs, ptjs := manifests(t, b)
			if p.ZeRO() > 0 {
				if len(cms) != 1 {
					t.Fatalf("%d ConfigMaps, want 1 with the DeepSpeed config", len(cms))
				}
				var ds map[string]any
				if err := json.Unmarshal([]byte(cms[0].Data[launch.DeepSpeedFile]), &ds); err != nil {
					t.Fatalf("ConfigMap data: %v", err)
				}
				if cms[0].APIVersion != "v1" || ds["zero_optimization"].(map[string]any)["stage"] != float64(p.ZeRO()) {
					t.Errorf("ConfigMap %s: %v", cms[0].APIVersion, ds)
				}
			} else if len(cms) != 0 {
				t.Errorf("%d ConfigMaps without ZeRO", len(cms))
			}
			if p.Nodes == 1 {
				if len(jobs) != 1 || len(ptjs) != 0 {
					t.Fatalf("one node: %d Jobs and %d PyTorchJobs, want one Job", len(jobs), len(ptjs))
				}
				j := jobs[0]
				if j.APIVersion != "batch/v1" || j.Kind != "Job" || !dns1123.MatchString(j.Metadata.Name) || len(j.Metadata.Name) > 63 {
					t.Errorf("Job header %s %s %q", j.APIVersion, j.Kind, j.Metadata.Name)
				}
				if rp := j.Spec.Template.Spec.RestartPolicy; rp != "Never" && rp != "OnFailure" {
					t.Errorf("Job restartPolicy %q: a Job allows only Never or OnFailure", rp)
				}
				if j.Spec.BackoffLimit == nil {
					t.Error("no backoffLimit")
				}
				checkPod(t, p, j.Spec.Template.Spec, "")
				return
			}
			if len(ptjs) != 1 || len(jobs) != 0 {
				t.Fatalf("%d nodes: %d PyTorchJobs and %d Jobs, want one PyTorchJob", p.Nodes, len(ptjs), len(jobs))
			}
			j := ptjs[0]
			if j.APIVersion != "kubeflow.org/v1" || j.Kind != "PyTorchJob" || !dns1123.MatchString(j.Metadata.Name) {
				t.Errorf("PyTorchJob header %s %s %q", j.APIVersion, j.Kind, j.Metadata.Name)
			}
			total := 0
			for k, r := range j.Spec.PyTorchReplicaSpecs {
				if k != "Master" && k != "Worker" {
					t.Errorf("replica type %q: want Master or Worker", k)
				}
				if r.Replicas == nil {
					t.Fatalf("%s: no replicas", k)
				}
				total += *r.Replicas
				if !slices.Contains([]string{"Always", "OnFailure", "Never", "ExitCode"}, r.RestartPolicy) {
					t.Errorf("%s restartPolicy %q", k, r.RestartPolicy)
				}
				checkPod(t, p, r.Template.Spec, "pytorch")
				c := r.Template.Spec.Containers[0]
				if len(c.Ports) != 1 || c.Ports[0].Name != "pytorchjob-port" {
					t.Errorf("%s ports %+v, want one named pytorchjob-port", k, c.Ports)
				}
				for _, want := range []string{fmt.Sprintf("--nnodes=%d", p.Nodes), fmt.Sprintf("--nproc-per-node=%d", p.ProcsPerNode), "--node-rank=$RANK", "--master-addr=$MASTER_ADDR", "--master-port=$MASTER_PORT"} {
					if !strings.Contains(c.Args[0], want) {
						t.Errorf("%s script lacks %s:\n%s", k, want, c.Args[0])
					}
				}
			}
			if *j.Spec.PyTorchReplicaSpecs["Master"].Replicas != 1 || total != p.Nodes {
				t.Errorf("replicas: Master %d, total %d, want 1 and %d", *j.Spec.PyTorchReplicaSpecs["Master"].Replicas, total, p.Nodes)
			}
		})
	}
}

// TestKubernetesZeROMultiNode covers the combination the three cases leave
// out: a PyTorchJob with the DeepSpeed ConfigMap mounted in every pod.
func TestKubernetesZeROMultiNode(t *testing.T) {
	tc := cases[2]
	tc.w.Strategy, tc.w.MicroBatch = model.ZeRO2, 2
	p := plan(t, tc, launch.Options{})
	b, err := p.Kubernetes()
	if err != nil {
		t.Fatal(err)
	}
	cms, _, ptjs := manifests(t, b)
	if len(cms) != 1 || len(ptjs) != 1 {
		t.Fatalf("%d ConfigMaps, %d PyTorchJobs", len(cms), len(ptjs))
	}
	for k, r := range ptjs[0].Spec.PyTorchReplicaSpecs {
		c := r.Template.Spec.Containers[0]
		if !strings.Contains(c.Args[0], "--deepspeed /etc/gpuplan/ds_config.json") || !strings.Contains(c.Args[0], "pip install deepspeed") {
			t.Errorf("%s: script does not use the mounted config:\n%s", k, c.Args[0])
		}
		found := false
		for _, v := range r.Template.Spec.Volumes {
			found = found || v.ConfigMap != nil && v.ConfigMap.Name == cms[0].Metadata.Name
		}
		if !found {
			t.Errorf("%s: ConfigMap %s not mounted", k, cms[0].Metadata.Name)
		}
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
			if got := launch.SkyPilotAccelerator(g, provider, typ); got != accel {
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
// name SkyPilot accepts in resources.cloud.
func TestProvidersAreSkyPilotClouds(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range cat.Instances {
		if !slices.Contains(skyClouds, in.Provider) {
			t.Errorf("provider %q is not a SkyPilot cloud", in.Provider)
		}
	}
}
