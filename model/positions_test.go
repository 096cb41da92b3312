package model

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestPositionLimit: only a learned absolute position table bounds what
// the model can run; MaxPositions trims the offset rows RoBERTa's and
// OPT's tables hold.
func TestPositionLimit(t *testing.T) {
	for _, tt := range []struct {
		name string
		a    Architecture
		want int
	}{
		{"gpt2: wpe of 1024 rows", gpt2Small, 1024},
		{"bert-base without max_positions: its 512 rows", bertBase, 512},
		{"roberta: 514 rows − 2 offset = 512 (max_positions)", Architecture{LearnedPositions: 514, MaxPositions: 512}, 512},
		{"opt: 2050 rows − 2 offset = 2048", Architecture{LearnedPositions: 2050, MaxPositions: 2048}, 2048},
		{"max_positions above the table: the table's 512", Architecture{LearnedPositions: 512, MaxPositions: 1024}, 512},
		{"llama-2-7b: rotary, no limit", llama2_7B, 0},
		{"llama-3.1-8b: rotary, no limit", llama31_8B, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.PositionLimit(); got != tt.want {
				t.Errorf("PositionLimit() = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestLearnedPositionsRefused: past a learned position table the model
// cannot run (transformers' embedding lookup fails), so Validate refuses
// the sequence, in training and in inference, on the field that asks for
// it; a rotary model past its trained length is legal with a warning.
func TestLearnedPositionsRefused(t *testing.T) {
	whisper := Architecture{Key: "whisper-tiny", Family: FamilyEncoderDecoder, Layers: 4, DecoderLayers: 4, Hidden: 384,
		Heads: 6, FFN: 1536, Vocab: 51865, Tied: true, LinearBias: true, LearnedPositions: 448, MaxPositions: 448, EncoderSeqLen: 1500}
	vit := Architecture{Key: "vit-b-16", Family: FamilyViT, Layers: 12, Hidden: 768, Heads: 12, FFN: 3072, Vocab: 1000,
		LinearBias: true, LearnedPositions: 197, MaxPositions: 197, PatchSize: 16, Channels: 3, ImageSize: 224}
	for _, tt := range []struct {
		name  string
		w     Workload
		field string // "" when accepted
		warn  bool   // "seq_len … exceeds the model's … positions"
	}{
		{"gpt2 finetune at its 1024 positions", Workload{Settings: Settings{Task: TaskFinetune, SeqLen: 1024}, Model: gpt2Small}, "", false},
		{"gpt2 finetune at 1025 > 1024", Workload{Settings: Settings{Task: TaskFinetune, SeqLen: 1025}, Model: gpt2Small}, "seq_len", false},
		{"gpt2 train at 8192 > 1024", Workload{Settings: Settings{Task: TaskTrain, SeqLen: 8192}, Model: gpt2Small}, "seq_len", false},
		{"gpt2 lora at 2048 > 1024", Workload{Settings: Settings{Task: TaskLoRA, SeqLen: 2048}, Model: gpt2Small}, "seq_len", false},
		{"gpt2 qlora at 2048 > 1024", Workload{Settings: Settings{Task: TaskQLoRA, SeqLen: 2048}, Model: gpt2Small}, "seq_len", false},
		{"bert-base finetune at 512", Workload{Settings: Settings{Task: TaskFinetune, SeqLen: 512}, Model: bertBase}, "", false},
		{"bert-base finetune at 4096 > 512", Workload{Settings: Settings{Task: TaskFinetune, SeqLen: 4096}, Model: bertBase}, "seq_len", false},
		{"bert-base inference, context 4096 > 512 (seq_len its default)", Workload{Settings: Settings{Task: TaskInference, ContextLen: 4096}, Model: bertBase}, "context_len", false},
		{"gpt2 inference, context 1024 = 512 prompt + 512 generated", Workload{Settings: Settings{Task: TaskInference, ContextLen: 1024, GenTokens: 512}, Model: gpt2Small}, "", false},
		{"gpt2 inference, context 1280 = 1024 prompt + 256 generated > 1024", Workload{Settings: Settings{Task: TaskInference, ContextLen: 1280, GenTokens: 256}, Model: gpt2Small}, "context_len", false},
		{"gpt2 inference, seq_len 8192 (the context's default) > 1024", Workload{Settings: Settings{Task: TaskInference, SeqLen: 8192}, Model: gpt2Small}, "seq_len", false},
		{"whisper decoder at its 448 positions", Workload{Settings: Settings{Task: TaskFinetune, SeqLen: 448}, Model: whisper}, "", false},
		{"whisper decoder at 449 > 448", Workload{Settings: Settings{Task: TaskFinetune, SeqLen: 449}, Model: whisper}, "seq_len", false},
		{"vit: patches, not a sequence length", Workload{Settings: Settings{Task: TaskFinetune, ImageSize: 224}, Model: vit}, "", false},
		{"llama-2-7b (rotary) at its 4096 positions", Workload{Settings: Settings{Task: TaskLoRA, SeqLen: 4096}, Model: llama2_7B}, "", false},
		{"llama-2-7b (rotary) at 8192 > 4096: warned, not refused", Workload{Settings: Settings{Task: TaskLoRA, SeqLen: 8192}, Model: llama2_7B}, "", true},
		{"llama-2-7b (rotary) inference at context 16384 > 4096: warned", Workload{Settings: Settings{Task: TaskInference, SeqLen: 16384}, Model: llama2_7B}, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := tt.w
			w.Defaults()
			err := w.Validate()
			var fe *FieldError
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("Validate() = %v, want accepted", err)
			case tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field || !errors.Is(err, ErrInvalidWorkload)):
				t.Fatalf("Validate() = %v, want a %s error wrapping ErrInvalidWorkload", err, tt.field)
			}
			if tt.field != "" {
				return
			}
			warned := slices.ContainsFunc(w.WarningMessages(), func(m Message) bool {
				return strings.HasPrefix(m.Key, "seq_len %d exceeds the model's %d positions: the model runs past them")
			})
			if warned != tt.warn {
				t.Errorf("seq_len warning = %v, want %v (warnings %q)", warned, tt.warn, w.Warnings())
			}
		})
	}
}

// TestLearnedPositionsMessage pins the refusal: what is wrong, why and
// what to give instead, for a catalog key and for an imported model known
// by its name only.
func TestLearnedPositionsMessage(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskFinetune, SeqLen: 8192}, Model: gpt2Small}
	w.Defaults()
	const want = "seq_len: 8192 is above gpt2's 1024 learned positions: its position-embedding table has no row past them, so the model cannot run a longer input; give 1024 or less"
	if err := w.Validate(); err == nil || err.Error() != want {
		t.Errorf("Validate() = %v, want %s", err, want)
	}
	opt := Architecture{Name: "facebook/opt-350m", Family: FamilyDecoder, Layers: 24, Hidden: 1024, Heads: 16, FFN: 4096,
		Vocab: 50272, Tied: true, LinearBias: true, LearnedPositions: 2050, MaxPositions: 2048}
	w = Workload{Settings: Settings{Task: TaskInference, ContextLen: 4096}, Model: opt}
	w.Defaults()
	const wantOPT = "context_len: 4096 is above facebook/opt-350m's 2048 learned positions: its position-embedding table has no row past them, so the model cannot run a longer input; give 2048 or less"
	if err := w.Validate(); err == nil || err.Error() != wantOPT {
		t.Errorf("Validate() = %v, want %s", err, wantOPT)
	}
}

// TestDefaultSeqLenWithinLearnedPositions: a model with a learned table
// and no max_positions (an overlay, a test shape) defaults to its rows,
// not to the 2048 default, which it could not run.
func TestDefaultSeqLenWithinLearnedPositions(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskFinetune}, Model: bertBase}
	w.Defaults()
	if w.SeqLen != 512 {
		t.Errorf("default seq_len = %d, want 512 (bert-base's learned positions)", w.SeqLen)
	}
}
