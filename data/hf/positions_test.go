package hf

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestPositionLimitFromConfig: the importer says which models have a
// learned absolute position table (model.Architecture.LearnedPositions),
// whose rows bound what the model can run (PositionLimit): GPT-2, BERT,
// RoBERTa (514 rows, 512 positions), OPT (2 offset rows), DistilBERT and
// Whisper's decoder by their model_type; BERT-derived configs read through
// the generic keys by position_embedding_type "absolute"; GPT-Neo and
// GPT-BigCode by model_type. Rotary (Llama, ModernBERT), relative (T5) and
// ALiBi (BLOOM) models have none.
func TestPositionLimitFromConfig(t *testing.T) {
	// The shape of google/electra-small-discriminator's config.json,
	// read through the generic keys.
	electra := `{"model_type": "electra", "architectures": ["ElectraForPreTraining"], "hidden_size": 256,
	"num_hidden_layers": 12, "num_attention_heads": 4, "intermediate_size": 1024, "embedding_size": 128,
	"vocab_size": 30522, "max_position_embeddings": 512, "type_vocab_size": 2, "position_embedding_type": "absolute"}`
	bigcode := `{"model_type": "gpt_bigcode", "n_embd": 6144, "n_layer": 40, "n_head": 48, "n_inner": 24576,
	"vocab_size": 49152, "n_positions": 8192, "multi_query": true}`
	for _, tt := range []struct {
		name    string
		file    string // a fixture in testdata/config, or
		json    string // a config.json written out
		learned int    // LearnedPositions
		limit   int    // PositionLimit
	}{
		{"gpt2: n_positions 1024", "gpt2", "", 1024, 1024},
		{"bert-base-uncased: max_position_embeddings 512", "bert-base-uncased", "", 512, 512},
		{"roberta-base: 514 rows, 2 offset: 512", "roberta-base", "", 514, 512},
		{"opt-350m: 2048 + 2 offset rows", "opt-350m", "", 2050, 2048},
		{"distilbert-base-uncased: 512", "distilbert-base-uncased", "", 512, 512},
		{"whisper-tiny: the decoder's max_target_positions 448", "whisper-tiny", "", 448, 448},
		{"llama-3.1-8b: rotary", "llama-3.1-8b", "", 0, 0},
		{"modernbert-base: rotary", "modernbert-base", "", 0, 0},
		{"t5-base: relative buckets", "t5-base", "", 0, 0},
		{"bloom-560m: ALiBi", "bloom-560m", "", 0, 0},
		{"electra (generic): position_embedding_type absolute", "", electra, 512, 512},
		{"gpt_bigcode (generic): wpe of n_positions 8192", "", bigcode, 8192, 8192},
		{"generic with position_embedding_type rotary: none", "", `{"model_type": "nomic_bert", "hidden_size": 768,
		"num_hidden_layers": 12, "num_attention_heads": 12, "vocab_size": 30528, "max_position_embeddings": 8192,
		"position_embedding_type": "rotary"}`, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.json)
			if tt.file != "" {
				var err error
				if data, err = os.ReadFile(filepath.Join("testdata", "config", tt.file+".json")); err != nil {
					t.Fatal(err)
				}
			}
			c, err := ParseConfig(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Arch.LearnedPositions; got != tt.learned {
				t.Errorf("LearnedPositions = %d, want %d", got, tt.learned)
			}
			if got := c.Arch.PositionLimit(); got != tt.limit {
				t.Errorf("PositionLimit() = %d, want %d", got, tt.limit)
			}
		})
	}
}

// TestImportedLearnedPositionsRefused: a sequence past the table of a
// model read from its config.json is refused as for a catalog model, on
// seq_len; at the limit it is estimated.
func TestImportedLearnedPositionsRefused(t *testing.T) {
	c := mustRead(t, "distilbert-base-uncased")
	for _, tt := range []struct {
		seqLen int
		ok     bool
	}{{512, true}, {513, false}, {4096, false}} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, SeqLen: tt.seqLen}, Model: c.Arch}
		_, err := model.Compute(w, nil)
		var fe *model.FieldError
		switch {
		case tt.ok && err != nil:
			t.Errorf("seq_len %d: %v, want an estimate", tt.seqLen, err)
		case !tt.ok && (!errors.As(err, &fe) || fe.Field != "seq_len"):
			t.Errorf("seq_len %d: %v, want a seq_len error", tt.seqLen, err)
		}
	}
}
