package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// exportCatalog: one instance type per situation export must handle.
func exportCatalog() *model.Catalog {
	c := &model.Catalog{
		GPUs: []model.GPU{
			{Key: "a10g", Name: "NVIDIA A10G", Aliases: []string{"A10G"}, Vendor: "nvidia", Architecture: "ampere", ComputeCapability: "8.6",
				MemoryGiB: 24, UsableMemoryMiB: 22888, MemoryBandwidthGBps: 600, FP32TFLOPS: 35, TF32TFLOPS: 35, FP16TFLOPS: 70, BF16TFLOPS: 70},
			{Key: "h100-sxm", Name: "NVIDIA H100 SXM5 80GB", Aliases: []string{"H100"}, Vendor: "nvidia", Architecture: "hopper", ComputeCapability: "9.0",
				MemoryGiB: 80, MemoryBandwidthGBps: 3350, FP32TFLOPS: 67, TF32TFLOPS: 494.5, FP16TFLOPS: 989.5, BF16TFLOPS: 989.5, FP8TFLOPS: 1979},
			{Key: "k80", Name: "NVIDIA Tesla K80 (one GK210 GPU)", Aliases: []string{"K80"}, Vendor: "nvidia", Architecture: "kepler", ComputeCapability: "3.7",
				MemoryGiB: 12, MemoryBandwidthGBps: 240, FP32TFLOPS: 4.4},
		},
		Instances: []model.Instance{
			{Provider: "aws", Type: "g5.2xlarge", GPU: "a10g", GPUCount: 1, VCPUs: 8, MemoryGiB: 32,
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 1.212, SpotUSD: 0.4738}, {Region: "eu-west-1", OnDemandUSD: 1.35296}}},
			{Provider: "aws", Type: "p5.48xlarge", GPU: "h100-sxm", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", NetworkGbps: 3200,
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 55.04, SpotUSD: 23.1449}, {Region: "us-west-2", OnDemandUSD: 50.0}}},
			{Provider: "aws", Type: "p2.xlarge", GPU: "k80", GPUCount: 1, VCPUs: 4, MemoryGiB: 61,
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.9}}},
			{Provider: "aws", Type: "p3.old", GPU: "k80", GPUCount: 1, VCPUs: 4, MemoryGiB: 61, Retired: "2024-01-01",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.9}}},
			{Provider: "lambda", Type: "gpu_1x_h100_sxm5", GPU: "h100-sxm", GPUCount: 1, VCPUs: 26, MemoryGiB: 225,
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 3.29}}},
			{Provider: "aws", Type: "g5.gone", GPU: "a10g", GPUCount: 1, VCPUs: 8, MemoryGiB: 32, MissingSince: "2026-11-30",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 1.2}}},
		},
	}
	c.Index()
	return c
}

func runExportCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(Env{
		Args:   append([]string{"export"}, args...),
		Stdout: &out, Stderr: &errb,
		Getenv:      func(string) string { return "" },
		Version:     "test",
		LoadCatalog: func([]string) (*model.Catalog, []model.Message, error) { return exportCatalog(), nil, nil },
	})
	return code, out.String(), errb.String()
}

// small is a 125M-parameter model fine-tuned at batch 1: it fits every GPU above.
var small = []string{"--params", "125M", "--task", "finetune", "--batch-size", "1", "--seq-len", "512"}

// tpTraining is a fine-tune split with tensor parallelism on an 8-GPU
// instance, which export refuses (launch.TrainingTPRefusal).
var tpTraining = []string{"--params", "125M", "--layers", "12", "--hidden", "768", "--heads", "12", "--task", "finetune", "--batch-size", "1", "--seq-len", "512",
	"--gpus", "8", "--tp", "2", "--strategy", "zero1", "--instance", "aws/p5.48xlarge"}

func TestExportStdout(t *testing.T) {
	code, out, errs := runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "--format", "skypilot")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"instance_type: g5.2xlarge", "region: us-east-1", "accelerators: A10G:1", "use_spot: false", "cu130"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(errs, "wrote") {
		t.Errorf("stdout export announced a file: %s", errs)
	}
}

// TestExportCheapestRegion: without --region the cheapest region that
// prices the instance in the mode wins; --region picks another.
func TestExportCheapestRegion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--instance", "aws/p5.48xlarge"}, "region = \"us-west-2\""},
		{[]string{"--instance", "aws/p5.48xlarge", "--region", "us-east-1"}, "region = \"us-east-1\""},
		{[]string{"--instance", "aws/p5.48xlarge", "--pricing", "spot"}, "region = \"us-east-1\""},
	} {
		code, out, errs := runExportCLI(t, append(small, tc.args...)...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, want %s in:\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
}

// TestExportMultiNode: --gpus above one instance's GPUs plans several nodes
// without --allow-multi-node.
func TestExportMultiNode(t *testing.T) {
	code, out, errs := runExportCLI(t, append(small, "--gpus", "16", "--strategy", "zero2", "--instance", "aws/p5.48xlarge", "--format", "k8s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"kind: TrainJob", "kind: ConfigMap", "numNodes: 2", "nvidia.com/gpu: 8"} {
		if !strings.Contains(out, want) {
			t.Errorf("k8s output lacks %q", want)
		}
	}
}

func TestExportErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no instance", small, "--instance PROVIDER/TYPE is required"},
		{"no provider", append(small, "--instance", "g5.2xlarge"), `want PROVIDER/TYPE`},
		{"unknown type suggests the closest", append(small, "--instance", "aws/g5.2xlarg"), `unknown aws instance type "g5.2xlarg"; did you mean aws/g5.2xlarge`},
		{"unknown provider suggests the closest", append(small, "--instance", "awz/g5.2xlarge"), `unknown provider "awz"; did you mean "aws"?`},
		{"does not fit gives the reason", []string{"--params", "70B", "--task", "finetune", "--instance", "aws/g5.2xlarge"}, "aws/g5.2xlarge does not fit: needs"},
		{"no spot price anywhere", append(small, "--instance", "lambda/gpu_1x_h100_sxm5", "--pricing", "spot"), "has no spot price in any region; try --pricing on-demand"},
		{"no spot price in the region", append(small, "--instance", "aws/g5.2xlarge", "--region", "eu-west-1", "--pricing", "spot"), "has no spot price in eu-west-1"},
		{"unknown region", append(small, "--instance", "aws/g5.2xlarge", "--region", "us-east-2"), `--region us-east-2: aws/g5.2xlarge is not offered there; did you mean "us-east-1"?`},
		{"retired", append(small, "--instance", "aws/p3.old"), "was retired by the provider on 2024-01-01"},
		{"not in the latest fetch", append(small, "--instance", "aws/g5.gone"), "aws/g5.gone was not in the latest catalog fetch (since 2026-11-30), so it is not priced"},
		{"recommend-only flag", append(small, "--instance", "aws/g5.2xlarge", "--limit", "3"), "--limit does not apply to export"},
		// The search's places apply (walk54), and bound the offer named.
		{"instance outside --providers", append(small, "--instance", "aws/g5.2xlarge", "--providers", "lambda"), "--instance aws/g5.2xlarge: aws is not among the providers of --providers (lambda)"},
		{"region outside --regions", append(small, "--instance", "aws/g5.2xlarge", "--region", "us-east-1", "--regions", "europe"), "--region us-east-1: outside the search (--regions europe)"},
		{"bad format", append(small, "--instance", "aws/g5.2xlarge", "--format", "helm"), `--format "helm": did you mean "vllm"? want toml, skypilot, torchrun, vllm, docker, k8s, pytorchjob or probe`},
		{"GPU without a stack", append(small, "--task", "inference", "--precision", "fp16", "--allow-precision-fallback", "--instance", "aws/p2.xlarge", "--format", "skypilot"), "no supported software stack"},
		// fp16 typed on the command line is asked for: a K80 (no fp16) runs it only with the fallback allowed.
		{"precision asked, GPU without it", append(small, "--task", "inference", "--precision", "fp16", "--instance", "aws/p2.xlarge", "--format", "skypilot"), "has no fp16; it would run fp32 (allow_precision_fallback)"},
		{"--gpu that is not the instance's", append(small, "--instance", "aws/g5.2xlarge", "--gpu", "h100-sxm"), "--gpu h100-sxm does not match aws/g5.2xlarge"},
		{"uneven GPUs", append(small, "--gpus", "9", "--instance", "aws/p5.48xlarge"), "9 GPUs do not split evenly over 2 instances of 8 GPUs, as the launch files start the same number on each: ask for 16 (all the GPUs of 2 instances) or another multiple of 2"},
		{"bad disk", append(small, "--instance", "aws/g5.2xlarge", "--disk-gb", "0"), "--disk-gb must be 1–1048576, got 0"},
		// walk49: the file ran plain ZeRO-1 over 8 ranks, not the TP job priced.
		{"training split with --tp (torchrun)", append(tpTraining, "--format", "torchrun"), "tensor parallelism (--tp 2) is estimated as Megatron-LM splits a model, but the launch files gpuplan writes"},
		{"training split with --tp (toml)", append(tpTraining, "--format", "toml"), "drop --tp and shard over the 8 GPUs instead: --strategy zero3 needs"},
		{"training split with --tp (probe)", append(tpTraining, "--format", "probe"), "--strategy fsdp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runExportCLI(t, tc.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d (usage); stderr: %s", code, ExitUsage, errs)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q lacks %q", errs, tc.want)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("error is not one line: %q", errs)
			}
			if out != "" {
				t.Errorf("stdout not empty on error: %q", out)
			}
		})
	}
}

// TestExportOldGPU: torchrun and toml need no software stack, so a K80
// still exports them, and --wheel or --image stand in for the missing one.
// It has no fp16, so the fp16 asked for runs as fp32 with the fallback
// allowed.
func TestExportOldGPU(t *testing.T) {
	args := append(small, "--task", "inference", "--precision", "fp16", "--allow-precision-fallback", "--instance", "aws/p2.xlarge", "--script", "infer.py")
	for _, extra := range [][]string{
		{"--format", "torchrun"}, {"--format", "toml"},
		{"--format", "skypilot", "--wheel", "cu118"}, {"--format", "docker", "--image", "registry.example/k80:1"},
	} {
		code, out, errs := runExportCLI(t, append(append([]string{}, args...), extra...)...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", extra, code, errs)
		}
		if len(extra) > 2 && !strings.Contains(out, extra[3]) {
			t.Errorf("%v: output does not use %s:\n%s", extra, extra[3], out)
		}
	}
	code, _, errs := runExportCLI(t, append(append([]string{}, args...), "--format", "docker")...)
	if code != ExitUsage || !strings.Contains(errs, "(--image IMAGE)") {
		t.Errorf("docker on a K80 without --image: exit %d: %s", code, errs)
	}
}

func TestExportFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "launch.sh")
	args := append(small, "--instance", "aws/g5.2xlarge", "--format", "torchrun", "--script", "finetune.py", "--script-args", "--epochs 3")
	code, out, errs := runExportCLI(t, append(args, "-o", path)...)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, out, errs)
	}
	if !strings.Contains(errs, "wrote torchrun for aws/g5.2xlarge in us-east-1") || !strings.Contains(errs, "to "+path) {
		t.Errorf("stderr does not announce the file: %s", errs)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, stdout, _ := runExportCLI(t, args...)
	if string(b) != stdout {
		t.Errorf("file and stdout differ:\n%s\n---\n%s", b, stdout)
	}
	if !strings.Contains(string(b), "finetune.py") || !strings.Contains(string(b), "--epochs 3") || strings.Contains(string(b), "--bf16") {
		t.Errorf("--script/--script-args not applied:\n%s", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o755 {
		t.Errorf("script mode %v, want 0755", fi.Mode().Perm())
	}

	// Without --force an existing file stays as it is.
	code, _, errs = runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "--format", "toml", "-o", path)...)
	if code != ExitUsage || !strings.Contains(errs, path+" exists; pass --force to overwrite it") {
		t.Errorf("overwrite without --force: exit %d: %s", code, errs)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, b) {
		t.Error("the existing file changed")
	}
	// With --force it is replaced.
	code, _, errs = runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "--format", "toml", "-o", path, "--force")...)
	if code != 0 {
		t.Fatalf("--force: exit %d: %s", code, errs)
	}
	if again, _ := os.ReadFile(path); !strings.Contains(string(again), "[launch]") {
		t.Errorf("--force did not replace the file:\n%s", again)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}

	// Errors name the path.
	bad := filepath.Join(dir, "missing", "run.yaml")
	code, _, errs = runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "-o", bad)...)
	if code != ExitUsage || !strings.Contains(errs, filepath.Dir(bad)+" does not exist") || strings.Contains(errs, ".tmp") {
		t.Errorf("missing directory: exit %d: %s", code, errs)
	}
	// Only regular files are replaced, even with --force.
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err == nil {
		code, _, errs = runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "-o", fifo, "--force")...)
		info, err := os.Lstat(fifo)
		if err != nil {
			t.Fatal(err)
		}
		// What it is in words, not a mode string such as prw-r--r-- (walk49).
		if want := "gpuplan: -o: " + fifo + " is a FIFO (named pipe), not a regular file; pick another name\n"; code != ExitUsage || errs != want || info.Mode().Perm() == 0 {
			t.Errorf("FIFO: exit %d: %q, want %q", code, errs, want)
		}
	}
	if _, err := os.Stat("/dev/full"); err == nil { // walk49: "(Dcrw-rw-rw-)"
		code, _, errs = runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "-o", "/dev/full", "--force")...)
		if want := "gpuplan: -o: /dev/full is a device, not a regular file; pick another name\n"; code != ExitUsage || errs != want {
			t.Errorf("/dev/full: exit %d: %q, want %q", code, errs, want)
		}
	}
	code, _, errs = runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "-o", dir, "--force")...)
	if code != ExitUsage || !strings.Contains(errs, "is a directory") {
		t.Errorf("directory: exit %d: %s", code, errs)
	}
	// A directory is told the format's own file name, as the
	// configurator's dialog tells it (walk35b: every format said gpuplan.toml).
	for _, f := range []struct{ format, name string }{{"k8s", "gpuplan-k8s.yaml"}, {"torchrun", "gpuplan-torchrun.sh"}, {"toml", "gpuplan.toml"}} {
		code, _, errs = runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "--format", f.format, "-o", dir)...)
		if want := filepath.Join(dir, f.name); code != ExitUsage || !strings.Contains(errs, "give a file name such as "+want) {
			t.Errorf("directory, --format %s: exit %d: %s; want it to suggest %s", f.format, code, errs, want)
		}
	}
}
