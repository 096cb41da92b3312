package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpuplan/gpuplan/data"
)

// runExportReal runs export against the embedded catalog.
func runExportReal(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(Env{Args: append([]string{"export"}, args...), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith})
	return code, out.String(), errb.String()
}

// exportTOML writes --format toml for args to a file in dir and returns its path.
func exportTOML(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	code, _, errs := runExportReal(t, append(args, "--format", "toml", "-o", path)...)
	if code != 0 {
		t.Fatalf("export %v: exit %d: %s", args, code, errs)
	}
	return path
}

// TestExportConfigRoundTrip: file → export --config → file is the identity
// for every kind of answer: GPU count over nodes, pricing, region, the
// picked offer and the search limits. A custom model given by --params
// alone is checked from its second file: the first records the shape
// derived from the count, which reopens 0.01 GiB apart (see report).
func TestExportConfigRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"two-node spot", []string{"--model", "llama-3.1-8b", "--gpus", "16", "--strategy", "fsdp", "--batch-size", "1", "--checkpointing",
			"--instance", "aws/p5.48xlarge", "--pricing", "spot"}},
		{"qlora in a chosen region", []string{"--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "1", "--seq-len", "2048",
			"--instance", "aws/g5.2xlarge", "--region", "eu-west-1"}},
		{"zero3 on reserved", []string{"--model", "llama-3.1-8b", "--task", "finetune", "--strategy", "zero3", "--gpus", "8", "--batch-size", "2",
			"--checkpointing", "--instance", "aws/p4de.24xlarge", "--hours-per-month", "200", "--max-price-hour", "100"}},
		{"custom model", []string{"--params", "125M", "--task", "finetune", "--batch-size", "1", "--seq-len", "512", "--instance", "aws/g5.2xlarge"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a := exportTOML(t, dir, "a.toml", tc.args...)
			if tc.name == "custom model" {
				a = exportTOML(t, dir, "a2.toml", "--config", a)
			}
			b := exportTOML(t, dir, "b.toml", "--config", a)
			ab, _ := os.ReadFile(a)
			bb, _ := os.ReadFile(b)
			if string(ab) != string(bb) {
				t.Errorf("export --config changed the file:\n--- first\n%s\n--- second\n%s", ab, bb)
			}
		})
	}
}

// TestExportConfigKeepsNodesAndPricing is issue 18's defect: a 2-node spot
// configuration came back as num_nodes: 1, use_spot: false. Here the file
// leaves gpus to gpuplan ("auto") and only its picked offer says 16 GPUs
// on 2 instances, as the configurator writes it.
func TestExportConfigKeepsNodesAndPricing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.toml")
	cfg := `schema_version = 1
[workload]
task = "finetune"
batch_size = 1
seq_len = 512
gpus = "auto"
strategy = "fsdp"
[workload.custom]
params = 1e9
[search]
pricing = "spot"
allow_multi_node = true
[selection]
provider = "aws"
instance_type = "p5.48xlarge"
region = "us-east-1"
gpu = "h100-sxm"
gpus = 16
instances = 2
pricing = "spot"
`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		flags []string
		want  []string
	}{
		{"file as is", nil, []string{"num_nodes: 2", "use_spot: true", "region: us-east-1", "accelerators: H100:8"}},
		{"--pricing overrides", []string{"--pricing", "on-demand"}, []string{"num_nodes: 2", "use_spot: false"}},
		{"--gpus overrides", []string{"--gpus", "8"}, []string{"accelerators: H100:8", "use_spot: true"}},
		{"--region overrides", []string{"--region", "us-west-2", "--pricing", "on-demand"}, []string{"region: us-west-2", "num_nodes: 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runExportCLI(t, append([]string{"--config", path, "--format", "skypilot"}, tc.flags...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("SkyPilot file lacks %q:\n%s", w, out)
				}
			}
			if slicesContains(tc.flags, "--gpus") && strings.Contains(out, "num_nodes: 2") {
				t.Errorf("--gpus 8 should give one node:\n%s", out)
			}
		})
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestExportLaunchFlags: the launch options reach the files.
func TestExportLaunchFlags(t *testing.T) {
	two := []string{"--params", "1B", "--task", "finetune", "--gpus", "16", "--strategy", "fsdp", "--batch-size", "1", "--seq-len", "512", "--instance", "aws/p5.48xlarge"}
	for _, tc := range []struct {
		name string
		args []string
		want []string
		code int
	}{
		{"model id and dataset", append(append([]string{}, small...), "--instance", "aws/g5.2xlarge", "--format", "torchrun",
			"--model-id", "acme/tiny-125m", "--dataset", "acme/corpus"), []string{"acme/tiny-125m", "acme/corpus"}, 0},
		{"bucket on spot", append(append([]string{}, two...), "--pricing", "spot", "--format", "skypilot", "--bucket", "my-ckpts"),
			[]string{"name: my-ckpts", "use_spot: true"}, 0},
		{"trainjob by default", append(append([]string{}, two...), "--format", "k8s"), []string{"kind: TrainJob"}, 0},
		{"--k8s-kind pytorchjob", append(append([]string{}, two...), "--format", "k8s", "--k8s-kind", "pytorchjob"), []string{"kind: PyTorchJob"}, 0},
		{"--format pytorchjob", append(append([]string{}, two...), "--format", "pytorchjob"), []string{"kind: PyTorchJob"}, 0},
		{"bad --k8s-kind", append(append([]string{}, two...), "--format", "k8s", "--k8s-kind", "mpijob"), nil, ExitUsage},
		// The trained model is written to a PersistentVolumeClaim, not the
		// pod's writable layer (restartPolicy Never loses it).
		{"outputs on a claim", append(append([]string{}, small...), "--instance", "aws/g5.2xlarge", "--format", "k8s"),
			[]string{"kind: PersistentVolumeClaim", "claimName: gpuplan-outputs", "mountPath: /workspace/outputs"}, 0},
		{"--k8s-pvc", append(append([]string{}, two...), "--format", "k8s", "--k8s-pvc", "team-runs"),
			[]string{"name: team-runs", "claimName: team-runs", "- ReadWriteMany"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runExportCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			if tc.code != 0 {
				if !strings.Contains(errs, "trainjob or pytorchjob") {
					t.Errorf("error should list the kinds: %s", errs)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestExportBadBucket: a bucket name that is not one (attack round 9 sent a
// newline through --bucket) is refused with one line and exit 2, and no
// file is written.
func TestExportBadBucket(t *testing.T) {
	args := []string{"--params", "1B", "--task", "finetune", "--gpus", "16", "--strategy", "fsdp", "--batch-size", "1", "--seq-len", "512",
		"--instance", "aws/p5.48xlarge", "--pricing", "spot", "--format", "skypilot", "--bucket", "ckpts\nrun: id"}
	code, out, errs := runExportCLI(t, args...)
	if code != ExitUsage || out != "" {
		t.Fatalf("exit %d, output %q; want %d and nothing written", code, out, ExitUsage)
	}
	want := `gpuplan: cannot plan the launch: bucket "ckpts\nrun: id": want 3–63 lower-case letters, digits, '-', '_' or '.', starting and ending with a letter or digit (the S3 and GCS bucket naming rules)` + "\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
}

// TestExportNameNote: a --name the launch formats cannot take is slugged,
// and a note says to what (attack round 8: changed silently); a name they
// take gives no note.
func TestExportNameNote(t *testing.T) {
	args := []string{"--params", "1B", "--task", "finetune", "--gpus", "16", "--strategy", "fsdp", "--batch-size", "1", "--seq-len", "512",
		"--instance", "aws/p5.48xlarge", "--format", "skypilot"}
	// Written to stdout, the notes are the file's header comments.
	note := "# note: the name \"My Job!!\" is written as my-job: SkyPilot and Kubernetes names take lower-case letters, digits and '-' (at most 52)\n"
	for _, tc := range []struct {
		name string
		note bool
	}{{"My Job!!", true}, {"my-job", false}} {
		code, out, errs := runExportCLI(t, append(args, "--name", tc.name)...)
		if code != 0 || !strings.Contains(out, "name: my-job") {
			t.Fatalf("%q: exit %d, output lacks name: my-job: %s", tc.name, code, errs)
		}
		if strings.Contains(out, note) != tc.note || !tc.note && strings.Contains(out, "is written as") {
			t.Errorf("%q: note %v, want %v:\n%s", tc.name, !tc.note, tc.note, out)
		}
	}
}

// TestExportAlternatives: the SkyPilot file lists the next-best equivalent
// offer of the ranking (p5.48xlarge in us-west-2 after us-east-1) as an
// ordered candidate; lambda's 1-GPU type is not equivalent to 8 GPUs.
func TestExportAlternatives(t *testing.T) {
	code, out, errs := runExportCLI(t, "--params", "1B", "--task", "finetune", "--gpus", "8", "--batch-size", "1", "--seq-len", "512",
		"--instance", "aws/p5.48xlarge", "--region", "us-east-1", "--format", "skypilot")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	i, j := strings.Index(out, "region: us-east-1"), strings.Index(out, "region: us-west-2")
	if !strings.Contains(out, "ordered:") || i < 0 || j < i {
		t.Errorf("want ordered candidates us-east-1 then us-west-2:\n%s", out)
	}
	if strings.Contains(out, "gpu_1x_h100_sxm5") {
		t.Errorf("a 1-GPU type is not an equivalent of 8 GPUs:\n%s", out)
	}
}

// TestExportRunnableFiles: the files the command line writes for the
// issue's journeys start a real entry point and reach the GPUs. LoRA on
// Llama 3.1 8B runs TRL's SFT script; pre-training names --script; AMD
// GPUs name --wheel or --image with a ROCm example and, given them, use
// ROCm's devices; Azure ND H100 v5 is written as SkyPilot's catalog
// accepts it.
func TestExportRunnableFiles(t *testing.T) {
	lora := []string{"export", "--model", "llama-3.1-8b", "--task", "lora", "--batch-size", "1", "--seq-len", "2048"}
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    []string
		notWant []string
	}{
		{"LoRA runs TRL's SFT script", append(append([]string{}, lora...), "--instance", "aws/g6e.xlarge", "--format", "skypilot"), 0,
			[]string{"-m trl.scripts.sft", "--lora_alpha 32", `pip install transformers "trl>=1.4" peft`}, []string{"train.py"}},
		{"pre-training names --script", []string{"export", "--model", "llama-3.1-8b", "--task", "train", "--gpus", "8", "--strategy", "fsdp", "--batch-size", "1", "--checkpointing", "--instance", "aws/p5.48xlarge", "--format", "docker"},
			ExitUsage, []string{"no training entry point: pre-training Llama 3.1 8B", "name your training script with --script"}, nil},
		{"pre-training with --script", []string{"export", "--model", "llama-3.1-8b", "--task", "train", "--gpus", "8", "--strategy", "fsdp", "--batch-size", "1", "--checkpointing", "--instance", "aws/p5.48xlarge", "--format", "docker",
			"--script", "pretrain.py"}, 0, []string{"pretrain.py"}, []string{"trl.scripts.sft"}},
		{"AMD without a wheel: PyTorch 2.9's rocm6.4 for gfx942", append(append([]string{}, lora...), "--instance", "oci/BM.GPU.MI300X.8", "--format", "skypilot"), 0,
			[]string{"pip install torch --index-url https://download.pytorch.org/whl/rocm6.4", "gfx942", "amdgpu"}, []string{"--wheel"}},
		{"AMD without an image: AMD's rocm/pytorch", append(append([]string{}, lora...), "--instance", "oci/BM.GPU.MI300X.8", "--format", "k8s"), 0,
			[]string{"image: rocm/pytorch:rocm7.2_ubuntu24.04_py3.12_pytorch_release_2.9.1", "amd.com/gpu: 8"}, []string{"nvidia.com/gpu"}},
		{"DigitalOcean MI300X docker, as ranked", append(append([]string{}, lora...), "--instance", "do/gpu-mi300x1-192gb", "--format", "docker"), 0,
			[]string{"--device=/dev/kfd", "rocm/pytorch:rocm7.2_ubuntu24.04_py3.12_pytorch_release_2.9.1"}, []string{"--gpus"}},
		{"DigitalOcean MI300X SkyPilot, as ranked", append(append([]string{}, lora...), "--instance", "do/gpu-mi300x1-192gb", "--format", "skypilot"), 0,
			[]string{"whl/rocm6.4"}, nil},
		{"AMD docker", append(append([]string{}, lora...), "--instance", "oci/BM.GPU.MI300X.8", "--format", "docker", "--image", "rocm/pytorch:latest"), 0,
			[]string{"docker run --device=/dev/kfd --device=/dev/dri --group-add video"}, []string{"--gpus"}},
		{"AMD Kubernetes", append(append([]string{}, lora...), "--instance", "oci/BM.GPU.MI300X.8", "--format", "k8s", "--image", "rocm/pytorch:latest"), 0,
			[]string{"amd.com/gpu: 8"}, []string{"nvidia.com/gpu", "tolerations"}},
		{"AMD SkyPilot", append(append([]string{}, lora...), "--instance", "oci/BM.GPU.MI300X.8", "--format", "skypilot", "--wheel", "rocm6.4"), 0,
			[]string{"accelerators: MI300X:8", "whl/rocm6.4"}, nil},
		{"ND H100 v5", append(append([]string{}, lora...), "--gpus", "8", "--instance", "azure/Standard_ND96isr_H100_v5", "--format", "skypilot"), 0,
			[]string{"instance_type: Standard_ND96isr_H100_v5", "--nproc-per-node=8"}, []string{"--nproc-per-node=$SKYPILOT_NUM_GPUS_PER_NODE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			got := out + errs
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("has %q:\n%s", w, out)
				}
			}
			if !strings.Contains(tc.name, "ND H100") {
				return
			}
			// The ND offer names no accelerators (its failover candidates keep theirs).
			var task struct {
				Resources struct {
					InstanceType string              `yaml:"instance_type"`
					Accelerators string              `yaml:"accelerators"`
					Ordered      []map[string]string `yaml:"ordered"`
				} `yaml:"resources"`
			}
			if err := yaml.Unmarshal([]byte(out), &task); err != nil {
				t.Fatal(err)
			}
			offers := append(task.Resources.Ordered, map[string]string{"instance_type": task.Resources.InstanceType, "accelerators": task.Resources.Accelerators})
			for _, o := range offers {
				if o["instance_type"] == "Standard_ND96isr_H100_v5" && o["accelerators"] != "" {
					t.Errorf("ND H100 v5 with accelerators %s, which SkyPilot's catalog (12 GPUs) refuses", o["accelerators"])
				}
			}
		})
	}
}

// TestExportJSON: export --json (the README says every command takes it)
// prints the files written, their formats and the offer on stdout; with
// the file on stdout (-o -) it is a usage error.
func TestExportJSON(t *testing.T) {
	args := append(append([]string{}, small...), "--instance", "aws/g5.2xlarge", "--format", "k8s")
	path := filepath.Join(t.TempDir(), "job.yaml")
	code, out, errs := runExportCLI(t, append(args, "--json", "-o", path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Files []struct{ Path, Format string }
		Offer struct {
			Provider     string
			InstanceType string `json:"instance_type"`
			Nodes        int
			GPUsPerNode  int `json:"gpus_per_node"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if len(doc.Files) != 1 || doc.Files[0].Path != path || doc.Files[0].Format != "k8s" ||
		doc.Offer.Provider != "aws" || doc.Offer.InstanceType != "g5.2xlarge" || doc.Offer.Nodes != 1 || doc.Offer.GPUsPerNode != 1 {
		t.Errorf("summary %+v", doc)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), "kind: Job") {
		t.Errorf("file not written: %v", err)
	}
	if code, _, errs := runExportCLI(t, append(small, "--json")...); code != ExitUsage || !strings.Contains(errs, "give -o FILE") {
		t.Errorf("--json to stdout: exit %d, %s", code, errs)
	}
}

// TestPyTorchJobSaysWhatItWrites (walk36b): --format pytorchjob on one
// node writes a plain Job, and says so on stderr and in the file; for a
// serving deployment it is refused (it wrote a Deployment under that
// name).
func TestPyTorchJobSaysWhatItWrites(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "job.yaml")
	code, _, errOut := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "aws/g5.xlarge", "--format", "pytorchjob", "-o", dst)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "wrote a Kubernetes Job (one node: a PyTorchJob is for a job across nodes)") {
		t.Errorf("stderr does not say a Job was written:\n%s", errOut)
	}
	if !strings.Contains(string(b), "# one node: a plain Kubernetes Job, not a PyTorchJob") || !strings.Contains(string(b), "\nkind: Job\n") {
		t.Errorf("the file does not say it is a Job:\n%s", b)
	}
	code, _, errOut = runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "inference", "--instance", "aws/g5.xlarge", "--format", "pytorchjob", "-o", filepath.Join(t.TempDir(), "s.yaml"))
	if code != 2 || !strings.Contains(errOut, "--format k8s") {
		t.Errorf("serving as pytorchjob: exit %d, want 2 and --format k8s:\n%s", code, errOut)
	}
}

// TestExportFailoverKeepsNetwork (a new user's walk): a 2-node FSDP plan
// on EFA p5 failed over first to a primeintellect 8×H100 VM with no
// documented fabric, which the ranking times at 10 Gbps per node: not the
// same job. The ranking still lists that offer (so the case proves
// something); the file's candidates leave it out and keep p5 in other
// regions.
func TestExportFailoverKeepsNetwork(t *testing.T) {
	job := []string{"--model", "llama-3.1-8b", "--task", "finetune", "--gpus", "16", "--strategy", "fsdp", "--batch-size", "1", "--checkpointing"}
	code, rec, errs := runCLI(t, append(append([]string{"recommend"}, job...), "--gpu", "H100", "--allow-multi-node", "--limit", "0", "--providers", "aws,primeintellect")...)
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, errs)
	}
	if !strings.Contains(rec, "primeintellect") {
		t.Fatalf("the ranking has no primeintellect offer: the case proves nothing\n%s", rec)
	}
	code, out, errs := runCLI(t, append(append([]string{"export"}, job...), "--instance", "aws/p5.48xlarge", "--region", "us-east-1", "--format", "skypilot")...)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	if strings.Contains(out, "primeintellect") {
		t.Errorf("a no-fabric VM is a failover of a 2-node EFA plan:\n%s", out)
	}
	if !strings.Contains(out, "region: us-east-2") {
		t.Errorf("want p5 in other regions as candidates:\n%s", out)
	}
}
