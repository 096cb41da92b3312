package hf

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestWhisperEncoderLength: the encoder runs max_source_positions
// positions whatever the audio (WhisperEncoder.forward refuses features of
// any other length than max_source_positions × 1 × 2 mel frames,
// transformers models/whisper/modeling_whisper.py), WhisperConfig's 1500
// when the key is absent (configuration_whisper.py), so the importer sets
// EncoderSeqLen as the catalog's Whisper entries do. Before, it was 0 and
// the encoder ran at the decoder's 448 tokens: whisper-large-v3 fine-tuned
// at batch 8 estimated 36.84 GiB from its config.json, 51.72 from the
// catalog.
func TestWhisperEncoderLength(t *testing.T) {
	base := `{"model_type": "whisper", "d_model": 384, "encoder_layers": 4, "decoder_layers": 4,
	"encoder_attention_heads": 6, "decoder_attention_heads": 6, "encoder_ffn_dim": 1536,
	"decoder_ffn_dim": 1536, "vocab_size": 51865, "max_target_positions": 448%s}`
	for _, tt := range []struct {
		name, extra string
		want        int
	}{
		{"30 s of audio: 3000 mel frames, conv2 stride 2 → 1500", `, "max_source_positions": 1500`, 1500},
		{"absent: WhisperConfig's default 1500", ``, 1500},
		{"a shorter window: 750 positions", `, "max_source_positions": 750`, 750},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(strings.Replace(base, "%s", tt.extra, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if c.Arch.EncoderSeqLen != tt.want {
				t.Errorf("EncoderSeqLen = %d, want %d", c.Arch.EncoderSeqLen, tt.want)
			}
		})
	}
	// The walk's estimate, batch 8 at amp-bf16: the config.json gives the
	// catalog's memory and FLOPs (TestCatalogImportsToSameEstimate checks
	// every model with a config in testdata).
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	entry, err := cat.Model("whisper-large-v3")
	if err != nil {
		t.Fatal(err)
	}
	estimate := func(a model.Architecture) model.Estimate {
		w := model.Workload{Model: a}
		w.Task, w.Precision, w.MicroBatch, w.SeqLen = model.TaskFinetune, model.AMPBF16, 8, 448
		e, err := model.Compute(w, nil)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	got, want := estimate(mustRead(t, "whisper-large-v3").Arch), estimate(*entry)
	if got.Memory.Total() != want.Memory.Total() || got.FLOPsPerSample != want.FLOPsPerSample {
		t.Errorf("config.json: %.2f GiB, %.3g FLOPs per sample; catalog: %.2f GiB, %.3g",
			got.Memory.Total()/model.GiB, got.FLOPsPerSample, want.Memory.Total()/model.GiB, want.FLOPsPerSample)
	}
}
