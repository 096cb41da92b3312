package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// New-user walk (walk51): a file written by `gpuplan export --model-id
// myorg/llama-ft --name run1 --format toml` carries an [export] table
// (the launch options export was given), which the configurator asks
// nothing about. Opened with --config and saved again from ctrl+e, the
// table was gone without a word, and `gpuplan export --config FILE`
// then loaded the catalog's model under the default name. The
// configurator carries the table unchanged through its load and save.
func TestExportTableSurvivesResave(t *testing.T) {
	cat := testCatalog(t)
	args := ""
	c, err := config.Decode([]byte(`schema_version = 1
[workload]
task = "qlora"
model = "llama-2-7b"
[export]
name = "run1"
model_id = "myorg/llama-ft"
script_args = ""
disk_gb = 300
checkpoint_write_gbps = 0.5
`))
	if err != nil {
		t.Fatal(err)
	}
	want := &config.ExportOptions{Name: "run1", ModelID: "myorg/llama-ft", ScriptArgs: &args, DiskGB: 300, CheckpointWriteGBps: 0.5}
	if !reflect.DeepEqual(c.Export, want) {
		t.Fatalf("decoded [export] = %+v, want %+v", c.Export, want)
	}
	path := filepath.Join(t.TempDir(), "t.toml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	back, err := config.Decode(b)
	if err != nil {
		t.Fatalf("the saved file does not load: %v\n%s", err, b)
	}
	if !reflect.DeepEqual(back.Export, want) {
		t.Errorf("saved [export] = %+v, want %+v:\n%s", back.Export, want, b)
	}
	// The answers hold a copy: a change to the saved configuration's
	// table does not reach the next save.
	got, err := m.a.config()
	if err != nil || got.Export == nil || got.Export.ScriptArgs == nil {
		t.Fatalf("the answers' configuration has [export] %+v (%v)", got.Export, err)
	}
	got.Export.Name, *got.Export.ScriptArgs = "other", "--x"
	if again, _ := m.a.config(); !reflect.DeepEqual(again.Export, want) {
		t.Errorf("the answers' [export] changed with a configuration made from them: %+v", again.Export)
	}
}

// The same walk: the file's top-level lang (the screens were in Chinese)
// and its [launch] dataset (export --dataset) were dropped by a save as
// well; the configurator asks about neither, so it writes both back, and
// the launch files it writes train on that dataset, as export --config
// does.
func TestLangAndDatasetSurviveResave(t *testing.T) {
	cat := testCatalog(t)
	c, err := config.Decode([]byte(`schema_version = 1
lang = "zh-CN"
[workload]
task = "qlora"
model = "llama-2-7b"
[launch]
dataset = "myorg/data"
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Lang != "zh-CN" || c.LaunchDataset != "myorg/data" {
		t.Fatalf("decoded lang %q, dataset %q", c.Lang, c.LaunchDataset)
	}
	path := filepath.Join(t.TempDir(), "t.toml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	back, err := config.Decode(b)
	if err != nil {
		t.Fatalf("the saved file does not load: %v\n%s", err, b)
	}
	if back.Lang != "zh-CN" || back.LaunchDataset != "myorg/data" {
		t.Errorf("saved lang %q, dataset %q; want zh-CN, myorg/data:\n%s", back.Lang, back.LaunchDataset, b)
	}
}

// TestExportRegionResave (walk53): [export] region, the --region a
// Lambda export pinned, is kept by a save on its own offer, whose [launch]
// then names the region as export --config does; on another offer, which
// nobody pinned, it is dropped.
func TestExportRegionResave(t *testing.T) {
	cat := testCatalog(t)
	for _, tt := range []struct {
		region string
		want   *config.ExportOptions
	}{
		{"us-east-1", &config.ExportOptions{Region: "us-east-1", Name: "run1"}},
		{"eu-elsewhere-1", &config.ExportOptions{Name: "run1"}},
	} {
		c := lambdaA100(t, "qlora", "name = \"run1\"\nregion = \""+tt.region+"\"\n")
		path := filepath.Join(t.TempDir(), "t.toml")
		m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
		m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("no file written (%v):\n%s", err, screenText(m))
		}
		back, err := config.Decode(b)
		if err != nil {
			t.Fatalf("the saved file does not load: %v\n%s", err, b)
		}
		if !reflect.DeepEqual(back.Export, tt.want) {
			t.Errorf("[export] region %q: saved [export] = %+v, want %+v:\n%s", tt.region, back.Export, tt.want, b)
		}
		// The [launch] header names the region where --region pinned it,
		// else the price's regions, as export --config writes it.
		if pinned := tt.want.Region != ""; strings.Contains(string(b), "any of 2 regions") == pinned {
			t.Errorf("[export] region %q: the [launch] header does not say the region as export --config does:\n%s", tt.region, b)
		}
		if back.Selection == nil || back.Selection.Region != "us-east-1" {
			t.Errorf("[export] region %q: saved selection %+v", tt.region, back.Selection)
		}
	}
}

// TestExportOptionsReachLaunchFiles (walk54): the dialog's SkyPilot file
// for a reopened file whose [export] pinned Lambda's us-east-1 and named
// the run said "any of 2 regions", named no region and ran under the
// default name, where gpuplan export --config FILE pins us-east-1 and
// names run1. Every format the dialog writes applies [export] as that
// command does.
func TestExportOptionsReachLaunchFiles(t *testing.T) {
	cat := testCatalog(t)
	c := lambdaA100(t, "qlora", "name = \"run1\"\nregion = \"us-east-1\"\n")
	path := filepath.Join(t.TempDir(), "sky.yaml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: filepath.Join(t.TempDir(), "t.toml")}), size(120, 40))
	m = drive(t, m, msgs(ctrlE, down, enter, replace(path), enter)...) // SkyPilot
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	s := string(b)
	if !strings.Contains(s, "region: us-east-1") || strings.Contains(s, "any of 2 regions") {
		t.Errorf("the SkyPilot file does not pin [export]'s region:\n%s", s)
	}
	if !strings.Contains(s, "name: run1") {
		t.Errorf("the SkyPilot file does not run [export]'s name:\n%s", s)
	}
}

// TestExportOptionsReachServeFiles: the serving formats of the dialog
// take the loaded file's [export] options too, as export --config's
// serving file does (walk54 review: the name, model id and pinned region
// reached the training formats only).
func TestExportOptionsReachServeFiles(t *testing.T) {
	cat := testCatalog(t)
	c := lambdaA100(t, "inference", "name = \"srv1\"\nmodel_id = \"me/llama-2-7b-tuned\"\nregion = \"us-east-1\"\n")
	path := filepath.Join(t.TempDir(), "sky.yaml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: filepath.Join(t.TempDir(), "t.toml")}), size(120, 40))
	m = drive(t, m, msgs(ctrlE, down, enter, replace(path), enter)...) // SkyServe
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	s := string(b)
	for _, want := range []string{"region: us-east-1", "me/llama-2-7b-tuned", "srv1"} {
		if !strings.Contains(s, want) {
			t.Errorf("the serving file lacks [export]'s %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "any of 2 regions") {
		t.Errorf("the serving file does not pin [export]'s region:\n%s", s)
	}
}

// lambdaA100 is a configuration of task on llama-2-7b picked on Lambda's
// gpu_1x_a100_sxm4 in us-east-1, with export as its [export] table's
// lines.
func lambdaA100(t *testing.T, task, export string) config.Config {
	t.Helper()
	c, err := config.Decode([]byte(`schema_version = 1
[workload]
task = "` + task + `"
model = "llama-2-7b"
[search]
providers = ["lambda"]
[selection]
provider = "lambda"
instance_type = "gpu_1x_a100_sxm4"
region = "us-east-1"
gpus = 1
instances = 1
pricing = "on-demand"
[export]
` + export))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
