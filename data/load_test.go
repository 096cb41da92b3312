package data

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
)

func TestLoadEmbedded(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.GPUs) < 14 || len(c.Models) < 30 || len(c.Instances) < 100 {
		t.Errorf("catalog has %d GPUs, %d models, %d instances", len(c.GPUs), len(c.Models), len(c.Instances))
	}
	for _, key := range strings.Fields("t4 l4 a10g a10 v100-16gb v100-32gb a100-40gb a100-80gb h100-pcie h100-sxm h200 l40s mi300x b200") {
		if _, err := c.GPU(key); err != nil {
			t.Errorf("gpu %s: %v", key, err)
		}
	}
	keys := "resnet18 resnet50 resnet101 resnet152 efficientnet-b0 efficientnet-b7 vit-b-16 vit-l-14 yolov8n yolov8s yolov8m yolov8l yolov8x unet sd15-unet sdxl-unet bert-base bert-large roberta-large t5-base t5-large t5-3b gpt2 gpt2-medium gpt2-large gpt2-xl llama-2-7b llama-2-13b llama-2-70b llama-3.1-8b llama-3.1-70b mistral-7b mixtral-8x7b qwen2.5-7b qwen2.5-72b gemma-2-9b phi-3-mini whisper-large-v3"
	for _, key := range strings.Fields(keys) {
		m, err := c.Model(key)
		if err != nil {
			t.Errorf("model %s: %v", key, err)
			continue
		}
		if m.Key != key {
			t.Errorf("model %s resolved to %s", key, m.Key)
		}
	}
	for _, alias := range []struct{ in, want string }{
		{"ResNet-50", "resnet50"}, {"bert-base-uncased", "bert-base"}, {"Llama-3.1-8B", "llama-3.1-8b"},
		{"meta-llama/Llama-3.1-8B", "llama-3.1-8b"}, {"H100", "h100-sxm"},
		// Hugging Face ids of the 2025–2026 models, base and instruct (issue 32).
		{"Qwen/Qwen3-8B", "qwen3-8b"}, {"Qwen/Qwen3-8B-Base", "qwen3-8b"}, {"Qwen/Qwen3-30B-A3B", "qwen3-30b-a3b"},
		{"Qwen/Qwen2.5-Coder-7B-Instruct", "qwen2.5-coder-7b"}, {"meta-llama/Llama-3.3-70B-Instruct", "llama-3.3-70b"},
		{"meta-llama/Llama-3.2-1B-Instruct", "llama-3.2-1b"}, {"meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama-4-scout"},
		{"google/gemma-3-27b-it", "gemma-3-27b"}, {"google/gemma-2-2b-it", "gemma-2-2b"}, {"openai/gpt-oss-120b", "gpt-oss-120b"},
		{"deepseek-ai/DeepSeek-R1", "deepseek-v3"}, {"deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "llama-3.1-8b"},
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "qwen2.5-32b"}, {"mistralai/Mistral-Small-24B-Instruct-2501", "mistral-small-24b"},
		{"mistralai/Mistral-Nemo-Instruct-2407", "mistral-nemo-12b"}, {"microsoft/phi-4", "phi-4"},
		{"HuggingFaceTB/SmolLM3-3B", "smollm3-3b"}, {"answerdotai/ModernBERT-base", "modernbert-base"},
		{"openai/whisper-large-v3-turbo", "whisper-large-v3-turbo"},
		{"meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b"}, {"meta-llama/Meta-Llama-3-70B", "llama-3-70b"},
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "r1-distill-qwen-1.5b"},
		// The 2507 releases: Qwen3's layers at 262144 positions, entries of their own; QwQ-32B is Qwen2.5-32B.
		{"Qwen/Qwen3-4B-Instruct-2507", "qwen3-4b-2507"}, {"Qwen/Qwen3-30B-A3B-Instruct-2507", "qwen3-30b-a3b-2507"},
		{"Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3-30b-a3b-2507"}, {"Qwen/Qwen3-235B-A22B-Instruct-2507", "qwen3-235b-a22b-2507"},
		{"Qwen/QwQ-32B", "qwen2.5-32b"},
	} {
		if m, err := c.Model(alias.in); err == nil {
			if m.Key != alias.want {
				t.Errorf("%s → %s, want %s", alias.in, m.Key, alias.want)
			}
		} else if g, err := c.GPU(alias.in); err != nil || g.Key != alias.want {
			t.Errorf("%s: not an alias of %s (%v)", alias.in, alias.want, err)
		}
	}
	if _, err := c.Model("lama-3.1-8b"); err == nil || !strings.Contains(err.Error(), `"llama-3.1-8b"`) {
		t.Errorf("unknown model error %v does not suggest llama-3.1-8b", err)
	}
}

// TestParamCounts: every transformer's formula count is within 1% of the
// published count; every CNN/U-Net uses its published count.
func TestParamCounts(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range c.Models {
		got, want := m.ParamCount(), m.PublishedParams
		if diff := math.Abs(got-want) / want; diff > 0.01 {
			t.Errorf("%s: formula %.0f vs published %.0f (%s): off by %.2f%%", m.Key, got, want, m.ParamsSource, diff*100)
		}
	}
}

// TestInstancesAgainstGPUs: memory is per GPU (from the GPU entry, never an
// instance total), every price is positive and spot is not dearer than
// on-demand, every entry is sourced and dated.
func TestInstancesAgainstGPUs(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	providers := map[string]map[string]bool{}
	for _, in := range c.Instances {
		g, err := c.GPU(in.GPU)
		if err != nil {
			t.Errorf("%s/%s: %v", in.Provider, in.Type, err)
			continue
		}
		if g.MemoryGiB > 300 {
			t.Errorf("%s/%s: GPU memory %v GiB looks like an instance total", in.Provider, in.Type, g.MemoryGiB)
		}
		if in.Source == "" || in.AsOf == "" {
			t.Errorf("%s/%s: missing source or as_of", in.Provider, in.Type)
		}
		for _, p := range in.Prices {
			if p.OnDemandUSD < 0 || p.SpotUSD < 0 || len(p.Modes()) == 0 {
				t.Errorf("%s/%s %s: price %+v", in.Provider, in.Type, p.Region, p)
			}
			if p.OnDemandUSD > 0 && p.SpotUSD > p.OnDemandUSD*1.0001 {
				t.Errorf("%s/%s %s: spot %v above on-demand %v", in.Provider, in.Type, p.Region, p.SpotUSD, p.OnDemandUSD)
			}
			if providers[in.Provider] == nil {
				providers[in.Provider] = map[string]bool{}
			}
			providers[in.Provider][continent(p.Region)] = true
		}
	}
	for _, p := range []string{"aws", "gcp", "lambda"} {
		for _, cont := range []string{"us", "europe", "asia"} {
			if !providers[p][cont] {
				t.Errorf("%s has no region in %s", p, cont)
			}
		}
	}
	for _, g := range c.GPUs {
		if g.Source == "" || g.AsOf == "" {
			t.Errorf("gpu %s: missing source or as_of", g.Key)
		}
	}
	// Known figures that articles get wrong.
	for _, f := range []struct {
		key  string
		get  func(*model.GPU) float64
		want float64
		what string
	}{
		{"v100-16gb", func(g *model.GPU) float64 { return g.FP32TFLOPS }, 15.7, "V100 fp32 TFLOPS (not 125)"},
		{"a100-80gb", func(g *model.GPU) float64 { return g.BF16TFLOPS }, 312, "A100 bf16 dense TFLOPS (not 624 sparse)"},
		{"h100-sxm", func(g *model.GPU) float64 { return g.BF16TFLOPS }, 989.5, "H100 SXM bf16 dense TFLOPS"},
		{"a100-40gb", func(g *model.GPU) float64 { return g.MemoryGiB }, 40, "A100 40GB memory (not conflated with 80GB)"},
	} {
		g, err := c.GPU(f.key)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.get(g); math.Abs(got-f.want) > 0.5 {
			t.Errorf("%s = %v, want %v", f.what, got, f.want)
		}
	}
	for _, in := range c.Instances {
		if in.Provider == "aws" && in.Type == "g4dn.xlarge" && in.MemoryGiB != 16 {
			t.Errorf("g4dn.xlarge host RAM = %v GiB, want 16 (articles say 32)", in.MemoryGiB)
		}
		if in.Provider == "azure" && strings.HasPrefix(in.Type, "Standard_NC6s_v3") && in.Retired == "" {
			t.Errorf("%s (NCv3, retired 2025-09-30) is not marked retired", in.Type)
		}
	}
}

// continent groups region names of the big clouds.
func continent(r string) string {
	r = strings.ToLower(r)
	switch {
	case strings.HasPrefix(r, "us-"), strings.HasPrefix(r, "us"), strings.HasPrefix(r, "northamerica"), strings.HasPrefix(r, "ca-"):
		return "us"
	case strings.HasPrefix(r, "eu"), strings.HasPrefix(r, "europe"):
		return "europe"
	case strings.HasPrefix(r, "ap-"), strings.HasPrefix(r, "asia"), strings.HasPrefix(r, "japan"), strings.HasPrefix(r, "me-"):
		return "asia"
	}
	return r
}

const (
	okGPU = `schema_version = 1
[[gpu]]
key = "x1"
name = "X1"
vendor = "nvidia"
compute_capability = "8.0"
memory_gib = 80
fp32_tflops = 19.5
bf16_tflops = 312
source = "datasheet"
as_of = 2026-11-30
`
	okModel = `schema_version = 1
[[model]]
key = "m1"
name = "M1"
family = "decoder"
published_params = 124439808
params_source = "paper"
layers = 12
hidden = 768
heads = 12
ffn = 3072
vocab = 50257
tied_embeddings = true
linear_bias = true
learned_positions = 1024
source = "config.json"
as_of = 2026-11-30
`
	okDiscount = `schema_version = 1
[[discount]]
provider = "p"
term = "reserved-1y"
fraction = 0.3
source = "pricing page"
as_of = 2026-11-30
`
	okInstance = `schema_version = 1
provider = "p"
[[instance]]
type = "i.1"
gpu = "x1"
gpu_count = 1
vcpus = 8
memory_gib = 64
source = "pricing page"
as_of = 2026-11-30
prices = [{ region = "r1", on_demand = 2.5, spot = 1.0 }]
`
)

func testFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{
		"catalog/gpus.toml":        {Data: []byte(okGPU)},
		"catalog/models.toml":      {Data: []byte(okModel)},
		"catalog/discounts.toml":   {Data: []byte(okDiscount)},
		"catalog/instances/p.toml": {Data: []byte(okInstance)},
	}
	for k, v := range files {
		if v == "" {
			m[k] = &fstest.MapFile{Data: nil}
			continue
		}
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return m
}

// TestBrokenFiles pins the validation messages: each names the file and
// the key, entry or line.
func TestBrokenFiles(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"valid", nil, nil},
		{"empty file", map[string]string{"catalog/gpus.toml": ""}, []string{"gpus.toml: missing schema_version"}},
		{"missing key", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, `key = "x1"`, "", 1)}, []string{"gpus.toml: gpu #1: missing key"}},
		{"unknown key with suggestion", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, "bf16_tflops", "bf16_tflop", 1)},
			[]string{`gpus.toml: unknown key "gpu.bf16_tflop" (did you mean "bf16_tflops"?)`}},
		{"wrong type", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, "memory_gib = 80", `memory_gib = "80"`, 1)}, []string{"gpus.toml", "memory_gib"}},
		{"quoted date", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, "as_of = 2026-11-30", `as_of = "2026-11-30"`, 1)}, []string{"gpus.toml", "as_of", "no quotes"}},
		{"zero memory", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, "memory_gib = 80", "memory_gib = 0", 1)}, []string{`gpus.toml: gpu "x1": memory_gib must be > 0, got 0`}},
		{"instance total as GPU memory", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, "memory_gib = 80", "memory_gib = 5120", 1)}, []string{"looks like an instance total"}},
		{"negative price", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, "on_demand = 2.5", "on_demand = -2.5", 1)},
			[]string{`p.toml: instance "i.1": prices "r1": on_demand must be > 0, got -2.5`}},
		{"zero price is not free", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, "spot = 1.0", "spot = 0.0", 1)},
			[]string{`spot must be > 0, got 0 (leave the key out when unknown)`}},
		{"NaN price", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, "on_demand = 2.5", "on_demand = nan", 1)}, []string{"on_demand must be > 0, got NaN"}},
		{"spot dearer than on-demand", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, "spot = 1.0", "spot = 3.0", 1)}, []string{"spot 3 is dearer than on_demand 2.5"}},
		{"unknown GPU", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, `gpu = "x1"`, `gpu = "x2"`, 1)}, []string{`p.toml: instance "i.1" (p): unknown gpu "x2" (did you mean "x1"?)`}},
		{"duplicate instance", map[string]string{"catalog/instances/p.toml": okInstance + strings.SplitN(okInstance, "provider = \"p\"\n", 2)[1]}, []string{`p.toml: instance "i.1": duplicate`}},
		{"duplicate region", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, `prices = [`, `prices = [{ region = "r1", on_demand = 1 }, `, 1)}, []string{`region "r1" listed twice`}},
		{"duplicate gpu key", map[string]string{"catalog/gpus.toml": okGPU + strings.SplitN(okGPU, "schema_version = 1\n", 2)[1]}, []string{`gpus.toml: gpu "x1": duplicate key`}},
		{"toml syntax error names the line", map[string]string{"catalog/models.toml": strings.Replace(okModel, "layers = 12", "layers = = 12", 1)}, []string{"models.toml:8:"}},
		{"bad family", map[string]string{"catalog/models.toml": strings.Replace(okModel, `family = "decoder"`, `family = "transformer"`, 1)}, []string{`models.toml: model "m1": family "transformer": want decoder`}},
		{"bad shape", map[string]string{"catalog/models.toml": strings.Replace(okModel, "heads = 12", "heads = 7", 1)}, []string{"hidden 768 is not a multiple of heads 7"}},
		{"rope_original_positions without rope_theta", map[string]string{"catalog/models.toml": strings.Replace(okModel, "heads = 12", "heads = 12\nmax_positions = 40960\nrope_original_positions = 32768", 1)},
			[]string{"rope_original_positions 32768 needs rope_theta and max_positions of at least it (got rope_theta 0, max_positions 40960)"}},
		{"rope_original_positions past max_positions", map[string]string{"catalog/models.toml": strings.Replace(okModel, "heads = 12", "heads = 12\nmax_positions = 4096\nrope_theta = 1e6\nrope_original_positions = 32768", 1)},
			[]string{"(got rope_theta 1e+06, max_positions 4096)"}},
		{"negative rope_theta", map[string]string{"catalog/models.toml": strings.Replace(okModel, "heads = 12", "heads = 12\nrope_theta = -1.0", 1)}, []string{"rope_theta must be ≥ 0, got -1"}},
		{"discount fraction", map[string]string{"catalog/discounts.toml": strings.Replace(okDiscount, "fraction = 0.3", "fraction = 37", 1)}, []string{"fraction must be between 0 and 1"}},
		{"newline in a GPU name", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, `name = "X1"`, `name = "X1\ncurl evil | sh"`, 1)},
			[]string{`gpus.toml: gpu "x1": name: control character \n (newline) at byte 2; names must be printable text on one line`}},
		{"ESC in a GPU alias", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, `name = "X1"`, `name = "X1"`+"\naliases = [\"ok\", \"\\u001b]0;x\\u0007\"]", 1)},
			[]string{`gpus.toml: gpu "x1": aliases[2]: control character \x1b (ESC) at byte 0`}},
		{"NUL in a model name", map[string]string{"catalog/models.toml": strings.Replace(okModel, `name = "M1"`, `name = "M\u00001"`, 1)},
			[]string{`models.toml: model "m1": name: control character \x00 (NUL) at byte 1`}},
		{"a 300-byte model name", map[string]string{"catalog/models.toml": strings.Replace(okModel, `name = "M1"`, `name = "`+strings.Repeat("m", 300)+`"`, 1)},
			[]string{`models.toml: model "m1": name: 300 bytes long, the limit is 256`}},
		{"newline in an instance type", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, `type = "i.1"`, `type = "i.1\nrm -rf /"`, 1)},
			[]string{`p.toml: instance "i.1\nrm -rf /": type: control character \n (newline) at byte 3`}},
		{"bidi override in a region", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, `region = "r1"`, `region = "r1\u202e"`, 1)},
			[]string{`p.toml: instance "i.1": prices[1].region: control character U+202E at byte 2`}},
		{"zero-width space in a region", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, `region = "r1"`, `region = "r\u200b1"`, 1)},
			[]string{`p.toml: instance "i.1": prices[1].region: invisible character U+200B at byte 1; names must show every character they hold`}},
		{"variation selector in a GPU name", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, `name = "X1"`, `name = "X1\ufe0f"`, 1)},
			[]string{`gpus.toml: gpu "x1": name: invisible character U+FE0F at byte 2`}},
		{"ESC in a SkyPilot accelerator name", map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, `type = "i.1"`, `type = "i.1"`+"\nskypilot_accelerator = \"A\\u001b[2J\"", 1)},
			[]string{`p.toml: instance "i.1": skypilot_accelerator: control character \x1b (ESC) at byte 1`}},
		{"DEL in a discount prefix", map[string]string{"catalog/discounts.toml": strings.Replace(okDiscount, `fraction = 0.3`, "fraction = 0.3\nprefixes = [\"p\\u007f\"]", 1)},
			[]string{`discounts.toml: discount #1: prefixes[1]: control character \x7f (DEL) at byte 1`}},
		{"seven unknown keys: five shown and a count", map[string]string{"catalog/gpus.toml": okGPU + "a1 = 1\na2 = 1\na3 = 1\na4 = 1\na5 = 1\na6 = 1\na7 = 1\n"},
			[]string{`unknown key "gpu.a5"; and 2 more unknown keys`}},
		{"TOML nesting bomb", map[string]string{"catalog/gpus.toml": okGPU + "x = " + strings.Repeat("{a=", 15000)},
			[]string{"gpus.toml: line 12: tables, arrays and dotted keys nest more than 8 deep"}},
		{"unsupported schema", map[string]string{"catalog/gpus.toml": strings.Replace(okGPU, "schema_version = 1", "schema_version = 2", 1)}, []string{"schema_version 2 is not supported"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := load(testFS(tt.files))
			if tt.want == nil {
				if err != nil || c == nil {
					t.Fatalf("load() = %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("load() accepted a broken catalog")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestOverlayInvisibleName: an overlay whose region holds a zero-width
// space ("us-east-\u200b1" prints as us-east-1 beside the real one) is
// refused with the key and the character, nothing loaded (attack test M3).
func TestOverlayInvisibleName(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	overlay := filepath.Join(dir, "zw.toml")
	if err := os.WriteFile(overlay, []byte(`schema_version = 1
[[instance]]
provider = "aws"
type = "p4d.24xlarge"
source = "a price server"
prices = [{ region = "us-east-\u200b1", on_demand = 1.5 }]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _, err := LoadWith([]string{overlay})
	if err == nil || !strings.Contains(err.Error(), "prices[1].region: invisible character U+200B at byte 8") {
		t.Fatalf("LoadWith(overlay with U+200B in a region) = %v, want the invisible character named", err)
	}
	if c != nil {
		t.Error("a refused overlay still returned a catalog")
	}
}

func TestOverlays(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	base, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var p4d *model.Instance
	for i := range base.Instances {
		if base.Instances[i].Type == "p4d.24xlarge" {
			p4d = &base.Instances[i]
		}
	}
	if p4d == nil {
		t.Skip("p4d.24xlarge not in the catalog")
	}
	// A negotiated price for one region patches the embedded entry.
	negotiated := filepath.Join(dir, "negotiated.toml")
	os.WriteFile(negotiated, []byte(`schema_version = 1
[[instance]]
provider = "aws"
type = "p4d.24xlarge"
source = "our contract"
prices = [{ region = "us-east-1", on_demand = 12.5 }]
`), 0o644)
	// A private cluster in catalog.d adds a provider.
	os.MkdirAll(filepath.Join(dir, "config", "gpuplan", "catalog.d"), 0o755)
	os.WriteFile(filepath.Join(dir, "config", "gpuplan", "catalog.d", "lab.toml"), []byte(`schema_version = 1
provider = "lab"
[[instance]]
type = "rack-1"
gpu = "a100-80gb"
gpu_count = 8
vcpus = 128
memory_gib = 1024
source = "our lab"
as_of = 2026-11-01
prices = [{ region = "basement", on_demand = 1.0 }]
`), 0o644)
	c, _, err := LoadWith([]string{negotiated})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, in := range c.Instances {
		if in.Type == "p4d.24xlarge" && in.Provider == "aws" {
			found["p4d"] = true
			if in.Source == "our contract" || in.Origin != "embedded" || in.GPUCount != 8 {
				t.Errorf("a price patch relabelled the whole instance: source %q origin %q gpus %d", in.Source, in.Origin, in.GPUCount)
			}
			for _, p := range in.Prices {
				if p.Region == "us-east-1" && (p.OnDemandUSD != 12.5 || p.Patched().Source != "our contract" || p.Patched().Origin != negotiated) {
					t.Errorf("us-east-1: %+v, want the negotiated 12.5 from %s", p, negotiated)
				}
				if p.Region != "us-east-1" && p.Patched().Source != "" {
					t.Errorf("%s took the patch's source: %+v", p.Region, p)
				}
			}
			if len(in.Prices) != len(p4d.Prices) {
				t.Errorf("patch lost regions: %d → %d", len(p4d.Prices), len(in.Prices))
			}
		}
		if in.Provider == "lab" {
			found["lab"] = true
		}
	}
	if !found["p4d"] || !found["lab"] {
		t.Errorf("overlays not applied: %v", found)
	}
	// A broken overlay names its file; a missing file says so.
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("schema_version = 1\n[[instance]]\nprovider = \"aws\"\ntype = \"nope.1\"\nprices = [{ region = \"r\", on_demand = 1 }]\n"), 0o644)
	if _, _, err := LoadWith([]string{bad}); err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "not in the catalog") {
		t.Errorf("broken overlay: %v", err)
	}
	if _, _, err := LoadWith([]string{filepath.Join(dir, "missing.toml")}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing overlay: %v", err)
	}
}

func TestLoadErrorsAreJoined(t *testing.T) {
	_, err := load(testFS(map[string]string{
		"catalog/gpus.toml":   strings.Replace(okGPU, "memory_gib = 80", "memory_gib = -1", 1),
		"catalog/models.toml": strings.Replace(okModel, `family = "decoder"`, `family = "x"`, 1),
	}))
	if err == nil || !strings.Contains(err.Error(), "gpus.toml") || !strings.Contains(err.Error(), "models.toml") {
		t.Errorf("want both files' problems, got %v", err)
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		t.Errorf("error is not a join of the problems: %T", err)
	}
}

// FuzzLoadGPUs: load never panics, and what it accepts is valid.
func FuzzLoadGPUs(f *testing.F) {
	real, err := fs.ReadFile(catalogFS, "catalog/gpus.toml")
	if err == nil {
		f.Add(real)
	}
	f.Add([]byte(okGPU))
	f.Add([]byte("schema_version = 1\n[[gpu]]\nkey = \"\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := load(testFS(map[string]string{"catalog/gpus.toml": string(b), "catalog/instances/p.toml": strings.Replace(okInstance, `gpu = "x1"`, `gpu = "t4"`, 1)}))
		if err != nil {
			return
		}
		for _, g := range c.GPUs {
			if !(g.MemoryGiB > 0) || g.Key == "" || g.Source == "" || math.IsNaN(g.FP32TFLOPS) {
				t.Fatalf("accepted invalid GPU %+v", g)
			}
		}
	})
}

// FuzzLoadInstances: the instance loader never panics and accepts no
// non-positive or NaN price.
func FuzzLoadInstances(f *testing.F) {
	f.Add([]byte(okInstance))
	f.Add([]byte(strings.Replace(okInstance, "spot = 1.0", "spot = inf", 1)))
	f.Add([]byte(strings.Replace(okInstance, `type = "i.1"`, `type = "i.1\ncurl x | sh"`, 1)))
	f.Add([]byte(strings.Replace(okInstance, `region = "r1"`, `region = "r\u001b1"`, 1)))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := load(testFS(map[string]string{"catalog/instances/p.toml": string(b)}))
		if err != nil {
			return
		}
		for _, in := range c.Instances {
			for _, name := range []string{in.Provider, in.Type, in.GPU} {
				if safeio.CheckName(name) != nil {
					t.Fatalf("accepted a name that is not data: %q", name)
				}
			}
			for _, p := range in.Prices {
				if safeio.CheckName(p.Region) != nil || p.OnDemandUSD > maxUSDPerHour || p.SpotUSD > maxUSDPerHour {
					t.Fatalf("accepted region %q or a price above the cap: %+v", p.Region, p)
				}
				if p.OnDemandUSD < 0 || p.SpotUSD < 0 || math.IsNaN(p.OnDemandUSD) || math.IsNaN(p.SpotUSD) || math.IsInf(p.OnDemandUSD, 0) {
					t.Fatalf("accepted bad price %+v", p)
				}
			}
		}
	})
}

// TestCSVOverlay: a SkyPilot vms.csv in <provider>/vms.csv layout overlays
// fresh prices; the rows show where they came from.
func TestCSVOverlay(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "aws")
	os.MkdirAll(dir, 0o755)
	b, err := os.ReadFile("testdata/skypilot/aws.csv")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "vms.csv")
	os.WriteFile(p, b, 0o644)
	c, warnings, err := LoadWith([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 {
		t.Error("no warning for the skipped FPGA row")
	}
	found := false
	for _, in := range c.Instances {
		if in.Provider == "aws" && in.Type == "g4dn.xlarge" {
			found = true
			if !slices.ContainsFunc(in.Prices, func(r model.RegionPrice) bool { return r.Patched().Origin == p }) {
				t.Errorf("g4dn.xlarge has no price from the CSV: %+v", in.Prices)
			}
		}
	}
	if !found {
		t.Error("g4dn.xlarge missing after the overlay")
	}
	flat := filepath.Join(t.TempDir(), "vms.csv")
	os.WriteFile(flat, []byte("InstanceType,Price\n"), 0o644)
	if _, _, err := LoadWith([]string{flat}); err == nil {
		t.Error("a CSV outside <provider>/vms.csv with a bad header was accepted")
	}
}

// TestPricePatchAsOf: a price patch's as_of (catalog update writes one
// per known type) dates the regions it sets, the catalog, and its origin
// in the provenance line; the instance keeps its embedded date.
func TestPricePatchAsOf(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	patch := filepath.Join(dir, "skypilot-aws.toml")
	day := time.Now().AddDate(0, 0, 1).Format(time.DateOnly) // after every embedded date; later is refused
	os.WriteFile(patch, []byte(`schema_version = 1
provider = "aws"
[[instance]]
type = "p4d.24xlarge"
source = "fetched by gpuplan catalog update"
as_of = `+day+`
prices = [{ region = "us-east-1", on_demand = 20 }]
`), 0o644)
	c, _, err := LoadWith([]string{patch})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(c.Instances, func(in model.Instance) bool { return in.Provider == "aws" && in.Type == "p4d.24xlarge" })
	if i < 0 {
		t.Skip("p4d.24xlarge not in the catalog")
	}
	in := &c.Instances[i]
	if in.AsOf == day {
		t.Errorf("the price patch re-dated the whole instance")
	}
	for _, region := range []string{"us-east-1", "us-west-2"} {
		o := model.Offer{Instance: in, Region: region}
		want := in.AsOf
		if region == "us-east-1" {
			want = day
		}
		if got := o.PriceAsOf(); got != want {
			t.Errorf("%s: price as of %s, want %s", region, got, want)
		}
	}
	if c.AsOf != day {
		t.Errorf("catalog as of %s, want the patch's %s", c.AsOf, day)
	}
	p := market.CatalogProvenance(c, dir)
	if !strings.Contains(p.Line(), "updated "+day+" by catalog update") {
		t.Errorf("provenance %q does not date the update by its as_of", p.Line())
	}
}

// TestCSVOverlayKeepsWhatItDoesNotSay: a SkyPilot vms.csv row for a type
// the catalog has re-prices its regions, but the CSV has no interconnect
// column, so the 8-GPU SXM host keeps its NVSwitch, and the regions the
// file does not list keep their prices with their old date and source.
func TestCSVOverlayKeepsWhatItDoesNotSay(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	base, _ := Load()
	var was *model.Instance
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == "lambda" && in.Type == "gpu_8x_h100_sxm5" {
			was = in
		}
	}
	if was == nil || was.Interconnect != "nvswitch" || len(was.Prices) < 2 {
		t.Fatalf("the test needs lambda gpu_8x_h100_sxm5 with NVSwitch and several regions; got %+v", was)
	}
	csv := filepath.Join(dir, "lambda", "vms.csv")
	os.MkdirAll(filepath.Dir(csv), 0o755)
	if err := os.WriteFile(csv, []byte("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"+
		`gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,19.99,us-east-1,"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}",`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _, err := LoadWith([]string{csv})
	if err != nil {
		t.Fatal(err)
	}
	var got *model.Instance
	for i := range c.Instances {
		if in := &c.Instances[i]; in.Provider == "lambda" && in.Type == "gpu_8x_h100_sxm5" {
			got = in
		}
	}
	if got == nil {
		t.Fatal("the overlaid type is gone")
	}
	if got.Interconnect != "nvswitch" {
		t.Errorf("interconnect %q after a CSV overlay, want the catalog's nvswitch", got.Interconnect)
	}
	if got.Origin != "embedded" || got.Source != was.Source || got.AsOf != was.AsOf {
		t.Errorf("the type's provenance became %q %q: the CSV patches prices, the entry stays the catalog's", got.Origin, got.AsOf)
	}
	for _, p := range got.Prices {
		switch {
		case p.Region == "us-east-1":
			if p.OnDemandUSD != 19.99 || p.Patched().Origin != csv {
				t.Errorf("us-east-1: %+v, want the CSV's 19.99 sourced to the CSV", p)
			}
		default:
			if p.Patched().Origin != "" || p.Patched().AsOf != "" { // the instance's: the catalog's
				t.Errorf("%s, not in the CSV: provenance %q %q, want the catalog's", p.Region, p.Patched().Origin, p.Patched().AsOf)
			}
		}
	}
	if len(got.Prices) != len(was.Prices) {
		t.Errorf("%d regions after the overlay, want %d (one re-priced, none lost)", len(got.Prices), len(was.Prices))
	}
}

// TestCSVOverlayFolderNamesTheCloud: the folder holding vms.csv names the
// cloud, as in SkyPilot's ~/.sky/catalogs/v8/<cloud>/vms.csv; a folder
// that is no SkyPilot cloud (Downloads/) is refused with how to fix it
// instead of becoming a cloud "downloads" that exports then name, and a
// bare vms.csv is the cloud of the folder it is in (trial 15b N5: refused
// by bare name, a provider "w" by full path).
func TestCSVOverlayFolderNamesTheCloud(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	b, err := os.ReadFile("testdata/skypilot/aws.csv")
	if err != nil {
		t.Fatal(err)
	}
	put := func(rel string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path  string // under dir, or relative to dir/aws (the working directory) when it starts with "./"
		cloud string // "" when refused
		want  string // in the refusal
	}{
		{put("Downloads/vms.csv"), "", `the folder "Downloads" is not a cloud SkyPilot knows`},
		{put("w/vms.csv"), "", `the folder "w" is not a cloud SkyPilot knows`},
		{put("aws/prices.csv"), "", "a file named vms.csv in a folder named for its cloud"},
		{put("AWS/vms.csv"), "aws", ""},
		{put("runpod/vms.csv"), "runpod", ""},
		{"vms.csv", "aws", ""},
		{"./vms.csv", "aws", ""},
	} {
		put("aws/vms.csv")
		t.Chdir(filepath.Join(dir, "aws"))
		c, _, err := LoadWith([]string{tc.path})
		if tc.cloud == "" {
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "<cloud>/vms.csv") || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: error %v; want one line with %q and the layout", tc.path, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		if !slices.ContainsFunc(c.Instances, func(in model.Instance) bool {
			fromFile := func(origin string) bool { return strings.HasSuffix(origin, "vms.csv") }
			return in.Provider == tc.cloud && (fromFile(in.Origin) || slices.ContainsFunc(in.Prices, func(r model.RegionPrice) bool { return fromFile(r.Patched().Origin) }))
		}) {
			t.Errorf("%s: no %s instance priced from the file", tc.path, tc.cloud)
		}
	}
}

// TestEmbeddedProvidersAreSkyPilotClouds: every provider of the embedded
// catalog takes a <provider>/vms.csv overlay.
func TestEmbeddedProvidersAreSkyPilotClouds(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range c.Instances {
		if !slices.Contains(skyPilotClouds, in.Provider) {
			t.Fatalf("provider %q (%s) is not in skyPilotClouds: its vms.csv would be refused", in.Provider, in.Type)
		}
	}
}

// TestCSVOverlayLongRecord: a vms.csv with a record over maxCSVRecord is
// refused by the reader as soon as the record passes the bound, naming
// the file and the line the record began on, not read whole first: a
// junk line without newlines, and a quoted field left open over millions
// of lines (trial 15b N6: read whole in 5 s and 400 MB, then blamed on
// line 40000001).
func TestCSVOverlayLongRecord(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	p := filepath.Join(dir, "aws", "vms.csv")
	os.MkdirAll(filepath.Dir(p), 0o755)
	const header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"one long line", bytes.Repeat([]byte("x"), maxCSVRecord+1), p + ":2: a line longer than 1 MiB"},
		// Its first line is `p5,"ab` (6 bytes), each next one `ab` and
		// the newline before it: its j-th line ends at byte 3j + 3, past
		// 1,048,576 first at j = 349,525.
		{"a quoted field over 1M lines", append([]byte("p5,\""), bytes.Repeat([]byte("ab\n"), maxCSVRecord/3+1)...),
			p + ":2: a quoted field opens here and is not closed within 1 MiB (349525 lines)"},
		{"after good rows", append([]byte("g5.xlarge,A10G,1,4,16,1.006,us-east-1,,0.5\ng5.xlarge,A10G,1,4,16,1.006,us-east-2,,0.5\n\"x"), bytes.Repeat([]byte("\n"), maxCSVRecord+1)...),
			p + ":4: a quoted field opens here"},
		// Under the bound, encoding/csv's own error: it gives up at the
		// end of the file, the line to fix is where the quote opened.
		{"a quote left open to the end", []byte("g5,\"x\ny\nz\n"), p + ":2: a quoted field opens in this record and runs to line "},
	} {
		if err := os.WriteFile(p, append([]byte(header), tc.body...), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := LoadWith([]string{p})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v; want one line starting %q", tc.name, err, tc.want)
		}
	}
}

// TestRecordCapReader: the bound counts a record's bytes (its lines run
// together while a quoted field is open; a doubled quote inside one does
// not close it), exactly at max whatever the read sizes, and names the
// line the record began on. Lengths worked out by hand from the inputs.
func TestRecordCapReader(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		max  int
		line int // 0: read whole
	}{
		{"lines at the bound", "0123456789\nabcdefghij\n", 10, 0},
		{"a line one over", "0123456789\nabcdefghijk\n", 10, 2},
		{"a record of 4+1+4 bytes under the bound", "a,\"b\nc\",d\n", 10, 0},   // `a,"b`, the newline, `c",d`
		{"a record of 4+1+5 bytes at the bound", "x\na,\"b\ncc\",d\n", 10, 0},  // `a,"b`, the newline, `cc",d`
		{"the same record one byte longer", "x\na,\"b\nccc\",d\n", 10, 2},      // 4 + 1 + 6
		{"a doubled quote keeps the field open", "\"a\"\"\nb\nc\"\n", 6, 1},    // `"a""` + 1 + `b` + 1 + `c"`: 9
		{"closed fields reset the count", "\"abc\"\n\"def\"\n\"ghi\"\n", 5, 0}, // 5 each
		{"CRLF counts the CR", "abcd\r\nabcde\r\n", 5, 2},
	} {
		for _, chunk := range []int{1, 3, 1 << 10} {
			r := newRecordCapReader(strings.NewReader(tc.in), tc.max)
			var got []byte
			var err error
			buf := make([]byte, chunk)
			for {
				var n int
				n, err = r.Read(buf)
				got = append(got, buf[:n]...)
				if err != nil {
					break
				}
			}
			var long *RecordTooLongError
			switch {
			case tc.line == 0 && (err != io.EOF || string(got) != tc.in):
				t.Errorf("%s (reads of %d): %v after %q; want the input whole", tc.name, chunk, err, got)
			case tc.line > 0 && (!errors.As(err, &long) || long.Line != tc.line):
				t.Errorf("%s (reads of %d): %v; want a RecordTooLongError on line %d", tc.name, chunk, err, tc.line)
			}
		}
	}
}

// FuzzRecordCapReader: any input and bound read through the cap either
// comes out unchanged or fails on a line the input has, and the read is
// never cut short below the bound: every newline-free run read whole is
// at most max bytes.
func FuzzRecordCapReader(f *testing.F) {
	f.Add("a,\"b\nc\",d\n", 4)
	f.Add("p5,\""+strings.Repeat("ab\n", 20), 16)
	f.Add("\"a\"\"\nb\nc\"\n\"\"\n", 3)
	f.Add("x\r\ny\r", 1)
	f.Fuzz(func(t *testing.T, in string, max int) {
		if max < 1 || max > 1<<16 {
			return
		}
		got, err := io.ReadAll(newRecordCapReader(strings.NewReader(in), max))
		var long *RecordTooLongError
		switch {
		case err == nil:
			if string(got) != in {
				t.Fatalf("read %q, want the input %q", got, in)
			}
			for _, l := range strings.Split(in, "\n") {
				if len(l) > max {
					t.Fatalf("a line of %d bytes passed a bound of %d", len(l), max)
				}
			}
		case errors.As(err, &long):
			if long.Line < 1 || long.Line > strings.Count(in, "\n")+1 || long.Lines < 1 {
				t.Fatalf("line %d (%d lines) in an input of %d lines", long.Line, long.Lines, strings.Count(in, "\n")+1)
			}
		default:
			t.Fatalf("error %v", err)
		}
	})
}

// TestCSVOverlayKeepsCuratedTypes: SkyPilot rows for types the catalog
// has update prices only. A row that gives another GPU count (Azure's
// 8-GPU H100 host listed with 12, as SkyPilot's azure/vms.csv does) keeps
// the catalog's count, a retired type (AWS p3) stays retired, and each
// is said once.
func TestCSVOverlayKeepsCuratedTypes(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	const header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
	lambda := filepath.Join(dir, "lambda", "vms.csv")
	aws := filepath.Join(dir, "aws", "vms.csv")
	for p, row := range map[string]string{
		lambda: `gpu_8x_h100_sxm5,H100,12.0,208.0,1800.0,29.99,us-east-1,"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 12.0, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}",`,
		aws:    `p3.2xlarge,V100,1.0,8.0,61.0,3.06,us-east-1,"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}",0.9`,
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(header+row+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, warnings, err := LoadWith([]string{lambda, aws})
	if err != nil {
		t.Fatal(err)
	}
	h100, _ := instanceOf(c, "lambda", "gpu_8x_h100_sxm5")
	if h100.GPUCount != 8 || !slices.ContainsFunc(h100.Prices, func(p model.RegionPrice) bool { return p.Region == "us-east-1" && p.OnDemandUSD == 29.99 }) {
		t.Errorf("gpu_8x_h100_sxm5: %d GPUs, prices %+v; want the catalog's 8 and the CSV's $29.99 in us-east-1", h100.GPUCount, h100.Prices)
	}
	p3, _ := instanceOf(c, "aws", "p3.2xlarge")
	if p3.Retired == "" || p3.Offered() {
		t.Errorf("p3.2xlarge retired %q, offered %v after a CSV priced it; want it still retired", p3.Retired, p3.Offered())
	}
	all := strings.Join(model.Strings(warnings), "\n")
	for _, want := range []string{
		"GPUs differ from the catalog's sourced entries (file ≠ catalog) for 1 type: lambda/gpu_8x_h100_sxm5 (12 × h100-sxm ≠ 8 × h100-sxm)",
		"prices for 1 type the catalog has as retired (aws/p3.2xlarge); they stay retired",
	} {
		if strings.Count(all, want) != 1 {
			t.Errorf("warnings lack (once) %q:\n%s", want, all)
		}
	}
}

// A TOML overlay entry that names other GPUs for a catalog type keeps the
// catalog's GPUs, as a vms.csv row does, so the type's embedded prices in
// the regions the entry does not list cannot read as another GPU's
// (issue 29: gpu = "b200" for lambda's gpu_1x_a10 ranked its A10 prices
// in 16 regions as B200s). The entry's price is still taken, with one
// warning.
func TestTOMLOverlayKeepsCatalogGPUs(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	p := filepath.Join(dir, "gpu.toml")
	const overlay = `schema_version = 1

[[instance]]
provider = "lambda"
type = "gpu_1x_a10"
gpu = "b200"
gpu_count = 2
vcpus = 30
memory_gib = 200
source = "test overlay: another GPU for a catalog type"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 1.10 }]
`
	if err := os.WriteFile(p, []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	base, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	before, _ := instanceOf(base, "lambda", "gpu_1x_a10")
	c, warnings, err := LoadWith([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	a10, _ := instanceOf(c, "lambda", "gpu_1x_a10")
	if a10.GPU != "a10" || a10.GPUCount != 1 {
		t.Errorf("gpu_1x_a10: %d × %s, want the catalog's 1 × a10", a10.GPUCount, a10.GPU)
	}
	if !slices.ContainsFunc(a10.Prices, func(p model.RegionPrice) bool { return p.Region == "us-east-1" && p.OnDemandUSD == 1.10 }) {
		t.Errorf("gpu_1x_a10 prices %+v lack the overlay's $1.10 in us-east-1", a10.Prices)
	}
	if len(a10.Prices) < len(before.Prices) {
		t.Errorf("gpu_1x_a10: %d regions, want the catalog's %d kept", len(a10.Prices), len(before.Prices))
	}
	const want = "catalog " // then the file, then:
	const shape = ": GPUs differ from the catalog's sourced entries (file ≠ catalog) for 1 type: lambda/gpu_1x_a10 (2 × b200 ≠ 1 × a10); the catalog's are kept, the prices taken from the file"
	all := strings.Join(model.Strings(warnings), "\n")
	if strings.Count(all, want+p+shape) != 1 || strings.Count(all, "GPUs differ") != 1 {
		t.Errorf("warnings lack (once) %q:\n%s", want+p+shape, all)
	}
}

// A complete TOML overlay entry for a type the catalog has as retired
// keeps it retired, with the warning a vms.csv row gets: the retirement
// is sourced and an entry that does not mention it does not revive the
// type (issue 29: a full entry for a Cudo type ranked it again). An entry
// that gives its own `retired` date is taken as it is.
func TestTOMLOverlayKeepsRetirement(t *testing.T) {
	const entry = `schema_version = 1

[[instance]]
provider = "cudo"
type = "ice-lake-a40-compute_1x12v24gb"
gpu = "a40"
gpu_count = 1
vcpus = 12
memory_gib = 24
source = "test overlay: a full entry for a retired type"
as_of = 2026-12-01
prices = [{ region = "se-stockholm-1", on_demand = 0.9 }]
`
	const kept = ": prices for 1 type the catalog has as retired (cudo/ice-lake-a40-compute_1x12v24gb); they stay retired (gpuplan catalog instances --all lists them)"
	for _, tc := range []struct {
		name, extra, retired, source string
		warned                       bool
	}{
		{"silent", "", "2026-03-31", "Cudo Compute: 'The public, on-demand CUDO Compute platform was officially shut down", true},
		{"own date", "retired = 2026-04-01\nretired_source = \"test: shut down\"\n", "2026-04-01", "test: shut down", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", dir)
			t.Setenv("XDG_DATA_HOME", dir)
			p := filepath.Join(dir, "cudo.toml")
			if err := os.WriteFile(p, []byte(entry+tc.extra), 0o644); err != nil {
				t.Fatal(err)
			}
			c, warnings, err := LoadWith([]string{p})
			if err != nil {
				t.Fatal(err)
			}
			in, _ := instanceOf(c, "cudo", "ice-lake-a40-compute_1x12v24gb")
			if in.Retired != tc.retired || !strings.HasPrefix(in.RetiredSource, tc.source) || in.Offered() {
				t.Errorf("retired %q (%q), offered %v; want %q (%q…), not offered", in.Retired, in.RetiredSource, in.Offered(), tc.retired, tc.source)
			}
			all := strings.Join(model.Strings(warnings), "\n")
			if got := strings.Count(all, "catalog "+p+kept); got != btoi(tc.warned) {
				t.Errorf("warning %q given %d times, want %d:\n%s", "catalog "+p+kept, got, btoi(tc.warned), all)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A file that cannot be read stops the load with one line naming it and
// the way out, which depends on where it came from (issue 29: a broken
// catalog.d file stopped every command and said only what was wrong).
func TestOverlayErrorSaysHowToGoOn(t *testing.T) {
	const broken = "schema_version = 1\n[[instance]\n"
	const syntax = ":3: expected end of table array name delimiter ']', but got '\\n' instead"
	for _, tc := range []struct{ name, where, want string }{
		{"catalog.d", "config", "; fix the file, or move it out of CONFIG/gpuplan/catalog.d"},
		{"catalog update's", "data", "; run gpuplan catalog update again to replace the file, or delete it"},
		{"--catalog", "given", "; fix the file, or leave it out of --catalog"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			config, dataDir, given := t.TempDir(), t.TempDir(), t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", config)
			t.Setenv("XDG_DATA_HOME", dataDir)
			dir := map[string]string{"config": filepath.Join(config, "gpuplan", "catalog.d"), "data": filepath.Join(dataDir, "gpuplan", "catalog.d"), "given": given}[tc.where]
			os.MkdirAll(dir, 0o755)
			p := filepath.Join(dir, "bad.toml")
			if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
				t.Fatal(err)
			}
			var paths []string
			if tc.where == "given" {
				paths = []string{p}
			}
			_, _, err := LoadWith(paths)
			want := p + syntax + strings.ReplaceAll(tc.want, "CONFIG", config)
			if err == nil || err.Error() != want {
				t.Errorf("error %v,\nwant %s", err, want)
			}
		})
	}
}
