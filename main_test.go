package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func runArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestBadInput: each bad command line gives one line on stderr saying what
// was wrong and what is valid, exit status 2, and nothing on stdout.
func TestBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"estimate"}, "no model: give --model"},
		{[]string{"estimate", "--model", "llama-3.2-8b"}, `did you mean "llama-3.1-8b"?`}, // not llama-3.2-1b or llama-2-7b: another size (walk49)
		{[]string{"estimate", "--model", "gpt2", "--batch-size", "0"}, "--batch-size must be ≥ 1"},
		{[]string{"estimate", "--model", "gpt2", "--batch-size", "-3"}, "--batch-size must be ≥ 1"},
		{[]string{"estimate", "--model", "gpt2", "--batch-size", "eight"}, "want a whole number"},
		{[]string{"estimate", "--model", "gpt2", "--precision", "int4"}, "not a training precision; want amp-bf16"},
		{[]string{"estimate", "--model", "gpt2", "--precision", "float128"}, "want amp-bf16, amp-fp16, bf16"},
		{[]string{"estimate", "--model", "gpt2", "--strategy", "zero4"}, "want single, ddp, fsdp, zero1, zero2 or zero3"},
		{[]string{"estimate", "--model", "gpt2", "--task", "pretraining"}, "want train, finetune, lora, qlora or inference"},
		{[]string{"estimate", "--model", "gpt2", "--optimizer", "lion"}, "want adamw, adam, sgd"},
		{[]string{"estimate", "--model", "gpt2", "--gpus", "0"}, "--gpus must be ≥ 1"},
		{[]string{"estimate", "--model", "gpt2", "--tp", "5", "--gpus", "8"}, "must divide gpus 8"},
		{[]string{"estimate", "--model", "gpt2", "--mfu", "1.5"}, "--mfu must be 0.01–1, got 1.5"},
		{[]string{"estimate", "--model", "gpt2", "--mfu", "0.001"}, "--mfu must be 0.01–1, got 0.001"},
		{[]string{"estimate", "--model", "gpt2", "--mfu", "NaN"}, "want a decimal number"},
		{[]string{"estimate", "--model", "gpt2", "--epochs", "0"}, "--epochs must be > 0"},
		{[]string{"estimate", "--model", "gpt2", "--dataset-tokens", "lots"}, "want a count such as 7e9"},
		{[]string{"estimate", "--model", "gpt2", "--dataset-tokens", "1B", "--dataset-samples", "1M"}, "not both"},
		{[]string{"estimate", "--params", "0"}, "--params must be between 1"},
		{[]string{"estimate", "--params", "1e30"}, "--params must be between 1"},
		{[]string{"estimate", "--params", "7B", "--layers", "32"}, "needs --hidden, --heads as well"},
		{[]string{"estimate", "--model", "gpt2", "--params", "7B"}, "--model and --params name the model twice: give only one of --model, --params or --hf-config"},
		{[]string{"estimate", "--model", "gpt2", "--hf-config", "data/hf/testdata/config/mistral-7b.json"}, "--model and --hf-config name the model twice: give only one of"},
		{[]string{"estimate", "--config", "data/hf/testdata/config/mistral-7b.json"}, "this is a JSON file, not a gpuplan configuration (TOML); for a Hugging Face config.json use --hf-config"}, // walk49: "expected '.' or '='"
		{[]string{"estimate", "--model", "gpt2", "--gpu", "h1000"}, `unknown gpu "h1000"`},
		{[]string{"estimate", "--model", "gpt2", "--seq-len", "1e12"}, "out of range: at most 16777216"}, // a whole number, too large (issue 29)
		{[]string{"estimate", "--model", "gpt2", "--batchsize", "8"}, "unknown flag --batchsize; did you mean --batch-size?"},
		{[]string{"estimate", "--model", "gpt2", "--task", "lora", "--lora-targets", "qq"}, `unknown target "qq"`},
		{[]string{"estimate", "--model", "resnet50", "--task", "lora"}, "lora needs a transformer shape"},
		{[]string{"recommend", "--model", "gpt2", "--pricing", "spto"}, "want on-demand, spot, reserved-1y or reserved-3y"},
		{[]string{"recommend", "--model", "gpt2", "--providers", "awz"}, `unknown provider "awz"; did you mean "aws"?`},
		{[]string{"recommend", "--model", "gpt2", "--max-price-hour", "-1"}, "--max-price-hour must be > 0"},
		{[]string{"recommend", "--model", "gpt2", "--sort", "cheapest"}, "want price, monthly, job, time or headroom"},
		{[]string{"recommend", "--model", "gpt2", "--regions", "mars-1"}, `unknown region "mars-1"`},
		{[]string{"recommend", "--model", "gpt2", "--regions", "us-east-9"}, `did you mean us-east-1`},
		{[]string{"catalog"}, "say which list"},
		{[]string{"catalog", "modls"}, `did you mean "models"`},
		{[]string{"catalog", "gpus", "--provider", "aws"}, "unknown flag --provider"},
		{[]string{"estimte"}, `unknown command "estimte" for "gpuplan"; did you mean "estimate"?`},
		{[]string{"estimate", "--model", "gpt2", "--gpu", "H10"}, `unknown gpu "H10"; did you mean "H100",`},
		{[]string{"recomend", "--model", "x"}, `unknown command "recomend" for "gpuplan"; did you mean "recommend"?`},
		{[]string{"--catalog", "/nonexistent/x.toml", "catalog", "gpus"}, "no such file"},
		{[]string{}, "needs a terminal"},
		{[]string{"completion", "tcsh"}, `unknown shell "tcsh": want bash, zsh, fish, powershell`},
		{[]string{"estimate", "--model", "gpt2", "--framework", "tensorflow", "--strategy", "zero3", "--gpus", "8"}, "is a PyTorch strategy"},
		{[]string{"estimate", "--model", "gpt2", "--task", "lora", "--lora-targets", "q,q"}, "listed twice"},
		{[]string{"estimate", "--model", "gpt2", "--epochs", "1e308"}, "--epochs"},
		{[]string{"estimate", "--model", "\x1b[31mred"}, `\x1b[31mred`},
		{[]string{"export", "--model", "gpt2", "--instance", "aws/p9.bogus"}, "aws/p9.bogus"},
		{[]string{"--config", "/nonexistent/gpuplan.toml"}, "/nonexistent/gpuplan.toml"},
	}
	bin := buildBinary(t) // through the real binary, as a user runs it
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runBinary(t, bin, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, stderr)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q does not contain %q", stderr, tt.want)
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 || !strings.HasPrefix(stderr, "gpuplan: ") {
				t.Errorf("stderr is not one line starting with gpuplan: %q", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
				t.Errorf("stack trace: %s", stderr)
			}
		})
	}
}

// runBinary runs the built gpuplan with no terminal and an empty config dir.
func runBinary(t *testing.T, bin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader("")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestEstimateJSONContract checks the field names scripts rely on.
func TestEstimateJSONContract(t *testing.T) {
	code, stdout, stderr := runArgs(t, "estimate", "--model", "bert-large", "--task", "finetune", "--batch-size", "32",
		"--seq-len", "384", "--dataset-samples", "88k", "--epochs", "2", "--gpu", "a100-80gb", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	mem := v["memory"].(map[string]any)["per_gpu_bytes"].(map[string]any)
	var sum float64
	for _, k := range []string{"weights", "gradients", "optimizer_states", "activations", "kv_cache", "overhead",
		"gathered", "cast_cache", "buffers", "temporaries"} {
		x, ok := mem[k].(float64)
		if !ok || x != float64(int64(x)) {
			t.Errorf("memory.per_gpu_bytes.%s = %v, want an integer", k, mem[k])
		}
		sum += x
	}
	if mem["total"].(float64) != sum {
		t.Errorf("total %v != sum of parts %v", mem["total"], sum)
	}
	comp := v["compute"].(map[string]any)
	for _, k := range []string{"flops_per_step", "total_flops", "hours", "gpu_hours"} {
		if _, ok := comp[k].(float64); !ok {
			t.Errorf("compute.%s = %v, want a number", k, comp[k])
		}
	}
	for _, k := range []string{"params", "trainable_params"} {
		if _, ok := v[k].(float64); !ok {
			t.Errorf("%s missing", k)
		}
	}
	if a, ok := v["assumptions"].([]any); !ok || len(a) == 0 {
		t.Error("assumptions missing")
	}
	// Without a GPU, hours are null.
	_, stdout, _ = runArgs(t, "estimate", "--model", "gpt2", "--json")
	json.Unmarshal([]byte(stdout), &v)
	if h := v["compute"].(map[string]any)["hours"]; h != nil {
		t.Errorf("hours = %v without a GPU, want null", h)
	}
}

func TestRecommendJSONContract(t *testing.T) {
	code, stdout, stderr := runArgs(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "aws,gcp",
		"--dataset-tokens", "100M", "--limit", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Estimate map[string]any   `json:"estimate"`
		Offers   []map[string]any `json:"offers"`
		Rejected []map[string]any `json:"rejected"`
	}
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	// --limit counts the table's rows: an offer in other regions at one
	// price is one row, each of its regions an offer here.
	rows := 0
	for i, o := range v.Offers {
		if i == 0 || o["instance_type"] != v.Offers[i-1]["instance_type"] || o["price_per_hour_usd"] != v.Offers[i-1]["price_per_hour_usd"] {
			rows++
		}
	}
	if len(v.Offers) == 0 || rows > 5 {
		t.Fatalf("%d offers in %d rows, want at most 5 rows", len(v.Offers), rows)
	}
	for _, k := range strings.Fields("provider instance_type region gpu gpu_count instances gpu_memory_gib vram_need_gib vram_headroom_pct pricing price_per_hour_usd monthly_cost_usd job_hours job_cost_usd warnings") {
		if _, ok := v.Offers[0][k]; !ok {
			t.Errorf("offer field %s missing", k)
		}
	}
	// Ranked by job cost, where an offer renting more GPUs than the job
	// needs (gpus_needed) counts model.SizedSlack more: a near tie goes to
	// the host sized to the job.
	rankCost := func(o map[string]any) float64 {
		c := o["job_cost_usd"].(float64)
		need, _ := o["gpus_needed"].(float64)
		if rented := o["gpus_per_instance"].(float64) * o["instances"].(float64); need > 0 && rented > need {
			c *= 1 + model.SizedSlack
		}
		return c
	}
	for i := 1; i < len(v.Offers); i++ {
		if rankCost(v.Offers[i]) < rankCost(v.Offers[i-1]) {
			t.Errorf("offers not ranked by job cost (sized hosts first on a near tie): %v after %v", v.Offers[i]["instance_type"], v.Offers[i-1]["instance_type"])
		}
	}
	for _, o := range v.Offers {
		if p := o["provider"]; p != "aws" && p != "gcp" {
			t.Errorf("provider filter leaked %v", p)
		}
	}
	if len(v.Rejected) > 0 {
		for _, k := range []string{"provider", "instance_type", "reason"} {
			if _, ok := v.Rejected[0][k]; !ok {
				t.Errorf("rejected field %s missing", k)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runArgs(t, "version")
	if code != 0 || !strings.Contains(stdout, "catalog as of 20") {
		t.Errorf("version: %d %q", code, stdout)
	}
}

// TestHFWiring: --hf-config and --safetensors feed the estimate.
func TestHFWiring(t *testing.T) {
	code, stdout, stderr := runArgs(t, "estimate", "--hf-config", "data/hf/testdata/config/llama-3.1-8b.json", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v map[string]any
	json.Unmarshal([]byte(stdout), &v)
	if p := v["params"].(float64); p != 8030261248 {
		t.Errorf("params from config.json = %.0f, want 8030261248", p)
	}
	if p := v["workload"].(map[string]any)["precision"]; p != "amp-bf16" {
		t.Errorf("precision = %v, want amp-bf16 from torch_dtype bfloat16", p)
	}
	// A safetensors file: 8-byte length, header, data.
	dir := t.TempDir()
	header := `{"w":{"dtype":"BF16","shape":[1000,1000],"data_offsets":[0,2000000]},"b":{"dtype":"F32","shape":[1000],"data_offsets":[2000000,2004000]}}`
	var buf bytes.Buffer
	n := uint64(len(header))
	for i := 0; i < 8; i++ {
		buf.WriteByte(byte(n >> (8 * i)))
	}
	buf.WriteString(header)
	buf.Write(make([]byte, 2004000))
	p := filepath.Join(dir, "model.safetensors")
	os.WriteFile(p, buf.Bytes(), 0o644)
	code, stdout, stderr = runArgs(t, "estimate", "--safetensors", p, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	json.Unmarshal([]byte(stdout), &v)
	if got := v["params"].(float64); got != 1001000 {
		t.Errorf("params from safetensors = %.0f, want 1,001,000", got)
	}
	code, _, stderr = runArgs(t, "estimate", "--hf-config", filepath.Join(dir, "missing"))
	if code != 2 || !strings.Contains(stderr, "--hf-config") {
		t.Errorf("missing config: exit %d, %q", code, stderr)
	}
}

// writeSafetensors writes a safetensors file whose header holds one F32
// tensor of n parameters; the data is a hole (sparse), since only the
// header is read.
func writeSafetensors(t *testing.T, n int64) string {
	t.Helper()
	header := fmt.Sprintf(`{"w":{"dtype":"F32","shape":[%d],"data_offsets":[0,%d]}}`, n, 4*n)
	path := filepath.Join(t.TempDir(), "model.safetensors")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := binary.Write(f, binary.LittleEndian, uint64(len(header))); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(header); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(8+len(header)) + 4*n); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRequestDrifts: two rules that the command line once copied and got
// wrong now come from the request's one Resolve.
func TestRequestDrifts(t *testing.T) {
	// A custom ViT from flags gets CustomModel.Architecture's patch size
	// (16) like the same shape in a file; it used to fail "a vit needs
	// patch_size ≥ 1".
	code, flags, stderr := runArgs(t, "estimate", "--family", "vit", "--layers", "12", "--hidden", "768", "--heads", "12", "--json")
	if code != 0 {
		t.Fatalf("vit from flags: exit %d: %s", code, stderr)
	}
	cfg := filepath.Join(t.TempDir(), "vit.toml")
	if err := os.WriteFile(cfg, []byte("schema_version = 1\n[workload.custom]\nfamily = \"vit\"\nlayers = 12\nhidden = 768\nheads = 12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, file, stderr := runArgs(t, "estimate", "--config", cfg, "--json")
	if code != 0 || file != flags {
		t.Errorf("vit from a file: exit %d %s\nflags: %s\nfile:  %s", code, stderr, flags, file)
	}

	// OPT-350m's config.json carries an exact count (331,196,416, as its
	// published checkpoint); safetensors headers with 400,000,000 win, as
	// data/hf Config.WithCounts says (`if a.Params > 0 { a.Params = got }`).
	// The command line used to add the difference to ExtraParams, which an
	// exact count ignores, and kept 331196416.
	st := writeSafetensors(t, 400_000_000)
	code, out, stderr := runArgs(t, "estimate", "--hf-config", "data/hf/testdata/config/opt-350m.json", "--safetensors", st, "--json")
	if code != 0 || !strings.Contains(out, `"params": 400000000,`) || !strings.Contains(stderr, "using the safetensors count") {
		t.Errorf("opt-350m + safetensors: exit %d, stderr %q; want params 400000000 in\n%s", code, stderr, out)
	}
}

// TestConfigHFConfigRelative: a configuration's hf_config is read relative
// to the configuration's directory, so the two can move together (issue 11).
func TestConfigHFConfigRelative(t *testing.T) {
	src, err := os.ReadFile("data/hf/testdata/config/opt-350m.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "gpuplan.toml")
	for name, data := range map[string][]byte{
		"config.json":  src,
		"gpuplan.toml": []byte("schema_version = 1\n[workload]\nhf_config = \"config.json\"\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := runArgs(t, "estimate", "--config", cfg, "--json")
	if code != 0 || !strings.Contains(out, `"params": 331196416,`) {
		t.Errorf("exit %d, stderr %q; want opt-350m's 331196416 params in\n%s", code, stderr, out)
	}
}

// TestHFClassificationHead: a fine-tuned classifier's config.json is
// costed as its class builds it (walk51: LlamaForSequenceClassification
// was costed as the causal LM, 8,030,261,248 parameters and 128,256-token
// logits); `--model llama-3.1-8b --safetensors X` names the catalog's
// shape, not a config.json nobody gave.
func TestHFClassificationHead(t *testing.T) {
	st := writeSafetensors(t, 1_000_000_000)
	for _, tt := range []struct {
		name           string
		args           []string
		stdout, stderr []string
	}{
		{"seq-cls config.json: 8,030,261,248 − 128,256 × 4,096 + 4,096 × 2",
			[]string{"estimate", "--hf-config", "data/hf/testdata/config/llama-3.1-8b-seq-cls.json", "--json"},
			[]string{`"params": 7504932864,`, `"head": "sequence-classification",`, `"labels": 2`}, nil},
		{"seq-cls assumptions",
			[]string{"estimate", "--hf-config", "data/hf/testdata/config/llama-3.1-8b-seq-cls.json"},
			[]string{"head: sequence classification, a score of 2 labels on every position"}, nil},
		{"catalog shape with safetensors",
			[]string{"estimate", "--model", "llama-3.1-8b", "--safetensors", st, "--json"},
			[]string{`"params": 8030261248,`},
			[]string{"the catalog's Llama 3.1 8B shape gives 8030261248 parameters and the safetensors headers 1000000000 (-87.5%): using the catalog's count"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range tt.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stderr, "config.json gives") {
				t.Errorf("stderr names a config.json: %s", stderr)
			}
		})
	}
}
