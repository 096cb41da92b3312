package model

import (
	"errors"
	"testing"
)

// withHead returns a with a classification head of labels.
func withHead(a Architecture, h Head, labels int) Architecture {
	a.Head, a.Labels = h, labels
	return a
}

// TestHeadParams: a classification head replaces the LM head, tied or
// not, by hidden × labels (transformers modeling_layers.py
// GenericForSequenceClassification: "self.score =
// nn.Linear(config.hidden_size, self.num_labels, bias=False)";
// GenericForTokenClassification: "self.score =
// nn.Linear(config.hidden_size, config.num_labels)", with bias; an
// encoder's classifier has a bias too: modeling_bert.py
// BertForSequenceClassification "self.classifier =
// nn.Linear(config.hidden_size, config.num_labels)").
func TestHeadParams(t *testing.T) {
	bertTokens := withHead(bertBase, HeadTokenClassification, 9)
	bertTokens.Pooler = false // BertModel(config, add_pooling_layer=False)
	tests := []struct {
		name string
		a    Architecture
		want float64
	}{
		{"llama-3.1-8b seq-cls 2: 8,030,261,248 − 128,256 × 4,096 + 4,096 × 2", withHead(llama31_8B, HeadSequenceClassification, 2), 7_504_932_864},
		{"llama-3.1-8b token-cls 9: − 128,256 × 4,096 + 4,096 × 9 + 9", withHead(llama31_8B, HeadTokenClassification, 9), 7_504_961_545},
		{"gpt2 tied seq-cls 2: 124,439,808 + 768 × 2", withHead(gpt2Small, HeadSequenceClassification, 2), 124_441_344},
		{"bert-base seq-cls 2: 109,482,240 + 768 × 2 + 2", withHead(bertBase, HeadSequenceClassification, 2), 109_483_778},
		{"bert-base token-cls 9 without the pooler: − 590,592 + 768 × 9 + 9", bertTokens, 108_898_569},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.ParamCount(); got != tt.want {
				t.Errorf("ParamCount() = %.0f, want %.0f (diff %+.0f)", got, tt.want, got-tt.want)
			}
			if got := tt.a.ActiveParams(); got != tt.want {
				t.Errorf("ActiveParams() = %.0f, want %.0f", got, tt.want)
			}
			if err := tt.a.Validate(); err != nil {
				t.Errorf("Validate() = %v", err)
			}
		})
	}
}

// TestHeadValidate: a head needs labels and a decoder or encoder.
func TestHeadValidate(t *testing.T) {
	t5 := Architecture{Family: FamilyEncoderDecoder, Layers: 12, DecoderLayers: 12, Hidden: 768, Heads: 12, FFN: 3072, Vocab: 32128, Tied: true}
	for _, tt := range []struct {
		name string
		a    Architecture
	}{
		{"no labels", withHead(llama31_8B, HeadSequenceClassification, 0)},
		{"labels above 2²⁴", withHead(llama31_8B, HeadTokenClassification, 1<<24+1)},
		{"unknown head", withHead(llama31_8B, "question-answering", 2)},
		{"encoder-decoder", withHead(t5, HeadSequenceClassification, 2)},
	} {
		if err := tt.a.Validate(); !errors.Is(err, ErrInvalidArchitecture) {
			t.Errorf("%s: Validate() = %v, want ErrInvalidArchitecture", tt.name, err)
		}
	}
}

// TestHeadLogits: what a classification head's logits and loss hold,
// worked out from logitsBytes for Llama 3.1 8B at batch 4 × 4,096 tokens
// in 16-bit (p = 2):
//
//	sequence, 2 labels: the score's 4,096·4·2 logits at 2 B = 65,536 (no
//	  node saves them: gone before backward, and their gradient of the
//	  same shape in the loss backward), plus native cross_entropy on the
//	  4·2 = 8 pooled logits (ForSequenceClassificationLoss:
//	  fixed_cross_entropy(pooled_logits.view(-1, num_labels), ...)): 8·2·2
//	  = 32 forward, 32 backward, the 8·2 = 16 returned pooled logits
//	token, 9 labels, hf-fp32 (ForTokenClassification: "logits =
//	  logits.float()"): n = 4,096·4·9 = 147,456 logits, n·(2+4+4) =
//	  1,474,560 forward, n·8 = 1,179,648 backward, the fp32 copy n·4 =
//	  589,824 gone before backward, the returned logits n·2 = 294,912
func TestHeadLogits(t *testing.T) {
	tests := []struct {
		name                 string
		head                 Head
		labels               int
		outputs              Outputs
		fwd, bwd, gone, kept float64
	}{
		{"sequence 2, outputs dropped", HeadSequenceClassification, 2, OutputsDropped, 65_568, 65_568, 65_552, 0},
		{"sequence 2, outputs kept: the pooled 16 B stay", HeadSequenceClassification, 2, OutputsKept, 65_568, 65_568, 65_536, 16},
		{"token 9, outputs dropped", HeadTokenClassification, 9, OutputsDropped, 1_474_560, 1_179_648, 884_736, 0},
		{"token 9, outputs kept", HeadTokenClassification, 9, OutputsKept, 1_474_560, 1_179_648, 589_824, 294_912},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, MicroBatch: 4, SeqLen: 4096, GPUs: 1, TP: 1, Outputs: tt.outputs},
				Model: withHead(llama31_8B, tt.head, tt.labels)}
			w.Defaults()
			fwd, bwd, gone, kept := headLogits(&w, 4096, 4, 2, 1)
			if fwd != tt.fwd || bwd != tt.bwd || gone != tt.gone || kept != tt.kept {
				t.Errorf("headLogits = %.0f, %.0f, %.0f, %.0f; want %.0f, %.0f, %.0f, %.0f", fwd, bwd, gone, kept, tt.fwd, tt.bwd, tt.gone, tt.kept)
			}
		})
	}
}

// TestHeadNoVocabulary: Llama 3.1 8B with a sequence-classification head
// (walk51: costed as the causal LM) at batch 4 × 4,096, amp-bf16: the
// vocabulary's logits and loss are gone from the activations and the LM
// head's matmul from the FLOPs.
func TestHeadNoVocabulary(t *testing.T) {
	run := func(a Architecture) (Workload, savedActivations) {
		w := Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, MicroBatch: 4, SeqLen: 4096, GPUs: 1, TP: 1}, Model: a}
		w.Defaults()
		return w, trainingActivations(&w, w.TrainingRecipe())
	}
	lmW, lm := run(llama31_8B)
	clsW, cls := run(withHead(llama31_8B, HeadSequenceClassification, 2))
	// The LM's: n = 4,096·4·128,256 = 2,101,346,304 logits, hf-fp32 at
	// p = 2: n·(2+4+4) forward, n·8 backward (logitsBytes).
	const n = 4096 * 4 * 128256
	if lm.logits != n*10 || lm.lossBwd != n*8 {
		t.Fatalf("LM logits %.0f, loss backward %.0f; want %.0f, %.0f", lm.logits, lm.lossBwd, float64(n*10), float64(n*8))
	}
	if cls.logits != 65_568 || cls.lossBwd != 65_568 || cls.blocks != lm.blocks {
		t.Errorf("classifier: logits %.0f, loss backward %.0f (want 65,568 each, TestHeadLogits); blocks %.0f, want the LM's %.0f",
			cls.logits, cls.lossBwd, cls.blocks, lm.blocks)
	}
	// Forward FLOPs: 2·s per matmul parameter; the LM multiplies
	// 8,030,261,248 − 128,256·4,096 (lookup) = 7,504,924,672 per token
	// (its head included), the classifier 7,504,932,864 − 525,336,576 =
	// 6,979,596,288 (its 4,096×2 score included): 525,328,384 fewer.
	if got, want := ForwardFLOPsPerSample(&lmW)-ForwardFLOPsPerSample(&clsW), 2*4096*525_328_384.0; got != want {
		t.Errorf("forward FLOPs per sample: LM − classifier = %.6g, want 2 × 4,096 × 525,328,384 = %.6g", got, want)
	}
	if !lmW.CountsLogits() || clsW.CountsLogits() {
		t.Errorf("CountsLogits: LM %v, classifier %v; want true, false", lmW.CountsLogits(), clsW.CountsLogits())
	}
}
