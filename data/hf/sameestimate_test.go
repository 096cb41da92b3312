package hf

import (
	"reflect"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestCatalogImportsToSameEstimate: every catalog model whose config.json
// is in testdata, read as `--hf-config` reads it (Readers().HFConfig),
// gives the estimate the catalog entry gives, not only the same parameter
// count: the same memory, FLOPs and step time for training (eager and
// fused attention, pure 16-bit and mixed precision) and inference, and the
// same weights and KV cache per token for serving (model/serve) and the
// same KV cache layout and capacity at the whole context (sliding-window
// layers holding their window: serve.KVLayout), and the
// same bounds on the lengths (positions, the encoder's fixed length). A
// new user's walk: whisper-large-v3 fine-tuned at batch 8 was 51.72 GiB
// from the catalog and 36.84 GiB from its config.json, whose importer left
// out the encoder's fixed 1500 frames (Architecture.EncoderSeqLen).
func TestCatalogImportsToSameEstimate(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a100, err := cat.GPU("a100-80gb")
	if err != nil {
		t.Fatal(err)
	}
	h100, err := cat.GPU("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	read := Readers().HFConfig
	type setting struct {
		task  model.Task
		prec  model.Precision
		flash bool
	}
	settings := []setting{
		{model.TaskFinetune, model.AMPBF16, true},
		{model.TaskFinetune, model.AMPBF16, false},
		{model.TaskFinetune, model.BF16, false},
		{model.TaskInference, model.BF16, true},
		{model.TaskInference, model.BF16, false},
	}
	for file, key := range catalogKeys {
		t.Run(file, func(t *testing.T) {
			want, err := cat.Model(key)
			if err != nil {
				t.Fatal(err)
			}
			got, _, _, err := read("testdata/config/"+file+".json", model.TaskFinetune)
			if err != nil {
				t.Fatal(err)
			}
			// What bounds the lengths and what serving plans from (the
			// weights in the format vLLM loads, the KV cache per token).
			if g, w := [2]int{got.MaxPositions, got.EncoderSeqLen}, [2]int{want.MaxPositions, want.EncoderSeqLen}; g != w {
				t.Errorf("max positions, encoder length: importer %v, catalog %v", g, w)
			}
			if want.Family.Generative() {
				format, ok := serve.ReleasedFormat(want)
				if !ok {
					format = serve.WeightBF16
				}
				if gf, _ := serve.ReleasedFormat(&got); gf != format && ok {
					t.Errorf("released format: importer %q, catalog %q", gf, format)
				}
				for _, tp := range []int{1, 2} {
					if g, w := serve.WeightBytes(&got, format), serve.WeightBytes(want, format); g != w {
						t.Errorf("%s weights: importer %.0f B, catalog %.0f B", format, g, w)
					}
					if g, w := serve.KVBytesPerToken(&got, serve.KVAuto, tp, 1), serve.KVBytesPerToken(want, serve.KVAuto, tp, 1); g != w {
						t.Errorf("KV bytes per token at TP %d: importer %.0f, catalog %.0f", tp, g, w)
					}
					// The KV cache vLLM lays out at the model's whole
					// context (sliding-window layers hold their window
					// only: serve.KVLayout).
					n := min(cmpOr(want.MaxPositions, 131072), 131072)
					s := serve.Serving{PromptTokens: n - 16, OutputTokens: 16, MaxModelLen: n, WeightFormat: format}.Defaults(h100)
					gm, wm := serve.MemoryOn(&got, &s, h100, tp, 1), serve.MemoryOn(want, &s, h100, tp, 1)
					if gm.Layout != wm.Layout || gm.KVTokens != wm.KVTokens || gm.MaxConcurrency != wm.MaxConcurrency {
						t.Errorf("KV cache at TP %d, %d tokens: importer %+v, %d tokens, %.4g requests; catalog %+v, %d, %.4g",
							tp, n, gm.Layout, gm.KVTokens, gm.MaxConcurrency, wm.Layout, wm.KVTokens, wm.MaxConcurrency)
					}
				}
			}
			for _, s := range settings {
				w := model.Workload{Model: *want}
				w.Task, w.Precision, w.FlashAttention = s.task, s.prec, model.Bool(s.flash)
				w.MicroBatch, w.SeqLen, w.GPUs, w.DatasetSamples = 2, min(512, cmpOr(want.MaxPositions, 512)), 1, 1000
				if s.task == model.TaskInference {
					w.MicroBatch, w.SeqLen, w.ContextLen, w.GenTokens, w.Sequences = 0, 0, min(512, cmpOr(want.MaxPositions, 512)), 64, 2
				}
				g := w
				g.Model = got
				we, werr := model.Compute(w, a100)
				ge, gerr := model.Compute(g, a100)
				if (werr == nil) != (gerr == nil) {
					t.Errorf("%v: catalog error %v, importer error %v", s, werr, gerr)
					continue
				}
				if werr != nil {
					continue
				}
				type inputs struct {
					Memory         model.Memory
					FLOPsPerSample float64
					Seconds        float64
				}
				wi := inputs{we.Memory, we.FLOPsPerSample, we.Hours}
				gi := inputs{ge.Memory, ge.FLOPsPerSample, ge.Hours}
				if !reflect.DeepEqual(wi, gi) {
					t.Errorf("%v:\nimporter %+v\ncatalog  %+v", s, gi, wi)
				}
			}
		})
	}
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// TestCatalogImportsToSameDefaults: a catalog model's config.json given
// as --hf-config starts from the batch and sequence length the catalog
// key starts from (config.WorkloadAnswers then Workload.Defaults), for
// training and serving. A new user's walk: Llama 3.1 8B LoRA was 1 × 2048
// tokens and 31.33 GiB from the config.json, 1 × 4096 and 47.04 GiB from
// the key, the same 8,030,261,248 parameters.
func TestCatalogImportsToSameDefaults(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	rd := config.Readers{HFConfig: Readers().HFConfig}
	for file, key := range catalogKeys {
		for _, task := range []model.Task{model.TaskLoRA, model.TaskFinetune, model.TaskInference} {
			byKey := config.WorkloadAnswers{Model: key, Settings: model.Settings{Task: task}}
			byFile := config.WorkloadAnswers{HFConfig: "testdata/config/" + file + ".json", Settings: model.Settings{Task: task}}
			wk, _, err := byKey.Workload(cat, rd)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			wf, _, err := byFile.Workload(cat, rd)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			wk.Defaults()
			wf.Defaults()
			if wk.SeqLen != wf.SeqLen || wk.MicroBatch != wf.MicroBatch || wk.Sequences != wf.Sequences {
				t.Errorf("%s %s: key %d × %d tokens (%d sequences), config.json %d × %d (%d)", file, task,
					wk.MicroBatch, wk.SeqLen, wk.Sequences, wf.MicroBatch, wf.SeqLen, wf.Sequences)
			}
		}
	}
}
