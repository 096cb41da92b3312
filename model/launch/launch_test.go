package launch_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/launch/probescript"
	"github.com/gpuplan/gpuplan/model/serve"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// Test GPUs: datasheet figures as in data/catalog/gpus.toml.
var (
	a10g = model.GPU{Key: "a10g", Name: "NVIDIA A10G", Aliases: []string{"A10G"}, Vendor: "nvidia", Architecture: "ampere",
		ComputeCapability: "8.6", MemoryGiB: 24, UsableMemoryMiB: 22888, MemoryBandwidthGBps: 600,
		FP32TFLOPS: 35, TF32TFLOPS: 35, FP16TFLOPS: 70, BF16TFLOPS: 70, Interconnect: "pcie"}
	a100 = model.GPU{Key: "a100-80gb", Name: "NVIDIA A100 80GB SXM4", Aliases: []string{"A100-80GB"}, Vendor: "nvidia",
		Architecture: "ampere", ComputeCapability: "8.0", MemoryGiB: 80, MemoryBandwidthGBps: 2039,
		FP32TFLOPS: 19.5, TF32TFLOPS: 156, FP16TFLOPS: 312, BF16TFLOPS: 312, Interconnect: "nvlink"}
	h100 = model.GPU{Key: "h100-sxm", Name: "NVIDIA H100 SXM5 80GB", Aliases: []string{"H100", "H100-SXM"}, Vendor: "nvidia",
		Architecture: "hopper", ComputeCapability: "9.0", MemoryGiB: 80, MemoryBandwidthGBps: 3350,
		FP32TFLOPS: 67, TF32TFLOPS: 494.5, FP16TFLOPS: 989.5, BF16TFLOPS: 989.5, FP8TFLOPS: 1979, Interconnect: "nvlink"}
)

// llama8B is the Llama 3.1 8B shape (config.json of meta-llama/Llama-3.1-8B).
var llama8B = model.Architecture{Key: "llama-3.1-8b", Name: "Llama 3.1 8B", Aliases: []string{"llama3.1-8b", "meta-llama/Llama-3.1-8B"}, Family: model.FamilyDecoder,
	Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, GatedMLP: true, Vocab: 128256,
	Norm: model.RMSNorm, MaxPositions: 131072, DefaultSeqLen: 2048}

// testCatalog has one instance type per case, priced like AWS.
func testCatalog() *model.Catalog {
	c := &model.Catalog{
		GPUs: []model.GPU{a10g, a100, h100},
		Instances: []model.Instance{
			{Provider: "aws", Type: "g5.2xlarge", GPU: "a10g", GPUCount: 1, VCPUs: 8, MemoryGiB: 32, SkyPilotAccelerator: "A10G",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 1.212, SpotUSD: 0.4738}, {Region: "us-west-2", OnDemandUSD: 1.212, SpotUSD: 0.3727}}},
			{Provider: "aws", Type: "p4de.24xlarge", GPU: "a100-80gb", GPUCount: 8, VCPUs: 96, MemoryGiB: 1152, Interconnect: "nvswitch", SkyPilotAccelerator: "A100-80GB",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 27.44705, SpotUSD: 8.6505}}},
			{Provider: "aws", Type: "p5.48xlarge", GPU: "h100-sxm", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, SkyPilotAccelerator: "H100",
				NetworkGbps: 3200, Interconnect: "nvswitch",
				Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 55.04, SpotUSD: 23.1449}}},
		},
	}
	c.Index()
	return c
}

// testCase is one of the three launch shapes the goldens cover.
type testCase struct {
	name     string
	w        model.Workload
	q        model.Query
	instance string
	// script is the user's --script, which pre-training needs (it has no
	// installed entry point); plan uses it unless the options name one.
	script string
}

var cases = []testCase{
	{
		name: "one_gpu", instance: "g5.2xlarge",
		w: model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 2, SeqLen: 2048, GradAccum: 8, DatasetTokens: 50e6}, Model: llama8B},
		q: model.Query{Pricing: model.OnDemand, Regions: []string{"us-east-1"}},
	},
	{
		name: "one_node_8gpu", instance: "p4de.24xlarge",
		w: model.Workload{
			Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 4, SeqLen: 4096, GradAccum: 4, Checkpointing: model.Bool(true), GPUs: 8, Strategy: model.ZeRO3, DatasetTokens: 1e9},
			Model:    llama8B,
		},
		q: model.Query{Pricing: model.OnDemand},
	},
	{
		name: "two_nodes_spot", instance: "p5.48xlarge", script: "train.py",
		w: model.Workload{
			Settings: model.Settings{Task: model.TaskTrain, MicroBatch: 4, SeqLen: 4096, GradAccum: 2, Checkpointing: model.Bool(true), GPUs: 16, Strategy: model.FSDP, DatasetTokens: 20e9},
			Model:    llama8B,
		},
		q: model.Query{Pricing: model.Spot, AllowMultiNode: true},
	},
}

// plan resolves tc's offer through model.Recommend, as gpuplan export does.
func plan(t *testing.T, tc testCase, opt launch.Options) *launch.Plan {
	t.Helper()
	rec, err := model.Recommend(tc.w, testCatalog(), tc.q)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Offers {
		o := &rec.Offers[i]
		if o.Instance.Type != tc.instance {
			continue
		}
		if opt.Script == "" {
			opt.Script = tc.script
		}
		p, err := launch.NewPlan(tc.w, o, opt)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Fatalf("%s: no offer on %s; rejected: %+v", tc.name, tc.instance, rec.Rejected)
	return nil
}

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./model/launch -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./model/launch -update, then read the diff):\n%s", path, got)
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range cases {
		p := plan(t, tc, launch.Options{})
		for _, f := range launch.Formats {
			t.Run(tc.name+"/"+string(f), func(t *testing.T) {
				out, err := p.Render(f)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, tc.name+"."+string(f), out)
			})
		}
		if ds := p.DeepSpeedConfig(); ds != nil {
			golden(t, tc.name+".deepspeed", ds)
		}
	}
}

func TestPlanShape(t *testing.T) {
	for _, tc := range []struct {
		c                          testCase
		nodes, procs, perInstance  int
		strategy                   model.Strategy
		spot                       bool
		zero                       int
		wantArgs, accel, wheel     string
		minDisk                    int
		region, name, precision    string
		deepspeedNil               bool
		pricing                    model.Pricing
		usdPerHourMin, usdPerHourM float64
	}{
		{c: cases[0], nodes: 1, procs: 1, perInstance: 1, strategy: model.Single, wantArgs: "--model_name_or_path meta-llama/Llama-3.1-8B --dataset_name CHANGE-ME/dataset --output_dir outputs --bf16 true --gradient_checkpointing true --dtype bfloat16 --loss_type nll --optim adamw_torch --learning_rate 2e-04 --use_peft --lora_r 16 --lora_alpha 32 --lora_target_modules q_proj k_proj v_proj o_proj --load_in_4bit --bnb_4bit_quant_type nf4 --use_bnb_nested_quant --num_train_epochs 1 --max_length 2048 --per_device_train_batch_size 2 --gradient_accumulation_steps 8",
			accel: "A10G", wheel: "cu130", minDisk: 100, region: "us-east-1", name: "gpuplan-llama-3-1-8b", precision: "amp-bf16", deepspeedNil: true, pricing: model.OnDemand},
		{c: cases[1], nodes: 1, procs: 8, perInstance: 8, strategy: model.ZeRO3, zero: 3, wantArgs: "--model_name_or_path meta-llama/Llama-3.1-8B --dataset_name CHANGE-ME/dataset --output_dir outputs --bf16 true --deepspeed gpuplan-deepspeed.json --gradient_checkpointing true --dtype float32 --loss_type nll --optim adamw_torch --learning_rate 2e-05 --num_train_epochs 1 --max_length 4096 --per_device_train_batch_size 4 --gradient_accumulation_steps 4",
			accel: "A100-80GB", wheel: "cu130", minDisk: 250, region: "us-east-1", name: "gpuplan-llama-3-1-8b", precision: "amp-bf16", pricing: model.OnDemand},
		{c: cases[2], nodes: 2, procs: 8, perInstance: 8, strategy: model.FSDP, spot: true, wantArgs: "--model_name_or_path meta-llama/Llama-3.1-8B --dataset_name CHANGE-ME/dataset --output_dir /checkpoints/gpuplan-llama-3-1-8b --bf16 true --fsdp full_shard auto_wrap --fsdp_config {\"cpu_ram_efficient_loading\": true, \"sync_module_states\": true} --gradient_checkpointing true --dtype float32 --loss_type nll --optim adamw_torch --num_train_epochs 1 --max_length 4096 --per_device_train_batch_size 4 --gradient_accumulation_steps 2",
			accel: "H100", wheel: "cu130", minDisk: 300, region: "us-east-1", name: "gpuplan-llama-3-1-8b", precision: "amp-bf16", deepspeedNil: true, pricing: model.Spot},
	} {
		p := plan(t, tc.c, launch.Options{})
		if p.Nodes != tc.nodes || p.ProcsPerNode != tc.procs || p.GPUsPerInstance != tc.perInstance {
			t.Errorf("%s: nodes × procs (of GPUs) = %d × %d (%d), want %d × %d (%d)", tc.c.name, p.Nodes, p.ProcsPerNode, p.GPUsPerInstance, tc.nodes, tc.procs, tc.perInstance)
		}
		if p.Strategy != tc.strategy || p.ZeRO() != tc.zero || p.Spot() != tc.spot || p.Pricing != tc.pricing {
			t.Errorf("%s: strategy %s zero %d spot %v pricing %s, want %s %d %v %s", tc.c.name, p.Strategy, p.ZeRO(), p.Spot(), p.Pricing, tc.strategy, tc.zero, tc.spot, tc.pricing)
		}
		wantArgs := tc.wantArgs
		if tc.spot { // every τ of the spot estimate (TestSpotSaveStepsFollowTau checks the steps)
			if p.SaveSteps <= 0 {
				t.Errorf("%s: spot plan with no save steps", tc.c.name)
			}
			wantArgs += fmt.Sprintf(" --save_strategy steps --save_steps %d --save_total_limit 2", p.SaveSteps)
		}
		if got := strings.Join(p.ScriptArgs, " "); got != wantArgs {
			t.Errorf("%s: script args %q, want %q", tc.c.name, got, wantArgs)
		}
		if p.Accelerator != tc.accel || p.Wheel != tc.wheel || p.Region != tc.region || p.Name != tc.name || string(p.Precision) != tc.precision {
			t.Errorf("%s: accelerator %s wheel %s region %s name %s precision %s", tc.c.name, p.Accelerator, p.Wheel, p.Region, p.Name, p.Precision)
		}
		if p.DiskGB < tc.minDisk || p.DiskGB%50 != 0 {
			t.Errorf("%s: disk %d GB, want a multiple of 50 ≥ %d", tc.c.name, p.DiskGB, tc.minDisk)
		}
		if (p.DeepSpeedConfig() == nil) != tc.deepspeedNil {
			t.Errorf("%s: DeepSpeed config present = %v", tc.c.name, p.DeepSpeedConfig() != nil)
		}
	}
}

func TestOptionsOverride(t *testing.T) {
	p := plan(t, cases[1], launch.Options{Name: "My Run!", Script: "finetune.py", ScriptArgs: []string{"--config", "a b.yaml"},
		DiskGB: 777, Image: "registry.example/me/train:1", Wheel: "cu126", Port: 12345})
	if p.Name != "my-run" || p.Script != "finetune.py" || p.DiskGB != 777 || p.Image != "registry.example/me/train:1" || p.Wheel != "cu126" || p.Port != 12345 {
		t.Errorf("options not applied: %+v", p)
	}
	script, err := p.Torchrun()
	if err != nil {
		t.Fatal(err)
	}
	out := string(script)
	for _, want := range []string{"finetune.py \\\n", `--config 'a b.yaml'`, "--nproc-per-node=8"} {
		if !strings.Contains(out, want) {
			t.Errorf("torchrun script lacks %q:\n%s", want, out)
		}
	}
	sky, err := p.SkyPilot()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sky), "https://download.pytorch.org/whl/cu126  # wheel chosen with --wheel") {
		t.Errorf("SkyPilot setup ignores --wheel:\n%s", sky)
	}
	// Empty non-nil ScriptArgs passes no arguments.
	p = plan(t, cases[0], launch.Options{ScriptArgs: []string{}})
	if len(p.ScriptArgs) != 0 {
		t.Errorf("empty ScriptArgs replaced by %q", p.ScriptArgs)
	}
}

func TestUnevenGPUsAreRejected(t *testing.T) {
	tc := cases[2]
	tc.w.GPUs = 12 // 2 nodes of 8: 6 per node is fine
	if p := plan(t, tc, launch.Options{}); p.ProcsPerNode != 6 || p.Nodes != 2 {
		t.Errorf("12 GPUs on 8-GPU nodes: %d × %d, want 2 × 6", p.Nodes, p.ProcsPerNode)
	}
	// 9 GPUs: the ranking refuses the type (model's shape: the launch
	// files start one count on every node), and NewPlan refuses such an
	// offer made by hand.
	tc.w.GPUs = 9
	rec, err := model.Recommend(tc.w, testCatalog(), tc.q)
	if err != nil && !errors.Is(err, model.ErrNoOffers) {
		t.Fatal(err)
	}
	for i := range rec.Offers {
		if rec.Offers[i].Instance.Type == tc.instance {
			t.Fatalf("9 GPUs on 8-GPU nodes offered: %+v", rec.Offers[i])
		}
	}
	tc.w.GPUs = 12
	rec, err = model.Recommend(tc.w, testCatalog(), tc.q)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Offers {
		if odd := rec.Offers[i]; odd.Instance.Type == tc.instance {
			odd.GPUs = 9
			if _, err := launch.NewPlan(tc.w, &odd, launch.Options{}); !errors.Is(err, launch.ErrPlan) || !strings.Contains(err.Error(), "9 GPUs do not split evenly over 2 nodes") {
				t.Errorf("9 GPUs over 2 nodes: err = %v", err)
			}
			return
		}
	}
	t.Fatal("no p5 offer for 12 GPUs")
}

// TestShellSyntax runs bash -n (and sh -n on the POSIX scripts) over the
// scripts and the scripts inside the YAML, so a quoting slip fails here
// rather than on a cluster.
func TestShellSyntax(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, tc := range cases {
		p := plan(t, tc, launch.Options{ScriptArgs: []string{"--note", "it's $HOME", "a b"}})
		docker, err := p.Docker()
		if err != nil {
			t.Fatal(err)
		}
		torchrun, err := p.Torchrun()
		if err != nil {
			t.Fatal(err)
		}
		scripts := map[string][]byte{"torchrun": torchrun, "docker": docker}
		sky, err := p.SkyPilot()
		if err != nil {
			t.Fatal(err)
		}
		task := parseSkyPilot(t, sky)
		scripts["skypilot setup"], scripts["skypilot run"] = []byte(task.Setup), []byte(task.Run)
		k8s, err := p.Kubernetes()
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range containersOf(t, k8s) {
			scripts["k8s container "+string(rune('0'+i))] = []byte(c.Args[0])
		}
		for name, s := range scripts {
			shells := [][]string{{sh, "-n"}}
			if posix, err := exec.LookPath("sh"); err == nil && (name == "torchrun" || name == "docker") {
				shells = append(shells, []string{posix, "-n"})
			}
			for _, c := range shells {
				cmd := exec.Command(c[0], c[1:]...)
				cmd.Stdin = bytes.NewReader(s)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s %s: %s -n: %v %s\n%s", tc.name, name, c[0], err, out, s)
				}
			}
		}

	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]launch.Format{"toml": launch.FormatTOML, "SkyPilot": launch.FormatSkyPilot, "kubernetes": launch.FormatK8s, " docker ": launch.FormatDocker, "sh": launch.FormatTorchrun} {
		if got, err := launch.ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := launch.ParseFormat("helm"); err == nil || !strings.Contains(err.Error(), "want toml, skypilot, torchrun, docker or k8s") {
		t.Errorf("ParseFormat(helm) error = %v", err)
	}
}

func TestDiskSize(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskInference}, Model: llama8B}
	w.Defaults()
	// 60 GB base + 16 GB of bf16 weights = 76 GB × 1.2 = 91.2 → the 100 GB floor.
	if got := launch.DiskSizeGB(&w, 8e9); got != 100 {
		t.Errorf("8B inference: %d GB, want 100", got)
	}
	w = model.Workload{Settings: model.Settings{Task: model.TaskFinetune, DatasetTokens: 10e9}, Model: llama8B}
	w.Defaults()
	// 60 + 16 (weights) + 2 × 16 × 8 = 256 (states) + 40 (10 G tokens × 4 B) = 372 GB × 1.2 = 446.4 → 450.
	if got := launch.DiskSizeGB(&w, 8e9); got != 450 {
		t.Errorf("8B finetune on 10 G tokens: %d GB, want 450", got)
	}
}

// TestGoldenPyTorchJob: the two-node spot case as a Training Operator v1
// PyTorchJob (FormatPyTorchJob).
func TestGoldenPyTorchJob(t *testing.T) {
	out, err := plan(t, cases[2], launch.Options{}).Render(launch.FormatPyTorchJob)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, cases[2].name+".pytorchjob", out)
}

// llama70B is meta-llama/Llama-3.1-70B's config.json shape.
var llama70B = model.Architecture{Key: "llama-3.1-70b", Name: "Llama 3.1 70B", Aliases: []string{"meta-llama/Llama-3.1-70B"},
	Family: model.FamilyDecoder, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, GatedMLP: true, Vocab: 128256,
	Norm: model.RMSNorm, MaxPositions: 131072}

// serve70BAWQ plans Llama 3.1 70B AWQ at 8k context on the test
// catalog's p5.48xlarge, TP 2 × 4 engines on the node.
func serve70BAWQ(t *testing.T) serve.Plan {
	t.Helper()
	cat := testCatalog()
	in := &cat.Instances[2]
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := serve.PlanServing(&llama70B, serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 8192, PromptTokens: 6144,
		OutputTokens: 2048, Concurrency: 64, TP: 2, Replicas: 4}, serve.OfferFor(in, g, 55.04, "aws p5.48xlarge"))
	if err != nil || !sp.Fits {
		t.Fatalf("%v %v", err, sp.Reasons)
	}
	return sp
}

// TestServeGolden: Llama 3.1 70B AWQ at 8k context on p5.48xlarge with
// TP 2 and four engines on the node, in every format.
func TestServeGolden(t *testing.T) {
	sp := serve70BAWQ(t)
	s, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{ModelID: "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if s.ReplicasPerNode != 4 || s.Nodes != 1 || s.GPUsPerNode() != 8 {
		t.Errorf("%d engines per node on %d nodes using %d GPUs, want 4 on 1 using 8", s.ReplicasPerNode, s.Nodes, s.GPUsPerNode())
	}
	for _, f := range launch.Formats {
		out, err := s.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "serve_70b_awq."+string(f), out)
	}
}

// mixtral8x7B is mistralai/Mixtral-8x7B-v0.1's config.json shape
// (hidden_size 4096, 32 layers, 32 heads, 8 KV heads, intermediate_size
// 14336 per expert, num_local_experts 8, num_experts_per_tok 2, vocab
// 32000, max_position_embeddings 32768), as the catalog has it.
var mixtral8x7B = model.Architecture{Key: "mixtral-8x7b", Name: "Mixtral 8x7B", Aliases: []string{"mistralai/Mixtral-8x7B-v0.1"},
	Family: model.FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, GatedMLP: true, Vocab: 32000,
	Norm: model.RMSNorm, MaxPositions: 32768, Experts: 8, ExpertsPerToken: 2}

// TestServeMoEGolden: Mixtral 8x7B in bf16 at 8k context on p5.48xlarge
// with TP 2 and four replicas on the node, which an MoE model runs as
// four vllm serve (OneServerPerReplica), in the formats that start them.
func TestServeMoEGolden(t *testing.T) {
	cat := testCatalog()
	in := &cat.Instances[2]
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := serve.PlanServing(&mixtral8x7B, serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 8192, PromptTokens: 6144,
		OutputTokens: 2048, Concurrency: 64, TP: 2, Replicas: 4}, serve.OfferFor(in, g, 55.04, "aws p5.48xlarge"))
	if err != nil || !sp.Fits {
		t.Fatalf("%v %v", err, sp.Reasons)
	}
	s, err := launch.NewServe(&mixtral8x7B, &sp, launch.ServeOptions{ModelID: "mistralai/Mixtral-8x7B-Instruct-v0.1", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if !s.OneServerPerReplica() || s.ReplicasPerNode != 4 {
		t.Fatalf("%d replicas per node, one server each %v; want 4, true", s.ReplicasPerNode, s.OneServerPerReplica())
	}
	for _, f := range []launch.Format{launch.FormatTorchrun, launch.FormatDocker, launch.FormatTOML} {
		out, err := s.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "serve_mixtral_moe."+string(f), out)
	}
}

// BenchmarkRender renders the two-node spot plan in every format.
func BenchmarkRender(b *testing.B) {
	rec, err := model.Recommend(cases[2].w, testCatalog(), cases[2].q)
	if err != nil {
		b.Fatal(err)
	}
	p, err := launch.NewPlan(cases[2].w, &rec.Offers[0], launch.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, f := range launch.Formats {
			if _, err := p.Render(f); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestSkyPilotRefusesUnknownCloud: an overlay's own provider ("lab") is no
// SkyPilot cloud, so the SkyPilot file is refused, saying which clouds
// resources.cloud takes, rather than written with a cloud sky rejects;
// the other formats do not depend on it.
func TestSkyPilotRefusesUnknownCloud(t *testing.T) {
	p := plan(t, cases[0], launch.Options{})
	if _, err := p.SkyPilot(); err != nil {
		t.Fatalf("%s: %v", p.Provider, err)
	}
	p.Provider = "lab"
	_, err := p.SkyPilot()
	if !errors.Is(err, launch.ErrPlan) || !strings.Contains(err.Error(), `SkyPilot has no cloud named "lab"`) || !strings.Contains(err.Error(), "aws, azure, gcp") {
		t.Errorf("SkyPilot for provider lab: err = %v", err)
	}
	if _, err := p.Torchrun(); err != nil {
		t.Errorf("torchrun for provider lab: %v", err)
	}
}

// TestArmHostNote: an offer on an arm64 host (Grace) says in every launch
// file that wheels and images must be arm64, as the screens do; an x86_64
// host's files do not.
func TestArmHostNote(t *testing.T) {
	tc := cases[0]
	rec, err := model.Recommend(tc.w, testCatalog(), tc.q)
	if err != nil || len(rec.Offers) == 0 {
		t.Fatalf("%d offers, %v", len(rec.Offers), err)
	}
	o := rec.Offers[0]
	for _, arch := range []string{"x86_64", "arm64"} {
		in := *o.Instance
		in.CPUArch = arch
		o.Instance = &in
		p, err := launch.NewPlan(tc.w, &o, launch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []launch.Format{launch.FormatTorchrun, launch.FormatSkyPilot, launch.FormatDocker} {
			out, err := p.Render(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(out), model.ArmHostWarning); got != (arch == "arm64") {
				t.Errorf("%s on an %s host: says %q: %v", f, arch, model.ArmHostWarning, got)
			}
		}
	}

	cat := testCatalog()
	in := cat.Instances[2]
	in.CPUArch = "arm64"
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := serve.PlanServing(&llama70B, serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 8192, PromptTokens: 6144,
		OutputTokens: 2048, Concurrency: 64, TP: 2, Replicas: 4}, serve.OfferFor(&in, g, 55.04, "aws p5.48xlarge"))
	if err != nil || !sp.Fits {
		t.Fatalf("%v %v", err, sp.Reasons)
	}
	s, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Render(launch.FormatTorchrun)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "# note: "+model.ArmHostWarning) {
		t.Errorf("serving script on an arm64 host lacks %q:\n%s", model.ArmHostWarning, out)
	}
}

// TestServeRefusesWhatItCannotWrite: the serving files are vLLM's CUDA
// ones, so a plan on an AMD GPU is refused (ROCm is another build) rather
// than written with an NVIDIA image and nvidia.com/gpu; and the SkyServe
// file is refused for a provider that is no SkyPilot cloud, while the
// script still renders.
func TestServeRefusesWhatItCannotWrite(t *testing.T) {
	cat := testCatalog()
	serving := serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 8192, PromptTokens: 6144,
		OutputTokens: 2048, Concurrency: 64, TP: 2, Replicas: 4}
	plan := func(in *model.Instance, g *model.GPU) serve.Plan {
		t.Helper()
		sp, err := serve.PlanServing(&llama70B, serving, serve.OfferFor(in, g, 55.04, in.Provider+" "+in.Type))
		if err != nil || !sp.Fits {
			t.Fatalf("%v %v", err, sp.Reasons)
		}
		return sp
	}
	in := cat.Instances[2]
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	other := *g
	other.Vendor, other.Name = "intel", "Intel Gaudi test"
	sp := plan(&in, &other)
	if _, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{Region: "us-east-1"}); !errors.Is(err, launch.ErrPlan) || !strings.Contains(err.Error(), "neither an NVIDIA nor an AMD GPU") {
		t.Errorf("serving on an Intel GPU: err = %v", err)
	}

	lab := in
	lab.Provider = "lab"
	sp = plan(&lab, g)
	s, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Render(launch.FormatSkyPilot); !errors.Is(err, launch.ErrPlan) || !strings.Contains(err.Error(), `SkyPilot has no cloud named "lab"`) {
		t.Errorf("SkyServe for provider lab: err = %v", err)
	}
	if _, err := s.Render(launch.FormatTorchrun); err != nil {
		t.Errorf("serving script for provider lab: %v", err)
	}
}

// TestServeVoltaNote: a serving file for a Volta GPU pins a vLLM release
// before v0.20.0 (CUDA 13.0 dropped Volta, and vLLM v0.20.0 its builds
// for compute capability 7.0) in every format — pip install 'vllm<0.20',
// the v0.19.1 image, the probe's refusal — and its note says so (walk36b:
// the note said to pin while the file installed vllm unpinned); an
// H100's pins nothing.
func TestServeVoltaNote(t *testing.T) {
	cat := testCatalog()
	in := cat.Instances[2]
	a := &model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 8, FFN: 4096, Vocab: 32000}
	for _, tt := range []struct {
		gpu  model.GPU
		note bool
	}{
		{model.GPU{Key: "v100-16gb", Name: "V100", Vendor: "nvidia", ComputeCapability: "7.0", MemoryGiB: 16, MemoryBandwidthGBps: 900, FP16TFLOPS: 125}, true},
		{model.GPU{Key: "h100-sxm", Name: "H100", Vendor: "nvidia", ComputeCapability: "9.0", MemoryGiB: 80, MemoryBandwidthGBps: 3350, FP16TFLOPS: 989, BF16TFLOPS: 989}, false},
	} {
		sp, err := serve.PlanServing(a, serve.Serving{WeightFormat: serve.WeightFP16, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4},
			serve.OfferFor(&in, &tt.gpu, 10, "test"))
		if err != nil || !sp.Fits {
			t.Fatalf("%s: %v %v", tt.gpu.Key, err, sp.Reasons)
		}
		s, err := launch.NewServe(a, &sp, launch.ServeOptions{Region: "us-east-1"})
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Render(launch.FormatDocker)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(out), "needs a vLLM release before v0.20.0, built for CUDA 12.x: CUDA 13.0 dropped Maxwell, Pascal and Volta") &&
			strings.Contains(string(out), "this file installs vllm<0.20 (pip install 'vllm<0.20') and runs the image vllm/vllm-openai:v0.19.1"); got != tt.note {
			t.Errorf("%s: CUDA 12 note %v, want %v:\n%s", tt.gpu.Key, got, tt.note, out)
		}
		image := "vllm/vllm-openai:latest"
		if tt.note {
			image = "vllm/vllm-openai:v0.19.1"
		}
		if !strings.Contains(string(out), "docker pull "+image) && !strings.Contains(string(out), " "+image+" ") {
			t.Errorf("%s: the docker script does not run %s:\n%s", tt.gpu.Key, image, out)
		}
		k8s, err := s.Render(launch.FormatK8s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(k8s), "image: "+image) {
			t.Errorf("%s: the Deployment does not run %s:\n%s", tt.gpu.Key, image, k8s)
		}
		sky, err := s.Render(launch.FormatSkyPilot)
		if err != nil {
			t.Fatal(err)
		}
		setup := "setup: |\n  set -e\n  pip install vllm\n"
		if tt.note {
			setup = "setup: |\n  set -e\n  pip install 'vllm<0.20'  # the last releases built for compute capability 7.0 (see the note at the top of the file)\n"
		}
		if !strings.Contains(string(sky), setup) {
			t.Errorf("%s: SkyPilot setup is not %q:\n%s", tt.gpu.Key, setup, sky)
		}
		script, err := s.Render(launch.FormatTorchrun)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(script), "pip install 'vllm<0.20'"); got != tt.note {
			t.Errorf("%s: the vllm serve script says pip install 'vllm<0.20': %v, want %v", tt.gpu.Key, got, tt.note)
		}
		probe, err := probescript.Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		pip := `\"pip\":\"vllm\"`
		if tt.note {
			pip = `\"pip\":\"'vllm\\u003c0.20'\"` // the JSON escapes <
		}
		if !strings.Contains(string(probe), pip) {
			i := strings.Index(string(probe), `\"pip\"`)
			t.Errorf("%s: the probe's plan lacks %s: %.60s", tt.gpu.Key, pip, string(probe)[max(i, 0):])
		}
	}
}

// A launch file that writes the DeepSpeed config writes it under a name of
// its own: running it in a directory where the user keeps a ds_config.json
// (the name DeepSpeed's docs use) must not replace that file.
func TestDeepSpeedConfigKeepsUsersFile(t *testing.T) {
	for _, tc := range cases {
		p := plan(t, tc, launch.Options{})
		if p.DeepSpeedConfig() == nil {
			continue
		}
		for _, f := range append([]launch.Format{launch.FormatPyTorchJob}, launch.Formats...) {
			out, err := p.Render(f)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(out, []byte("ds_config.json")) {
				t.Errorf("%s/%s names ds_config.json, a file the user may keep; want %s", tc.name, f, launch.DeepSpeedFile)
			}
			if f != launch.FormatTOML && !bytes.Contains(out, []byte(launch.DeepSpeedFile)) {
				t.Errorf("%s/%s does not name %s", tc.name, f, launch.DeepSpeedFile)
			}
		}
	}
}

// An estimate that assumed a plain loop keeping the model's outputs
// (--outputs kept) exports TRL's script, which runs the Trainer and drops
// them: the file says so, and says nothing when the user's own script
// runs (it may be that plain loop) or the outputs are dropped.
func TestOutputsKeptNote(t *testing.T) {
	const note = "the estimate assumed a plain loop that keeps the model's outputs (--outputs kept); TRL's script runs the Hugging Face Trainer, which drops them, so it needs a little less memory than estimated"
	for _, tt := range []struct {
		outputs model.Outputs
		script  string
		want    bool
	}{{model.OutputsKept, "", true}, {model.OutputsDropped, "", false}, {model.OutputsKept, "train.py", false}} {
		tc := cases[0]
		tc.w.Outputs = tt.outputs
		p := plan(t, tc, launch.Options{Script: tt.script})
		if got := slices.Contains(p.Notes(), note); got != tt.want {
			t.Errorf("outputs %s, script %q: note %v, want %v (notes %q)", tt.outputs, tt.script, got, tt.want, p.Notes())
		}
	}
}

// TestCallerNotes: the caller's notes (Options.Notes, ServeOptions.Notes:
// gpuplan export --phase passes what gpuplan plan says of the phase) are
// said in every format's header, through each writer's own comments.
func TestCallerNotes(t *testing.T) {
	note := model.Msg("phase %q: %v", "serve", model.Msg("carries the phase's load on %d instances of its pinned offer; the plan rents %d", 2, 1))
	want := `note: phase "serve": carries the phase's load on 2 instances of its pinned offer; the plan rents 1`
	p := plan(t, cases[0], launch.Options{Notes: []model.Message{note}})
	for _, f := range append([]launch.Format{launch.FormatPyTorchJob}, launch.Formats...) {
		out, err := p.Render(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("%s lacks the caller's note:\n%s", f, out)
		}
	}
	cat := testCatalog()
	in := cat.Instances[2]
	a := &model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 8, FFN: 4096, Vocab: 32000}
	g := model.GPU{Key: "h100-sxm", Name: "H100", Vendor: "nvidia", ComputeCapability: "9.0", MemoryGiB: 80, MemoryBandwidthGBps: 3350, FP16TFLOPS: 989, BF16TFLOPS: 989}
	sp, err := serve.PlanServing(a, serve.Serving{WeightFormat: serve.WeightFP16, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 4},
		serve.OfferFor(&in, &g, 10, "test"))
	if err != nil || !sp.Fits {
		t.Fatalf("%v %v", err, sp.Reasons)
	}
	s, err := launch.NewServe(a, &sp, launch.ServeOptions{Region: "us-east-1", Notes: []model.Message{note}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []launch.Format{launch.FormatTorchrun, launch.FormatDocker, launch.FormatSkyPilot, launch.FormatK8s, launch.FormatTOML, launch.FormatProbe} {
		out, err := probescript.RenderServe(s, f)
		if err != nil {
			t.Fatalf("serving %s: %v", f, err)
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("serving %s lacks the caller's note:\n%s", f, out)
		}
	}
}
