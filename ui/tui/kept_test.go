package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// keptFile is what gpuplan export --instance aws/g5.2xlarge --name abc
// --model-id x/y --dataset foo/bar wrote (fix52c), but for [estimate]
// and [launch], which are recomputed on load (the dataset aside).
const keptFile = `schema_version = 1
[workload]
framework = "pytorch"
task = "qlora"
model = "llama-3.1-8b"
precision = "amp-bf16"
optimizer = "adamw"
batch_size = 2
seq_len = 1024
grad_accum = 1
checkpointing = true
flash_attention = true
lora_rank = 64
lora_targets = ["q", "k", "v", "o", "gate", "up", "down"]
epochs = 1.0
gpus = 1
strategy = "single"
tp = 1
quant_type = "fp4"
double_quant = false
[search]
providers = ["aws"]
regions = ["us-east-1"]
pricing = "on-demand"
allow_multi_node = false
allow_precision_fallback = false
[selection]
provider = "aws"
instance_type = "g5.2xlarge"
region = "us-east-1"
gpu = "a10g"
gpus = 1
instances = 1
pricing = "on-demand"
price_per_hour_usd = 1.212
[export]
name = "abc"
model_id = "x/y"
[launch]
dataset = "foo/bar"
`

// resaveKept opens text in the configurator, saves it with ctrl+e from
// the questions, and returns the app, the saved file's configuration and
// its [launch] table as written.
func resaveKept(t *testing.T, cat *model.Catalog, text string) (app, config.Config, map[string]any) {
	t.Helper()
	c, err := config.Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "cfg1.toml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	saved := filepath.Join(dir, "saved.toml")
	m = drive(t, m, msgs(ctrlE, enter, replace(saved), enter)...)
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	back, err := config.Decode(b)
	if err != nil {
		t.Fatalf("the saved file does not load: %v\n%s", err, b)
	}
	var raw struct{ Launch map[string]any }
	if _, err := toml.Decode(string(b), &raw); err != nil {
		t.Fatal(err)
	}
	return m, back, raw.Launch
}

// A file pinned to aws g5.2xlarge, which the ranking leaves out (it
// keeps g5.xlarge for aws us-east-1's A10G), was said to be "no longer
// offered" and saved unchanged as a g5g.2xlarge (T4G, arm64) in
// amp-fp16, its [launch] under the default name and model id beside an
// [export] naming abc and x/y (fix52c). Saved unchanged, it keeps the
// offer, as gpuplan export --config FILE --format toml does.
func TestResaveKeepsUnrankedOffer(t *testing.T) {
	cat := embeddedCatalog(t)
	m, back, l := resaveKept(t, cat, keptFile)
	if text := screenText(m); strings.Contains(text, "no longer offered") {
		t.Errorf("the footer says the file's offer is gone:\n%s", text)
	}
	if s := back.Selection; s == nil || s.Provider != "aws" || s.InstanceType != "g5.2xlarge" || s.Region != "us-east-1" || s.GPU != "a10g" || s.GPUs != 1 {
		t.Errorf("saved [selection] %+v, want aws g5.2xlarge us-east-1, 1 × a10g", s)
	}
	if back.Workload.Precision != model.AMPBF16 {
		t.Errorf("saved precision %q, want amp-bf16", back.Workload.Precision)
	}
	if back.Export == nil || back.Export.Name != "abc" || back.Export.ModelID != "x/y" || back.LaunchDataset != "foo/bar" {
		t.Errorf("saved [export] %+v, dataset %q", back.Export, back.LaunchDataset)
	}
	for k, want := range map[string]string{"instance_type": "g5.2xlarge", "gpu": "a10g", "precision": "amp-bf16", "name": "abc", "dataset": "foo/bar"} {
		if got, _ := l[k].(string); got != want {
			t.Errorf("saved [launch] %s = %q, want %q", k, got, want)
		}
	}
	var args []string
	if a, ok := l["script_args"].([]any); ok {
		for _, x := range a {
			s, _ := x.(string)
			args = append(args, s)
		}
	}
	if i := slices.Index(args, "--model_name_or_path"); i < 0 || i+1 >= len(args) || args[i+1] != "x/y" {
		t.Errorf("saved [launch] script_args %q: want --model_name_or_path x/y", args)
	}
	if slices.Contains(args, "--fp16") {
		t.Errorf("saved [launch] script_args %q train in fp16 on an A10G", args)
	}
	// The panel shows the file's offer as picked.
	if o := m.keptOffer(); o == nil || o.Instance.Type != "g5.2xlarge" {
		t.Errorf("the offer kept is %v, want g5.2xlarge", o)
	}
	if text := screenText(m); !strings.Contains(text, "g5.2xlarge") {
		t.Errorf("the panel does not name the file's g5.2xlarge:\n%s", text)
	}
	// Another answer, then back to the file's: the offer is the file's again.
	m = toPage(t, m, "Batch and length")
	m = drive(t, m, replace("3")...)
	if m.keptOffer() != nil {
		t.Errorf("after a change of answers the file's offer is still the one chosen")
	}
	m = drive(t, m, replace("2")...)
	if o := m.keptOffer(); o == nil || o.Instance.Type != "g5.2xlarge" {
		t.Errorf("back on the file's answers the offer kept is %v, want g5.2xlarge", o)
	}
}

// The same path for the ranking's other drops: a host larger than the job
// needs (one GPU of a 4-GPU g5.12xlarge, which export --gpus 1 writes,
// beside the sized g5.xlarge). It is kept, and a file whose type the
// catalog lost, or whose region has no price, is still said to be no
// longer offered.
func TestResaveKeepsOtherDrops(t *testing.T) {
	cat := embeddedCatalog(t)
	for _, tt := range []struct {
		name, from, to string
		gone, why      string
	}{
		{name: "4-GPU host for one GPU", from: `instance_type = "g5.2xlarge"`, to: `instance_type = "g5.12xlarge"`},
		{name: "type gone", from: `instance_type = "g5.2xlarge"`, to: `instance_type = "g5.gone"`, gone: "no longer offered"},
		{name: "region gone", from: `regions = ["us-east-1"]`, to: `regions = ["us-east-1", "gone-1"]`, gone: "no longer offered"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(keptFile, tt.from, tt.to, 1)
			if tt.name == "region gone" {
				text = strings.Replace(text, `region = "us-east-1"`, `region = "gone-1"`, 1)
			}
			c, err := config.Decode([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			m := start(t, newTestApp(t, cat, Options{Config: &c}), size(120, 40))
			screen := screenText(m)
			if tt.gone != "" {
				if !strings.Contains(screen, tt.gone) || m.keptOffer() != nil {
					t.Errorf("want %q in the footer and no offer kept (%v):\n%s", tt.gone, m.keptOffer(), screen)
				}
				return
			}
			if strings.Contains(screen, "no longer offered") {
				t.Errorf("the footer says the file's offer is gone:\n%s", screen)
			}
			s := c.Selection
			if o := m.keptOffer(); o == nil || o.Instance.Type != s.InstanceType || o.Region != s.Region {
				t.Errorf("the offer kept is %v, want %s %s", o, s.InstanceType, s.Region)
			}
		})
	}
}

// A multi-node selection (export --gpus 8 --instance aws/g5.12xlarge:
// two nodes) the ranking drops for one g5.48xlarge of the same A10G.
func TestResaveKeepsMultiNode(t *testing.T) {
	cat := embeddedCatalog(t)
	text := strings.NewReplacer(`gpus = 1
strategy = "single"`, `gpus = 8
strategy = "fsdp"`, `allow_multi_node = false`, `allow_multi_node = true`, `instance_type = "g5.2xlarge"
region = "us-east-1"
gpu = "a10g"
gpus = 1
instances = 1`, `instance_type = "g5.12xlarge"
region = "us-east-1"
gpu = "a10g"
gpus = 8
instances = 2`).Replace(keptFile)
	m, back, l := resaveKept(t, cat, text)
	if screen := screenText(m); strings.Contains(screen, "no longer offered") {
		t.Errorf("the footer says the file's offer is gone:\n%s", screen)
	}
	if s := back.Selection; s == nil || s.InstanceType != "g5.12xlarge" || s.Instances != 2 || s.GPUs != 8 {
		t.Errorf("saved [selection] %+v, want 2 × g5.12xlarge, 8 GPUs", s)
	}
	if n, _ := l["nodes"].(int64); n != 2 {
		t.Errorf("saved [launch] nodes = %v, want 2", l["nodes"])
	}
}

// The footer's reason when the catalog has the offer but the job does not
// run there, in Chinese too.
func TestKeptOfferDoesNotRun(t *testing.T) {
	cat := embeddedCatalog(t)
	text := strings.NewReplacer(`instance_type = "g5.2xlarge"`, `instance_type = "g4dn.xlarge"`, `gpu = "a10g"`, `gpu = "t4"`,
		`seq_len = 1024`, `seq_len = 8192`, `batch_size = 2`, `batch_size = 16`).Replace(keptFile)
	c, err := config.Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	m := start(t, newTestApp(t, cat, Options{Config: &c}), size(120, 40))
	if screen := screenText(m); !strings.Contains(screen, "does not run its job") || strings.Contains(screen, "no longer offered") {
		t.Errorf("want the reason the offer does not run, not that it is gone:\n%s", screen)
	}
	zh := start(t, newTestApp(t, cat, Options{Config: &c, Lang: language.SimplifiedChinese}), size(120, 40))
	if screen := screenText(zh); !strings.Contains(screen, "无法运行") {
		t.Errorf("Chinese footer:\n%s", screen)
	}
}
