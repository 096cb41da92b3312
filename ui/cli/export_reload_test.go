package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestExportTOMLReloadsClean (issue 31 round 4, item 6): export --format
// toml for ResNet-50 wrote flash_attention, and reloading warned "flash
// attention ignored: ResNet-50 is a convolutional network". Failing
// before: flash_attention in the file and the warning on reload. The
// file's [search] is the search asked (none here), not pinned to the
// offer's provider and region (walk54: the reloaded SkyPilot file failed
// over within that pin only); [selection] names the offer.
func TestExportTOMLReloadsClean(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r50.toml")
	code, _, errOut := runCLI(t, "export", "--model", "resnet-50", "--task", "finetune", "--instance", "aws/g6.xlarge", "--format", "toml", "-o", path)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "flash_attention") {
		t.Errorf("flash_attention written for a CNN:\n%s", b)
	}
	if !strings.Contains(string(b), "providers = []") || !strings.Contains(string(b), "regions = []") {
		t.Errorf("the file's [search] is pinned, not the search asked:\n%s", b)
	}
	code, _, errOut = runCLI(t, "recommend", "--config", path)
	if code != 0 || strings.Contains(errOut, "warning") {
		t.Errorf("reload: exit %d, stderr %s", code, errOut)
	}
}

// TestExportDatasetRoundTrip (walk37): a configuration exported with
// --dataset keeps it, so exporting its launch files again trains on it;
// --dataset still wins over the file's. Failing before: the re-export
// wrote --dataset_name CHANGE-ME/dataset.
func TestExportDatasetRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tune.toml")
	code, _, errOut := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--seq-len", "2048", "--instance", "seeweb/ECS1GPU11",
		"--dataset", "trl-lib/Capybara", "--format", "toml", "-o", path)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "--dataset_name trl-lib/Capybara"},
		{[]string{"--dataset", "org/other"}, "--dataset_name org/other"},
	} {
		code, out, errOut := runCLI(t, append([]string{"export", "--config", path, "--format", "torchrun"}, tt.args...)...)
		if code != 0 || !strings.Contains(out, tt.want) || strings.Contains(out, "CHANGE-ME/dataset") {
			t.Errorf("export --config %v: exit %d, want %q in\n%s\nstderr %s", tt.args, code, tt.want, out, errOut)
		}
	}
}

// TestExportOptionsRoundTrip (walk50): a configuration exported with the
// launch options (--name, --model-id, --script, --script-args, --disk-gb,
// --image, --wheel, --bucket, --k8s-pvc, --k8s-kind,
// --checkpoint-write-gbps) keeps them in [export], so `export --config
// FILE` writes the same launch files as the export with the flags, and
// the same TOML back; a flag still overrides the file. Failing before:
// the reload trained meta-llama/Llama-3.1-8B instead of --model-id's
// repo, under gpuplan-llama-3-1-8b, and every other option was lost.
func TestExportOptionsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	base := []string{"export", "--model", "llama-3.1-8b", "--task", "finetune", "--strategy", "zero3", "--gpus", "16",
		"--batch-size", "1", "--checkpointing", "--instance", "aws/p5.48xlarge", "--pricing", "spot"}
	for i, opt := range [][]string{
		{"--name", "my-run"},
		{"--model-id", "myorg/llama-ft"},
		{"--script", "train.py"},
		{"--script-args", "--a 'b c'"},
		{"--script-args", ""},
		{"--disk-gb", "999"},
		{"--image", "myimg:1"},
		{"--wheel", "cu126"},
		{"--bucket", "my-bucket"},
		{"--k8s-pvc", "mypvc"},
		{"--k8s-kind", "pytorchjob"},
		{"--checkpoint-write-gbps", "1.5"},
	} {
		path := filepath.Join(dir, strconv.Itoa(i)+".toml")
		args := append(append(slices.Clone(base), opt...), "--format", "toml", "-o", path)
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", opt, code, errOut)
		}
		written, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"toml", "skypilot", "torchrun", "docker", "k8s"} {
			_, want, _ := runCLI(t, append(append(slices.Clone(base), opt...), "--format", format)...)
			code, got, errOut := runCLI(t, "export", "--config", path, "--format", format)
			if code != 0 || got != want {
				t.Errorf("%v: export --config --format %s: exit %d, differs from the export with the flag (stderr %s)\ngot:\n%s\nwant:\n%s", opt, format, code, errOut, got, want)
			}
			if format == "toml" && got != string(written) {
				t.Errorf("%v: export --config --format toml does not write the file back:\n%s\nfile:\n%s", opt, got, written)
			}
		}
	}
	// A serving export keeps them too: the vllm serve line names the repo.
	serving := []string{"export", "--model", "mistral-7b", "--task", "inference", "--instance", "aws/g6e.xlarge",
		"--model-id", "myorg/mistral-ft", "--name", "my-serve", "--image", "vllm/vllm-openai:v0.11.0"}
	spath := filepath.Join(dir, "serve.toml")
	if code, _, errOut := runCLI(t, append(slices.Clone(serving), "--format", "toml", "-o", spath)...); code != 0 {
		t.Fatalf("serving: exit %d: %s", code, errOut)
	}
	for _, format := range []string{"toml", "skypilot", "torchrun", "docker", "k8s"} {
		_, want, _ := runCLI(t, append(slices.Clone(serving), "--format", format)...)
		if code, got, errOut := runCLI(t, "export", "--config", spath, "--format", format); code != 0 || got != want {
			t.Errorf("serving: export --config --format %s: exit %d, differs from the export with the flags (stderr %s)\ngot:\n%s\nwant:\n%s", format, code, errOut, got, want)
		}
	}
	// A flag wins over the file's value.
	path := filepath.Join(dir, "name.toml")
	if code, _, errOut := runCLI(t, append(slices.Clone(base), "--model-id", "myorg/llama-ft", "--format", "toml", "-o", path)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "export", "--config", path, "--model-id", "other/model", "--format", "torchrun")
	if code != 0 || !strings.Contains(out, "--model_name_or_path other/model") {
		t.Errorf("--model-id over the file's: exit %d, stderr %s\n%s", code, errOut, out)
	}
}

// TestExportOptionsRefused: a bad [export] value is refused in one line
// naming the file and key, with the flag's own words, and exit 2.
func TestExportOptionsRefused(t *testing.T) {
	for _, tt := range []struct{ table, want string }{
		{`k8s_kind = "foo"`, `export.k8s_kind = "foo": want trainjob or pytorchjob`},
		{`disk_gb = 99999999`, `export.disk_gb must be 1–`},
		{`checkpoint_write_gbps = -1.0`, `export.checkpoint_write_gbps`},
		{`nmae = "x"`, `did you mean "name"?`},
		{`name = "a\u001bb"`, `export.name`},
	} {
		path := filepath.Join(t.TempDir(), "bad.toml")
		body := "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"qlora\"\n[export]\n" + tt.table + "\n"
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCLI(t, "export", "--config", path, "--instance", "aws/g6e.xlarge")
		if code != 2 || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("[export] %s: exit %d, want 2 and one line with %q; stderr %q", tt.table, code, tt.want, errOut)
		}
	}
}

// TestExportRegionRoundTrip: --region is held through the TOML (walk53).
// Lambda's and OCI's catalog region is a price region, so the files name
// one only when --region pinned it; the TOML's [selection] region is the
// same either way, and a reloaded Lambda export named no region where the
// direct one pinned us-east-1. Now [export] keeps the region as given:
// export --config writes the files of the export with the flags, and the
// TOML back, for training and serving, with and without --region.
func TestExportRegionRoundTrip(t *testing.T) {
	dir := t.TempDir()
	train := []string{"export", "--model", "qwen3-8b", "--task", "qlora", "--seq-len", "1024", "--dataset-tokens", "10M"}
	serving := []string{"export", "--model", "qwen3-8b", "--task", "inference"}
	for i, tt := range []struct {
		base             []string
		instance, region string
		priceRegion      bool // lambda, oci: the region is the price's
	}{
		{train, "lambda/gpu_1x_a6000", "us-east-1", true},
		{train, "lambda/gpu_1x_a6000", "", true},
		{train, "oci/VM.GPU.A10.1", "us-ashburn-1", true},
		{train, "oci/VM.GPU.A10.1", "", true},
		{train, "aws/g6e.xlarge", "eu-central-1", false},
		{train, "aws/g6e.xlarge", "", false},
		{serving, "lambda/gpu_1x_a10", "us-east-1", true},
		{serving, "lambda/gpu_1x_a10", "", true},
		{serving, "oci/VM.GPU.A10.1", "us-ashburn-1", true},
		{serving, "aws/g6e.xlarge", "eu-central-1", false},
	} {
		args := append(slices.Clone(tt.base), "--instance", tt.instance)
		if tt.region != "" {
			args = append(args, "--region", tt.region)
		}
		name := strings.Join(args[1:], " ")
		path := filepath.Join(dir, strconv.Itoa(i)+".toml")
		if code, _, errOut := runCLI(t, append(slices.Clone(args), "--format", "toml", "-o", path)...); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		written, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"toml", "skypilot"} {
			code, want, errOut := runCLI(t, append(slices.Clone(args), "--format", format)...)
			if code != 0 {
				t.Fatalf("%s --format %s: exit %d: %s", name, format, code, errOut)
			}
			header, _, _ := strings.Cut(want, "\n")
			if format == "skypilot" && (tt.priceRegion && strings.Contains(header, "any of") != (tt.region == "") ||
				tt.region != "" && !strings.Contains(want, "region: "+tt.region+"\n")) {
				t.Errorf("%s --format skypilot: a price region is pinned only by --region:\n%s", name, want)
			}
			code, got, errOut := runCLI(t, "export", "--config", path, "--format", format)
			if code != 0 || got != want {
				t.Errorf("%s: export --config --format %s: exit %d, differs from the export with the flags (stderr %s)\ngot:\n%s\nwant:\n%s", name, format, code, errOut, got, want)
			}
			if format == "toml" && got != string(written) {
				t.Errorf("%s: export --config --format toml does not write the file back:\n%s\nfile:\n%s", name, got, written)
			}
		}
		// A price region the user did not name is not pinned in [search]
		// either: recommend --config shows the offer as "any of N regions".
		if tt.priceRegion && tt.region == "" && !strings.Contains(string(written), "regions = []") {
			t.Errorf("%s: [search] pins a price region nobody named:\n%s", name, written)
		}
	}
}
