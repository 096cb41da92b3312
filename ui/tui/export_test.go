package tui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

func TestExportFormats(t *testing.T) {
	cat := embeddedCatalog(t)
	offerFor := func(key string, w model.Workload) (*model.Offer, model.Workload) {
		a, err := cat.Model(key)
		if err != nil {
			t.Fatal(err)
		}
		w.Model = *a
		rec, err := model.Recommend(w, cat, model.Query{Providers: []string{"aws"}})
		if err != nil || len(rec.Offers) == 0 {
			t.Fatal(err, len(rec.Offers))
		}
		return &rec.Offers[0], w
	}
	// LoRA on Llama 3.1 8B runs TRL's SFT script; BERT has no installed
	// entry point, so only its TOML is written and the launch formats say
	// how to name a script.
	lora, lw := offerFor("llama-3.1-8b", model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 1024, DatasetTokens: 20e6}})
	bert, bw := offerFor("bert-large", model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 32, SeqLen: 384, DatasetSamples: 88000, Epochs: 2}})
	for _, tt := range []struct {
		format launch.Format
		name   string
		want   string
		perm   fs.FileMode
	}{
		{launch.FormatTOML, defaultExport, "[launch]", 0o644},
		{launch.FormatSkyPilot, "./gpuplan-sky.yaml", "instance_type: " + lora.Instance.Type, 0o644},
		{launch.FormatTorchrun, "./gpuplan-torchrun.sh", "-m trl.scripts.sft", 0o755},
		{launch.FormatDocker, "./gpuplan-docker.sh", "docker run --gpus all", 0o755},
		{launch.FormatK8s, "./gpuplan-k8s.yaml", "nvidia.com/gpu", 0o644},
	} {
		d := newExportDialog(defaultExport, config.Config{Workload: config.WorkloadAnswers{Settings: lw.Settings, Model: "llama-3.1-8b"}}, lora, tt.format, newTheme(), 60, nil, nil, nil)
		out, path, perm, err := d.payload()
		if err != nil || path != tt.name || perm != tt.perm || !strings.Contains(string(out), tt.want) {
			t.Errorf("%s: path %s perm %v err %v; output lacks %q", tt.format, path, perm, err, tt.want)
		}
		d = newExportDialog(defaultExport, config.Config{Workload: config.WorkloadAnswers{Settings: bw.Settings, Model: "bert-large"}}, bert, tt.format, newTheme(), 60, nil, nil, nil)
		out, _, _, err = d.payload()
		if tt.format == launch.FormatTOML {
			// One encoder call wrote it: it reads back, [launch] included.
			if c, err := config.Decode(out); err != nil || c.Workload.Model != "bert-large" || strings.Count(string(out), "schema_version") != 1 {
				t.Errorf("the exported TOML does not reload (%v):\n%s", err, out)
			}
		} else if err == nil || !strings.Contains(err.Error(), "gpuplan export --config FILE --script YOUR_SCRIPT --format "+string(tt.format)) {
			t.Errorf("%s for BERT: err %v; want the way to name a script", tt.format, err)
		}
	}
	d := newExportDialog(defaultExport, config.Config{}, nil, launch.FormatSkyPilot, newTheme(), 60, nil, nil, nil)
	if _, _, _, err := d.payload(); err == nil {
		t.Error("a launch file without an offer was accepted")
	}
}

// focusedIsName reports whether the export dialog's file name has the focus.
func focusedIsName(m app) bool {
	_, ok := m.dialog.form.GetFocusedField().(*huh.Input)
	return m.dialog != nil && ok
}

// The export dialog shows the name it will write (a launch format's own
// name follows the format), returns to the name after "no" to
// overwriting or a failed write, expands ~, and a failed export clears
// an "exported to" from before.
func TestExportDialogName(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlE, down) // SkyPilot
	if m.dialog.path != "./gpuplan-sky.yaml" || !strings.Contains(screenText(m), "> ./gpuplan-sky.yaml") {
		t.Errorf("SkyPilot picked: name %q\n%s", m.dialog.path, screenText(m))
	}
	m = drive(t, m, up) // back to TOML
	if m.dialog.path != defaultExport {
		t.Errorf("TOML picked again: name %q", m.dialog.path)
	}
	m = drive(t, m, msgs(enter, replace("~/a.toml"), enter)...)
	if _, err := os.Stat(filepath.Join(home, "a.toml")); err != nil || !strings.Contains(screenText(m), "exported to "+filepath.Join(home, "a.toml")) {
		t.Fatalf("~/a.toml not written to the home directory: %v\n%s", err, screenText(m))
	}
	m = drive(t, m, msgs(ctrlE, enter, replace("~/a.toml"), enter)...) // the same name: exists
	if m.dialog == nil || m.dialog.kind != dialogExportOverwrite {
		t.Fatalf("no overwrite question:\n%s", screenText(m))
	}
	m = drive(t, m, runes("n"))
	if !focusedIsName(m) {
		t.Errorf("after no to overwriting the focus is not on the file name")
	}
	m = drive(t, m, msgs(replace(filepath.Join(home, "missing", "b.toml")), enter)...)
	if m.dialog == nil || m.dialog.err == nil || !focusedIsName(m) {
		t.Errorf("after a failed write: dialog error %v, name focused %v", m.dialog != nil && m.dialog.err != nil, m.dialog != nil && focusedIsName(m))
	}
	if strings.Contains(screenText(m), "exported to") {
		t.Errorf("the footer still says exported after a failed export:\n%s", screenText(m))
	}
	m = drive(t, m, typed("x")...)
	if !strings.HasSuffix(m.dialog.path, "b.tomlx") {
		t.Errorf("typing after the error went to %q, not the name", m.dialog.path)
	}
}

// Launch files for an AMD GPU: the Instinct GPUs have a default ROCm
// stack (AMD's rocm/pytorch image, ROCm's devices), so the docker script
// is written as for an NVIDIA offer, with no command-line flag needed.
func TestExportAMDLaunch(t *testing.T) {
	cat := testCatalog(t)
	cat.Instances = append(cat.Instances, model.Instance{Provider: "amdcloud", Type: "mi300x.1", GPU: "mi300x", GPUCount: 1, VCPUs: 16,
		MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "us", OnDemandUSD: 0.01}}, Source: "fixture", AsOf: "2026-11-30"})
	cat.Index()
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
	m.a.Providers = []string{"amdcloud"}
	m.recompute()
	if b := m.res.best(); b == nil || b.GPU.Vendor != "amd" {
		t.Fatalf("best offer %+v, want the AMD one (err %v)", b, m.res.recErr)
	}
	path := filepath.Join(t.TempDir(), "amd.sh")
	m = drive(t, m, append([]tea.Msg{ctrlE, down, down, down, enter}, msgs(replace(path), enter)...)...) // docker, the name
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "rocm/pytorch:") || !strings.Contains(string(b), "--device=/dev/kfd") || strings.Contains(string(b), "--gpus") {
		t.Errorf("AMD docker export: %v\n%s\n%s", err, b, screenText(m))
	}
}

// Trap: once every question was answered, any later message to the form
// (a cursor blink after an export) set the footer back to "every
// question answered", hiding "exported to".
func TestExportedStaysSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.toml")
	m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, bertAnswers()...)...)
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	m = drive(t, m, refreshMsg{})
	if !strings.Contains(screenText(m), "exported to "+path) {
		t.Errorf("a later message hid the export's status:\n%s", screenText(m))
	}
}

// Trap: a zero price written for "unknown" and read back as "free".
func TestExportWritesNoZeroPrice(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m.a.Dataset = "" // no dataset: no job time or cost
	m.recompute()
	b, err := exportConfig(m.a, m.res, nil, "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Contains(s, "job_cost_usd") || regexp.MustCompile(`= 0(\.0*)?\s`).MatchString(s) {
		t.Errorf("unknown values written as zero:\n%s", s)
	}
	if !strings.Contains(s, `catalog_as_of = "2026-11-30"`) {
		t.Errorf("catalog date not a quoted string:\n%s", s)
	}
	if _, err := config.Decode(b); err != nil {
		t.Errorf("export does not load: %v", err)
	}
}

// No lost work: an export into a missing directory or one that cannot be
// written shows why in the dialog, and every answer stays as it was.
func TestExportFailureKeepsAnswers(t *testing.T) {
	for _, path := range []string{filepath.Join(t.TempDir(), "missing", "gpuplan.toml"), "/proc/gpuplan.toml"} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
		m = drive(t, m, msgs(runes("?"), runes("?"))...) // touch nothing of the answers
		before := m.a.key()
		m = drive(t, m, ctrlE)
		if m.dialog == nil {
			t.Fatal("ctrl+e opened no dialog")
		}
		m = drive(t, m, msgs(enter, replace(path), enter)...) // TOML, then the path
		if m.dialog == nil || m.dialog.err == nil {
			t.Fatalf("%s: no error shown in the dialog", path)
		}
		if m.a.key() != before {
			t.Errorf("%s: the answers changed after a failed export", path)
		}
		if !strings.Contains(screenText(m), "✗") {
			t.Errorf("%s: the error is not on screen:\n%s", path, screenText(m))
		}
	}
}

// TestExportedStays (trial 15c item 8, TestEndToEnd on a loaded machine:
// the file written, no "exported to" on screen). A message reaching the
// export dialog after it was answered and before the write came back (a
// cursor blink, any key) exported again: the second write found the
// file and its fileExistsMsg, after the first's exportedMsg, cleared the
// footer. Here the write is held back while such messages arrive: one
// write, and the footer says where it went.
func TestExportedStays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.toml")
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlE, enter)
	m = drive(t, m, msgs(replace(path))...)
	var held []tea.Msg // the writes' results, delivered at the end
	writes := 0
	// deliver sends msg to m and follows its commands as drive does, but
	// keeps the messages a write returns.
	var deliver func(msg tea.Msg)
	deliver = func(msg tea.Msg) {
		next, cmd := m.Update(msg)
		m = next.(app)
		queue := []tea.Cmd{cmd}
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			if c == nil || blinks(c) {
				continue
			}
			switch got := run(c).(type) {
			case nil, tea.QuitMsg:
			case tea.BatchMsg:
				queue = append(queue, got...)
			case exportedMsg, fileExistsMsg, exportErrMsg:
				writes++
				held = append(held, got)
			default:
				next, cmd := m.Update(got)
				m = next.(app)
				queue = append(queue, cmd)
			}
		}
	}
	deliver(enter)
	if writes != 1 || m.dialog == nil {
		t.Fatalf("enter on the name: %d writes, dialog open %v; want one write under way", writes, m.dialog != nil)
	}
	deliver(refreshMsg{}) // as a blink of the name's cursor would
	deliver(runes("x"))
	for len(held) > 0 {
		msg := held[0]
		held = held[1:]
		deliver(msg)
	}
	if writes != 1 {
		t.Errorf("%d writes, want 1: messages after the answer exported again", writes)
	}
	if text := screenText(m); !strings.Contains(text, "exported to "+path) || m.dialog != nil {
		t.Errorf("after the write: dialog open %v, footer without \"exported to %s\":\n%s", m.dialog != nil, path, text)
	}
}

// TestExportSpotRateReachesPlan: a spot training file written from the
// configurator saves every τ of the offer's own interruption rate
// (Options.SpotRate), as gpuplan export's does, not the fallback's
// (fix35c's open point: the dialog passed no rate).
func TestExportSpotRateReachesPlan(t *testing.T) {
	cat := embeddedCatalog(t)
	a, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 1024, DatasetTokens: 2e9}, Model: *a}
	rec, err := model.Recommend(w, cat, model.Query{Providers: []string{"aws"}, Pricing: model.Spot})
	if err != nil || len(rec.Offers) == 0 {
		t.Fatal(err, len(rec.Offers))
	}
	o := &rec.Offers[0]
	low := decide.InterruptionRate{PerMonth: 0.025, LowPerMonth: 0, HighPerMonth: 0.05, Bucket: "<5%"}
	want, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{SpotRate: &low})
	if err != nil {
		t.Fatal(err)
	}
	fallback, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want.SaveSteps == fallback.SaveSteps {
		t.Fatalf("the <5%% rate and the fallback give one interval (%d steps): the test tells nothing", want.SaveSteps)
	}
	d := newExportDialog(defaultExport, config.Config{Workload: config.WorkloadAnswers{Settings: w.Settings, Model: "llama-3.1-8b"}}, o, launch.FormatTorchrun, newTheme(), 60, nil, nil, nil)
	d.spotRate = func(provider, region, typ string) decide.InterruptionRate {
		if provider != o.Instance.Provider || region != o.Region || typ != o.Instance.Type {
			t.Errorf("rate asked for %s %s %s, not the offer's", provider, region, typ)
		}
		return low
	}
	out, _, _, err := d.payload()
	if err != nil {
		t.Fatal(err)
	}
	if flag := fmt.Sprintf("--save_steps %d ", want.SaveSteps); !strings.Contains(string(out), flag) {
		t.Errorf("the file lacks %q (the fallback's is %d steps):\n%s", flag, fallback.SaveSteps, out)
	}
}

// TestExportFormatsFor: the dialog lists what each export writes, in the
// user's language: a plan its TOML alone (a launch format was listed,
// then refused); serving answers the serving files (a Deployment and a
// Service, not a Job); a training offer's Kubernetes file is a Job, a
// TrainJob across nodes (the configurator writes no PyTorchJob).
func TestExportFormatsFor(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	for _, tc := range []struct {
		name          string
		serving, plan bool
		lang          *i18n.Printer
		want          []string
		not           []string
	}{
		{"training", false, false, nil, []string{"gpuplan TOML (reopen with --config)", "torchrun script", "Kubernetes Job (a TrainJob across nodes)", "probe script: measures the plan on the GPU"}, []string{"PyTorchJob", "Deployment", "vllm"}},
		{"serving", true, false, nil, []string{"SkyServe service YAML", "vllm serve script", "docker run script (vLLM image)", "Kubernetes Deployment and Service", "probe script: measures vLLM on the GPU"}, []string{"torchrun", "TrainJob", "task YAML"}},
		{"plan", false, true, nil, []string{"gpuplan TOML (reopen with --config)"}, []string{"SkyPilot", "torchrun", "Kubernetes", "probe", "docker"}},
		{"serving zh", true, false, zh, []string{"SkyServe 服务 YAML", "Kubernetes Deployment 与 Service", "探测脚本：在 GPU 上实测 vLLM"}, []string{"service YAML", "and Service"}},
	} {
		opts := formatOptions(tc.lang, tc.serving, tc.plan)
		var labels []string
		for _, o := range opts {
			labels = append(labels, o.Key)
		}
		all := strings.Join(labels, "\n")
		for _, w := range tc.want {
			if !slices.Contains(labels, w) {
				t.Errorf("%s: no choice %q in\n%s", tc.name, w, all)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(all, n) {
				t.Errorf("%s: %q listed:\n%s", tc.name, n, all)
			}
		}
		if opts[0].Value != launch.FormatTOML {
			t.Errorf("%s: the first choice is %q, want the TOML", tc.name, opts[0].Value)
		}
		if !tc.plan && len(opts) != len(exportFormats) {
			t.Errorf("%s: %d choices, want %d (one per format, as gpuplan export)", tc.name, len(opts), len(exportFormats))
		}
	}
}

// TestExportErrorGoesWithItsName (walk35b): a write's error stays while
// the name it was about does; edited, the name drops it, so an empty name
// shows the form's own error alone, not under the old one.
func TestExportErrorGoesWithItsName(t *testing.T) {
	dir := t.TempDir()
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, ctrlE)
	m = drive(t, m, msgs(enter, replace(dir), enter)...) // TOML, then a directory as the name
	if m.dialog == nil || m.dialog.err == nil {
		t.Fatalf("writing to the directory %s: no error in the dialog:\n%s", dir, screenText(m))
	}
	old := errTextIn(m.lang, m.dialog.err)
	m = drive(t, m, msgs(replace(""), enter)...) // the name emptied, then submitted
	if m.dialog == nil {
		t.Fatalf("an empty name closed the dialog:\n%s", screenText(m))
	}
	screen := screenText(m)
	if m.dialog.err != nil || strings.Contains(screen, firstWords(old)) {
		t.Errorf("the old error (%q) stays after the name changed:\n%s", old, screen)
	}
	if !strings.Contains(screen, "give a file name") {
		t.Errorf("no error for the empty name:\n%s", screen)
	}
}

// firstWords is the start of an error as a screen shows it before it
// wraps.
func firstWords(s string) string {
	if len(s) > 24 {
		return s[:24]
	}
	return s
}
