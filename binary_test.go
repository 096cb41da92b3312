package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// buildBinary compiles gpuplan once per test binary run.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gpuplan-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "gpuplan")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New(string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// TestBinaryBadFiles runs the real binary on bad input files and bad
// terminals: one line on stderr, a non-zero status, never a stack trace.
func TestBinaryBadFiles(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	typo := write("typo.toml", "schema_version = 1\n[[gpu]]\nkey = \"x\"\nname = \"X\"\nvendor = \"nvidia\"\ncompute_capability = \"8.0\"\nmemory_gb = 80\nsource = \"s\"\nas_of = 2026-11-30\n")
	badPrice := write("price.toml", "schema_version = 1\n[[instance]]\nprovider = \"aws\"\ntype = \"p4d.24xlarge\"\nprices = [{ region = \"us-east-1\", on_demand = 0 }]\n")
	unknownGPU := write("gpu.toml", "schema_version = 1\nprovider = \"lab\"\n[[instance]]\ntype = \"r1\"\ngpu = \"a10080gb\"\ngpu_count = 1\nvcpus = 8\nmemory_gib = 64\nsource = \"s\"\nas_of = 2026-11-30\nprices = [{ region = \"x\", on_demand = 1 }]\n")
	notTOML := write("garbage.toml", "this is = = not toml\n")
	empty := write("empty.toml", "")
	badCSV := write("aws/vms.csv", "InstanceType,Price\np4d.24xlarge,1\n")
	shortCSV := write("gcp/vms.csv", "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\na2-highgpu-1g,12,85\n")
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"unknown key in a catalog overlay", []string{"--catalog", typo, "catalog", "gpus"}, nil, `unknown key "gpu.memory_gb" (did you mean "memory_gib"?)`},
		{"zero price", []string{"--catalog", badPrice, "catalog", "instances"}, nil, "on_demand must be > 0, got 0"},
		{"unknown GPU", []string{"--catalog", unknownGPU, "catalog", "instances"}, nil, `unknown gpu "a10080gb" (did you mean "a100-80gb"?)`},
		{"not TOML", []string{"--catalog", notTOML, "catalog", "gpus"}, nil, "garbage.toml:1:"},
		{"empty file", []string{"--catalog", empty, "catalog", "gpus"}, nil, "missing schema_version"},
		{"missing file", []string{"--catalog", filepath.Join(dir, "nope.toml"), "catalog", "gpus"}, nil, "no such file or directory"},
		{"a directory, not a file", []string{"--catalog", dir, "catalog", "gpus"}, nil, "is a directory"},
		{"CSV without required columns", []string{"--catalog", badCSV, "catalog", "instances"}, nil, "vms.csv"},
		{"CSV with a short row", []string{"--catalog", shortCSV, "catalog", "instances"}, nil, "vms.csv"},
		{"configurator without a terminal", nil, nil, "needs a terminal"},
		{"configurator with TERM=dumb and no terminal", nil, []string{"TERM=dumb"}, "needs a terminal"},
		{"unknown model", []string{"estimate", "--model", "lama-2-7b"}, nil, `did you mean "llama-2-7b"`},
		{"NaN", []string{"estimate", "--model", "gpt2", "--mfu", "nan"}, nil, "want a decimal number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			cmd.Env = append(os.Environ(), append([]string{"XDG_CONFIG_HOME=" + t.TempDir()}, tt.env...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Stdin = strings.NewReader("")
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 0 {
				t.Fatalf("exit status: %v (stderr %q)", err, stderr.String())
			}
			msg := stderr.String()
			if !strings.Contains(msg, tt.want) {
				t.Errorf("stderr %q does not contain %q", msg, tt.want)
			}
			if strings.Count(strings.TrimRight(msg, "\n"), "\n") != 0 || strings.Contains(msg, "goroutine ") {
				t.Errorf("stderr is not one line: %q", msg)
			}
		})
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)
