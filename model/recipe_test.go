package model

import (
	"math"
	"testing"
)

func TestTrainingRecipe(t *testing.T) {
	tests := []struct {
		p    Precision
		s    Strategy
		over Recipe
		want Recipe
	}{
		{AMPBF16, Single, "", RecipeAutocast},
		{AMPFP16, DDP, "", RecipeAutocast},
		{AMPBF16, FSDP, "", RecipeFSDPMixed},
		{AMPBF16, ZeRO1, "", RecipeDeepSpeed},
		{AMPFP16, ZeRO3, "", RecipeDeepSpeed},
		{BF16, ZeRO3, "", RecipePure16},
		{FP16, Single, "", RecipePure16}, // model.half()
		{FP32, DDP, "", RecipeFP32},
		{TF32, Single, "", RecipeFP32},
		{AMPBF16, DDP, RecipeDeepSpeed, RecipeDeepSpeed},
	}
	for _, tt := range tests {
		w := Workload{Settings: Settings{Precision: tt.p, Strategy: tt.s, Recipe: tt.over}}
		if got := w.TrainingRecipe(); got != tt.want {
			t.Errorf("%s %s override %q: recipe %s, want %s", tt.p, tt.s, tt.over, got, tt.want)
		}
	}
}

// TestRecipeModelStates works the model states of Ψ = 1e9 parameters with
// AdamW over 8 GPUs out by hand for each recipe.
func TestRecipeModelStates(t *testing.T) {
	const psi = 1e9
	tests := []struct {
		name     string
		p        Precision
		s        Strategy
		r        Recipe
		gpus     int
		want     float64
		cast     bool // a 16-bit cast cache exists
		gathered bool
	}{
		{"autocast DDP: 4 + 4 + 8 = 16 B", AMPBF16, DDP, "", 8, 16 * psi, true, false},
		{"fsdp-mixed: 16 B / 8", AMPBF16, FSDP, "", 8, 2 * psi, false, true},
		{"deepspeed ZeRO-1: 2 + 2 + 12/8", AMPBF16, ZeRO1, "", 8, (4 + 1.5) * psi, false, false},
		{"deepspeed ZeRO-2: 2 + 14/8", AMPBF16, ZeRO2, "", 8, (2 + 1.75) * psi, false, false},
		{"deepspeed ZeRO-3: 16/8", AMPBF16, ZeRO3, "", 8, 2 * psi, false, true},
		{"pure16 DDP: 2 + 2 + 2·2", BF16, DDP, "", 8, 8 * psi, false, false},
		{"fp32 single: 4 + 4 + 8", FP32, Single, "", 1, 16 * psi, false, false},
		{"deepspeed recipe forced on one GPU: 2 + 2 + 12", AMPBF16, Single, RecipeDeepSpeed, 1, 16 * psi, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Compute(Workload{
				Settings: Settings{Precision: tt.p, Strategy: tt.s, Recipe: tt.r, GPUs: tt.gpus},
				Model:    Architecture{Family: FamilyDecoder, Params: psi},
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.States.ModelStates(); math.Abs(got-tt.want) > 1 {
				t.Errorf("model states %.6g B, want %.6g B", got, tt.want)
			}
			if got := e.Phases[0].Memory.CastCache > 0; got != tt.cast {
				t.Errorf("cast cache %.4g B, want present = %v", e.Phases[0].Memory.CastCache, tt.cast)
			}
			if got := e.States.Gathered > 0; got != tt.gathered {
				t.Errorf("gathered %.4g B, want present = %v", e.States.Gathered, tt.gathered)
			}
		})
	}
}

// TestDeepSpeedBuffers: ZeRO-1/2 allocate one 16-bit reduce bucket of
// 5e8 elements in backward; ZeRO-3 keeps one from the start.
func TestDeepSpeedBuffers(t *testing.T) {
	for _, s := range []Strategy{ZeRO1, ZeRO2, ZeRO3} {
		e, err := Compute(Workload{Settings: Settings{Precision: AMPBF16, Strategy: s, GPUs: 8}, Model: llama2_7B}, nil)
		if err != nil {
			t.Fatal(err)
		}
		bwd := e.Phases[1].Memory.Buffers
		if bwd != 1e9 {
			t.Errorf("%s: backward buffers %.6g B, want 5e8 × 2 B = 1e9", s, bwd)
		}
		if step := e.Phases[2].Memory.Buffers; (s == ZeRO3) != (step == 1e9) {
			t.Errorf("%s: optimizer-step buffers %.6g B", s, step)
		}
	}
}

// TestZeRO3Gathered: at the turn from forward to backward DeepSpeed keeps
// what is reused within stage3_max_reuse_distance (1e9): walking back from
// llama-2-7b's LM head (32000 × 4096 = 131.07M), module j stays while twice
// the parameters after it are under 1e9, i.e. while they are under 5e8:
// the head, the last block (3 × 45.09M MLP + 4 × 16.78M attention,
// 333.45M so far), then the second-to-last block's down, up, gate (468.71M),
// o (485.49M) and v (after v 502.27M ≥ 5e8: k and q are released); plus
// the 5e7-element prefetch bucket, in 16-bit. FSDP the root unit (two
// 131M tables and the final norm) plus two blocks.
func TestZeRO3Gathered(t *testing.T) {
	ds, _ := Compute(Workload{Settings: Settings{Strategy: ZeRO3, GPUs: 8}, Model: llama2_7B}, nil)
	mlp, attn := 4096*11008.0, 4096*4096.0
	kept := 32000*4096 + (3*mlp + 4*attn) + 3*mlp + 2*attn
	if want := (kept + 5e7) * 2.0; ds.States.Gathered != want {
		t.Errorf("ZeRO-3 gathered %.6g B, want %.6g B", ds.States.Gathered, want)
	}
	// Checkpointed, each block's recomputed forward turns into its
	// backward too: a lone block keeps all 7 modules (2 × 185.6M < 1e9
	// for q); the turn above is larger.
	if got, want := dsReuseKept([]float64{attn, attn, attn, attn, mlp, mlp, mlp}, 1e9), 4*attn+3*mlp; got != want {
		t.Errorf("dsReuseKept(block) = %.6g, want %.6g", got, want)
	}
	// Llama 2 70B's block (q, k, v, o = 67.1M, 8.4M, 8.4M, 67.1M; gate, up,
	// down = 234.9M each): down, up and gate stay (2 × 469.8M < 1e9), o
	// does not (2 × 704.6M).
	big := 8192 * 28672.0
	if got, want := dsReuseKept([]float64{8192 * 8192, 8192 * 1024, 8192 * 1024, 8192 * 8192, big, big, big}, 1e9), 3*big; got != want {
		t.Errorf("dsReuseKept(70B block) = %.6g, want %.6g", got, want)
	}
	fsdp, _ := Compute(Workload{Settings: Settings{Strategy: FSDP, GPUs: 8}, Model: llama2_7B}, nil)
	block := 4*4096*4096.0 + 3*4096*11008 + 2*4096
	root := 2*32000*4096.0 + 4096
	if want := (2*block + root) * 2; fsdp.States.Gathered != want {
		t.Errorf("FSDP gathered %.6g B, want %.6g B", fsdp.States.Gathered, want)
	}
}

func TestFourBitBytes(t *testing.T) {
	if got, want := FourBitBytesPerParam(false), 0.5+4.0/64; got != want {
		t.Errorf("no double quant: %v B/param, want %v (0.5 + fp32 absmax / 64)", got, want)
	}
	if got, want := FourBitBytesPerParam(true), 0.515869140625; got != want {
		t.Errorf("double quant: %v B/param, want %v (0.5 + 1/64 + 4/16384)", got, want)
	}
	// QLoRA base weights: llama-2-7b has 6,476,005,376 block-linear and
	// 262,410,240 other parameters, 16-bit under torchtune and fp32 after
	// peft's prepare_model_for_kbit_training without autocast (TrainerHF
	// in pure bf16, see kbitFP32).
	for _, dq := range []bool{false, true} {
		for tr, rest := range map[Trainer]float64{TrainerTorchtune: 2, TrainerHF: 4} {
			e, err := Compute(Workload{Settings: Settings{Task: TaskQLoRA, Precision: BF16, QuantType: QuantFP4, DoubleQuant: Bool(dq), Trainer: tr}, Model: llama2_7B}, nil)
			if err != nil {
				t.Fatal(err)
			}
			lora := e.TrainableParams * 2
			want := 6476005376*FourBitBytesPerParam(dq) + 262410240*rest + lora
			if got := e.States.Weights; math.Abs(got-want) > 1 {
				t.Errorf("%s, double quant %v: weights %.6g B, want %.6g B", tr, dq, got, want)
			}
		}
	}
}

// TestFourBitWorkspace: bitsandbytes' dequantization workspace and which
// linears are 4-bit, for llama-2-7b inference (hidden 4096, MLP 11008,
// vocab 32000). Hugging Face load_in_4bit: block linears only, one 16-bit
// copy of the largest (an MLP matrix). Lightning Fabric's
// BitsandbytesPrecision: the head too, quantized from fp16 and cast to
// bf16 in MatMul4Bit.forward, two 16-bit copies of the head.
func TestFourBitWorkspace(t *testing.T) {
	const blockLinear, other, head = 6476005376.0, 262410240.0, 32000 * 4096.0
	tests := []struct {
		fabric      bool
		temp, quant float64
	}{
		{false, 2 * 4096 * 11008, blockLinear},
		{true, 2 * 2 * head, blockLinear + head},
	}
	for _, tt := range tests {
		w := Workload{Settings: Settings{Task: TaskInference, Precision: INT4, QuantType: QuantNF4, DoubleQuant: Bool(false)}, Model: llama2_7B}
		if tt.fabric {
			w.Trainer = TrainerLitGPT
		}
		e, err := Compute(w, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Memory.Temporaries; got != tt.temp {
			t.Errorf("fabric %v: dequantization workspace %.6g B, want %.6g B", tt.fabric, got, tt.temp)
		}
		want := tt.quant*FourBitBytesPerParam(false) + (blockLinear+other-tt.quant)*2
		if got := e.Memory.Weights; math.Abs(got-want) > 1 {
			t.Errorf("fabric %v: weights %.6g B, want %.6g B", tt.fabric, got, want)
		}
	}
}

// TestLogitsBytes: per logit, by hand from logitsBytes' list: what is
// alive as the loss is computed, what its backward adds, what no tensor
// keeps past the loss function and the returned logits themselves.
func TestLogitsBytes(t *testing.T) {
	tests := []struct {
		loss                   Loss
		p                      float64
		fwd, bwd, trans, owned float64
	}{
		{LossHFUpcast, 2, 1000 * (2 + 4 + 4), 1000 * (4 + 4), 1000 * 4, 1000 * 2},
		{LossHFUpcast, 4, 1000 * (4 + 4), 1000 * (4 + 4), 0, 1000 * 4},
		{LossFused, 2, 1000 * 2, 0, 0, 0},
		{LossChunked, 2, 1000.0 / 8 * (2 + 4), 1000.0 / 8 * 4, 0, 0},
		{LossNative, 2, 1000 * (2 + 2), 1000 * (2 + 2), 0, 1000 * 2}, // logits + log-softmax; nll's and log-softmax's gradients
		{LossNative, 4, 1000 * (4 + 4), 1000 * (4 + 4), 0, 1000 * 4},
	}
	for _, tt := range tests {
		f, b, tr, o := logitsBytes(10, 1, 100, tt.p, 1, tt.loss)
		if f != tt.fwd || b != tt.bwd || tr != tt.trans || o != tt.owned {
			t.Errorf("%s at %v B: (%v, %v, %v, %v), want (%v, %v, %v, %v)", tt.loss, tt.p, f, b, tr, o, tt.fwd, tt.bwd, tt.trans, tt.owned)
		}
	}
}

// TestDropoutTerms: without dropout the GPT-3 block of Korthikanti et al.
// keeps sbh·(32 + 2as/h): no masks, softmax output only.
func TestDropoutTerms(t *testing.T) {
	g := gpt3
	g.Dropout = false
	const sbh = 25165824.0
	if got, want := g.blockActivation(2048, 2048, 1, 2, 1, true, false), 32*sbh; got != want {
		t.Errorf("flash, no dropout: %.6g, want %.6g", got, want)
	}
	if got, want := g.blockActivation(2048, 2048, 1, 2, 1, false, false), sbh*(32+2*96*2048/12288.0); got != want {
		t.Errorf("no flash, no dropout: %.6g, want %.6g", got, want)
	}
}

// TestPeakPhase: one sequence of a 7B model under autocast peaks in the
// optimizer step (4 + 4 + 8 B/param + the foreach sqrt temporary of 4 B);
// a large batch of a small model peaks at the start of backward.
func TestPeakPhase(t *testing.T) {
	big, _ := Compute(Workload{Settings: Settings{MicroBatch: 1, SeqLen: 512}, Model: llama2_7B}, nil)
	if big.PeakPhase != PhaseStep {
		t.Errorf("7B at batch 1 peaks at %s, want %s", big.PeakPhase, PhaseStep)
	}
	n := llama2_7B.ParamCount()
	if got, want := big.Memory.Tensors(), n*(4+4+8+4); math.Abs(got-want) > 1 {
		t.Errorf("optimizer-step tensors %.6g B, want %.6g B", got, want)
	}
	small, _ := Compute(Workload{Settings: Settings{MicroBatch: 16, SeqLen: 1024}, Model: gpt2Small}, nil)
	if small.PeakPhase != PhaseBackward {
		t.Errorf("gpt2 at batch 16 peaks at %s, want %s", small.PeakPhase, PhaseBackward)
	}
	if small.TorchReserved <= small.TorchAllocated || small.Memory.Total() <= small.TorchReserved {
		t.Errorf("want allocated %.4g < reserved %.4g < nvidia-smi %.4g", small.TorchAllocated, small.TorchReserved, small.Memory.Total())
	}
}

func TestParseEnumsRoundTrip(t *testing.T) {
	for _, r := range Recipes {
		b, _ := r.MarshalText()
		var got Recipe
		if err := got.UnmarshalText(b); err != nil || got != r {
			t.Errorf("recipe %q: round trip gave %q, %v", r, got, err)
		}
	}
	for _, l := range Losses {
		b, _ := l.MarshalText()
		var got Loss
		if err := got.UnmarshalText(b); err != nil || got != l {
			t.Errorf("loss %q: round trip gave %q, %v", l, got, err)
		}
	}
	for _, q := range QuantTypes {
		b, _ := q.MarshalText()
		var got QuantType
		if err := got.UnmarshalText(b); err != nil || got != q {
			t.Errorf("quant type %q: round trip gave %q, %v", q, got, err)
		}
	}
	var r Recipe
	if err := r.UnmarshalText([]byte("zero-4")); err == nil {
		t.Error("unknown recipe accepted")
	}
}

// FuzzParseRecipeEnums: the parsers of the new settings never panic, and
// what they accept round-trips through MarshalText.
func FuzzParseRecipeEnums(f *testing.F) {
	for _, s := range []string{"auto", "autocast", "DeepSpeed", " fsdp-mixed ", "zero", "hf-fp32", "chunked", "nf4", "FP4", "", "\x00", "zero-4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r, err := ParseRecipe(s); err == nil {
			var back Recipe
			b, _ := r.MarshalText()
			if err := back.UnmarshalText(b); err != nil || back != r {
				t.Errorf("recipe %q → %q → %q, %v", s, r, back, err)
			}
		}
		if l, err := ParseLoss(s); err == nil {
			var back Loss
			b, _ := l.MarshalText()
			if err := back.UnmarshalText(b); err != nil || back != l {
				t.Errorf("loss %q → %q → %q, %v", s, l, back, err)
			}
		}
		if q, err := ParseQuantType(s); err == nil {
			var back QuantType
			b, _ := q.MarshalText()
			if err := back.UnmarshalText(b); err != nil || back != q {
				t.Errorf("quant type %q → %q → %q, %v", s, q, back, err)
			}
		}
	})
}

// TestLegacyTorch: PyTorch < 2.0 (1.13 here) keeps zeroed gradients through forward
// and steps Adam parameter by parameter, so the optimizer step holds one
// temporary the size of the largest parameter (llama-2-7b: the 32000 ×
// 4096 embedding, fp32 under autocast) instead of the foreach temporary
// the size of all states.
func TestLegacyTorch(t *testing.T) {
	w := Workload{Settings: Settings{MicroBatch: 1, SeqLen: 512, Precision: AMPBF16}, Model: llama2_7B}
	now, err := Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Torch = TorchVersion{1, 13}
	old, err := Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := llama2_7B.ParamCount()
	if got, want := now.Phases[2].Memory.Temporaries, n*4; math.Abs(got-want) > 1 {
		t.Errorf("foreach Adam temporary %.6g B, want %.6g B (4 B × params)", got, want)
	}
	if got, want := old.Phases[2].Memory.Temporaries, 32000*4096*4.0; got != want {
		t.Errorf("for-loop Adam temporary %.6g B, want %.6g B (largest parameter, fp32)", got, want)
	}
	if now.Phases[0].Memory.Gradients != 0 {
		t.Errorf("PyTorch ≥ 2.0: gradients at forward end %.6g B, want 0 (set_to_none)", now.Phases[0].Memory.Gradients)
	}
	if got, want := old.Phases[0].Memory.Gradients, n*4; math.Abs(got-want) > 1 {
		t.Errorf("PyTorch < 2.0: gradients at forward end %.6g B, want %.6g B (kept, fp32)", got, want)
	}
}

// TestFusedAdamWTemporaries: torch.optim.AdamW(fused=True) keeps the same
// two moments as the foreach AdamW but its step allocates nothing
// (torch/optim/adamw.py _fused_adamw → torch._fused_adamw_, in place),
// where the foreach step holds _foreach_sqrt(exp_avg_sqs): for
// llama-2-7b in pure bf16, 2 B × params; moments 2 × 2 B × params either way.
func TestFusedAdamWTemporaries(t *testing.T) {
	n := llama2_7B.ParamCount()
	for _, tt := range []struct {
		opt  Optimizer
		temp float64
	}{{AdamW, 2 * n}, {AdamWFused, 0}} {
		e, err := Compute(Workload{Settings: Settings{MicroBatch: 1, SeqLen: 512, Precision: BF16, Optimizer: tt.opt}, Model: llama2_7B}, nil)
		if err != nil {
			t.Fatal(err)
		}
		step := e.Phases[2].Memory
		if math.Abs(step.Temporaries-tt.temp) > 1 {
			t.Errorf("%s: step temporaries %.6g B, want %.6g B", tt.opt, step.Temporaries, tt.temp)
		}
		if got, want := step.OptimizerStates, 4*n; math.Abs(got-want) > 1 {
			t.Errorf("%s: optimizer states %.6g B, want %.6g B (two bf16 moments)", tt.opt, got, want)
		}
	}
	for _, s := range []string{"adamw-fused", "adamw_torch_fused", "fused_adamw"} {
		if o, err := ParseOptimizer(s); err != nil || o != AdamWFused {
			t.Errorf("ParseOptimizer(%q) = %v, %v; want adamw-fused", s, o, err)
		}
	}
}

// TestBitsandbytesInference: load_in_4bit weights cost bitsandbytes' bytes
// (6,476,005,376 block-linear parameters of llama-2-7b in 4 bits, the
// other 262,410,240 in 16-bit) plus one dequantized 4096 × 11008 weight in
// 16-bit; int4 without a quant type stays GPTQ's group-128 layout.
func TestBitsandbytesInference(t *testing.T) {
	for _, dq := range []bool{false, true} {
		e, err := Compute(Workload{Settings: Settings{Task: TaskInference, Precision: INT4, QuantType: QuantNF4, DoubleQuant: Bool(dq), SeqLen: 64}, Model: llama2_7B}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := e.Memory.Weights, 6476005376*FourBitBytesPerParam(dq)+262410240*2; math.Abs(got-want) > 1 {
			t.Errorf("double quant %v: weights %.6g B, want %.6g B", dq, got, want)
		}
		if got, want := e.Memory.Temporaries, 2*4096*11008.0; got != want {
			t.Errorf("dequantized weight %.6g B, want %.6g B", got, want)
		}
	}
	g, _ := Compute(Workload{Settings: Settings{Task: TaskInference, Precision: INT4, SeqLen: 64}, Model: llama2_7B}, nil)
	if got, want := g.Memory.Weights, 6476005376*Int4BytesPerParam+262410240*2; math.Abs(got-want) > 1 {
		t.Errorf("GPTQ int4 weights %.6g B, want %.6g B", got, want)
	}
}

// TestFSDPMixedUnits: LoRA under FSDP as LitGPT wraps it (adapters and
// frozen weights in one Block unit) keeps gradients for the frozen block
// weights (torch FSDP docs, use_orig_params), unsharded under no_sync
// gradient accumulation; Hugging Face's wrapping (LoRA modules apart)
// keeps the adapters' only. llama-2-7b: 6,738,415,616 parameters, of which
// embeddings and head 2 × 32000 × 4096; bf16 (2 B) on 2 GPUs.
func TestFSDPMixedUnits(t *testing.T) {
	const blocks = 6738415616.0 - 2*32000*4096
	tests := []struct {
		litgpt bool
		accum  int
		frozen float64 // gradient bytes of frozen weights per GPU
	}{
		{false, 64, 0},
		{true, 64, blocks * 2},
		{true, 1, blocks * 2 / 2},
	}
	for _, tt := range tests {
		w := Workload{Settings: Settings{Task: TaskLoRA, Precision: BF16, Strategy: FSDP, GPUs: 2, MicroBatch: 1, GradAccum: tt.accum, SeqLen: 512}, Model: llama2_7B}
		if tt.litgpt {
			w.Trainer = TrainerLitGPT
		}
		e, err := Compute(w, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := tt.frozen + e.TrainableParams*2/2
		if got := e.States.Gradients; math.Abs(got-want) > 1 {
			t.Errorf("litgpt %v, accumulation %d: gradients %.6g B, want %.6g B", tt.litgpt, tt.accum, got, want)
		}
	}
}
