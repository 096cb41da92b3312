package hf

import "github.com/gpuplan/gpuplan/model"

// slidingDefault is what a configuration class fills in for a sliding
// window the config.json does not write: the window, every pattern-th
// layer attending globally (layer i slides unless (i + 1) % pattern ==
// 0), and the layers below max_window_layers attending globally.
// askOnly is a class whose window applies only with use_sliding_window
// true (its default false).
type slidingDefault struct {
	window, pattern, maxWindowLayers int
	askOnly                          bool
}

// slidingDefaults are the model types whose configuration class gives a
// window or says which layers take it when config.json does not:
//   - Gemma2Config: sliding_window=4096, layer_types "sliding_attention"
//     if bool((i + 1) % 2) else "full_attention" (transformers
//     models/gemma2/modular_gemma2.py);
//   - Gemma3TextConfig: sliding_window=4096, sliding_window_pattern=6
//     ("For configuring HybridCache to work with 5:1 attention pattern",
//     models/gemma3/configuration_gemma3.py @ 008f5c8c); the published
//     4B/12B/27B text_configs give sliding_window 1024 and no pattern;
//   - GptOssConfig: sliding_window=128, layer_types alternating, sliding
//     first (models/gpt_oss/configuration_gpt_oss.py);
//   - Qwen2Config, Qwen3Config and Qwen3MoeConfig: max_window_layers=28,
//     the layers below it global ("sliding_attention" if
//     self.sliding_window is not None and i >= self.max_window_layers),
//     and use_sliding_window=False, which sets sliding_window to None
//     (models/qwen2/configuration_qwen2.py).
var slidingDefaults = map[string]slidingDefault{
	"gemma2":      {window: 4096, pattern: 2},
	"gemma3_text": {window: 4096, pattern: 6},
	"gpt_oss":     {window: 128, pattern: 2},
	"qwen2":       {maxWindowLayers: 28, askOnly: true},
	"qwen3":       {maxWindowLayers: 28, askOnly: true},
	"qwen3_moe":   {maxWindowLayers: 28, askOnly: true},
}

// slidingWindow reads a decoder's sliding-window attention
// (model.Architecture.SlidingWindow, SlidingLayers) from config.json, as
// transformers and vLLM read it:
//   - use_sliding_window false (Qwen2, Qwen3: their classes' default)
//     means none: Qwen2Config sets sliding_window to None then, and vLLM
//     reads that;
//   - sliding_window (null or absent: none, unless the model type's
//     class defaults one, slidingDefaults) is the window;
//   - layer_types says which layers take it ("sliding_attention"; one
//     entry a layer); else sliding_window_pattern (every pattern-th layer
//     global), else max_window_layers, else the class's default, else
//     every layer: transformers' DynamicCache makes every layer a
//     DynamicSlidingWindowLayer when the config has a window and no
//     layer_types (src/transformers/cache_utils.py), and vLLM's Attention
//     gives a layer without a window of its own the model's
//     (cache_config.sliding_window, "model-level sliding window";
//     Mistral 7B v0.1, Phi-3-mini-4k).
//
// A window no shorter than max_position_embeddings never slides
// (Phi-4-mini's config.json: 262144 of 131072 positions) and is left out.
// The window only bounds the KV cache, so a value that cannot be read is
// not an error: the layers are costed as full attention, an upper bound,
// and the returned note says why; it is zero otherwise.
func (f *fields) slidingWindow(modelType string, layers, positions int) (window, sliding int, note model.Message) {
	def := slidingDefaults[modelType]
	g := &fields{raw: f.raw} // problems here are notes, not errors of the file
	if !g.bool(!def.askOnly, "use_sliding_window") {
		return 0, 0, g.slidingNote()
	}
	window = g.int(def.window, "sliding_window")
	if window <= 0 || (positions > 0 && window >= positions) || len(g.errs) > 0 || layers < 1 {
		return 0, 0, g.slidingNote()
	}
	window = min(window, model.MaxSlidingWindow)
	switch {
	case g.has("layer_types"):
		types := g.texts("layer_types")
		if len(g.errs) > 0 {
			return 0, 0, g.slidingNote()
		}
		if len(types) != layers {
			return 0, 0, model.Msg("layer_types has %d entries for %d layers (num_hidden_layers): every layer is costed with the whole context in its KV cache, an upper bound", len(types), layers)
		}
		for _, t := range types {
			if t == "sliding_attention" {
				sliding++
			}
		}
	case g.has("sliding_window_pattern"):
		p := g.count(0, "sliding_window_pattern")
		if len(g.errs) > 0 {
			return 0, 0, g.slidingNote()
		}
		sliding = layers - layers/p
	case g.has("max_window_layers") || def.maxWindowLayers > 0:
		below := g.int(def.maxWindowLayers, "max_window_layers")
		if len(g.errs) > 0 {
			return 0, 0, g.slidingNote()
		}
		sliding = layers - min(below, layers)
	case def.pattern > 0:
		sliding = layers - layers/def.pattern
	default:
		sliding = layers
	}
	if sliding == 0 {
		return 0, 0, model.Message{}
	}
	return window, sliding, model.Message{}
}

// slidingNote turns the first problem reading the sliding-window keys
// into the note slidingWindow returns; zero when there is none.
func (f *fields) slidingNote() model.Message {
	if len(f.errs) == 0 {
		return model.Message{}
	}
	return model.Msg("%v: every layer is costed with the whole context in its KV cache, an upper bound", f.errs[0])
}
