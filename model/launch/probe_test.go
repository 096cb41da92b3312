package launch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/probescript"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/model/show"
)

// catalogPlan resolves the workload on one catalog instance as gpuplan
// export does (model.Recommend on that instance alone, the cheapest region).
func catalogPlan(t *testing.T, cat *model.Catalog, modelKey string, set model.Settings, instance string) *launch.Plan {
	t.Helper()
	m, err := cat.Model(modelKey)
	if err != nil {
		t.Fatal(err)
	}
	w := model.Workload{Settings: set, Model: *m}
	one := *cat
	one.Instances = nil
	for _, in := range cat.Instances {
		if in.Provider+"/"+in.Type == instance {
			one.Instances = append(one.Instances, in)
		}
	}
	if len(one.Instances) != 1 {
		t.Fatalf("no instance %s", instance)
	}
	w.Defaults()
	rec, err := model.Recommend(w, &one, model.Query{Pricing: model.OnDemand, AllowMultiNode: w.GPUs > one.Instances[0].GPUCount})
	if err != nil || len(rec.Offers) == 0 {
		t.Fatalf("%s on %s: %v %+v", modelKey, instance, err, rec.Rejected)
	}
	offer := &rec.Offers[0]
	for i := range rec.Offers {
		if rec.Offers[i].USDPerHour < offer.USDPerHour {
			offer = &rec.Offers[i]
		}
	}
	p, err := launch.NewPlan(w, offer, launch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// catalogServe plans serving the model on one catalog instance, as gpuplan
// export --task inference does.
func catalogServe(t *testing.T, cat *model.Catalog, modelKey string, s serve.Serving, instance string) *launch.Serve {
	t.Helper()
	m, err := cat.Model(modelKey)
	if err != nil {
		t.Fatal(err)
	}
	one := *cat
	one.Instances = nil
	for _, in := range cat.Instances {
		if in.Provider+"/"+in.Type == instance {
			one.Instances = append(one.Instances, in)
		}
	}
	offers := serve.Offers(&one, model.Query{Pricing: model.OnDemand})
	if len(offers) == 0 {
		t.Fatalf("no serving offer on %s", instance)
	}
	sp, err := serve.PlanServing(m, s, offers[0])
	if err != nil || !sp.Fits {
		t.Fatalf("serving %s on %s: %v %v", modelKey, instance, err, sp.Reasons)
	}
	srv, err := launch.NewServe(m, &sp, launch.ServeOptions{Region: sp.Offer.Region, Pricing: sp.Offer.Pricing})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func loadCatalog(t *testing.T) *model.Catalog {
	t.Helper()
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// probeCase is one plan the probe is written for.
type probeCase struct {
	name     string
	model    string
	set      model.Settings
	instance string
}

// probeCases cover each builder, strategy and recipe the script has.
var probeCases = []probeCase{
	{"qlora-llama8b", "llama-3.1-8b", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048}, "aws/g5.2xlarge"},
	{"resnet50-amp", "resnet50", model.Settings{Task: model.TaskTrain, Precision: model.AMPFP16, MicroBatch: 256}, "aws/g5.2xlarge"},
	{"lora-llama8b-chunked", "llama-3.1-8b", model.Settings{Task: model.TaskLoRA, MicroBatch: 2, SeqLen: 4096, Loss: model.LossChunked, Checkpointing: model.Bool(true)}, "aws/p4de.24xlarge"},
	{"fsdp-llama8b", "llama-3.1-8b", model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, GradAccum: 4, GPUs: 8, Strategy: model.FSDP, Checkpointing: model.Bool(true)}, "aws/p4de.24xlarge"},
	{"zero3-offload-llama8b", "llama-3.1-8b", model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 8, Strategy: model.ZeRO3, Checkpointing: model.Bool(true), Switches: model.Switches{OffloadOptimizer: true}}, "aws/p4de.24xlarge"},
	{"ddp-2nodes-gpt2", "gpt2-xl", model.Settings{Task: model.TaskTrain, MicroBatch: 4, SeqLen: 1024, GPUs: 16, Strategy: model.DDP}, "aws/p4de.24xlarge"},
	{"bert-finetune", "bert-large", model.Settings{Task: model.TaskFinetune, Precision: model.FP32, MicroBatch: 16, SeqLen: 384}, "aws/g6e.xlarge"},
	{"t5-pure-bf16", "t5-large", model.Settings{Task: model.TaskFinetune, Precision: model.BF16, MicroBatch: 8, SeqLen: 512, Optimizer: model.Adafactor}, "aws/g5.2xlarge"},
	{"vit-tf32-sgd", "vit-b-16", model.Settings{Task: model.TaskTrain, Precision: model.TF32, MicroBatch: 64, Optimizer: model.SGDMomentum}, "aws/g5.2xlarge"},
	// An MoE under QLoRA: its routed experts stay 16-bit (transformers 5's 3-D experts), so Mixtral 8x7B's 87 GiB
	// fits no single GPU and the probe does not shard QLoRA; Qwen3 30B-A3B's fits one A100 80GB.
	{"moe-qlora", "qwen3-30b-a3b", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 1024}, "aws/p4de.24xlarge"},
	{"resnet50-infer", "resnet50", model.Settings{Task: model.TaskInference, Precision: model.FP16, MicroBatch: 64}, "aws/g5.2xlarge"},
}

// planOf decodes the plan literal of a probe script as Python would read it:
// the marker line's JSON string literal (json.loads of a Python literal that
// is also JSON), then the JSON text it holds.
func planOf(t testing.TB, script []byte) map[string]any {
	t.Helper()
	var lit string
	n := 0
	for _, line := range strings.Split(string(script), "\n") {
		if rest, ok := strings.CutPrefix(line, "PLAN = json.loads("); ok {
			end := strings.LastIndex(rest, ")  # gpuplan: the plan, one JSON string literal")
			if end < 0 {
				t.Fatalf("PLAN line has no closing marker: %.200q", line)
			}
			lit, n = rest[:end], n+1
		}
	}
	if n != 1 {
		t.Fatalf("%d PLAN lines, want 1", n)
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] < 0x20 || lit[i] > 0x7e {
			t.Fatalf("the PLAN literal has byte %#x at %d: want printable ASCII", lit[i], i)
		}
	}
	var inner string
	if err := json.Unmarshal([]byte(lit), &inner); err != nil {
		t.Fatalf("the PLAN literal is not one JSON string: %v", err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(inner), &out); err != nil {
		t.Fatalf("the PLAN string is not JSON: %v", err)
	}
	return out
}

// checkHeader fails unless every line before the docstring is the shebang,
// the fixed coding line or a comment with no control character: plan text
// can only be comments there.
func checkHeader(t testing.TB, script []byte) {
	t.Helper()
	if !utf8.Valid(script) {
		t.Fatal("the script is not UTF-8")
	}
	lines := strings.Split(string(script), "\n")
	if lines[0] != "#!/usr/bin/env python3" || lines[1] != "# -*- coding: utf-8 -*-" {
		t.Fatalf("script starts %q %q", lines[0], lines[1])
	}
	for i, l := range lines[2:] {
		if strings.HasPrefix(l, `"""gpuplan probe:`) {
			return
		}
		if !strings.HasPrefix(l, "# ") {
			t.Fatalf("header line %d is not a comment: %q", i+3, l)
		}
		for _, r := range l {
			if r == '\r' || r == 0 || r == '\f' || r == '\v' || show.Unprintable(r) {
				t.Fatalf("header line %d has %U: %q", i+3, r, l)
			}
		}
	}
	t.Fatal("no docstring after the header")
}

// TestProbeScripts writes the probe for each plan and checks it: the header
// is comments, the plan literal decodes to what the plan says, and the
// scripts compile (python3 -m py_compile) and print their plan (--plan)
// exactly as Go wrote it.
func TestProbeScripts(t *testing.T) {
	cat := loadCatalog(t)
	dir := t.TempDir()
	var files []string
	specs := map[string]map[string]any{}
	for _, pc := range probeCases {
		p := catalogPlan(t, cat, pc.model, pc.set, pc.instance)
		out, err := probescript.Train(p)
		if err != nil {
			t.Fatalf("%s: %v", pc.name, err)
		}
		checkHeader(t, out)
		spec := planOf(t, out)
		tr := spec["train"].(map[string]any)
		if tr["micro_batch"] != float64(p.MicroBatch) || tr["grad_accum"] != float64(p.GradAccum) || tr["gpus"] != float64(p.GPUs()) ||
			tr["checkpointing"] != p.Checkpointing || tr["strategy"] != string(p.Strategy) || tr["precision"] != string(p.Precision) {
			t.Errorf("%s: the probe's recipe %v is not the plan's (batch %d × %d, %d GPUs, %s, %s, checkpointing %v)",
				pc.name, tr, p.MicroBatch, p.GradAccum, p.GPUs(), p.Strategy, p.Precision, p.Checkpointing)
		}
		if p.ZeRO() > 0 {
			var ds, want any
			b, _ := json.Marshal(tr["deepspeed"])
			_ = json.Unmarshal(b, &ds)
			_ = json.Unmarshal(p.DeepSpeedConfig(), &want)
			if !reflect.DeepEqual(ds, want) {
				t.Errorf("%s: the probe's DeepSpeed config %v is not the launch files' %v", pc.name, ds, want)
			}
		}
		path := filepath.Join(dir, pc.name+".py")
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
		specs[path] = spec
	}
	srv := catalogServe(t, cat, "llama-3.1-8b", serve.Serving{MaxModelLen: 8192, PromptTokens: 1024, OutputTokens: 256, Concurrency: 16}, "aws/g6e.xlarge")
	out, err := probescript.Serve(srv)
	if err != nil {
		t.Fatal(err)
	}
	checkHeader(t, out)
	path := filepath.Join(dir, "serve-llama8b.py")
	_ = os.WriteFile(path, out, 0o644)
	files, specs[path] = append(files, path), planOf(t, out)

	py := pythonWith()
	if py == "" {
		needPython(t)
	}
	if b, err := exec.Command(py, append([]string{"-m", "py_compile"}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("py_compile: %v\n%s", err, b)
	}
	for _, f := range files {
		b, err := exec.Command(py, f, "--plan").Output()
		if err != nil {
			t.Fatalf("%s --plan: %v", f, err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(got, specs[f]) {
			t.Errorf("%s --plan printed another plan than Go wrote (%v):\n%s", filepath.Base(f), err, b)
		}
	}
}

// TestProbeRefuses: models and recipes the probe cannot build or would
// measure wrongly get ErrPlan and a sentence saying why.
func TestProbeRefuses(t *testing.T) {
	cat := loadCatalog(t)
	for _, tc := range []struct {
		pc   probeCase
		want string
	}{
		{probeCase{"yolo", "yolov8n", model.Settings{Task: model.TaskTrain, MicroBatch: 16}, "aws/g5.2xlarge"}, "not YOLO or U-Nets"},
		{probeCase{"unet", "sd15-unet", model.Settings{Task: model.TaskTrain, MicroBatch: 2}, "aws/g5.2xlarge"}, "not YOLO or U-Nets"},
		{probeCase{"whisper", "whisper-large-v3", model.Settings{Task: model.TaskFinetune, MicroBatch: 2, SeqLen: 448}, "aws/g6e.xlarge"}, "not audio models"},
		{probeCase{"fp8", "llama-3.1-8b", model.Settings{Task: model.TaskFinetune, Precision: model.FP8, MicroBatch: 1, GPUs: 8, Strategy: model.FSDP}, "aws/p5.48xlarge"}, "fp8 training"},
		{probeCase{"gpt2-lora", "gpt2-xl", model.Settings{Task: model.TaskLoRA, MicroBatch: 4, SeqLen: 1024}, "aws/g6e.xlarge"}, "Llama's module names"},
		{probeCase{"fsdp-qlora", "llama-3.1-70b", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048, GPUs: 8, Strategy: model.FSDP}, "aws/p4de.24xlarge"}, "4-bit weights stored as bfloat16"},
	} {
		p := catalogPlan(t, cat, tc.pc.model, tc.pc.set, tc.pc.instance)
		_, err := probescript.Train(p)
		if !errors.Is(err, launch.ErrPlan) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrPlan saying %q", tc.pc.name, err, tc.want)
		}
	}
	if _, err := probescript.Train(&launch.Plan{}); !errors.Is(err, launch.ErrPlan) {
		t.Errorf("a plan without an estimate: err = %v, want ErrPlan", err)
	}
	// The launch files of a sharded QLoRA store the 4-bit weights in the
	// load dtype (TRL's --bnb_4bit_quant_storage), as FSDP needs to flatten
	// them (walk36c: they ran without it); unsharded, they keep bitsandbytes'
	// default.
	for _, tc := range []struct {
		name     string
		set      model.Settings
		instance string
		want     bool
	}{
		{"fsdp", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048, GPUs: 8, Strategy: model.FSDP}, "aws/p4de.24xlarge", true},
		{"zero3", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048, GPUs: 8, Strategy: model.ZeRO3}, "aws/p4de.24xlarge", true},
		{"ddp", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048, GPUs: 8, Strategy: model.DDP}, "aws/p4de.24xlarge", false},
		{"single", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048}, "aws/g6e.xlarge", false},
	} {
		args := strings.Join(catalogPlan(t, cat, "llama-3.1-8b", tc.set, tc.instance).ScriptArgs, " ")
		if got := strings.Contains(args, "--bnb_4bit_quant_storage bfloat16"); got != tc.want {
			t.Errorf("QLoRA %s: --bnb_4bit_quant_storage bfloat16 %v, want %v: %s", tc.name, got, tc.want, args)
		}
	}
	if f, err := launch.ParseFormat("probe"); err != nil || f != launch.FormatProbe {
		t.Errorf(`ParseFormat("probe") = %q, %v`, f, err)
	}
}

// parseResult parses the probe's stdout and fails unless it is a result.
func parseResult(t *testing.T, stdout, stderr string) *probe.Result {
	t.Helper()
	r, err := probe.Parse([]byte(stdout))
	if err != nil {
		t.Fatalf("the probe's line does not parse: %v\nstdout: %s\nstderr: %s", err, stdout, stderr)
	}
	return r
}

// TestProbeCPUSmoke runs the generated scripts end to end with --cpu-smoke
// on Debian's CPU PyTorch: the QLoRA plan (adapters, checkpointing, bf16
// autocast), the ResNet-50 AMP plan (a CNN, fp16 swapped for CPU bf16), a
// chunked-loss LoRA plan, the serving plan against the stand-in server,
// and the FSDP plan under torchrun with two processes (DDP over gloo). Each
// prints one line probe.Parse accepts, reports no device figures, and
// writes nothing outside its working directory.
func TestProbeCPUSmoke(t *testing.T) {
	py := needPython(t, "torch")
	cat := loadCatalog(t)
	byName := map[string]probeCase{}
	for _, pc := range probeCases {
		byName[pc.name] = pc
	}
	for _, name := range []string{"qlora-llama8b", "resnet50-amp", "lora-llama8b-chunked"} {
		pc := byName[name]
		p := catalogPlan(t, cat, pc.model, pc.set, pc.instance)
		script, err := probescript.Train(p)
		if err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code, dir, home := runProbe(t, py, script, nil, "--cpu-smoke", "--warmup", "1", "--steps", "2")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", name, code, stderr)
		}
		r := parseResult(t, stdout, stderr)
		m := r.Measured
		if !r.Smoke || r.Device != nil || m.PeakAllocated != nil || m.NvidiaSMIUsed != nil || r.Versions["cuda"] != "" {
			t.Errorf("%s: smoke run reports device figures: %s", name, stdout)
		}
		if m.Steps == nil || *m.Steps != 2 || m.SamplesPerSecond == nil || *m.SamplesPerSecond <= 0 || m.Weights == nil || *m.Weights <= 0 ||
			m.Gradients == nil || *m.Gradients <= 0 || m.OptimizerStates == nil || *m.OptimizerStates <= 0 || m.TermsFrom != "tensors" {
			t.Errorf("%s: measured %+v", name, m)
		}
		if r.Settings == nil || r.Settings.Model != pc.model || r.Settings.Batch != p.MicroBatch {
			t.Errorf("%s: plan keys %+v", name, r.Settings)
		}
		if p.Task.Adapters() && (r.Ran.TrainableParams == nil || r.Ran.Params == nil || *r.Ran.TrainableParams >= *r.Ran.Params) {
			t.Errorf("%s: adapters should train a fraction of the parameters: %+v", name, r.Ran)
		}
		emptyDir(t, home)
		if _, err := os.Stat(filepath.Join(dir, ".gpuplan-probe")); err != nil {
			t.Errorf("%s: no ./.gpuplan-probe: %v", name, err)
		}
	}

	srv := catalogServe(t, cat, "llama-3.1-8b", serve.Serving{MaxModelLen: 8192, PromptTokens: 1024, OutputTokens: 256, Concurrency: 16}, "aws/g6e.xlarge")
	script, err := probescript.Serve(srv)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code, _, home := runProbe(t, py, script, nil, "--cpu-smoke", "--requests", "4")
	if code != 0 {
		t.Fatalf("serve smoke: exit %d\n%s", code, stderr)
	}
	r := parseResult(t, stdout, stderr)
	m := r.Measured
	if r.Kind != "serve" || r.Serve == nil || m.KVCacheTokens == nil || *m.KVCacheTokens != 1024 || m.KVCacheTokensMetr == nil ||
		*m.KVCacheTokensMetr != 1024 || m.OutputTokensPerS == nil || *m.OutputTokensPerS <= 0 || m.TTFTSeconds == nil || m.Requests == nil || *m.Requests != 4 {
		t.Errorf("serve smoke: %s", stdout)
	}
	if !reflect.DeepEqual(r.Ran.Argv, srv.ServerArgs()) {
		t.Errorf("serve smoke ran %q, the serving files pass %q", r.Ran.Argv, srv.ServerArgs())
	}
	emptyDir(t, home)

	pc := byName["fsdp-llama8b"]
	p := catalogPlan(t, cat, pc.model, pc.set, pc.instance)
	script, err = probescript.Train(p)
	if err != nil {
		t.Fatal(err)
	}
	// Two ranks started as torchrun starts them (its environment); Debian's
	// torch 1.13 torchrun fails on Python 3.11 before starting any.
	dir := t.TempDir()
	path := filepath.Join(dir, "gpuplan-probe.py")
	_ = os.WriteFile(path, script, 0o644)
	port := freePort(t)
	var out, errb [2]bytes.Buffer
	var cmds [2]*exec.Cmd
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for rank := range 2 {
		cmd := exec.CommandContext(ctx, py, path, "--cpu-smoke", "--warmup", "1", "--steps", "2")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1", "GPUPLAN_PROBE_DEBUG=1", "MASTER_ADDR=127.0.0.1", fmt.Sprintf("MASTER_PORT=%d", port),
			"WORLD_SIZE=2", fmt.Sprintf("RANK=%d", rank), fmt.Sprintf("LOCAL_RANK=%d", rank), "LOCAL_WORLD_SIZE=2")
		cmd.Stdout, cmd.Stderr = &out[rank], &errb[rank]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[rank] = cmd
	}
	var failed []string
	for rank, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			failed = append(failed, fmt.Sprintf("rank %d: %v\n%s", rank, err, errb[rank].String()))
			cancel() // the other rank waits for this one in vain
		}
	}
	if failed != nil {
		t.Fatal(strings.Join(failed, "\n"))
	}
	if out[1].Len() != 0 {
		t.Errorf("rank 1 printed %q; only rank 0 prints the result", out[1].String())
	}
	r = parseResult(t, out[0].String(), errb[0].String())
	if r.Ran.WorldSize != 2 || r.Measured.SamplesPerStep == nil || *r.Measured.SamplesPerStep != 2*2 ||
		!strings.Contains(strings.Join(r.Ran.Notes, " "), "DDP over gloo in place of fsdp") {
		t.Errorf("two-rank smoke: %s", out[0].String())
	}
}

// fakeNvidiaSMI writes an nvidia-smi that answers the probe's queries: the
// driver version, the GPUs ($FAKE_SMI_GPUS of them, 1 by default), and the memory used by the fake vLLM
// servers (43008 MiB each, by their pid files in the working directory:
// fake-vllm-port-*.pid) or else by its parent
// (the probe): 1234 MiB the first time (the CUDA context, read before
// anything is allocated), then 19666 MiB (the fake torch's 18 GiB reserved
// and that context: nvidia-smi's reading holds what torch reserved, which
// probe.Parse checks).
func fakeNvidiaSMI(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
case "$*" in
*driver_version*) echo "550.54.15" ;;
*compute_cap*) i=0; while [ $i -lt "${FAKE_SMI_GPUS:-1}" ]; do echo "$i, Fake L40S, 46068, 8.9"; i=$((i + 1)); done ;;
*compute-apps*) if [ -f fake-vllm.pid ]; then for f in fake-vllm-port-*.pid; do echo "$(cat "$f"), 43008"; done
	elif [ -f '` + filepath.Join(dir, "context-read") + `' ]; then echo "$PPID, 19666"
	else touch '` + filepath.Join(dir, "context-read") + `'; echo "$PPID, 1234"; fi ;;
*) exit 1 ;;
esac
`
	if err := os.WriteFile(filepath.Join(dir, "nvidia-smi"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestProbeFakeCUDA runs the CUDA path of the script (no --cpu-smoke)
// against a fake torch.cuda (testdata/probe/fakecuda/sitecustomize.py) and
// a fake nvidia-smi: the real torchvision ResNet is built and trained on
// the CPU while every device figure comes from the fakes, which the result
// must carry: GPU name and memory, CUDA and driver versions, peak allocated
// and reserved, nvidia-smi's process memory, the CUDA context, the terms
// from allocator deltas, and the GradScaler of amp-fp16. A plan that needs
// transformers is refused in one line, exit 2, when it is missing.
func TestProbeFakeCUDA(t *testing.T) {
	py := needPython(t, "torch", "torchvision")
	cat := loadCatalog(t)
	stub, err := filepath.Abs("testdata/probe/fakecuda")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PYTHONPATH=" + stub, "PATH=" + fakeNvidiaSMI(t) + string(os.PathListSeparator) + os.Getenv("PATH")}
	p := catalogPlan(t, cat, "resnet18", model.Settings{Task: model.TaskTrain, Precision: model.AMPFP16, MicroBatch: 2, ImageSize: 64,
		Checkpointing: model.Bool(true)}, "aws/g5.2xlarge")
	script, err := probescript.Train(p)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code, _, home := runProbe(t, py, script, env, "--warmup", "1", "--steps", "2")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	r := parseResult(t, stdout, stderr)
	const gib = 1 << 30
	m := r.Measured
	switch {
	case r.Smoke || r.Device == nil || r.Device.Name != "Fake GPU" || r.Device.MemoryBytes != 24*gib || r.Device.ComputeCapability != "8.6":
		t.Errorf("device: %+v", r.Device)
	case r.Versions["cuda"] != "12.4" || r.Versions["driver"] != "550.54.15" || r.Versions["torchvision"] == "":
		t.Errorf("versions: %v", r.Versions)
	case m.PeakAllocated == nil || *m.PeakAllocated != 17*gib || m.PeakReserved == nil || *m.PeakReserved != 18*gib:
		t.Errorf("peaks: %+v", m)
	case m.NvidiaSMIUsed == nil || *m.NvidiaSMIUsed != 19666*(1<<20) || m.CUDAContext == nil || *m.CUDAContext != 1234*(1<<20):
		t.Errorf("nvidia-smi: %+v", m)
	case m.TermsFrom != "allocator" || m.Weights == nil || *m.Weights <= 0 || m.OptimizerStates == nil:
		t.Errorf("terms: %+v", m)
	case !r.Ran.GradScaler || r.Ran.Builder != "torchvision" || !r.Ran.Checkpointing || r.Ran.Autocast == nil || *r.Ran.Autocast != "float16":
		t.Errorf("ran: %+v", r.Ran)
	}
	emptyDir(t, home)

	q := catalogPlan(t, cat, "llama-3.1-8b", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048}, "aws/g5.2xlarge")
	script, err = probescript.Train(q)
	if err != nil {
		t.Fatal(err)
	}
	if pythonWith("transformers") != "" {
		t.Skip("transformers is installed here: the refusal is not reachable")
	}
	stdout, stderr, code, _, _ = runProbe(t, py, script, env)
	want := "gpuplan probe: this plan needs the Python package transformers: pip install transformers, then run again\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("missing transformers: exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, want)
	}
}

// TestProbeNoCUDA: without --cpu-smoke on a machine with no GPU the probe
// says so in one line and exits 2.
func TestProbeNoCUDA(t *testing.T) {
	py := needPython(t, "torch")
	p := catalogPlan(t, loadCatalog(t), "resnet50", model.Settings{Task: model.TaskTrain, MicroBatch: 32}, "aws/g5.2xlarge")
	script, err := probescript.Train(p)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code, _, _ := runProbe(t, py, script, nil)
	if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no CUDA device is visible") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// probeFlags reads a launch file's script arguments into flag → value
// ("" for a flag without one, values joined by spaces when several).
func probeFlags(args []string) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "--") {
			continue
		}
		var vals []string
		for j := i + 1; j < len(args) && !strings.HasPrefix(args[j], "--"); j++ {
			vals = append(vals, args[j])
		}
		out[args[i]] = strings.Join(vals, " ")
	}
	return out
}

// launchArgv is the last command of a shell launch file, parsed by
// mvdan.cc/sh as the shell would run it.
func launchArgv(t *testing.T, script []byte) []string {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(bytes.NewReader(script), "")
	if err != nil || len(f.Stmts) == 0 {
		t.Fatalf("the launch file does not parse: %v", err)
	}
	call, ok := f.Stmts[len(f.Stmts)-1].Cmd.(*syntax.CallExpr)
	if !ok {
		t.Fatalf("the launch file's last statement is %T, not a command", f.Stmts[len(f.Stmts)-1].Cmd)
	}
	argv, err := expand.Fields(&expand.Config{Env: expand.ListEnviron("HOME=/home")}, call.Args...)
	if err != nil {
		t.Fatal(err)
	}
	return argv
}

// TestProbeReviews records the line-by-line review of the probe against
// the launch file for the three workloads the issue names: the probe runs
// the same precision, batch, sequence, checkpointing and optimizer as the
// torchrun file's TRL/Trainer flags, and the serving probe starts the same
// vllm serve command.
func TestProbeReviews(t *testing.T) {
	cat := loadCatalog(t)
	for _, tc := range []struct {
		name string
		pc   probeCase
		want map[string]string // launch flag → the probe's value, as the review found them
	}{
		{"QLoRA on Llama 3.1 8B", probeCase{"qlora", "llama-3.1-8b", model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048, GradAccum: 8}, "aws/g5.2xlarge"},
			map[string]string{
				"--bf16": "true", "--dtype": "bfloat16", "--per_device_train_batch_size": "1", "--gradient_accumulation_steps": "8",
				"--max_length": "2048", "--gradient_checkpointing": "true", "--loss_type": "nll", "--lora_r": "16",
				"--lora_target_modules": "q_proj k_proj v_proj o_proj", "--load_in_4bit": "", "--bnb_4bit_quant_type": "nf4", "--use_bnb_nested_quant": "",
				"--optim": "adamw_torch",
			}},
		{"ResNet-50 AMP", probeCase{"rn50", "resnet50", model.Settings{Task: model.TaskTrain, Precision: model.AMPFP16, MicroBatch: 256}, "aws/g5.2xlarge"},
			map[string]string{
				"--fp16": "true", "--dtype": "float32", "--per_device_train_batch_size": "256", "--gradient_accumulation_steps": "1",
				"--gradient_checkpointing": "false", "--optim": "sgd",
			}},
	} {
		p := catalogPlan(t, cat, tc.pc.model, tc.pc.set, tc.pc.instance)
		if tc.pc.model == "resnet50" {
			p.Script = "train_imagenet.py" // no installed entry point pre-trains a CNN: the user names theirs
		}
		sh, err := p.Render(launch.FormatTorchrun)
		if err != nil {
			t.Fatal(err)
		}
		argv := launchArgv(t, sh)
		flags := probeFlags(argv)
		for k, v := range tc.want {
			if got, ok := flags[k]; !ok || got != v {
				t.Errorf("%s: the launch file has %s %q, the review expected %q", tc.name, k, got, v)
			}
		}
		script, err := probescript.Train(p)
		if err != nil {
			t.Fatal(err)
		}
		spec := planOf(t, script)
		tr := spec["train"].(map[string]any)
		// Precision: --bf16/--fp16 true is torch.autocast in that dtype (with
		// a GradScaler for fp16); --dtype is the dtype the weights load in.
		wantAutocast := map[string]string{"--bf16": "bfloat16", "--fp16": "float16"}
		for flag, dtype := range wantAutocast {
			if flags[flag] == "true" && (tr["autocast"] != dtype || tr["grad_scaler"] != (dtype == "float16")) {
				t.Errorf("%s: %s true, the probe autocasts %v with grad scaler %v", tc.name, flag, tr["autocast"], tr["grad_scaler"])
			}
		}
		if tr["load_dtype"] != flags["--dtype"] {
			t.Errorf("%s: --dtype %s, the probe loads %v", tc.name, flags["--dtype"], tr["load_dtype"])
		}
		// Batch and accumulation.
		if fmt.Sprint(tr["micro_batch"]) != flags["--per_device_train_batch_size"] || fmt.Sprint(tr["grad_accum"]) != flags["--gradient_accumulation_steps"] {
			t.Errorf("%s: the probe runs %v × %v, the launch file %s × %s", tc.name, tr["micro_batch"], tr["grad_accum"],
				flags["--per_device_train_batch_size"], flags["--gradient_accumulation_steps"])
		}
		// Sequence: --max_length, none for images (the probe's image size is the estimate's).
		if want := flags["--max_length"]; want != "" && fmt.Sprint(tr["seq_len"]) != want || want == "" && tr["seq_len"] != float64(0) {
			t.Errorf("%s: --max_length %q, the probe's sequence %v", tc.name, want, tr["seq_len"])
		}
		if flags["--max_length"] == "" && tr["image_size"] != float64(224) {
			t.Errorf("%s: the probe's images are %v px, the estimate's 224", tc.name, tr["image_size"])
		}
		// Checkpointing.
		if fmt.Sprint(tr["checkpointing"]) != flags["--gradient_checkpointing"] {
			t.Errorf("%s: --gradient_checkpointing %s, the probe %v", tc.name, flags["--gradient_checkpointing"], tr["checkpointing"])
		}
		// Optimizer: the launch file's --optim (adamw_torch: torch.optim.AdamW;
		// sgd: SGD, with momentum as torchvision's ImageNet recipe) is the
		// probe's.
		wantOpt := map[string]string{"adamw_torch": "adamw", "sgd": "sgd-momentum"}[flags["--optim"]]
		if tr["optimizer"] != wantOpt {
			t.Errorf("%s: the probe's optimizer %v, the launch file's --optim %s", tc.name, tr["optimizer"], flags["--optim"])
		}
		lora, _ := tr["lora"].(map[string]any)
		if _, peft := flags["--use_peft"]; peft != (lora != nil) {
			t.Errorf("%s: --use_peft %v, the probe's adapters %v", tc.name, peft, lora)
		}
		if lora != nil {
			if fmt.Sprint(lora["r"]) != flags["--lora_r"] || strings.Join(anyStrings(lora["targets"]), " ") != flags["--lora_target_modules"] {
				t.Errorf("%s: LoRA %v, the launch file r %s on %s", tc.name, lora, flags["--lora_r"], flags["--lora_target_modules"])
			}
			q, _ := tr["qlora"].(map[string]any)
			_, nested := flags["--use_bnb_nested_quant"]
			if q == nil || q["quant_type"] != flags["--bnb_4bit_quant_type"] || q["double_quant"] != nested {
				t.Errorf("%s: 4-bit %v, the launch file %s nested %v", tc.name, q, flags["--bnb_4bit_quant_type"], nested)
			}
			if tr["loss"] != "hf-fp32" || flags["--loss_type"] != "nll" {
				t.Errorf("%s: loss %v, the launch file --loss_type %s", tc.name, tr["loss"], flags["--loss_type"])
			}
		}
		if launched := anyStrings(spec["launch_args"]); !reflect.DeepEqual(launched, p.ScriptArgs) {
			t.Errorf("%s: the probe records launch args %q, the plan %q", tc.name, launched, p.ScriptArgs)
		}
	}

	// vLLM serving of Llama 3.1 8B: the probe starts vllm serve with the
	// serving script's model id and engine flags, word for word.
	srv := catalogServe(t, cat, "llama-3.1-8b", serve.Serving{MaxModelLen: 8192, PromptTokens: 1024, OutputTokens: 256, Concurrency: 16}, "aws/g6e.xlarge")
	sh, err := srv.Render(launch.FormatTorchrun)
	if err != nil {
		t.Fatal(err)
	}
	argv := launchArgv(t, sh)
	script, err := probescript.Serve(srv)
	if err != nil {
		t.Fatal(err)
	}
	sv := planOf(t, script)["serve"].(map[string]any)
	want := append([]string{"exec", "vllm", "serve", sv["model_id"].(string)}, anyStrings(sv["argv"])...)
	if !reflect.DeepEqual(argv, want) {
		t.Errorf("serving: the launch script runs %q, the probe %q", argv, want)
	}
	for _, f := range []string{"--dtype", "--max-model-len", "--gpu-memory-utilization", "--max-num-seqs", "--max-num-batched-tokens", "--kv-cache-dtype"} {
		if !strings.Contains(strings.Join(argv, " "), f) {
			t.Errorf("serving: the launch script lacks %s: %q", f, argv)
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func anyStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, len(list))
	for i, x := range list {
		out[i], _ = x.(string)
	}
	return out
}

// probeSeeds are strings that would break a naively written script: line
// breaks Python honours (\n, \r), a coding declaration, quotes that close
// the literal, escapes, NUL, control and bidirectional characters.
var probeSeeds = []string{
	"x\nimport os; os.system('id')\n",
	"x\rimport os; os.system('id')",
	"# -*- coding: latin-1 -*-",
	`"); import os; os.system("id"); ("`,
	`""" + __import__("os").system("id") + """`,
	`\"); x = ("\\`,
	"\\u0022); import os #",
	"a\x00b",
	"\x1b]0;pwned\x07",
	"\u2028evil\u2029\u0085",
	"\u202eevil\u2066",
	"\xff\xfe invalid",
	"😀 astral",
	"meta-llama/Llama-3.1-8B",
	"",
}

// hostilePlan is a QLoRA plan (shape&2: ZeRO-3 on 8 GPUs) whose every name
// a catalog, config.json or flag can set is s.
func hostilePlan(t testing.TB, s string, shape uint8) (*launch.Plan, error) {
	a := model.Architecture{Key: s, Name: s, Aliases: []string{s}, Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4,
		KVHeads: 2, FFN: 512, GatedMLP: true, Vocab: 1000, Norm: model.RMSNorm}
	g := model.GPU{Key: s, Name: s, Aliases: []string{s}, Vendor: "nvidia", Architecture: s, ComputeCapability: "8.0",
		MemoryGiB: 80, BF16TFLOPS: 312, FP16TFLOPS: 312, FP32TFLOPS: 19.5, TF32TFLOPS: 156, MemoryBandwidthGBps: 2039}
	in := model.Instance{Provider: s, Type: s, GPU: s, GPUCount: 8, VCPUs: 96, MemoryGiB: 1152}
	set := model.Settings{Task: model.TaskQLoRA, MicroBatch: 2, SeqLen: 512, GPUs: 1}
	if shape&2 != 0 {
		set = model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 8, Strategy: model.ZeRO3}
	}
	w := model.Workload{Settings: set, Model: a}
	e, err := model.Compute(w, &g)
	if err != nil {
		t.Fatal(err)
	}
	o := &model.Offer{Instance: &in, GPU: &g, Region: s, Pricing: model.OnDemand, Instances: 1, GPUs: w.GPUs, Strategy: e.Workload.Strategy,
		USDPerHour: 10, Estimate: &e}
	opt := launch.Options{Name: s, Dataset: s}
	if launch.ValidBucket(s) { // NewPlan refuses other bucket names (TestValidBucket)
		opt.Bucket = s
	}
	if shape&1 != 0 {
		opt.ModelID = s
	}
	return launch.NewPlan(w, o, opt)
}

// withoutPlan is the script with its header comments dropped and the plan
// literal put back to the template's marker: what must equal probe.py.
func withoutPlan(t testing.TB, script []byte) string {
	t.Helper()
	s := string(script)
	i := strings.Index(s, `"""gpuplan probe:`)
	if i < 0 {
		t.Fatal("no docstring")
	}
	s = s[i:]
	start := strings.Index(s, "PLAN = json.loads(")
	end := strings.Index(s, ")  # gpuplan: the plan, one JSON string literal")
	if start < 0 || end < start {
		t.Fatal("no plan line")
	}
	return s[:start] + `PLAN = json.loads("{}"` + s[end:]
}

// FuzzProbeInjection puts one string into every name of a plan and checks
// the probe script: it is refused only when the string is not text, its
// header is comments, the template around the plan is byte for byte
// probe.py, and the plan literal decodes (as Python's json.loads reads a
// literal made of JSON's escapes) to exactly the plan's values. Seeds run
// as ordinary tests; run longer with
//
//	go test -run='^$' -fuzz=FuzzProbeInjection -fuzztime=5m ./model/launch/
func FuzzProbeInjection(f *testing.F) {
	for i, s := range probeSeeds {
		f.Add(s, uint8(i))
	}
	tmpl, err := os.ReadFile(filepath.Join("probescript", "probe.py")) // the template probescript embeds
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string, shape uint8) {
		p, err := hostilePlan(t, s, shape)
		if err != nil {
			if strings.HasPrefix(s, "-") && errors.Is(err, launch.ErrPlan) {
				return // a name a trainer would read as an option (TestOptionLikeNamesRefused)
			}
			t.Fatalf("NewPlan: %v", err)
		}
		out, err := probescript.Train(p)
		if !utf8.ValidString(s) {
			if !errors.Is(err, launch.ErrPlan) {
				t.Fatalf("%q is not text, but the probe was written: err = %v", s, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Probe: %v", err)
		}
		checkHeader(t, out)
		if got := withoutPlan(t, out); got != string(tmpl) {
			t.Fatalf("the script around the plan is not probe.py")
		}
		spec := planOf(t, out)
		wl := spec["workload"].(map[string]any)
		if spec["name"] != p.Name || wl["gpu"] != s || (s != "" && wl["model"] != s) {
			t.Fatalf("plan names changed: name %q (want %q), gpu %q, model %q (want %q)", spec["name"], p.Name, wl["gpu"], wl["model"], s)
		}
		if got := anyStrings(spec["launch_args"]); !reflect.DeepEqual(got, p.ScriptArgs) {
			t.Fatalf("launch args\n got %q\nwant %q", got, p.ScriptArgs)
		}
		if shape&4 == 0 || s == "" { // NewServe never leaves the model id empty
			return
		}
		// The serving probe of the same names.
		sv := &launch.Serve{Name: "gpuplan-serve", Model: s, ModelID: s, Provider: s, InstanceType: s, CatalogType: s, Region: s,
			Pricing: model.OnDemand, Accelerator: s, GPUsPerInstance: 8, TP: 1, PP: 1, ReplicasPerNode: 1, Replicas: 1, Nodes: 1, Image: "img",
			Serving: serve.Serving{WeightFormat: serve.WeightBF16, KVCacheDType: serve.KVAuto, MaxModelLen: 4096, GPUMemoryUtilization: 0.9,
				MaxNumSeqs: 64, MaxNumBatchedTokens: 2048, PromptTokens: 512, OutputTokens: 128},
			Arch: &p.Estimate.Workload.Model, Plan: &serve.Plan{Offer: serve.Offer{GPU: p.GPU}}}
		var servers []string
		if shape&8 != 0 { // an MoE model, 4 replicas of TP 2 on the node: one vllm serve each
			moe := p.Estimate.Workload.Model
			moe.Experts, moe.ExpertsPerToken = 8, 2
			sv.Arch, sv.TP, sv.ReplicasPerNode, sv.Replicas = &moe, 2, 4, 4
			servers = []string{"0,1", "2,3", "4,5", "6,7"}
		}
		out, err = probescript.Serve(sv)
		if hasPOSIXTrouble(s) {
			if !errors.Is(err, launch.ErrPlan) {
				t.Fatalf("serving %q: err = %v, want ErrPlan as the serving files", s, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("serving Probe: %v", err)
		}
		checkHeader(t, out)
		if got := withoutPlan(t, out); got != string(tmpl) {
			t.Fatalf("the serving script around the plan is not probe.py")
		}
		srv := planOf(t, out)["serve"].(map[string]any)
		if srv["model_id"] != s || !reflect.DeepEqual(anyStrings(srv["argv"]), sv.ServerArgs()) || !slices.Equal(anyStrings(srv["servers"]), servers) {
			t.Fatalf("serving plan changed: %v", srv)
		}
		if slices.Contains(sv.ServerArgs(), "--data-parallel-size") != (sv.ReplicasPerNode > 1 && len(servers) == 0) {
			t.Fatalf("serving probe of %d replicas per node (servers %q) passes %q", sv.ReplicasPerNode, servers, sv.ServerArgs())
		}
	})
}

func hasPOSIXTrouble(s string) bool {
	_, err := syntax.Quote(s, syntax.LangPOSIX)
	return err != nil || !utf8.ValidString(s)
}

// TestProbeHostilePlanInPython: Python itself reads the hostile plans'
// literal back as Go wrote it (--plan prints it), and compiles the script.
func TestProbeHostilePlanInPython(t *testing.T) {
	py := pythonWith()
	if py == "" {
		needPython(t)
	}
	dir := t.TempDir()
	for i, s := range probeSeeds {
		if !utf8.ValidString(s) {
			continue
		}
		p, err := hostilePlan(t, s, uint8(i))
		if err != nil {
			t.Fatal(err)
		}
		out, err := probescript.Train(p)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		path := filepath.Join(dir, fmt.Sprintf("p%d.py", i))
		_ = os.WriteFile(path, out, 0o644)
		if b, err := exec.Command(py, "-m", "py_compile", path).CombinedOutput(); err != nil {
			t.Fatalf("%q: py_compile: %v\n%s", s, err, b)
		}
		b, err := exec.Command(py, path, "--plan").Output()
		if err != nil {
			t.Fatalf("%q: --plan: %v", s, err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(got, planOf(t, out)) {
			t.Errorf("%q: Python read another plan (%v):\n%s", s, err, b)
		}
	}
}

// TestProbeFakeVLLM runs the serving path (no --cpu-smoke) against a fake
// vllm package and `vllm serve` (testdata/probe/fakevllm: vLLM's start-up
// log lines, /health, /metrics, streamed completions) and a fake
// nvidia-smi: the probe starts the serving files' command word for word
// (plus its port), reads the KV-cache tokens and bytes, the weights and the
// concurrency from the log, the blocks from /metrics, times the load, takes
// the device and vLLM's memory from nvidia-smi, and stops the server.
func TestProbeFakeVLLM(t *testing.T) {
	py, fake, bin := fakeVLLM(t)
	cat := loadCatalog(t)
	srv := catalogServe(t, cat, "llama-3.1-8b", serve.Serving{MaxModelLen: 8192, PromptTokens: 1024, OutputTokens: 256, Concurrency: 16}, "aws/g6e.xlarge")
	script, err := probescript.Serve(srv)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PYTHONPATH=" + fake, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	stdout, stderr, code, dir, home := runProbe(t, py, script, env, "--requests", "4", "--timeout", "60")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	r := parseResult(t, stdout, stderr)
	m := r.Measured
	const gib, mib = 1 << 30, 1 << 20
	eq := func(v *float64, want float64) bool { return v != nil && *v == want }
	switch {
	case r.Smoke || r.Device == nil || r.Device.Name != "Fake L40S" || r.Device.MemoryBytes != 46068*mib || r.Versions["driver"] != "550.54.15":
		t.Errorf("device %+v, versions %v", r.Device, r.Versions)
	case !eq(m.KVCacheTokens, 211712) || !eq(m.KVCacheTokensMetr, 211712) || !eq(m.GPUBlocks, 13232) || !eq(m.MaxConcurrency, 25.84):
		t.Errorf("KV figures %+v", m)
	case !eq(m.KVCacheBytes, math.Trunc(24.23*gib)) || !eq(m.Weights, math.Trunc(14.99*gib)): // int(float(GiB) * 2**30) in the script
		t.Errorf("memory figures %+v", m)
	case !eq(m.NvidiaSMIUsed, 43008*mib) || !eq(m.Requests, 4) || !eq(m.OutputTokens, 4*256) || m.OutputTokensPerS == nil || m.TPOTSeconds == nil:
		t.Errorf("load %+v", m)
	}
	b, err := os.ReadFile(filepath.Join(dir, "fake-vllm-argv.json"))
	if err != nil {
		t.Fatal(err)
	}
	var argv []string
	_ = json.Unmarshal(b, &argv)
	want := append([]string{"serve", srv.ModelID}, srv.ServerArgs()...)
	if len(argv) != len(want)+4 || !reflect.DeepEqual(argv[:len(want)], want) || argv[len(want)] != "--port" || argv[len(want)+3] != "127.0.0.1" {
		t.Errorf("vllm ran with %q, the serving files pass %q", argv, want)
	}
	pid, _ := os.ReadFile(filepath.Join(dir, "fake-vllm.pid"))
	if n, err := strconv.Atoi(strings.TrimSpace(string(pid))); err != nil || processAlive(n) {
		t.Errorf("the vllm server (pid %q) was left running", pid)
	}
	emptyDir(t, home)
	if _, err := os.Stat(filepath.Join(dir, ".gpuplan-probe", "vllm-serve.log")); err != nil {
		t.Errorf("no server log in the working directory: %v", err)
	}
}

// TestProbeFakeVLLMMoE: for an MoE model whose replicas share the node
// (Mixtral 8x7B in fp8, TP 2 × 4 replicas on g6e.48xlarge, 8 × L40S as
// the fake nvidia-smi has them) the probe starts the serving script's
// servers, not one with --data-parallel-size: four vllm serve with the
// script's engine flags (ServerArgs), each on its replica's GPUs
// (CUDA_VISIBLE_DEVICES 0,1 / 2,3 / 4,5 / 6,7) and its own port, sends
// the requests to them in turn (8 requests: 2 each, after one warm-up
// each), counts the memory of all four (4 × 43008 MiB from the fake
// nvidia-smi), says so in a note, stops them all, and prints a line that
// probe.Parse and probe.Compare accept.
func TestProbeFakeVLLMMoE(t *testing.T) {
	py, fake, bin := fakeVLLM(t)
	cat := loadCatalog(t)
	srv := catalogServe(t, cat, "mixtral-8x7b", serve.Serving{WeightFormat: serve.WeightFP8, MaxModelLen: 8192, PromptTokens: 1024, OutputTokens: 64,
		Concurrency: 16, TP: 2, Replicas: 4}, "aws/g6e.48xlarge")
	if !srv.OneServerPerReplica() || srv.ReplicasPerNode != 4 || srv.TP != 2 {
		t.Fatalf("want 4 replicas of TP 2 on the node, one server each: %d of TP %d (%v)", srv.ReplicasPerNode, srv.TP, srv.OneServerPerReplica())
	}
	script, err := probescript.Serve(srv)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "# probe: starts the serving script's 4 vllm serve on this node, one per replica on GPUs 0,1 / 2,3 / 4,5 / 6,7 (no --data-parallel-size") {
		t.Errorf("the header does not say which servers the probe starts:\n%.2000s", script)
	}
	env := []string{"PYTHONPATH=" + fake, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "FAKE_SMI_GPUS=8"}
	stdout, stderr, code, dir, _ := runProbe(t, py, script, env, "--requests", "8", "--timeout", "60")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	r := parseResult(t, stdout, stderr)
	const mib = 1 << 20
	if m := r.Measured; m.NvidiaSMIUsed == nil || *m.NvidiaSMIUsed != 4*43008*mib || m.Requests == nil || *m.Requests != 8 || m.KVCacheTokens == nil {
		t.Errorf("measured %+v", m)
	}
	if !reflect.DeepEqual(r.Ran.Argv, srv.ServerArgs()) || slices.Contains(r.Ran.Argv, "--data-parallel-size") {
		t.Errorf("ran %q, the serving script passes %q", r.Ran.Argv, srv.ServerArgs())
	}
	if !strings.Contains(strings.Join(r.Ran.Notes, " "), "4 vllm serve, one per replica on GPUs 0,1 / 2,3 / 4,5 / 6,7") {
		t.Errorf("notes %q", r.Ran.Notes)
	}
	if r.Serve == nil || r.Serve.ReplicasPerNode != 4 || r.Serve.Concurrency != srv.Plan.Perf.Batch*4 {
		t.Errorf("plan %+v", r.Serve)
	}
	if _, err := probe.Compare(r, cat); err != nil {
		t.Errorf("probe compare: %v", err)
	}
	ports := map[string]bool{}
	for i := range 4 {
		files, _ := filepath.Glob(filepath.Join(dir, "fake-vllm-port-*.json"))
		if len(files) != 4 {
			t.Fatalf("%d servers started, want 4", len(files))
		}
		b, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Argv []string `json:"argv"`
			PID  int      `json:"pid"`
			CUDA string   `json:"cuda_visible_devices"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		want := append([]string{"serve", srv.ModelID}, srv.ServerArgs()...)
		n := len(want)
		if len(got.Argv) != n+4 || !reflect.DeepEqual(got.Argv[:n], want) || got.Argv[n] != "--port" || got.Argv[n+3] != "127.0.0.1" {
			t.Errorf("server %d ran %q, want %q", i, got.Argv, want)
		}
		if processAlive(got.PID) {
			t.Errorf("server %d (pid %d) was left running", i, got.PID)
		}
		port := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(files[i]), "fake-vllm-port-"), ".json")
		ports[got.CUDA] = true
		reqs, _ := os.ReadFile(filepath.Join(dir, "fake-vllm-port-"+port+".requests"))
		if n := strings.Count(string(reqs), "\n"); n != 3 {
			t.Errorf("server on GPUs %s got %d requests, want 3 (a warm-up and 2 of the 8)", got.CUDA, n)
		}
	}
	for i := range 4 {
		if !ports[srv.ReplicaGPUs(i)] {
			t.Errorf("no server on GPUs %s: %v", srv.ReplicaGPUs(i), ports)
		}
	}
}

// TestProbeRefusesLinkedCacheDir: the probe writes its caches under
// ./.gpuplan-probe; a symbolic link (or a file) planted under that name is
// refused with one line and exit 2 before anything is written through it
// (attack round 9).
func TestProbeRefusesLinkedCacheDir(t *testing.T) {
	py := pythonWith()
	if py == "" {
		needPython(t)
	}
	p, err := hostilePlan(t, "probe-link", 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := probescript.Train(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"link", "file"} {
		dir, elsewhere := t.TempDir(), t.TempDir()
		script := filepath.Join(dir, "gpuplan-probe.py")
		if err := os.WriteFile(script, out, 0o644); err != nil {
			t.Fatal(err)
		}
		planted := filepath.Join(dir, ".gpuplan-probe")
		if kind == "link" {
			err = os.Symlink(elsewhere, planted)
		} else {
			err = os.WriteFile(planted, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(py, script, "--cpu-smoke")
		cmd.Dir = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%s: exit %v, want 2; stderr %s", kind, err, stderr.String())
		}
		if want := "gpuplan probe: ./.gpuplan-probe is not a plain directory; remove it, or run from another directory\n"; stderr.String() != want {
			t.Errorf("%s: stderr %q, want %q", kind, stderr.String(), want)
		}
		if left, _ := os.ReadDir(elsewhere); len(left) > 0 {
			t.Errorf("%s: the probe wrote through the link: %v", kind, left)
		}
	}
}

// probeCacheDirs are the folders under ./.gpuplan-probe the probe points
// the libraries' caches at (confine in probe.py).
var probeCacheDirs = []string{"hf", "cache", "triton", "inductor", "torch_extensions", "nv", "vllm", "matplotlib",
	"tmp", "numba", "pycache", "torch", "deepspeed"}

// runPlanted writes script into a fresh working directory whose
// ./.gpuplan-probe holds a symbolic link name → victim (a file outside,
// holding "precious"), runs it and returns the exit code and stderr; the
// victim must be left as it was.
func runPlanted(t *testing.T, py string, script []byte, name string, env []string, args ...string) (int, string) {
	t.Helper()
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gpuplan-probe.py"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(outside, "victim")
	if strings.HasSuffix(name, "/") { // a folder: the link points at an empty folder outside
		victim = filepath.Join(outside, "victim-dir")
		if err := os.Mkdir(victim, 0o755); err != nil {
			t.Fatal(err)
		}
	} else if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(dir, ".gpuplan-probe", strings.TrimSuffix(name, "/"))
	if err := os.MkdirAll(filepath.Dir(planted), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, planted); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, append([]string{"gpuplan-probe.py"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1",
		"OMP_NUM_THREADS=1"}, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, "/") {
		if left, _ := os.ReadDir(victim); len(left) > 0 {
			t.Errorf("%s: the probe wrote through the link: %v", name, left)
		}
	} else if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("%s: the probe wrote through the link: the file outside now holds %q", name, b)
	}
	return code, stderr.String()
}

// TestProbeRefusesLinksInside: a symbolic link planted inside a plain
// ./.gpuplan-probe — a cache folder, the serving log — is refused with one
// line naming it and exit 2; nothing is written through it (attack round
// 11: a linked vllm-serve.log truncated the file it pointed at).
func TestProbeRefusesLinksInside(t *testing.T) {
	py := pythonWith()
	if py == "" {
		needPython(t)
	}
	p, err := hostilePlan(t, "probe-link", 0)
	if err != nil {
		t.Fatal(err)
	}
	train, err := probescript.Train(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range probeCacheDirs {
		code, stderr := runPlanted(t, py, train, sub+"/", nil, "--cpu-smoke")
		want := "gpuplan probe: ./.gpuplan-probe/" + sub + " is a symbolic link or not a plain directory; remove it, or run from another directory\n"
		if code != 2 || stderr != want {
			t.Errorf("%s: exit %d, stderr %q; want 2, %q", sub, code, stderr, want)
		}
	}

	// vllm serve's log, with the fake vllm of TestProbeFakeVLLM on PATH: the
	// log is refused before vllm starts.
	fake, err := filepath.Abs("testdata/probe/fakevllm")
	if err != nil {
		t.Fatal(err)
	}
	bin := fakeNvidiaSMI(t)
	wrapper := "#!/bin/sh\nexec " + py + " " + filepath.Join(fake, "vllm_serve.py") + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "vllm"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t, loadCatalog(t), "llama-3.1-8b", serve.Serving{MaxModelLen: 8192, PromptTokens: 1024, OutputTokens: 256, Concurrency: 16}, "aws/g6e.xlarge")
	serving, err := probescript.Serve(srv)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PYTHONPATH=" + fake, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	const wantLog = "gpuplan probe: ./.gpuplan-probe/vllm-serve.log is a symbolic link or not a plain file; remove it, or run from another directory\n"
	if code, stderr := runPlanted(t, py, serving, "vllm-serve.log", env, "--requests", "1", "--timeout", "30"); code != 2 || stderr != wantLog {
		t.Errorf("vllm-serve.log: exit %d, stderr %q; want 2, %q", code, stderr, wantLog)
	}
	// The smoke server writes the same log (it needs torch).
	if tpy := pythonWith("torch"); tpy != "" {
		if code, stderr := runPlanted(t, tpy, serving, "vllm-serve.log", nil, "--cpu-smoke"); code != 2 || stderr != wantLog {
			t.Errorf("vllm-serve.log, smoke: exit %d, stderr %q; want 2, %q", code, stderr, wantLog)
		}
	}
}

// TestProbeRandomCheckpointLinks: QLoRA's random checkpoint folder
// (random_checkpoint in probe.py, which build_hf calls with the writer of
// the safetensors shards) refuses a linked folder, removes an unfinished
// one holding a planted link rather than saving through it, writes into a
// fresh private folder renamed into place, and reuses a finished one. The
// writer here stands in for safetensors and save_pretrained: it opens its
// files by name, following links as they do.
func TestProbeRandomCheckpointLinks(t *testing.T) {
	py := pythonWith()
	if py == "" {
		needPython(t)
	}
	p, err := hostilePlan(t, "probe-link", 0)
	if err != nil {
		t.Fatal(err)
	}
	script, err := probescript.Train(p)
	if err != nil {
		t.Fatal(err)
	}
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gpuplan-probe.py"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	driver := `
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("probe", "gpuplan-probe.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
base = m.confine(os.getcwd(), "")
calls = []
def write(into):
    calls.append(into)
    for n in ("config.json", "model-00001.safetensors"):
        with open(os.path.join(into, n), "w") as f:
            f.write("random\n")
    with m.open_fresh(into, "model.safetensors.index.json", "w") as f:
        f.write("{}\n")
victim = sys.argv[1]
out = []
# 1. the folder itself is a link: refused.
os.symlink(os.path.dirname(victim), os.path.join(base, "random-checkpoint-a"))
try:
    m.random_checkpoint(base, "a", write)
    out.append("a: written")
except m.Refusal as e:
    out.append("a: " + str(e))
# 2. an unfinished folder from an older run with a planted link: removed, written afresh.
os.mkdir(os.path.join(base, "random-checkpoint-b"))
os.symlink(victim, os.path.join(base, "random-checkpoint-b", "config.json"))
path = m.random_checkpoint(base, "b", write)
out.append("b: %s %s %s" % (os.path.basename(path), os.path.islink(os.path.join(path, "config.json")), sorted(os.listdir(path))))
# 3. the finished folder is reused, not written again.
n = len(calls)
m.random_checkpoint(base, "b", write)
out.append("b again: %d writes" % (len(calls) - n))
out.append("staging left: %s" % sorted(x for x in os.listdir(base) if x.startswith(".")))
print(json.dumps(out))
`
	cmd := exec.Command(py, "-c", driver, victim)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"}
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var got []string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	want := []string{
		"a: ./.gpuplan-probe/random-checkpoint-a is a symbolic link or not a plain directory; remove it, or run from another directory",
		"b: random-checkpoint-b False ['config.json', 'model-00001.safetensors', 'model.safetensors.index.json']",
		"b again: 0 writes",
		"staging left: []",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the probe wrote through the link: the file outside now holds %q", b)
	}
	if left, _ := os.ReadDir(outside); len(left) != 1 {
		t.Errorf("the probe wrote outside: %v", left)
	}
}

// fakeVLLM puts a fake vllm (testdata/probe/fakevllm's vllm_serve.py run
// by the Python found) and a fake nvidia-smi in a directory of their own:
// the Python, the fake package's directory (PYTHONPATH) and the bin
// directory to put first on PATH.
func fakeVLLM(t *testing.T) (py, fake, bin string) {
	t.Helper()
	py = needPython(t)
	fake, err := filepath.Abs("testdata/probe/fakevllm")
	if err != nil {
		t.Fatal(err)
	}
	bin = fakeNvidiaSMI(t)
	wrapper := "#!/bin/sh\nexec " + py + " " + filepath.Join(fake, "vllm_serve.py") + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "vllm"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	return py, fake, bin
}
