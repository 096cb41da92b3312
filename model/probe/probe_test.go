package probe_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/model/show"
)

// The testdata results are written by hand in the probe script's format
// (model/launch/probescript/probe.py emit): the keys are the script's, the figures are
// made up for the tests and measure nothing.

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func parse(t testing.TB, name string) *probe.Result {
	t.Helper()
	r, err := probe.Parse(read(t, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

func catalog(t testing.TB) *model.Catalog {
	t.Helper()
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func TestParse(t *testing.T) {
	r := parse(t, "qlora-a10g.json")
	if r.Kind != "train" || r.Settings == nil || r.Settings.Model != "llama-3.1-8b" || r.Settings.GPU != "a10g" ||
		*r.Measured.PeakAllocated != 11.42e9 || r.Device.Name != "NVIDIA A10G" || r.Versions["bitsandbytes"] != "0.44.1" {
		t.Errorf("qlora: %+v", r)
	}
	if got := r.Summary(); got != "NVIDIA A10G, torch 2.5.1, CUDA 12.4, driver 550.54.15, transformers 4.46.3, peft 0.13.2, bitsandbytes 0.44.1, 2026-11-20" {
		t.Errorf("Summary = %q", got)
	}
	s := parse(t, "serve-l40s.json")
	if s.Kind != "serve" || s.Serve == nil || s.Serve.GPU != "l40s" || *s.Measured.KVCacheTokens != 211712 {
		t.Errorf("serve: %+v", s)
	}
	// The script's messages saved with the line (2>&1) are skipped.
	mixed := append([]byte("gpuplan probe: writing a random llama checkpoint\n"), read(t, "qlora-a10g.json")...)
	mixed = append(mixed, "gpuplan probe: peak allocated 10.64 GiB, estimated 10.03 GiB\n"...)
	if _, err := probe.Parse(mixed); err != nil {
		t.Errorf("messages around the line: %v", err)
	}
}

// TestParseHostile: what is not a probe's line is one error naming the
// key, wrapping ErrResult; nothing panics.
func TestParseHostile(t *testing.T) {
	good := string(bytes.TrimSpace(read(t, "qlora-a10g.json")))
	sub := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "no line starting with"},
		{"not json", "hello\n", "no line starting with"},
		{"two lines", good + "\n" + good, "2 probe lines"},
		{"huge", `{"gpuplan_probe":1,"pad":"` + strings.Repeat("x", probe.MaxLineBytes) + `"}`, "more than 65536"},
		{"NaN", sub(`"samples_per_second":0.3425`, `"samples_per_second":NaN`), "NaN and Infinity are not JSON numbers"},
		{"Infinity", sub(`"step_seconds":2.92`, `"step_seconds":Infinity`), "NaN and Infinity"},
		{"huge number", sub(`"step_seconds":2.92`, `"step_seconds":1e308`), "measured.step_seconds: 1e+308 is out of range"},
		{"negative", sub(`"peak_allocated_bytes":11420000000`, `"peak_allocated_bytes":-1`), "measured.peak_allocated_bytes: -1 is out of range"},
		{"zero step time", sub(`"step_seconds":2.92`, `"step_seconds":0`), "measured.step_seconds: 0 is not a measured time; want more than 0 seconds, or leave the key out"},
		{"string for number", sub(`"peak_allocated_bytes":11420000000`, `"peak_allocated_bytes":"11 GB"`), "measured.peak_allocated_bytes: want a number, got string"},
		{"number for string", sub(`"name":"NVIDIA A10G"`, `"name":42`), "device.name: want a string, got number"},
		{"list for object", sub(`"device":{"compute_capability":"8.6","count":1,"memory_bytes":23836033024,"name":"NVIDIA A10G"}`, `"device":["NVIDIA A10G"]`), "device: want an object, got array"},
		{"control character", sub(`"name":"NVIDIA A10G"`, `"name":"NVIDIA\u001b[2J A10G"`), "device.name: control character U+001B"},
		{"newline in note", sub(`"notes":[]`, `"notes":["a\nb"]`), "ran.notes: control character U+000A"},
		{"bidi override", sub(`"gpu":"a10g"`, `"gpu":"a10g\u202e"`), "plan.gpu: control character U+202E"},
		{"unknown key", sub(`"kind":"train"`, `"kind":"train","extra":1`), `unknown field "extra"`},
		{"unknown plan key", sub(`"batch":1,`, `"batch":1,"bach":2,`), `plan: json: unknown field "bach"`},
		{"wrong plan type", sub(`"batch":1,`, `"batch":"one",`), `plan: batch: want a number, got string`},
		{"schema", sub(`"gpuplan_probe":1`, `"gpuplan_probe":2`), "schema 2, this gpuplan reads 1"},
		{"kind", sub(`"kind":"train"`, `"kind":"bake"`), `kind: want train or serve`},
		{"date", sub(`"date":"2026-11-20T09:14:02Z"`, `"date":"yesterday"`), "date: want an RFC 3339 time"},
		{"missing plan", sub(`"plan":{`, `"plan_":{`), `unknown field "plan_"`},
		{"invalid UTF-8", good[:40] + "\xff" + good[40:], "not UTF-8"},
		{"trailing value", good + ` {}`, "more than one JSON value"},
		{"version key", sub(`"python":"3.11.10"`, `"py thon":"3.11.10"`), "is not a package name"},
		// Attack test 4, N5: encoding/json matched keys ignoring case.
		{"key differing by case", sub(`"status":"ok"`, `"status":"oom","Status":"ok"`), `key "Status": a probe result's keys are lowercase ASCII`},
		{"key in capitals beside it", sub(`"peak_allocated_bytes":11420000000`, `"peak_allocated_bytes":11420000000,"PEAK_ALLOCATED_BYTES":5`), `key "PEAK_ALLOCATED_BYTES"`},
		{"key in capitals alone", sub(`"peak_allocated_bytes":11420000000`, `"Peak_Allocated_Bytes":11420000000`), `key "Peak_Allocated_Bytes"`},
		{"key with a long s", sub(`"status":"ok"`, `"ſtatus":"ok"`), `key "ſtatus"`},
		{"plan key in capitals", sub(`"batch":1,`, `"BATCH":1,`), `key "BATCH"`},
		{"many notes", sub(`"notes":[]`, `"notes":[`+strings.Repeat(`"n",`, 70)+`"n"]`), "more than 64 notes"},
		{"lora dropout", sub(`"lora_dropout":0.05`, `"lora_dropout":1.5`), "plan.lora_dropout"},
		// Attack test 3, M3: impossible readings skewed estimates ×8e4.
		{"smi above the device", sub(`"nvidia_smi_used_bytes":12599689216`, `"nvidia_smi_used_bytes":30000000000`),
			"measured.nvidia_smi_used_bytes: 30000000000 bytes is more than the 23836033024 bytes of device.memory_bytes × device.count; a GPU cannot use more memory than it has"},
		{"peak above the device", sub(`"peak_allocated_bytes":11420000000`, `"peak_allocated_bytes":29000000000`), "measured.peak_allocated_bytes: 29000000000 bytes is more than the 23836033024 bytes"},
		{"reserved above the device", sub(`"peak_reserved_bytes":12101615616`, `"peak_reserved_bytes":23836033025`), "measured.peak_reserved_bytes: 23836033025 bytes is more than"},
		{"device memory 0", sub(`"memory_bytes":23836033024`, `"memory_bytes":0`), "device.memory_bytes: 0; a GPU has memory"},
		{"duplicate key", sub(`"peak_allocated_bytes":11420000000`, `"peak_allocated_bytes":11420000000,"peak_allocated_bytes":5`), `key "peak_allocated_bytes" given twice in one object`},
		{"duplicate top-level key", sub(`"kind":"train"`, `"kind":"train","kind":"train"`), `key "kind" given twice`},
		{"duplicate plan key", sub(`"batch":1,`, `"batch":1,"batch":1,`), `key "batch" given twice`},
		{"fractional bytes", sub(`"peak_allocated_bytes":11420000000`, `"peak_allocated_bytes":11420000000.5`), "measured.peak_allocated_bytes: 1.14200000005e+10 is not a whole number of bytes"},
		{"fractional device bytes", sub(`"memory_bytes":23836033024`, `"memory_bytes":23836033024.25`), "device.memory_bytes: 2.383603302425e+10 is not a whole number of bytes"},
		{"batch 0", sub(`"batch":1,`, `"batch":0,`), "plan.batch: 0; a training step takes at least one sample"},
		{"future date", sub(`"date":"2026-11-20T09:14:02Z"`, `"date":"2999-01-01T00:00:00Z"`), "date: 2999-01-01T00:00:00Z is in the future"},
		{"escape in status, quoted once", sub(`"status":"ok"`, `"status":"\u001b[31mx"`), `status: want ok or oom, got "\x1b[31mx"`},
		{"escape in kind, quoted once", sub(`"kind":"train"`, `"kind":"\u001b[31mx"`), `kind: want train or serve, got "\x1b[31mx"`},
		{"overflowing number", sub(`"step_seconds":2.92`, `"step_seconds":1e999999999`), "measured.step_seconds: 1e999999999 is out of range"},
		{"overflowing int", sub(`"batch":1,`, `"batch":1e30,`), "plan: batch: want a whole number, got 1e30"},
		// Attack test 4, N3: readings that contradict the device or each other.
		{"weights above the device", sub(`"weights_bytes":5901385728`, `"weights_bytes":25700000000`),
			"measured.weights_bytes: 25700000000 bytes is more than the 23836033024 bytes of device.memory_bytes; a GPU cannot use more memory than it has"},
		{"context above the device", sub(`"cuda_context_bytes":438304768`, `"cuda_context_bytes":45000000000`), "measured.cuda_context_bytes: 45000000000 bytes is more than"},
		{"allocated above reserved", sub(`"peak_allocated_bytes":11420000000`, `"peak_allocated_bytes":12101615617`),
			"measured.peak_allocated_bytes: 12101615617 is more than peak_reserved_bytes 12101615616; torch allocates inside what it reserved"},
		{"reserved above nvidia-smi", sub(`"nvidia_smi_used_bytes":12599689216`, `"nvidia_smi_used_bytes":12101615615`),
			"measured.nvidia_smi_used_bytes: 12101615615 is less than peak_reserved_bytes 12101615616; nvidia-smi's reading of the run holds what torch reserved"},
		{"device count 0", sub(`"count":1,`, `"count":0,`), "device.count: 0; the probe ran on at least one GPU"},
		{"compute capability made up", sub(`"compute_capability":"8.6"`, `"compute_capability":"99.9"`), `device.compute_capability: "99.9" is not a CUDA compute capability`},
		{"compute capability empty", sub(`"compute_capability":"8.6"`, `"compute_capability":""`), `device.compute_capability: "" is not`},
		{"samples/s against the step time", sub(`"samples_per_second":0.3425`, `"samples_per_second":400`),
			"measured.samples_per_second: 400, but samples_per_step ÷ step_seconds is 0.342466"},
		{"steps against the step times", sub(`"steps":10,`, `"steps":3,`), "measured.steps: 3, but step_seconds_all lists 10 step times"},
		// Attack r29c, N1: a step time the run's own list contradicts was compared as read.
		// The list's median: (2.92 + 2.92) / 2 = 2.92.
		{"step time against its list", sub(`"step_seconds":2.92`, `"step_seconds":53`),
			"measured.step_seconds: 53, but the median of step_seconds_all is 2.92; the probe writes the median of step_seconds_all"},
		{"step time below its list, several ranks", strings.Replace(sub(`"step_seconds":2.92`, `"step_seconds":2`), `"world_size":1`, `"world_size":2`, 1),
			"measured.step_seconds: 2, but the median of step_seconds_all is 2.92; the probe writes at least the median of step_seconds_all (the largest rank's median)"},
		{"date before torch", sub(`"date":"2026-11-20T09:14:02Z"`, `"date":"2016-12-31T23:59:59Z"`), "date: 2016-12-31T23:59:59Z is before PyTorch's first release"},
	} {
		r, err := probe.Parse([]byte(tc.in))
		if r != nil || !errors.Is(err, probe.ErrResult) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Parse = %v, %v; want ErrResult saying %q", tc.name, r != nil, err, tc.want)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\n\r\x1b") {
			t.Errorf("%s: the error has a control character: %q", tc.name, err)
		}
	}
}

// TestCompareDevice: a device the plan's GPU cannot be is refused before
// anything is estimated (attack test 4, N3: 238 GB on an "NVIDIA A10G" was
// believed, and every reading checked against it).
func TestCompareDevice(t *testing.T) {
	good := string(bytes.TrimSpace(read(t, "qlora-a10g.json")))
	cat := catalog(t)
	for _, tc := range []struct{ name, old, new, want string }{
		// a10g: 24 GiB = 25769803776 bytes (data/gpus.toml); +1% is 26027501813.76.
		{"ten times the memory", `"memory_bytes":23836033024`, `"memory_bytes":238360330240`,
			"device.memory_bytes: 238360330240 bytes is more than the 25769803776 bytes (24 GiB) of the plan's GPU a10g"},
		{"just above 1%", `"memory_bytes":23836033024`, `"memory_bytes":26027501814`, "device.memory_bytes: 26027501814 bytes"},
		{"another compute capability", `"compute_capability":"8.6"`, `"compute_capability":"9.0"`, "device.compute_capability: 9.0, but the plan's GPU a10g has 8.6"},
	} {
		r, err := probe.Parse([]byte(strings.Replace(good, tc.old, tc.new, 1)))
		if err != nil {
			t.Fatalf("%s: Parse: %v", tc.name, err)
		}
		if _, err := probe.Compare(r, cat); !errors.Is(err, probe.ErrResult) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Compare = %v; want ErrResult saying %q", tc.name, err, tc.want)
		}
	}
	// The vendor's 24 GiB itself (a driver never reports more) is taken.
	r, err := probe.Parse([]byte(strings.Replace(good, `"memory_bytes":23836033024`, `"memory_bytes":25769803776`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := probe.Compare(r, cat); err != nil {
		t.Errorf("24 GiB on an a10g: %v", err)
	}
}

// TestParseClockSkew: a result dated up to a day after now is the two
// machines' clocks disagreeing; later is refused.
func TestParseClockSkew(t *testing.T) {
	b := read(t, "qlora-a10g.json") // dated 2026-11-20T09:14:02Z
	ran := time.Date(2026, 11, 20, 9, 14, 2, 0, time.UTC)
	for _, tc := range []struct {
		now  time.Time
		want string
	}{
		{ran, ""},
		{ran.Add(-24 * time.Hour), ""},
		{ran.Add(-24*time.Hour - time.Second), "date: 2026-11-20T09:14:02Z is in the future (now 2026-11-19T09:14:01Z)"},
	} {
		_, err := probe.ParseAt(b, tc.now)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("now %v: %v, want %q", tc.now, err, tc.want)
		}
	}
}

// FuzzParse: any input is a result or one error line; an accepted result
// has finite figures and printable names.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"qlora-a10g.json", "resnet50-a10g.json", "serve-l40s.json"} {
		f.Add(read(f, name))
	}
	f.Add([]byte(`{"gpuplan_probe":1,"kind":"train","measured":{"step_seconds":NaN}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := probe.Parse(b)
		if err != nil {
			if r != nil || !errors.Is(err, probe.ErrResult) {
				t.Fatalf("err %v with a result", err)
			}
			return
		}
		for _, v := range []*float64{r.Measured.PeakAllocated, r.Measured.StepSeconds, r.Measured.SamplesPerSecond, r.Measured.KVCacheTokens} {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0) {
				t.Fatalf("accepted %v", *v)
			}
		}
		if (r.Kind == "train") != (r.Settings != nil) || (r.Kind == "serve") != (r.Serve != nil) {
			t.Fatalf("kind %s without its plan", r.Kind)
		}
		for _, s := range append([]string{r.Kind, r.Date, r.Ran.Builder}, r.Ran.Notes...) {
			if show.Printable(s) != s {
				t.Fatalf("accepted %q", s)
			}
		}
	})
}

// TestAttack4Files: the re-attack's result files (testdata/attack4, as the
// attacker wrote them) are each refused with one line naming the key, by
// Parse or, for the device against the plan's GPU, by Compare; its good.json
// is read.
func TestAttack4Files(t *testing.T) {
	cat := catalog(t)
	for file, want := range map[string]string{
		"m_devbig.json":          "device.memory_bytes: 238360330240 bytes is more than the 25769803776 bytes (24 GiB) of the plan's GPU a10g",
		"n_case_dup.json":        `key "PEAK_ALLOCATED_BYTES": a probe result's keys are lowercase ASCII`,
		"n_case_only.json":       `key "Peak_Allocated_Bytes"`,
		"m_case_dup_status.json": `key "Status"`,
		"n_alloc_gt_res.json":    "measured.peak_allocated_bytes: 20500000000 is more than peak_reserved_bytes 10800000000",
		"n_cc_bad.json":          `device.compute_capability: "99.9" is not a CUDA compute capability`,
		"n_count0.json":          "device.count: 0; the probe ran on at least one GPU",
		"n_ctx_over.json":        "measured.cuda_context_bytes: 45000000000 bytes is more than the 23836033024 bytes of device.memory_bytes",
		"n_w_over.json":          "measured.weights_bytes: 25700000000 bytes is more than the 23836033024 bytes of device.memory_bytes",
		"n_old.json":             "date: 0001-01-01T00:00:00Z is before PyTorch's first release",
		"n_sps_mismatch.json":    "measured.samples_per_second: 400, but samples_per_step ÷ step_seconds is 0.4",
		"n_steps_mismatch.json":  "measured.steps: 3, but step_seconds_all lists 10 step times",
		"good.json":              "",
	} {
		r, err := probe.Parse(read(t, "attack4/"+file))
		if err == nil {
			_, err = probe.Compare(r, cat)
		}
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", file, err)
		case want != "" && (!errors.Is(err, probe.ErrResult) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%s: %v\nwant one line with %q", file, err, want)
		}
	}
}

// TestAttack5Files: results whose figures contradict each other
// (testdata/attack5, each good.json with one figure changed) are refused
// with one line naming the figures that disagree (tokens/s against
// samples/s × seq_len, weights above the peak, more processes than GPUs);
// a device that is not the plan's GPU, or a bigger machine than planned,
// is read with a warning (round 3, LOW).
func TestAttack5Files(t *testing.T) {
	cat := catalog(t)
	for file, want := range map[string]string{
		"n_tps_mismatch.json":   "measured.tokens_per_second: 8192, but samples_per_second × seq_len is 819.2 (0.4 × 2048)",
		"n_w_gt_peak.json":      "measured.weights_bytes: 10600000000 is more than peak_allocated_bytes 10500000000",
		"n_world_gt_count.json": "ran.world_size: 2 processes, but device.count is 1",
	} {
		_, err := probe.Parse(read(t, "attack5/"+file))
		if !errors.Is(err, probe.ErrResult) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v\nwant one line with %q", file, err, want)
		}
	}
	for file, want := range map[string]string{
		"w_dev_name.json": `device.name "NVIDIA A100-SXM4-40GB" is not the plan's GPU a10g: the figures are of another GPU; run the probe on the plan's GPU, or plan for the one it ran on`,
		"w_count8.json":   "device.count 8 is more than the plan's 1 GPUs: the probe ran on a bigger machine; its figures are of the 1 GPUs it used",
		"good.json":       "",
	} {
		dir := "attack5/"
		if file == "good.json" {
			dir = "attack4/"
		}
		r, err := probe.Parse(read(t, dir+file))
		if err == nil {
			_, err = probe.Compare(r, cat)
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var got []string
		for _, w := range r.DeviceWarnings(cat) {
			got = append(got, w.String())
		}
		if strings.Join(got, "\n") != want {
			t.Errorf("%s: warnings %q, want %q", file, got, want)
		}
	}
	// The real results of testdata warn of nothing.
	for _, file := range []string{"qlora-a10g.json", "resnet50-a10g.json", "serve-l40s.json"} {
		r, err := probe.Parse(read(t, file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if w := r.DeviceWarnings(cat); len(w) > 0 {
			t.Errorf("%s: %v", file, w)
		}
	}
}

// TestKeptNoteOmitsEmptyFields: a result without ran.builder read "probe
// built with , attention sdpa" in its kept cases' note (attack test 4).
func TestKeptNoteOmitsEmptyFields(t *testing.T) {
	good := string(bytes.TrimSpace(read(t, "qlora-a10g.json")))
	if !strings.Contains(good, `"builder":"transformers"`) {
		t.Fatal("fixture lacks the builder")
	}
	r, err := probe.Parse([]byte(strings.Replace(good, `"builder":"transformers"`, `"builder":""`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := probe.Cases(r)
	if err != nil {
		t.Fatal(err)
	}
	const want = "probe, attention sdpa, autocast bfloat16, weights loaded in bfloat16, 1 process, 10 measured steps after 3 warm-up, median step 2.92 s"
	for _, c := range s.Case {
		if c.Note != want {
			t.Errorf("%s: note %q, want %q", c.ID, c.Note, want)
		}
	}
}

// TestCompare: the QLoRA run against the estimate of its own keys, term by
// term; each error is estimated ÷ measured − 1 and each band check is the
// band's own.
func TestCompare(t *testing.T) {
	cat := catalog(t)
	r := parse(t, "qlora-a10g.json")
	c, err := probe.Compare(r, cat)
	if err != nil {
		t.Fatal(err)
	}
	e := c.Estimate
	want := map[string]float64{
		"weights bytes": e.States.Weights, "gradients bytes": e.States.Gradients, "optimizer states bytes": e.States.OptimizerStates,
		"peak allocated bytes": e.TorchAllocated, "peak reserved bytes": e.TorchReserved, "nvidia-smi bytes": e.Memory.Total(),
		"step time s": 1 / e.SamplesPerSecond, "throughput samples/s": e.SamplesPerSecond, "throughput tokens/s": 2048 * e.SamplesPerSecond,
	}
	if len(c.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(c.Rows), len(want), c.Rows)
	}
	for _, row := range c.Rows {
		est, ok := want[row.Term+" "+row.Unit]
		if !ok || math.Abs(row.Estimated-est) > 1e-6*est {
			t.Errorf("%s %s: estimated %v, want %v", row.Term, row.Unit, row.Estimated, est)
		}
		if e := row.Estimated/row.Measured - 1; math.Abs(row.Err-e) > 1e-12 {
			t.Errorf("%s: err %v, want %v", row.Term, row.Err, e)
		}
		if row.HasBand && row.Inside != (row.Measured >= row.Band[0] && row.Measured <= row.Band[1]) {
			t.Errorf("%s: inside %v for %v in %v", row.Term, row.Inside, row.Measured, row.Band)
		}
		if row.Term == "nvidia-smi" && row.Band != e.MemoryBand {
			t.Errorf("nvidia-smi band %v, the estimate prints %v", row.Band, e.MemoryBand)
		}
	}
	if e.GPU.Key != "a10g" || e.Workload.Task != model.TaskQLoRA || e.Workload.LoRADropout != 0.05 || e.Workload.SeqLen != 2048 {
		t.Errorf("estimated another workload: %+v", e.Workload.Settings)
	}

	s, err := probe.Compare(parse(t, "serve-l40s.json"), cat)
	if err != nil {
		t.Fatal(err)
	}
	if s.Serve == nil || !s.Serve.Fits || len(s.Rows) != 7 || s.Rows[0].Term != "KV cache" || s.Rows[0].Estimated != float64(s.Serve.Memory.KVTokens) {
		t.Errorf("serving rows %+v", s.Rows)
	}
}

// TestCasesRoundTrip: a result becomes the suite's cases, with the line as
// quote, and the TOML decodes back to the same cases.
func TestCasesRoundTrip(t *testing.T) {
	r := parse(t, "qlora-a10g.json")
	s, err := probe.Cases(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Case) != 3 {
		t.Fatalf("%d cases", len(s.Case))
	}
	id := probe.RunID(r)
	for i, want := range []struct {
		id, quantity, unit string
		published          float64
	}{
		{id + "-allocated", "allocated", "GB", 11.42},    // 11,420,000,000 B / 1e9
		{id + "-nvidia-smi", "nvidia-smi", "MiB", 12016}, // 12,599,689,216 B / 2^20
		{id + "-throughput", "tokens_per_second", "tokens/s", 701.44},
	} {
		c := s.Case[i]
		if c.ID != want.id || c.Quantity != want.quantity || c.Unit != want.unit || c.Published != want.published || c.Torch != "2.5" ||
			c.Quote != string(r.Line) || c.Settings.Model != "llama-3.1-8b" || !strings.Contains(c.Source, "NVIDIA A10G, torch 2.5.1") {
			t.Errorf("case %d = %+v", i, c)
		}
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(s); err != nil {
		t.Fatal(err)
	}
	var back probe.Suite
	md, err := toml.Decode(buf.String(), &back)
	if err != nil || len(md.Undecoded()) > 0 {
		t.Fatalf("%v %v\n%s", err, md.Undecoded(), buf.String())
	}
	if len(back.Case) != 3 || back.Case[1].Torch != "2.5" || *back.Case[0].Checkpointing != true || back.Case[0].LoRATargets[3] != "o" {
		t.Errorf("round trip: %+v", back.Case)
	}
	// The case's torch is the release the probe ran on, major.minor, and
	// empty when the result's version is not a release.
	for v, want := range map[string]string{"2.5.1": "2.5", "2.6.0+cu124": "2.6", "1.13.1": "1.13", "2.7.0a0+git1234": "2.7",
		"2": "", "nightly": "", "1.5.0": "", "": ""} {
		r.Versions["torch"] = v
		s, err := probe.Cases(r)
		if err != nil || s.Case[0].Torch != want {
			t.Errorf("torch %q: case torch %q, want %q (%v)", v, s.Case[0].Torch, want, err)
		}
	}
	for _, name := range []string{"serve-l40s.json"} {
		if _, err := probe.Cases(parse(t, name)); !errors.Is(err, probe.ErrNotKept) {
			t.Errorf("%s: err = %v, want ErrNotKept", name, err)
		}
	}
}

// TestCorrect: a kept case that measured 1.10 × the estimate's nvidia-smi
// memory and 0.80 × its throughput corrects an estimate of the same GPU,
// family and recipe by exactly those factors (time × 1/0.8 = 1.25), and
// leaves an estimate on another GPU, of another family, or with another
// recipe alone.
func TestCorrect(t *testing.T) {
	cat := catalog(t)
	r := parse(t, "qlora-a10g.json")
	w, g, err := r.Settings.Workload(cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.DatasetTokens = 1e7
	e, err := model.Compute(w, g)
	if err != nil {
		t.Fatal(err)
	}
	s, err := probe.Cases(r)
	if err != nil {
		t.Fatal(err)
	}
	// The kept run measured 1.10 × and 0.80 × the estimate of its own keys.
	for i := range s.Case {
		c := &s.Case[i]
		switch c.Quantity {
		case "allocated":
			c.Published = 1.10 * e.TorchAllocated / 1e9
		case "nvidia-smi":
			c.Torch = "" // the estimate's own release, so its CUDA context
			c.Published = 1.10 * e.Memory.Total() / model.MiB
		case "tokens_per_second":
			c.Published = 0.80 * e.SamplesPerSecond * 2048
		}
	}
	kept, errs := probe.Prepare(s, cat)
	if len(errs) > 0 || len(kept) != 3 {
		t.Fatalf("Prepare: %d kept, %v", len(kept), errs)
	}
	// A close workload: the same model, GPU and recipe at another batch.
	close := w
	close.MicroBatch, close.SeqLen = 2, 1024
	ec, err := model.Compute(close, g)
	if err != nil {
		t.Fatal(err)
	}
	c := probe.Correct(&ec, kept)
	if !c.OK() || c.Runs != 1 || c.MemoryRuns != 1 || c.TimeRuns != 1 {
		t.Fatalf("close: %+v", c)
	}
	if math.Abs(c.MemoryRatio-1.10) > 1e-9 || math.Abs(c.Memory-1.10*ec.Memory.Total()) > 1 || c.EstimatedMemory != ec.Memory.Total() {
		t.Errorf("memory: ratio %v, %v vs %v", c.MemoryRatio, c.Memory, ec.Memory.Total())
	}
	if math.Abs(c.TimeRatio-1.25) > 1e-9 || math.Abs(c.Hours-1.25*ec.Hours) > 1e-9 || math.Abs(c.SamplesPerSecond-0.8*ec.SamplesPerSecond) > 1e-9 {
		t.Errorf("time: ratio %v, %v h vs %v h", c.TimeRatio, c.Hours, ec.Hours)
	}
	// Distant workloads: another GPU, another family, another recipe.
	l4, _ := cat.GPU("l4")
	eg, _ := model.Compute(w, l4)
	rn, _ := cat.Model("resnet50")
	vis := model.Workload{Settings: model.Settings{Task: model.TaskTrain, MicroBatch: 64}, Model: *rn}
	ev, _ := model.Compute(vis, g)
	pure := w
	pure.Precision, pure.Recipe = model.BF16, model.RecipeAuto // pure16
	ep, _ := model.Compute(pure, g)
	for name, e := range map[string]*model.Estimate{"other GPU": &eg, "other family": &ev, "other recipe": &ep} {
		if c := probe.Correct(e, kept); c.OK() {
			t.Errorf("%s corrected: %+v", name, c)
		}
	}
	if c := probe.Correct(&ec, nil); c.OK() {
		t.Errorf("no kept cases corrected: %+v", c)
	}
}

// TestPreparePhysical: a kept result must be a run its plan can give. The
// qlora-a10g plan holds its 4-bit base weights on the GPU, so allocated or
// nvidia-smi memory below e.Memory.Weights is refused; tokens/s whose model
// FLOPs (FLOPsPerSample per 2048-token sample) exceed the A10G's dense
// bf16 peak (the catalog's e.PeakTFLOPS) is an MFU above 100% and
// refused; just above the weights and just below the peak are kept.
func TestPreparePhysical(t *testing.T) {
	cat := catalog(t)
	r := parse(t, "qlora-a10g.json")
	w, g, err := r.Settings.Workload(cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := model.Compute(w, g)
	if err != nil {
		t.Fatal(err)
	}
	maxTokens := e.PeakTFLOPS * 1e12 / e.FLOPsPerSample * 2048 // MFU 100%
	for _, tt := range []struct {
		quantity  string
		published float64 // in the case's unit: GB, MiB, tokens/s
		want      string  // "" kept
	}{
		{"allocated", 0.5 * e.Memory.Weights / 1e9, "less than the weights alone"},
		{"allocated", 1.01 * e.Memory.Weights / 1e9, ""},
		{"nvidia-smi", 0.9 * e.Memory.Weights / model.MiB, "less than the weights alone"},
		{"tokens_per_second", 1.05 * maxTokens, "MFU, above the GPUs' dense peak"},
		{"tokens_per_second", 0.95 * maxTokens, ""},
		// Issue 29: memory above what the A10G holds (24 GiB; 1% over is
		// the driver's margin): 100 × the estimate, or just over the GPU.
		{"allocated", 100 * e.TorchAllocated / 1e9, "more than the GPU holds (24 GiB, NVIDIA A10G)"},
		{"allocated", 1.02 * g.MemoryGiB * model.GiB / 1e9, "more than the GPU holds"},
		{"allocated", 0.99 * g.MemoryGiB * model.GiB / 1e9, ""},
		{"nvidia-smi", 100 * e.Memory.Total() / model.MiB, "more than the GPU holds"},
		{"nvidia-smi", 1.005 * g.MemoryGiB * model.GiB / model.MiB, ""},
		// 0 and negative readings are not kept either.
		{"nvidia-smi", 0, "no nvidia-smi to compare"},
		{"allocated", -5, "no allocated to compare"},
	} {
		s, err := probe.Cases(r)
		if err != nil {
			t.Fatal(err)
		}
		var one probe.Suite
		one.Arch = s.Arch
		for _, c := range s.Case {
			if c.Quantity == tt.quantity {
				c.Published = tt.published
				one.Case = append(one.Case, c)
			}
		}
		kept, errs := probe.Prepare(&one, cat)
		switch {
		case tt.want == "" && (len(errs) > 0 || len(kept) != 1):
			t.Errorf("%s %.4g: %d kept, %v; want kept", tt.quantity, tt.published, len(kept), errs)
		case tt.want != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want)):
			t.Errorf("%s %.4g: errors %v; want one containing %q", tt.quantity, tt.published, errs, tt.want)
		}
	}
}

// TestCorrectRobust (issue 29): the correction is the median of the kept
// runs' ratios, so one wild run among three does not move it: two runs at
// 1.10 × the estimate's nvidia-smi memory and one at 2.00 × (within the
// A10G's 24 GiB, so not refused) correct by 1.10 ×, where the geometric
// mean was (1.1² × 2)^(1/3) = 1.343 ×; times 0.8, 0.8 and 0.01 (a run
// 100 × slower) correct time by 0.8, not 0.172. Two runs give their
// geometric mean: √(1.1 × 1.21) = 1.1537.
func TestCorrectRobust(t *testing.T) {
	cat := catalog(t)
	r := parse(t, "qlora-a10g.json")
	w, g, err := r.Settings.Workload(cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := model.Compute(w, g)
	if err != nil {
		t.Fatal(err)
	}
	if 2.0*e.Memory.Total() > g.MemoryGiB*model.GiB {
		t.Fatalf("the wild run (%.1f GiB) would be refused by the ceiling; pick a smaller factor", 2.0*e.Memory.Total()/model.GiB)
	}
	kept := func(q string, ratios ...float64) []probe.Kept {
		var out []probe.Kept
		for i, x := range ratios {
			out = append(out, probe.Kept{Case: probe.Case{Quantity: q}, Run: fmt.Sprint("run-", i), GPU: g.Key,
				Family: e.Workload.Model.Family, Recipe: e.Recipe, Ratio: x})
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		kept     []probe.Kept
		mem, tim float64
	}{
		{"one wild memory run of three", kept("nvidia-smi", 1.10, 2.00, 1.10), 1.10, 0},
		{"one wild time run of three", kept("tokens_per_second", 0.8, 0.01, 0.8), 0, 0.8},
		{"two runs", kept("nvidia-smi", 1.10, 1.21), math.Sqrt(1.10 * 1.21), 0},
		{"four runs", kept("allocated", 1.0, 4.0, 1.2, 1.1), math.Sqrt(1.1 * 1.2), 0},
		// Outside ×0.2–×5 (probe.MinRatio, MaxRatio) a case corrects
		// nothing, kept by hand or not (attack round 15, finding 3: ×1.8e-06).
		{"absurd ratio", kept("nvidia-smi", 1.8e-6), 0, 0},
		{"absurd ratio beside a sane one", kept("nvidia-smi", 1.8e-6, 1.1), 1.1, 0},
	} {
		c := probe.Correct(&e, tc.kept)
		if math.Abs(c.MemoryRatio-tc.mem) > 1e-9 || math.Abs(c.TimeRatio-tc.tim) > 1e-9 {
			t.Errorf("%s: memory ratio %v, time ratio %v; want %v, %v", tc.name, c.MemoryRatio, c.TimeRatio, tc.mem, tc.tim)
		}
	}
}
