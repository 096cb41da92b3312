package model

import (
	"errors"
	"math"
	"testing"
)

// Test architectures, shapes from the models' config.json files.
var (
	gpt2Small = Architecture{Key: "gpt2", Family: FamilyDecoder, Layers: 12, Hidden: 768, Heads: 12, FFN: 3072,
		Vocab: 50257, Tied: true, LinearBias: true, LearnedPositions: 1024, MaxPositions: 1024, Dropout: true}
	llama2_7B = Architecture{Key: "llama-2-7b", Family: FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008,
		GatedMLP: true, Vocab: 32000, Norm: RMSNorm, MaxPositions: 4096}
	llama31_8B = Architecture{Key: "llama-3.1-8b", Family: FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8,
		FFN: 14336, GatedMLP: true, Vocab: 128256, Norm: RMSNorm, MaxPositions: 131072}
	mixtral = Architecture{Key: "mixtral-8x7b", Family: FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8,
		FFN: 14336, GatedMLP: true, Vocab: 32000, Norm: RMSNorm, Experts: 8, ExpertsPerToken: 2}
	bertBase = Architecture{Key: "bert-base", Family: FamilyEncoder, Layers: 12, Hidden: 768, Heads: 12, FFN: 3072,
		Vocab: 30522, Tied: true, LinearBias: true, LearnedPositions: 512, TokenTypes: 2, Pooler: true}
	// GPT-3 175B as in Korthikanti et al. 2022, Table 3.
	gpt3 = Architecture{Family: FamilyDecoder, Layers: 96, Hidden: 12288, Heads: 96, FFN: 4 * 12288, Vocab: 51200,
		LinearBias: true, Dropout: true}
	resnet50 = Architecture{Key: "resnet50", Family: FamilyCNN, Params: 25557032, ForwardGMACs: 4.089,
		ActivationMiBPerSample: 41.7, ImageSize: 224}
)

func TestParamCount(t *testing.T) {
	tests := []struct {
		name         string
		a            Architecture
		total, activ float64
	}{
		{"gpt2: 38.6M embeddings + 12 × 7.09M blocks, tied head", gpt2Small, 124439808, 124439808},
		{"llama-2-7b: 32 × 202.4M blocks + 2 × 131M untied tables", llama2_7B, 6738415616, 6738415616},
		{"llama-3.1-8b: GQA k,v of 8 heads", llama31_8B, 8030261248, 8030261248},
		{"bert-base with pooler, tied MLM head not counted", bertBase, 109482240, 109482240},
		{"mixtral: 8 experts resident, 2 active (12.9B active per Mistral AI)", mixtral, 46702792704, 12879925248},
		{"resnet50: published count", resnet50, 25557032, 25557032},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.ParamCount(); got != tt.total {
				t.Errorf("ParamCount() = %.0f, want %.0f", got, tt.total)
			}
			if got := tt.a.ActiveParams(); got != tt.activ {
				t.Errorf("ActiveParams() = %.0f, want %.0f", got, tt.activ)
			}
		})
	}
}

// TestZeROPaperModelStates reproduces Rajbhandari et al. 2020, Figure 1:
// Ψ = 7.5B, N_d = 64, K = 12 (mixed-precision Adam).
func TestZeROPaperModelStates(t *testing.T) {
	const psi = 7.5e9
	tests := []struct {
		name     string
		strategy Strategy
		want     float64
	}{
		{"ddp: (2+2+12)Ψ = 120 GB", DDP, 120e9},
		{"zero1: 2Ψ + 2Ψ + 12Ψ/64 = 31.4 GB", ZeRO1, 31.40625e9},
		{"zero2: 2Ψ + 14Ψ/64 = 16.6 GB", ZeRO2, 16.640625e9},
		{"zero3: 16Ψ/64 = 1.9 GB", ZeRO3, 1.875e9},
		{"fsdp full shard is stage 3", FSDP, 1.875e9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Compute(Workload{
				Settings: Settings{Precision: AMPFP16, GPUs: 64, Strategy: tt.strategy},
				Model:    Architecture{Family: FamilyDecoder, Params: psi},
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.States.ModelStates(); math.Abs(got-tt.want) > 1 {
				t.Errorf("model states = %.6g B, want %.6g B", got, tt.want)
			}
			if e.Memory.Total() <= e.Memory.ModelStates() {
				t.Errorf("total %.4g B must include activations and overhead beyond model states %.4g B", e.Memory.Total(), e.Memory.ModelStates())
			}
		})
	}
}

func TestModelStateBytes(t *testing.T) {
	tests := []struct {
		name string
		w    Workload
		want float64
	}{
		{"GPT-2 1.5B, amp Adam: 16 B × 1.5e9 = 24 GB (ZeRO §3.1)", Workload{Settings: Settings{Precision: AMPFP16}, Model: Architecture{Family: FamilyDecoder, Params: 1.5e9}}, 24e9},
		{"fp32 Adam: 4 + 4 + 8 = 16 B/param", Workload{Settings: Settings{Precision: FP32}, Model: Architecture{Family: FamilyDecoder, Params: 1e9}}, 16e9},
		{"pure bf16 Adam: 2 + 2 + 2×2 = 8 B/param", Workload{Settings: Settings{Precision: BF16}, Model: Architecture{Family: FamilyDecoder, Params: 1e9}}, 8e9},
		{"amp SGD: 2 + 2 + 4 master = 8 B/param", Workload{Settings: Settings{Precision: AMPBF16, Optimizer: SGD}, Model: Architecture{Family: FamilyDecoder, Params: 1e9}}, 8e9},
		{"amp SGD momentum: 2 + 2 + 4 + 4 = 12 B/param", Workload{Settings: Settings{Precision: AMPBF16, Optimizer: SGDMomentum}, Model: Architecture{Family: FamilyDecoder, Params: 1e9}}, 12e9},
		{"amp 8-bit AdamW: 2 + 2 + 4 + 2·(1 + 4/256) B/param", Workload{Settings: Settings{Precision: AMPBF16, Optimizer: AdamW8bit}, Model: Architecture{Family: FamilyDecoder, Params: 1e9}}, 1e9 * (8 + 2*(1+4.0/256))},
		{"bert-base fp32 weights ≈ 0.44 GB: 109,482,240 × 4 B (weights + grads + Adam = 16 B)", Workload{Settings: Settings{Precision: FP32, Task: TaskFinetune}, Model: bertBase}, 109482240 * 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Compute(tt.w, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.States.ModelStates(); math.Abs(got-tt.want) > 1 {
				t.Errorf("model states = %.6g B, want %.6g B", got, tt.want)
			}
		})
	}
	e, _ := Compute(Workload{Settings: Settings{Precision: FP32, Task: TaskInference}, Model: bertBase}, nil)
	if got, want := e.Memory.Weights, 437928960.0; got != want {
		t.Errorf("bert-base fp32 weights = %.0f B, want %.0f B (0.44 GB)", got, want)
	}
}

// TestKorthikantiPerLayer checks blockActivation against Korthikanti et al.
// 2022, eq. 1 and 2, for GPT-3 175B at s = 2048, b = 1 (sbh = 25,165,824).
func TestKorthikantiPerLayer(t *testing.T) {
	tests := []struct {
		name  string
		t     float64
		flash bool
		want  float64
	}{
		{"eq. 1: sbh(34 + 5as/h) = sbh × 114", 1, false, 25165824 * 114},
		{"eq. 2, t = 8: sbh(10 + 24/8 + 80/8) = sbh × 23", 8, false, 25165824 * 23},
		{"flash attention drops 5as/h: sbh × 34", 1, true, 25165824 * 34},
		{"flash, t = 8: sbh(10 + 24/8) = sbh × 13", 8, true, 25165824 * 13},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gpt3.blockActivation(2048, 2048, 1, 2, tt.t, tt.flash, false); got != tt.want {
				t.Errorf("blockActivation() = %.6g B, want %.6g B", got, tt.want)
			}
		})
	}
}

// TestCheckpointing: full recomputation keeps each block's input per layer
// (Korthikanti §5: 2sbh at 16-bit; fp32 under autocast, whose residual
// stream is fp32), the embedding output and the forward logits (16-bit
// logits + fp32 copy + fp32 log-softmax, 10 B per logit) at the end of
// forward; backward peaks at the loss, before the first block is
// recomputed (one block's working set and its gradients, ~2 × 0.2 GB).
// By then the loss function's fp32 copy is gone and, unless the loop keeps
// its outputs, so are the 16-bit logits; the loss backward adds nll_loss's
// fp32 gradient of the log-softmax and log_softmax's of the logits while
// the log-softmax is alive: 4 + 4 + 4 = 12 B per logit dropped, 14 kept.
// A loop that keeps its outputs also holds the previous step's logits
// (2 B) through this forward.
func TestCheckpointing(t *testing.T) {
	sbh := 1024.0 * 8 * 768
	n := 1024.0 * 8 * 50257 // logits per micro-batch
	tests := []struct {
		name     string
		p        Precision
		outputs  Outputs
		fwd, bwd float64
	}{
		{"autocast: fp32 block inputs and embedding output", AMPBF16, OutputsDropped, 12*4*sbh + 4*sbh + 10*n, 12*4*sbh + 4*sbh + 12*n},
		{"pure bf16: 16-bit block inputs", BF16, OutputsDropped, 12*2*sbh + 2*sbh + 10*n, 12*2*sbh + 2*sbh + 12*n},
		{"pure bf16, outputs kept: logits held through backward", BF16, OutputsKept, 12*2*sbh + 2*sbh + 10*n + 2*n, 12*2*sbh + 2*sbh + 14*n},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Compute(Workload{Settings: Settings{MicroBatch: 8, SeqLen: 1024, Precision: tt.p, Checkpointing: Bool(true), FlashAttention: Bool(true), Outputs: tt.outputs}, Model: gpt2Small}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if e.Phases[0].Phase != PhaseForward {
				t.Fatalf("first phase %s, want forward", e.Phases[0].Phase)
			}
			if got := e.Phases[0].Memory.Activations; got != tt.fwd {
				t.Errorf("forward activations = %.6g B, want %.6g B", got, tt.fwd)
			}
			if got := e.Phases[1].Memory.Activations; got != tt.bwd {
				t.Errorf("backward activations = %.6g B, want %.6g B", got, tt.bwd)
			}
		})
	}
}

func TestInferenceMemory(t *testing.T) {
	// llama-2-7b: 6,476,005,376 block-linear parameters, 262,410,240 others (embeddings, head, norms).
	tests := []struct {
		name string
		p    Precision
		want float64
	}{
		{"fp16: 2 B × 6.74e9", FP16, 13476831232},
		{"int8: linears 1 + 2/128 B, the rest 16-bit", INT8, 7102013440},
		{"int4 is not params/2: linears 0.5 + 2.5/128 B, the rest 16-bit", INT4, 3889307648},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Compute(Workload{Settings: Settings{Task: TaskInference, Precision: tt.p}, Model: llama2_7B}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Memory.Weights; math.Abs(got-tt.want) > 1 {
				t.Errorf("weights = %.10g B, want %.10g B", got, tt.want)
			}
		})
	}
}

// TestKVCacheGQA: the cache uses KV heads, not query heads:
// 2 × 32 layers × 8 KV heads × 128 × 8192 tokens × 4 sequences × 2 B = 4 GiB.
func TestKVCacheGQA(t *testing.T) {
	e, err := Compute(Workload{Settings: Settings{Task: TaskInference, Precision: BF16, ContextLen: 8192, Sequences: 4}, Model: llama31_8B}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.Memory.KVCache, float64(4*GiB); got != want {
		t.Errorf("KV cache = %.6g B, want %.6g B", got, want)
	}
	e, _ = Compute(Workload{Settings: Settings{Task: TaskInference, Precision: FP8, ContextLen: 8192, Sequences: 4}, Model: llama31_8B}, nil)
	if got, want := e.Memory.KVCache, float64(4*GiB); got != want {
		t.Errorf("fp8 weights keep a 16-bit KV cache (vLLM kv_cache_dtype auto): %.6g B, want %.6g B", got, want)
	}
}

// Traps other estimators fell into.
func TestTraps(t *testing.T) {
	compute := func(t *testing.T, w Workload) Estimate {
		t.Helper()
		e, err := Compute(w, nil)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	t.Run("ZeRO-3 total includes activations, logits and overhead", func(t *testing.T) {
		e := compute(t, Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 4, SeqLen: 2048, GPUs: 8, Strategy: ZeRO3}, Model: llama2_7B})
		if states := e.Memory.ModelStates(); e.Memory.Total() < states+e.Memory.Activations+CUDAContextBytes {
			t.Errorf("total %.4g B misses activations %.4g B or overhead", e.Memory.Total(), e.Memory.Activations)
		}
		if e.Memory.Total() < 13e9 {
			t.Errorf("ZeRO-3 7B at batch 4 × 2048 = %.3g B per GPU; a real run used 13–21 GB", e.Memory.Total())
		}
	})
	t.Run("LoRA and QLoRA far below full fine-tuning; QLoRA's base below LoRA's", func(t *testing.T) {
		base := Workload{Settings: Settings{MicroBatch: 1, SeqLen: 2048}, Model: llama2_7B}
		full, lora, qlora := base, base, base
		full.Task, lora.Task, qlora.Task = TaskFinetune, TaskLoRA, TaskQLoRA
		f, l, q := compute(t, full), compute(t, lora), compute(t, qlora)
		if l.Memory.Total() > 0.3*f.Memory.Total() {
			t.Errorf("LoRA %.4g B is not far below full fine-tuning %.4g B", l.Memory.Total(), f.Memory.Total())
		}
		if q.Memory.Weights >= l.Memory.Weights/3 {
			t.Errorf("QLoRA weights %.4g B not well below LoRA's %.4g B", q.Memory.Weights, l.Memory.Weights)
		}
		if q.Memory.Total() >= l.Memory.Total() || l.Memory.Total() > 40*GiB {
			t.Errorf("QLoRA %.4g B, LoRA %.4g B: want QLoRA < LoRA < 40 GiB", q.Memory.Total(), l.Memory.Total())
		}
	})
	t.Run("CUDA context and fragmentation are in the overhead", func(t *testing.T) {
		tn := Tuning{HFUTransformer: 0.5, FragmentationFraction: 0.1}
		e := compute(t, Workload{Settings: Settings{MicroBatch: 8}, Model: gpt2Small, Tuning: &tn})
		var dyn float64 // the largest activations and gradients of any phase, as overhead takes them
		var acts, grads float64
		for _, p := range e.PhaseList() {
			acts, grads = max(acts, p.Memory.Activations), max(grads, p.Memory.Gradients)
		}
		dyn = acts + grads
		if e.Overhead.CUDAContext != CUDAContextBytes || math.Abs(e.Overhead.Fragmentation-0.1*dyn) > 1 || dyn <= 0 {
			t.Errorf("overhead %+v lacks the CUDA context or 10%% fragmentation of %.4g B", e.Overhead, dyn)
		}
	})
	t.Run("ZeRO-3 shards model states, never activations: GPT-2 at a large batch barely drops", func(t *testing.T) {
		one := compute(t, Workload{Settings: Settings{MicroBatch: 32, SeqLen: 1024, Strategy: ZeRO3}, Model: gpt2Small})
		eight := compute(t, Workload{Settings: Settings{MicroBatch: 32, SeqLen: 1024, GPUs: 8, Strategy: ZeRO3}, Model: gpt2Small})
		if drop := 1 - eight.Memory.Total()/one.Memory.Total(); drop > 0.10 || drop < 0 {
			t.Errorf("ZeRO-3 over 8 GPUs lowers the total by %.0f%%; want 0–10%%", drop*100)
		}
		if eight.Phases[0].Memory.Activations != one.Phases[0].Memory.Activations {
			t.Errorf("activations changed with sharding: %.4g → %.4g B", one.Phases[0].Memory.Activations, eight.Phases[0].Memory.Activations)
		}
	})
	t.Run("MoE keeps every expert resident but computes with the active ones", func(t *testing.T) {
		e := compute(t, Workload{Settings: Settings{Task: TaskInference, Precision: BF16, ContextLen: 1, GenTokens: 0}, Model: mixtral})
		if e.Memory.Weights != 2*mixtral.ParamCount() {
			t.Errorf("weights %.6g B, want 2 × %.6g", e.Memory.Weights, mixtral.ParamCount())
		}
		w := Workload{Settings: Settings{SeqLen: 1, MicroBatch: 1}, Model: mixtral}
		w.Defaults()
		perToken := ForwardFLOPsPerSample(&w)
		// 2 × (12,879,925,248 active − 131,072,000 embedding) + attention 4·32·1·4096 = 25,497,722,880
		if want := 2*(12879925248.0-131072000) + 4*32*4096; perToken != want {
			t.Errorf("forward FLOPs per token = %.10g, want %.10g", perToken, want)
		}
	})
}

// Properties over a grid of workloads.
func TestProperties(t *testing.T) {
	models := []Architecture{gpt2Small, llama2_7B, llama31_8B, mixtral, bertBase, resnet50}
	for _, a := range models {
		for _, s := range []Strategy{ZeRO3, FSDP} {
			prev := math.Inf(1)
			for g := 1; g <= 64; g *= 2 {
				e, err := Compute(Workload{Settings: Settings{Task: TaskFinetune, GPUs: g, Strategy: s}, Model: a}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if tot := e.Memory.Total(); tot > prev {
					t.Errorf("%s %s: %d GPUs need %.4g B per GPU, more than %.4g B with fewer", a.Key, s, g, tot, prev)
				} else {
					prev = tot
				}
			}
		}
		for _, task := range []Task{TaskTrain, TaskFinetune, TaskLoRA, TaskQLoRA} {
			if task.Adapters() && !a.HasShape() {
				continue
			}
			off, err1 := Compute(Workload{Settings: Settings{Task: task}, Model: a}, nil)
			on, err2 := Compute(Workload{Settings: Settings{Task: task, Checkpointing: Bool(true)}, Model: a}, nil)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if on.Memory.Total() > off.Memory.Total() {
				t.Errorf("%s %s: checkpointing raised memory %.4g → %.4g B", a.Key, task, off.Memory.Total(), on.Memory.Total())
			}
		}
		prev := 0.0
		for _, p := range []Precision{INT4, INT8, FP16, FP32} {
			e, err := Compute(Workload{Settings: Settings{Task: TaskInference, Precision: p}, Model: a}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if e.Memory.Weights <= prev {
				t.Errorf("%s: %s weights %.4g B not above the smaller format's %.4g B", a.Key, p, e.Memory.Weights, prev)
			}
			prev = e.Memory.Weights
		}
	}
}

func TestTotalIsSumOfParts(t *testing.T) {
	e, _ := Compute(Workload{Settings: Settings{Task: TaskLoRA, GPUs: 4, Strategy: ZeRO2}, Model: llama2_7B}, nil)
	m := e.Memory
	if m.Total() != m.Weights+m.Gradients+m.OptimizerStates+m.Gathered+m.CastCache+m.Buffers+m.Activations+m.Temporaries+m.KVCache+m.Overhead {
		t.Error("Total() is not the sum of the parts")
	}
	if e.TorchAllocated != m.Total()-m.Overhead || e.TorchReserved != e.TorchAllocated+e.Overhead.Workspace+e.Overhead.Fragmentation {
		t.Errorf("allocated %.6g / reserved %.6g do not follow the parts", e.TorchAllocated, e.TorchReserved)
	}
	for _, p := range e.PhaseList() {
		if p.Memory.Total() > m.Total() {
			t.Errorf("%s phase %.6g B above the peak %.6g B", p.Phase, p.Memory.Total(), m.Total())
		}
	}
	if m.Overhead != e.Overhead.Total() {
		t.Errorf("Memory.Overhead %.6g != Overhead.Total() %.6g", m.Overhead, e.Overhead.Total())
	}
}

func TestValidate(t *testing.T) {
	ok := Workload{Model: gpt2Small}
	tests := []struct {
		name  string
		edit  func(w *Workload)
		field string
	}{
		{"batch 0 is filled by the default, batch −1 is invalid", func(w *Workload) { w.MicroBatch = -1 }, "batch_size"},
		{"GPUs < 1", func(w *Workload) { w.GPUs = -2 }, "gpus"},
		{"inference precision for training", func(w *Workload) { w.Precision = INT4 }, "precision"},
		{"training precision for inference", func(w *Workload) { w.Task = TaskInference; w.Precision = AMPBF16 }, "precision"},
		{"tp must divide gpus", func(w *Workload) { w.GPUs = 6; w.TP = 4 }, "tp"},
		{"tp must divide heads", func(w *Workload) { w.GPUs = 8; w.TP = 8; w.Model.Heads = 12 }, "tp"},
		{"NaN MFU", func(w *Workload) { w.MFU = math.NaN() }, "mfu"},
		{"MFU above 1", func(w *Workload) { w.MFU = 1.5 }, "mfu"},
		{"Inf dataset", func(w *Workload) { w.DatasetTokens = math.Inf(1) }, "dataset_tokens"},
		{"samples and tokens both", func(w *Workload) { w.DatasetTokens = 1; w.DatasetSamples = 1 }, "dataset_tokens"},
		{"zero3 for inference", func(w *Workload) { w.Task = TaskInference; w.Strategy = ZeRO3; w.GPUs = 2 }, "strategy"},
		{"absurd sequence length", func(w *Workload) { w.SeqLen = 1 << 30 }, "seq_len"},
		{"unknown LoRA target", func(w *Workload) { w.Task = TaskLoRA; w.LoRATargets = []string{"qq"} }, "lora_targets"},
		{"LoRA target twice", func(w *Workload) { w.Task = TaskLoRA; w.LoRATargets = []string{"q", "q"} }, "lora_targets"},
		{"ZeRO with TensorFlow", func(w *Workload) { w.Framework = TensorFlow; w.Strategy = ZeRO3; w.GPUs = 8 }, "strategy"},
		{"negative epochs", func(w *Workload) { w.Epochs = -1 }, "epochs"},
		// less than one sample or token in all (attack test 3, L4)
		{"1e-300 epochs", func(w *Workload) { w.DatasetTokens, w.Epochs = 1e6, 1e-300 }, "epochs"},
		{"1e-300 tokens", func(w *Workload) { w.DatasetTokens = 1e-300 }, "epochs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := ok
			tt.edit(&w)
			_, err := Compute(w, nil)
			var fe *FieldError
			if !errors.Is(err, ErrInvalidWorkload) || !errors.As(err, &fe) || fe.Field != tt.field {
				t.Errorf("Compute() error = %v, want a %s error wrapping ErrInvalidWorkload", err, tt.field)
			}
		})
	}
	for _, a := range []Architecture{{Family: FamilyDecoder, Params: 0.5}, {Family: FamilyDecoder, Params: 1e15}, {Family: FamilyCNN}} {
		if _, err := Compute(Workload{Model: a}, nil); !errors.Is(err, ErrInvalidArchitecture) {
			t.Errorf("params %v: error = %v, want ErrInvalidArchitecture", a.Params, err)
		}
	}
	w := Workload{Settings: Settings{Strategy: ZeRO3}, Model: gpt2Small}
	w.Defaults()
	if len(w.Warnings()) == 0 {
		t.Error("zero3 on one GPU gives no warning")
	}
}

// FuzzCompute: no accepted workload yields NaN, Inf or negative figures.
func FuzzCompute(f *testing.F) {
	f.Add(7e9, 32, 4096, 32, 8, 11008, 32000, 4, 2048, 224, 8, 2, uint8(0), uint8(0), uint8(0), false, true, 1e9)
	f.Add(0.0, 12, 768, 12, 12, 3072, 50257, 1, 1024, 0, 1, 1, uint8(4), uint8(2), uint8(3), true, false, 0.0)
	f.Add(2.5e7, 0, 0, 0, 0, 0, 0, 256, 0, 224, 8, 1, uint8(1), uint8(1), uint8(4), false, false, 1.28e6)
	f.Fuzz(func(t *testing.T, params float64, layers, hidden, heads, kv, ffn, vocab, batch, seq, img, gpus, tp int,
		task, prec, fam uint8, ckpt, flash bool, dataset float64) {
		w := Workload{
			Settings: Settings{Task: Tasks[int(task)%len(Tasks)], MicroBatch: batch, SeqLen: seq, ImageSize: img, GPUs: gpus, TP: tp, Checkpointing: Bool(ckpt), FlashAttention: Bool(flash), DatasetSamples: dataset},
			Model: Architecture{Family: Families[int(fam)%len(Families)], Params: params, Layers: layers, Hidden: hidden,
				Heads: heads, KVHeads: kv, FFN: ffn, Vocab: vocab, ForwardGMACs: 4, ActivationMiBPerSample: 40, ImageSize: 224, PatchSize: 16},
		}
		ps := PrecisionsFor(w.Task)
		w.Precision = ps[int(prec)%len(ps)]
		e, err := Compute(w, &GPU{Name: "test", MemoryGiB: 80, FP32TFLOPS: 19.5, TF32TFLOPS: 156, FP16TFLOPS: 312, BF16TFLOPS: 312, MemoryBandwidthGBps: 2039})
		if err != nil {
			return
		}
		for name, v := range map[string]float64{
			"weights": e.Memory.Weights, "gradients": e.Memory.Gradients, "optimizer": e.Memory.OptimizerStates,
			"activations": e.Memory.Activations, "kv": e.Memory.KVCache, "overhead": e.Memory.Overhead,
			"total": e.Memory.Total(), "flops/sample": e.FLOPsPerSample, "flops/step": e.FLOPsPerStep,
			"total flops": e.TotalFLOPs, "hours": e.Hours, "params": e.Params, "samples/s": e.SamplesPerSecond,
		} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("%s = %v for %+v", name, v, w)
			}
		}
	})
}

func BenchmarkCompute(b *testing.B) {
	g := &GPU{Name: "A100", MemoryGiB: 80, BF16TFLOPS: 312, FP32TFLOPS: 19.5, MemoryBandwidthGBps: 2039}
	w := Workload{Settings: Settings{Task: TaskLoRA, MicroBatch: 4, SeqLen: 2048, GPUs: 8, Strategy: FSDP, DatasetTokens: 1e9}, Model: llama31_8B}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compute(w, g); err != nil {
			b.Fatal(err)
		}
	}
}

func TestComputePrecision(t *testing.T) {
	t4 := &GPU{Name: "T4", ComputeCapability: "7.5", FP32TFLOPS: 8.1, FP16TFLOPS: 65, INT8TOPS: 130}
	v100 := &GPU{Name: "V100", ComputeCapability: "7.0", FP32TFLOPS: 15.7, FP16TFLOPS: 125}
	h100 := &GPU{Name: "H100", ComputeCapability: "9.0", FP32TFLOPS: 67, TF32TFLOPS: 494.7, FP16TFLOPS: 989.5, BF16TFLOPS: 989.5, FP8TFLOPS: 1979}
	fp32only := &GPU{Name: "old", FP32TFLOPS: 4}
	tests := []struct {
		g    *GPU
		p    Precision
		want Precision
		peak float64
	}{
		{t4, AMPBF16, AMPFP16, 65}, {t4, BF16, FP16, 65}, {t4, FP8, FP16, 65}, {t4, TF32, FP32, 8.1},
		{v100, TF32, FP32, 15.7}, {h100, INT4, BF16, 989.5}, {h100, INT8, BF16, 989.5}, {h100, FP8, FP8, 1979},
		{fp32only, AMPBF16, FP32, 4}, {fp32only, INT4, FP32, 4},
	}
	for _, tt := range tests {
		if got := tt.g.ComputePrecision(tt.p); got != tt.want || tt.g.PeakTFLOPS(tt.p) != tt.peak {
			t.Errorf("%s %s: runs in %s at %v TFLOPS, want %s at %v", tt.g.Name, tt.p, got, tt.g.PeakTFLOPS(tt.p), tt.want, tt.peak)
		}
	}
}

func TestRunPrecision(t *testing.T) {
	t4 := &GPU{Name: "T4", ComputeCapability: "7.5", FP32TFLOPS: 8.1, FP16TFLOPS: 65}
	a100 := &GPU{Name: "A100", ComputeCapability: "8.0", FP32TFLOPS: 19.5, TF32TFLOPS: 156, FP16TFLOPS: 312, BF16TFLOPS: 312}
	tests := []struct {
		g        *GPU
		p        Precision
		training bool
		want     Precision
		ok       bool
	}{
		{t4, AMPBF16, true, AMPFP16, true}, {t4, BF16, true, BF16, false}, {t4, BF16, false, FP16, true},
		{t4, FP8, true, AMPFP16, true}, {a100, FP8, true, AMPBF16, true}, {a100, FP8, false, BF16, true},
		{a100, AMPBF16, true, AMPBF16, true}, {t4, INT4, false, INT4, true},
	}
	for _, tt := range tests {
		if got, ok := tt.g.RunPrecision(tt.p, tt.training); got != tt.want || ok != tt.ok {
			t.Errorf("%s %s training=%v: %s %v, want %s %v", tt.g.Name, tt.p, tt.training, got, ok, tt.want, tt.ok)
		}
	}
}
