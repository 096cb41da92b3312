package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// runCLIReads is runCLI with the real config.json and safetensors readers,
// recording every path they are asked to read.
func runCLIReads(t *testing.T, args ...string) (code int, stdout, stderr string, read []string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	rd := hf.Readers()
	hfc, st := rd.HFConfig, rd.Safetensors
	rd.HFConfig = func(path string, task model.Task) (model.Architecture, model.Precision, []model.Message, error) {
		read = append(read, path)
		return hfc(path, task)
	}
	rd.Safetensors = func(path string, a model.Architecture) (model.Architecture, []model.Message, error) {
		read = append(read, path)
		return st(path, a)
	}
	var out, errb bytes.Buffer
	code = Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith, Readers: rd,
		RunTUI: func(context.Context, *model.Catalog, tui.Options) error {
			t.Error("RunTUI called without a terminal")
			return nil
		}})
	return code, out.String(), errb.String(), read
}

// A phase's answers cannot reach a file outside the plan's folder through
// a link, a linked folder or a dangling link, in gpuplan plan (its
// savings and pinned serving re-read the answers) as in estimate --phase:
// exit 2, one line, the same line, and no file read (attack round 10:
// plan read hf_config = "sub/dirlink/secret/config.json" and priced it),
// and in the configurator, whose plan page opens any phase later.
// A link that stays in the folder is read, which shows the readers are
// wired.
func TestPlanPhaseFilesThroughLinks(t *testing.T) {
	root := t.TempDir()
	planDir, elsewhere := filepath.Join(root, "plan"), filepath.Join(root, "elsewhere")
	for _, d := range []string{filepath.Join(planDir, "sub"), filepath.Join(elsewhere, "secret")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := os.ReadFile("testdata/llama-3.1-8b-awq/config.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(elsewhere, "secret", "config.json"), filepath.Join(planDir, "config.json")} {
		if err := os.WriteFile(f, cfg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"sub/dirlink":  elsewhere,
		"sub/filelink": filepath.Join(elsewhere, "secret", "config.json"),
		"sub/dangling": filepath.Join(elsewhere, "nothing.json"),
		"sub/inlink":   filepath.Join(planDir, "config.json"),
	} {
		if err := os.Symlink(to, filepath.Join(planDir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	planFile := filepath.Join(planDir, "plan.toml")
	phase := "schema_version = 1\n[[phase]]\nname = \"p\"\nprovider = \"aws\"\ninstance = \"g6.xlarge\"\nregion = \"us-east-1\"\npricing = \"on-demand\"\ninstances = 1\nusd_per_hour = 0.8048\njob_hours = 5.0\n"
	head := phase + "[phase.answers]\ntask = \"qlora\"\ndataset_tokens = \"10M\"\n"
	// The same through the configuration file a phase names (hf_config
	// relative to that file's folder). safetensors is a flag only (no
	// configuration or answers key), so a plan cannot name one.
	viaConfig := func(hfConfig string) string { return "CONFIG " + hfConfig }
	writeConfig := func(hfConfig string) {
		c := "schema_version = 1\n[workload]\ntask = \"qlora\"\ndataset_tokens = 10000000\nhf_config = \"" + hfConfig + "\"\n"
		if err := os.WriteFile(filepath.Join(planDir, "c.toml"), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const outside = " is outside the plan's folder; put the file beside the plan (or in a folder under it) and give its relative path\n"
	for _, tt := range []struct{ name, answers, want string }{
		{"hf_config in a linked folder", `hf_config = "sub/dirlink/secret/config.json"`, `phase "p" hf_config sub/dirlink/secret/config.json` + outside},
		{"hf_config a linked file", `hf_config = "sub/filelink"`, `phase "p" hf_config sub/filelink` + outside},
		{"hf_config missing in a linked folder", `hf_config = "sub/dirlink/nothing.json"`, `phase "p" hf_config sub/dirlink/nothing.json` + outside},
		{"hf_config a dangling link", `hf_config = "sub/dangling"`, `phase "p" hf_config sub/dangling` + outside},
		{"config's hf_config in a linked folder", viaConfig("sub/dirlink/secret/config.json"), `phase "p" hf_config sub/dirlink/secret/config.json` + outside},
		{"config's hf_config a linked file", viaConfig("sub/filelink"), `phase "p" hf_config sub/filelink` + outside},
		{"hf_config missing", `hf_config = "missing/config.json"`, `phase "p" hf_config missing/config.json: no such file or directory; give the path of a file in the plan's folder, relative to it` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := head + tt.answers + "\n"
			if hf, ok := strings.CutPrefix(tt.answers, "CONFIG "); ok {
				writeConfig(hf)
				text = phase + "config = \"c.toml\"\n"
			}
			if err := os.WriteFile(planFile, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			want := "gpuplan: " + planFile + ": " + tt.want
			for _, args := range [][]string{{"plan", planFile}, {"plan", planFile, "--json"}, {"plan", planFile, "--no-savings"},
				{"estimate", "--config", planFile, "--phase", "p"}, {"recommend", "--config", planFile, "--phase", "p"},
				{"--config", planFile}, {"--config", planFile, "--phase", "p"}} { // the configurator, before its terminal
				code, out, errOut, read := runCLIReads(t, args...)
				if code != 2 || out != "" || errOut != want || len(read) > 0 {
					t.Errorf("%v: exit %d, stdout %q, stderr %q, read %q\nwant exit 2, stderr %q, nothing read", args, code, out, errOut, read, want)
				}
			}
		})
	}
	t.Run("a link in the folder is read", func(t *testing.T) {
		if err := os.WriteFile(planFile, []byte(head+"hf_config = \"sub/inlink\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut, read := runCLIReads(t, "plan", planFile)
		if code != 0 || len(read) == 0 || read[0] != filepath.Join(planDir, "sub", "inlink") {
			t.Errorf("exit %d, stderr %q, read %q; want exit 0 and %s read", code, errOut, read, filepath.Join(planDir, "sub", "inlink"))
		}
	})
}

// A 5,000-character phase name is refused in one line that does not
// repeat it (attack round 10: it was accepted and wrecked the table).
func TestPlanLongPhaseName(t *testing.T) {
	path := writeFile(t, "plan.toml", "schema_version = 1\n[[phase]]\nname = \""+strings.Repeat("x", 5000)+"\"\nusd_per_hour = 1.0\njob_hours = 5.0\n")
	want := "gpuplan: " + path + ": phase[0].name: 5000 characters long; a phase's name has at most 64, such as fine-tune or serve\n"
	for _, args := range [][]string{{"plan", path}, {"plan", path, "--json"}, {"estimate", "--config", path, "--phase", "x"}} {
		if code, out, errOut := runCLI(t, args...); code != 2 || out != "" || errOut != want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, out, errOut, want)
		}
	}
}

// A job phase's job_hours far outside the estimate's 90% range on its
// offer (below half the fast end, above twice the slow end:
// plan.CheckJobHours) is warned of, as a price the catalog disagrees with
// is, on stderr and in plan --json's warnings, in full (attack round 10:
// job_hours = 0.001 for a job of about 21 h passed unflagged). The
// estimate's own hours, and hours inside the slack, are not.
func TestPlanJobHoursWarning(t *testing.T) {
	src, err := os.ReadFile("testdata/plan-answers.toml")
	if err != nil || !strings.Contains(string(src), "job_hours = 23.972\n") {
		t.Fatalf("testdata/plan-answers.toml: %v, or its job_hours changed", err)
	}
	code, out, errOut := runCLI(t, "estimate", "--config", "testdata/plan-answers.toml", "--phase", "fine-tune", "--json")
	var est struct {
		Time struct {
			Hours float64 `json:"hours"`
			Band  struct {
				Low  float64 `json:"low"`
				High float64 `json:"high"`
			} `json:"band"`
		} `json:"time"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &est) != nil || est.Time.Band.Low <= 0 {
		t.Fatalf("estimate --phase fine-tune: exit %d, %s", code, errOut)
	}
	for _, tt := range []struct {
		hours string
		warn  bool
	}{{"0.001", true}, {"23.972", false}, {fmt.Sprint(est.Time.Band.Low / 2 * 1.01), false}, {fmt.Sprint(est.Time.Band.High * 2 * 1.01), true}} {
		path := writeFile(t, "plan.toml", strings.Replace(string(src), "job_hours = 23.972\n", "job_hours = "+tt.hours+"\n", 1))
		h, _ := strconv.ParseFloat(tt.hours, 64)
		want := fmt.Sprintf(`phase "fine-tune": job_hours = %g, but the estimate on gcp g2-standard-4 is %.3g h (90%% range %.3g–%.3g h): the plan prices the phase on its own hours; check job_hours (gpuplan estimate --config PLAN --phase NAME times it)`,
			h, est.Time.Hours, est.Time.Band.Low, est.Time.Band.High)
		code, out, errOut := runCLI(t, "plan", path, "--json", "--no-savings")
		var j struct {
			Warnings []string `json:"warnings"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j.Warnings == nil {
			t.Fatalf("job_hours = %s: exit %d, stdout %s, stderr %s", tt.hours, code, out, errOut)
		}
		// The JSON carries every warning stderr prints, in order.
		var lines []string
		for l := range strings.Lines(errOut) {
			if s, ok := strings.CutPrefix(strings.TrimSuffix(l, "\n"), "gpuplan: warning: "); ok {
				lines = append(lines, s)
			}
		}
		if !slices.Equal(lines, j.Warnings) {
			t.Errorf("job_hours = %s: stderr warnings %q, JSON warnings %q", tt.hours, lines, j.Warnings)
		}
		if got := slices.Contains(j.Warnings, want); got != tt.warn {
			t.Errorf("job_hours = %s: warnings %q; want %q: %v", tt.hours, j.Warnings, want, tt.warn)
		}
		for _, w := range j.Warnings {
			if strings.Contains(w, "job_hours =") && w != want {
				t.Errorf("job_hours = %s: warning %q; want %q", tt.hours, w, want)
			}
		}
	}
}

// The directory form of hf_config opens the folder's config.json; that
// file is held to the plan's folder too, links resolved, in every command
// that reads a phase (attack round 11: hf_config = "h", a real folder in
// the plan's whose config.json linked to a file elsewhere, was read by
// estimate --phase, plan, a phase's config file and the configurator).
// Each form: the folder, the folder with a slash, a folder linked inside
// the plan's folder, and through a phase's config = "c.toml"; exit 2, the
// same line everywhere, nothing read.
func TestPlanPhaseHFConfigFolderLinks(t *testing.T) {
	root := t.TempDir()
	planDir, elsewhere := filepath.Join(root, "plan"), filepath.Join(root, "elsewhere")
	for _, d := range []string{filepath.Join(planDir, "h"), filepath.Join(planDir, "ok"), elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := os.ReadFile("testdata/llama-3.1-8b-awq/config.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(elsewhere, "config.json"), filepath.Join(planDir, "ok", "config.json")} {
		if err := os.WriteFile(f, cfg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"h/config.json": filepath.Join(elsewhere, "config.json"),
		"hl":            filepath.Join(planDir, "h"),
		"okl":           filepath.Join(planDir, "ok"),
	} {
		if err := os.Symlink(to, filepath.Join(planDir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	planFile := filepath.Join(planDir, "plan.toml")
	phase := "schema_version = 1\n[[phase]]\nname = \"p\"\nprovider = \"aws\"\ninstance = \"g6.xlarge\"\nregion = \"us-east-1\"\npricing = \"on-demand\"\ninstances = 1\nusd_per_hour = 0.8048\njob_hours = 5.0\n"
	const tail = ", a link to a file outside the plan's folder; put the file itself beside the plan (or in a folder under it)\n"
	for _, tt := range []struct{ name, hf, opens string }{
		{"the folder", "h", "h/config.json"},
		{"the folder with a slash", "h/", "h/config.json"},
		{"a linked folder", "hl", "hl/config.json"},
	} {
		for _, via := range []string{"answers", "config"} {
			t.Run(tt.name+" through "+via, func(t *testing.T) {
				text := phase + "[phase.answers]\ntask = \"qlora\"\ndataset_tokens = \"10M\"\nhf_config = \"" + tt.hf + "\"\n"
				if via == "config" {
					c := "schema_version = 1\n[workload]\ntask = \"qlora\"\ndataset_tokens = 10000000\nhf_config = \"" + tt.hf + "\"\n"
					if err := os.WriteFile(filepath.Join(planDir, "c.toml"), []byte(c), 0o644); err != nil {
						t.Fatal(err)
					}
					text = phase + "config = \"c.toml\"\n"
				}
				if err := os.WriteFile(planFile, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				want := "gpuplan: " + planFile + ": phase \"p\" hf_config " + tt.hf + " opens " + tt.opens + tail
				for _, args := range [][]string{{"plan", planFile}, {"plan", planFile, "--json"}, {"plan", planFile, "--no-savings"},
					{"estimate", "--config", planFile, "--phase", "p"}, {"estimate", "--config", planFile, "--phase", "p", "--gpu", "l4"},
					{"recommend", "--config", planFile, "--phase", "p"},
					{"--config", planFile}, {"--config", planFile, "--phase", "p"}} { // the configurator, before its terminal
					code, out, errOut, read := runCLIReads(t, args...)
					if code != 2 || out != "" || errOut != want || len(read) > 0 {
						t.Errorf("%v: exit %d, stdout %q, stderr %q, read %q\nwant exit 2, stderr %q, nothing read", args, code, out, errOut, read, want)
					}
				}
			})
		}
	}
	// A folder (or a linked folder) in the plan's folder whose config.json
	// is a plain file there is read: the check is not a blanket refusal.
	for _, hf := range []string{"ok", "okl/"} {
		t.Run("in the folder "+hf, func(t *testing.T) {
			if err := os.WriteFile(planFile, []byte(phase+"[phase.answers]\ntask = \"qlora\"\ndataset_tokens = \"10M\"\nhf_config = \""+hf+"\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errOut, read := runCLIReads(t, "estimate", "--config", planFile, "--phase", "p")
			if code != 0 || len(read) == 0 {
				t.Errorf("exit %d, stderr %q, read %q; want exit 0 and the config read", code, errOut, read)
			}
		})
	}
}

// Every job phase is checked on its own offer as rented (attack round
// 11): 4× gpu_8x_b200_sxm6 with job_hours = 0.001 is compared with the
// estimate on its 32 GPUs (estimate --phase's: lambda's type names
// neither a network figure nor a fabric, so its nodes are timed at the
// assumed 10 Gbps, model.NoFabricNetwork, as recommend times them); answers that say 64 GPUs
// on one GH200 are said, and estimated on the one; a job that does not
// fit its offer is marked ✗ in the table and --json's targets, as a
// serving phase that misses its targets is, and warned of on stderr and
// in --json's warnings. Full texts; the GiB are estimate --config F
// --phase train --gpu gh200's (245.47 GiB for 405B QLoRA, 153.1 for 8B
// full fine-tuning on one GPU) against the GH200's 90.8 GiB usable.
func TestPlanJobPhaseOnItsOffer(t *testing.T) {
	head := "schema_version = 1\nname = \"p\"\n[[phase]]\nname = \"train\"\nprovider = \"lambda\"\nregion = \"us-east-1\"\n"
	multi := writeFile(t, "mn.toml", head+"instance = \"gpu_8x_b200_sxm6\"\ninstances = 4\nusd_per_hour = 214.08\njob_hours = 0.001\n[phase.answers]\nmodel = \"llama-3.1-70b\"\ntask = \"finetune\"\ndataset_tokens = \"10B\"\ngpus = \"32\"\nstrategy = \"fsdp\"\ncheckpointing = \"true\"\nsearch.allow_multi_node = \"true\"\n")
	gpus := writeFile(t, "gm.toml", head+"instance = \"gpu_1x_gh200\"\ninstances = 1\nusd_per_hour = 2.29\njob_hours = 0.001\n[phase.answers]\nmodel = \"llama-3.1-8b\"\ntask = \"finetune\"\ndataset_tokens = \"1B\"\ngpus = \"64\"\nstrategy = \"fsdp\"\ncheckpointing = \"true\"\n")
	nofit := writeFile(t, "nofit.toml", head+"instance = \"gpu_1x_gh200\"\ninstances = 1\nusd_per_hour = 2.29\njob_hours = 1\n[phase.answers]\nmodel = \"llama-3.1-405b\"\ntask = \"qlora\"\ndataset_tokens = \"1M\"\n")

	code, out, errOut := runCLI(t, "estimate", "--config", multi, "--phase", "train", "--gpu", "b200", "--json")
	var est struct {
		Time struct {
			Hours float64 `json:"hours"`
			Band  struct {
				Low  float64 `json:"low"`
				High float64 `json:"high"`
			} `json:"band"`
		} `json:"time"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &est) != nil || est.Time.Band.Low <= 0 {
		t.Fatalf("estimate --phase train: exit %d, %s", code, errOut)
	}
	const fits = "; the plan prices hours it cannot run: pick an offer that fits (gpuplan recommend --config PLAN --phase NAME)"
	// Pure bf16 alone fits at the estimate only (77.4 GiB, borderline);
	// with 8-bit AdamW across its range, which the fit advice lists first.
	const pureBF16 = "these changes together fit it there, at 60.3 GiB per GPU: combine 8-bit AdamW + pure bf16 on bf16 hardware (--optimizer adamw-8bit --precision bf16)"
	for _, tt := range []struct {
		path, target string
		want         []string
	}{
		{multi, "", []string{fmt.Sprintf(`phase "train": job_hours = 0.001, but the estimate on lambda gpu_8x_b200_sxm6 ×4 is %s h (90%% range %s–%s h): the plan prices the phase on its own hours; check job_hours (gpuplan estimate --config PLAN --phase NAME times it)`,
			hoursAsPlan(est.Time.Hours), hoursAsPlan(est.Time.Band.Low), hoursAsPlan(est.Time.Band.High))}},
		// A change fits the 8B on its one GH200 (plan.Job.FixMsg), said
		// after the rest.
		{gpus, "does not fit its pinned offer: needs 153.1 GiB per GPU, has 90.8 GiB usable; " + pureBF16, []string{
			`phase "train": the answers say 64 GPUs, but its offer lambda gpu_1x_gh200 has 1; the phase is estimated on the offer's 1 GPU (set gpus = "1" in its answers)`,
			`phase "train": the job does not fit its offer lambda gpu_1x_gh200 (needs 153.1 GiB per GPU, has 90.8 GiB usable)` + fits + "; " + pureBF16}},
		{nofit, "does not fit its pinned offer: needs 245.5 GiB per GPU, has 90.8 GiB usable", []string{
			`phase "train": the job does not fit its offer lambda gpu_1x_gh200 (needs 245.5 GiB per GPU, has 90.8 GiB usable)` + fits}},
	} {
		name := filepath.Base(tt.path)
		code, out, errOut := runCLI(t, "plan", tt.path, "--json", "--no-savings")
		var j struct {
			Warnings []string `json:"warnings"`
			Phases   []struct {
				Targets string `json:"targets"`
			} `json:"phases"`
		}
		// A job that does not fit its offer: the JSON, then exit 1.
		wantCode, refused := ExitOK, ""
		if tt.target != "" {
			wantCode, refused = ExitError, `phase "train" cannot run on its pinned offer (marked ✗)`
		}
		if code != wantCode || json.Unmarshal([]byte(out), &j) != nil || len(j.Phases) != 1 {
			t.Fatalf("%s: exit %d, want %d; stdout %s, stderr %s", name, code, wantCode, out, errOut)
		}
		if !slices.Equal(j.Warnings, tt.want) || j.Phases[0].Targets != tt.target {
			t.Errorf("%s: warnings %q, targets %q\nwant %q, %q", name, j.Warnings, j.Phases[0].Targets, tt.want, tt.target)
		}
		code, out, errOut = runCLI(t, "plan", tt.path, "--no-savings")
		var lines []string
		for l := range strings.Lines(errOut) {
			lines = append(lines, strings.TrimPrefix(strings.TrimSuffix(l, "\n"), "gpuplan: warning: "))
		}
		if refused != "" && len(lines) > 0 && strings.Contains(lines[len(lines)-1], refused) {
			lines = lines[:len(lines)-1] // the exit line, after the warnings
		} else if refused != "" {
			t.Errorf("%s: stderr lacks %q:\n%s", name, refused, errOut)
		}
		marked := strings.Contains(out, "✗ train ") && strings.Contains(out, "✗ phase \"train\": "+tt.target+"\n")
		if code != wantCode || !slices.Equal(lines, tt.want) || marked != (tt.target != "") {
			t.Errorf("%s: exit %d, stderr %q, marked %v; want %q, marked %v\n%s", name, code, lines, marked, tt.want, tt.target != "", out)
		}
	}
}

// confinePaths holds a safetensors folder's files, and an index's
// shards, to the plan's folder as it holds hf_config's config.json (no
// plan key names safetensors today; the check is there for when one
// does): a shard linked out is refused, naming it.
func TestConfineSafetensorsFolder(t *testing.T) {
	root := t.TempDir()
	planDir, elsewhere := filepath.Join(root, "plan"), filepath.Join(root, "elsewhere")
	for _, d := range []string{filepath.Join(planDir, "st"), filepath.Join(planDir, "ok"), elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(elsewhere, "x.safetensors"), filepath.Join(planDir, "st", "model.safetensors.index.json"), filepath.Join(planDir, "ok", "model.safetensors")} {
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(elsewhere, "x.safetensors"), filepath.Join(planDir, "st", "model-00001-of-00001.safetensors")); err != nil {
		t.Fatal(err)
	}
	planFile := filepath.Join(planDir, "plan.toml")
	ph := &plan.Phase{Name: "p"}
	for _, tt := range []struct{ st, want string }{
		{"st", planFile + `: phase "p" safetensors st opens st/model-00001-of-00001.safetensors, a link to a file outside the plan's folder; put the file itself beside the plan (or in a folder under it)`},
		{"st/model.safetensors.index.json", planFile + `: phase "p" safetensors st/model.safetensors.index.json opens st/model-00001-of-00001.safetensors, a link to a file outside the plan's folder; put the file itself beside the plan (or in a folder under it)`},
		{"ok", ""},
	} {
		err := confinePaths(planFile, ph, &config.WorkloadAnswers{Safetensors: tt.st}, planDir)
		if got := fmt.Sprint(err); (err == nil) != (tt.want == "") || err != nil && got != tt.want {
			t.Errorf("safetensors %q: %v; want %q", tt.st, err, tt.want)
		}
	}
}

// hoursAsPlan is h as plan's job_hours check writes it: three
// significant figures, whole hours from 100 on (model/plan hours3).
func hoursAsPlan(h float64) string {
	switch {
	case h >= 100:
		return strconv.FormatFloat(math.Round(h), 'f', -1, 64)
	case h >= 10:
		return strconv.FormatFloat(h, 'f', 1, 64)
	}
	return strconv.FormatFloat(h, 'g', 3, 64)
}
