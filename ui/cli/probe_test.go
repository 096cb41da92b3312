package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuplan/gpuplan/data/probes"
	"github.com/gpuplan/gpuplan/model/probe"
)

// testProbes is the store main wires (data/probes), for the tests' Env:
// kept runs go under $XDG_DATA_HOME, else the test's $HOME.
func testProbes() *Probes {
	return &Probes{ReadResult: probes.ReadResult, Dir: probes.Dir, Load: probes.Load,
		Keep: func(dir string, s *probe.Suite, r *probe.Result) (string, bool, error) {
			path, err := probes.Keep(dir, s, r)
			if errors.Is(err, probes.ErrKept) {
				return path, true, nil
			}
			return path, false, err
		}}
}

// The testdata/probe results are written by hand in the probe script's
// format (model/launch/probescript/probe.py); their figures are made up.

// runProbeCLI runs the command line with kept probes under dataHome.
func runProbeCLI(t *testing.T, dataHome string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", dataHome)
	return runCLI(t, args...)
}

// TestProbeCompareGolden: probe compare of a QLoRA, a ResNet-50 and a
// serving run, as text and JSON.
func TestProbeCompareGolden(t *testing.T) {
	for _, tc := range []struct{ name, file, flag string }{
		{"qlora", "qlora-a10g.json", ""},
		{"qlora-json", "qlora-a10g.json", "--json"},
		{"resnet50", "resnet50-a10g.json", ""},
		{"serve", "serve-l40s.json", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"probe", "compare", filepath.Join("testdata", "probe", tc.file)}
			if tc.flag != "" {
				args = append(args, tc.flag)
			}
			code, out, errs := runProbeCLI(t, t.TempDir(), args...)
			if code != 0 || errs != "" {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden.RequireEqual(t, out)
		})
	}
}

// TestProbeAddExportGolden: probe add keeps the run's three cases and says
// how far this gpuplan is from each; adding it again changes nothing;
// probe export writes them in the suite's format with the run's line as
// the quote, which the suite's decoder reads.
func TestProbeAddExportGolden(t *testing.T) {
	data := t.TempDir()
	result := filepath.Join("testdata", "probe", "qlora-a10g.json")
	code, out, errs := runProbeCLI(t, data, "probe", "add", result)
	if code != 0 || errs != "" {
		t.Fatalf("add: exit %d: %s", code, errs)
	}
	t.Run("add", func(t *testing.T) { golden.RequireEqual(t, strings.ReplaceAll(out, data, "$XDG_DATA_HOME")) })
	code, out, _ = runProbeCLI(t, data, "probe", "add", result)
	if code != 0 || !strings.HasPrefix(out, "already kept in "+data) {
		t.Errorf("add again: exit %d: %s", code, out)
	}
	code, out, errs = runProbeCLI(t, data, "probe", "export")
	if code != 0 || errs != "" {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	t.Run("export", func(t *testing.T) { golden.RequireEqual(t, strings.ReplaceAll(out, data, "$XDG_DATA_HOME")) })
	var s probe.Suite
	md, err := toml.Decode(out, &s)
	if err != nil || len(md.Undecoded()) > 0 || len(s.Case) != 3 {
		t.Fatalf("export does not decode: %v %v", err, md.Undecoded())
	}
	line, _ := os.ReadFile(result)
	if s.Case[0].Quote != strings.TrimSpace(string(line)) {
		t.Errorf("the quote is not the run's line: %q", s.Case[0].Quote)
	}
	path := filepath.Join(t.TempDir(), "cases.toml")
	if code, _, errs := runProbeCLI(t, data, "probe", "export", "-o", path); code != 0 {
		t.Fatalf("export -o: %s", errs)
	}
	if code, _, errs := runProbeCLI(t, data, "probe", "export", "-o", path); code != ExitUsage || !strings.Contains(errs, "pass --force") {
		t.Errorf("export -o over a file: exit %d: %s", code, errs)
	}
	if code, _, errs := runProbeCLI(t, t.TempDir(), "probe", "export"); code != ExitUsage || !strings.Contains(errs, "no kept probes in") {
		t.Errorf("export with nothing kept: exit %d: %s", code, errs)
	}
	for _, name := range []string{"serve-l40s.json"} {
		code, _, errs := runProbeCLI(t, data, "probe", "add", filepath.Join("testdata", "probe", name))
		if code != ExitUsage || !strings.Contains(errs, "compared, not kept") {
			t.Errorf("add %s: exit %d: %s", name, code, errs)
		}
	}
}

// TestProbeHostileResult: a result file that is not the probe's line, too
// large, not a regular file or with hostile values gets one line on stderr
// naming the file and what is wrong, and exit 2; nothing is kept.
func TestProbeHostileResult(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "probe", "qlora-a10g.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	g := strings.TrimSpace(string(good))
	fifo := filepath.Join(dir, "fifo.json")
	_ = mkfifo(fifo)
	cases := []struct{ name, path, want string }{
		{"huge", file("huge.json", strings.Repeat("x", 2<<20)), "file too large"},
		{"NaN", file("nan.json", strings.Replace(g, `"step_seconds":2.92`, `"step_seconds":NaN`, 1)), "NaN and Infinity are not JSON numbers"},
		{"wrong type", file("type.json", strings.Replace(g, `"gpus":1`, `"gpus":"one"`, 1)), "plan: gpus: want a number, got string"},
		{"control characters", file("ctl.json", strings.Replace(g, `"NVIDIA A10G"`, `"NVIDIA\u001b]0;pwned\u0007 A10G"`, 1)), "device.name: control character U+001B"},
		{"not a result", file("x.json", "{}\n"), "no line starting with"},
		{"unknown GPU", file("gpu.json", strings.Replace(g, `"gpu":"a10g"`, `"gpu":"warp-drive"`, 1)), "cannot estimate the probed workload: plan.gpu"},
		{"directory", dir, "not a regular file: is a directory"},
		{"device", "/dev/zero", "not a regular file"},
		{"missing", filepath.Join(dir, "none.json"), "no such file"},
	}
	if _, err := os.Stat(fifo); err == nil {
		cases = append(cases, struct{ name, path, want string }{"FIFO", fifo, "not a regular file: is a FIFO"})
	}
	data := t.TempDir()
	for _, tc := range cases {
		for _, verb := range []string{"compare", "add"} {
			code, out, errs := runProbeCLI(t, data, "probe", verb, tc.path)
			if code != ExitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "gpuplan: ") ||
				!strings.Contains(errs, tc.want) || strings.ContainsAny(strings.TrimSuffix(errs, "\n"), "\x1b\x07\n\r") {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and one line saying %q", verb, tc.name, code, out, errs, tc.want)
			}
		}
	}
	if entries, _ := os.ReadDir(data); len(entries) != 0 {
		t.Errorf("hostile results were kept: %v", entries)
	}
	if code, _, errs := runProbeCLI(t, data, "probe", "compare"); code != ExitUsage || !strings.Contains(errs, "give one result file") {
		t.Errorf("no file: exit %d: %s", code, errs)
	}
}

// TestKeptProbeCorrectsEstimate: once a QLoRA run on an A10G is kept,
// estimate and recommend of a close workload (same GPU, decoder family,
// autocast recipe; another batch and length) print the corrected memory and
// time beside the estimate, in text and JSON, from 1 run; a distant one
// (another GPU, a CNN, a pure-bf16 recipe) is printed as before.
func TestKeptProbeCorrectsEstimate(t *testing.T) {
	data := t.TempDir()
	closeArgs := []string{"--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "2", "--seq-len", "1024", "--gpu", "a10g", "--dataset-tokens", "10M"}
	distant := [][]string{
		{"--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "2", "--seq-len", "1024", "--gpu", "l4"},
		{"--model", "resnet50", "--batch-size", "64", "--gpu", "a10g"},
		{"--model", "llama-3.1-8b", "--task", "qlora", "--precision", "bf16", "--batch-size", "2", "--seq-len", "1024", "--gpu", "a10g"},
	}
	est := func(args ...string) string {
		t.Helper()
		code, out, errs := runProbeCLI(t, data, append([]string{"estimate"}, args...)...)
		if code != 0 {
			t.Fatalf("estimate %v: exit %d: %s", args, code, errs)
		}
		return out
	}
	before := est(closeArgs...)
	var distantBefore []string
	for _, d := range distant {
		distantBefore = append(distantBefore, est(d...))
	}
	if code, _, errs := runProbeCLI(t, data, "probe", "add", filepath.Join("testdata", "probe", "qlora-a10g.json")); code != 0 {
		t.Fatalf("add: %s", errs)
	}
	after := est(closeArgs...)
	if !strings.HasPrefix(after, before) || after == before {
		t.Fatalf("the close estimate did not gain a correction:\n%s", after)
	}
	t.Run("close", func(t *testing.T) { golden.RequireEqual(t, after[len(before):]) })
	for i, d := range distant {
		if got := est(d...); got != distantBefore[i] {
			t.Errorf("a distant estimate %v changed:\n%s", d, got)
		}
	}
	// JSON: the correction's figures, in the probe's ratio.
	code, out, errs := runProbeCLI(t, data, append([]string{"estimate", "--json"}, closeArgs...)...)
	if code != 0 {
		t.Fatal(errs)
	}
	var j struct {
		Memory struct {
			PerGPU struct{ Total float64 } `json:"per_gpu_bytes"`
		} `json:"memory"`
		ProbeCorrection *struct {
			Runs                 int     `json:"runs"`
			MemoryRatio          float64 `json:"memory_ratio"`
			MemoryBytes          float64 `json:"memory_bytes"`
			EstimatedMemoryBytes float64 `json:"estimated_memory_bytes"`
			TimeRatio            float64 `json:"time_ratio"`
		} `json:"probe_correction"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.ProbeCorrection == nil {
		t.Fatalf("estimate --json: %v\n%s", err, out)
	}
	pc := j.ProbeCorrection
	if pc.Runs != 1 || pc.MemoryRatio <= 1 || !(pc.TimeRatio > 0) || pc.TimeRatio == 1 || math.Abs(pc.MemoryBytes-pc.EstimatedMemoryBytes*pc.MemoryRatio) > 2 {
		t.Errorf("correction %+v", pc)
	}
	code, out, _ = runProbeCLI(t, data, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "2", "--seq-len", "1024",
		"--gpu", "a10g", "--providers", "aws", "--limit", "3")
	if code != 0 || !strings.Contains(out, "Kept probes: 1 kept probe run on NVIDIA A10G (decoder family, autocast recipe)") || !strings.Contains(out, "(for aws/g5.") {
		t.Errorf("recommend shows no correction:\n%s", out)
	}
	code, out, _ = runProbeCLI(t, data, "recommend", "--json", "--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "2", "--seq-len", "1024",
		"--gpu", "a10g", "--providers", "aws", "--limit", "3")
	if code != 0 || !strings.Contains(out, `"probe_corrections"`) {
		t.Errorf("recommend --json has no probe_corrections")
	}
}

// probe add refuses a result whose readings the device cannot hold (30 GB
// used on a 24 GB A10G, attack test 3 M3): one line, exit 2, nothing kept,
// so no later estimate is corrected by it.
func TestProbeAddRefusesImpossibleMemory(t *testing.T) {
	data := t.TempDir()
	b, err := os.ReadFile(filepath.Join("testdata", "probe", "qlora-a10g.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ old, new, want string }{
		{`"nvidia_smi_used_bytes":12599689216`, `"nvidia_smi_used_bytes":30000000000`, "measured.nvidia_smi_used_bytes: 30000000000 bytes is more than the 23836033024 bytes"},
		{`"memory_bytes":23836033024`, `"memory_bytes":0`, "device.memory_bytes: 0"},
		// Attack round 15, finding 3: a batch of 1,000,000 (plan and run)
		// with the same peak was kept as ×1.8e-06, and weights_bytes = 1.
		{`"batch":1,`, `"batch":1000000,`, "measured allocated 11.42 GB is ×2.68e-06 gpuplan's estimate (4.259e+06 GB): outside ×0.2–×5, so not a run of this plan"},
		{`"weights_bytes":5901385728`, `"weights_bytes":1`, "measured.weights_bytes: 1 is less than half the"},
	} {
		if !strings.Contains(string(b), tc.old) {
			t.Fatalf("fixture lacks %q", tc.old)
		}
		body := strings.Replace(string(b), tc.old, tc.new, 1)
		if tc.old == `"batch":1,` {
			body = strings.Replace(body, `"micro_batch":1`, `"micro_batch":1000000`, 1)
		}
		path := writeFile(t, "result.json", body)
		code, out, errs := runProbeCLI(t, data, "probe", "add", path)
		if code != ExitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.new, code, out, errs, tc.want)
		}
	}
	if kept, _ := filepath.Glob(filepath.Join(data, "gpuplan", "probes", "*")); len(kept) > 0 {
		t.Errorf("kept %v", kept)
	}
}

// TestProbeContradictions: a result whose figures contradict each other
// exits 2 with one line naming them, keeping nothing; one run on another
// GPU than its plan's is compared and kept with a warning line naming the
// file (round 3, LOW).
func TestProbeContradictions(t *testing.T) {
	data := t.TempDir()
	bad := filepath.Join("testdata", "probe", "contradict-tps.json")
	for _, verb := range []string{"compare", "add"} {
		code, out, errs := runProbeCLI(t, data, "probe", verb, bad)
		want := "gpuplan: " + bad + ": not a probe result: measured.tokens_per_second: 8192, but samples_per_second × seq_len is 819.2 (0.4 × 2048)"
		if code != ExitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line starting %q", verb, code, out, errs, want)
		}
	}
	if entries, _ := os.ReadDir(data); len(entries) != 0 {
		t.Errorf("a contradictory result was kept: %v", entries)
	}
	other := filepath.Join("testdata", "probe", "other-gpu.json")
	want := "gpuplan: warning: " + other + ": device.name \"NVIDIA A100-SXM4-40GB\" is not the plan's GPU a10g: the figures are of another GPU; run the probe on the plan's GPU, or plan for the one it ran on\n"
	for _, verb := range []string{"compare", "add"} {
		code, _, errs := runProbeCLI(t, data, "probe", verb, other)
		if code != 0 || errs != want {
			t.Errorf("%s: exit %d, stderr %q; want exit 0 and %q", verb, code, errs, want)
		}
	}
}

// A kept probe file is read back from disk: its words reach the terminal
// through termsafe, so an escape sequence in one is shown, not run
// (issue 29 sweep).
func TestWriteKeptSanitises(t *testing.T) {
	var out bytes.Buffer
	env := &Env{Stdout: &out}
	writeKept(env, []probe.Kept{{Case: probe.Case{Kind: "memory\x1b]0;pwned\x07", Quantity: "allocated\r", Published: 10, Unit: "GB\u202e", Tolerance: 0.1}, Ratio: 1}})
	const want = "  memory\\x1b]0;pwned\\a allocated\\r 10 GB\\u202e: gpuplan's estimate is off by +0.0% (the suite's tolerance 10%: within it)\n"
	if out.String() != want {
		t.Errorf("writeKept = %q, want %q", out.String(), want)
	}
}
