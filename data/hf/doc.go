// Package hf reads a model brought by the user in Hugging Face form: the
// architecture from a config.json, and exact parameter counts from the
// headers of .safetensors checkpoints. It never loads weights.
//
// # config.json
//
// ParseConfig maps each known model_type (see ModelTypes) to a
// model.Architecture whose ParamCount reproduces the parameter count of the
// transformers class named in the config, module by module. Where the
// generic shape formula of model.Architecture cannot express a model's
// modules (Falcon's single layer norm, GPT-J's lm_head bias, Whisper's
// convolutional front end, T5's relative attention bias...), the mapping
// computes the difference and stores it in ExtraParams; the comment on each
// mapping function lists what goes there. When a model has fewer parameters
// than the formula (OPT-350m's narrow embeddings, OPT without a final layer
// norm) Params carries the exact count instead.
//
// Counts follow one convention: unique parameters of the model a
// config.json's base class builds, tied weights once, buffers never. Causal
// LMs include their LM head (untied) or not (tied); encoders (bert, roberta)
// count the base model with its pooler and without task heads, as BertModel
// does; encoder-decoders count the generation model (T5ForConditionalGeneration,
// WhisperForConditionalGeneration). A decoder or encoder whose architectures
// names a sequence- or token-classification class (LlamaForSequenceClassification,
// BertForTokenClassification) counts that class: its classification head
// (model.Architecture.Head and Labels) and no LM head.
//
// A multimodal wrapper (gemma3, llama4, llava, mllama, ...) is read through
// its text_config; for gemma3 and llama4 the vision tower and projector are
// counted too, from vision_config (model.Architecture.VisionParams: resident,
// not run per text token), for the others a warning says they are not.
//
// An unknown model_type falls back to the generic keys (hidden_size,
// num_hidden_layers, num_attention_heads, ...) read as a Llama-style decoder,
// with a warning in Config.Warnings. A missing required key is an error that
// names it; malformed JSON or a value of the wrong type is an error that
// names the key; nothing panics.
//
// # safetensors
//
// ParseSafetensorsHeader reads the 8-byte little-endian header length and the
// JSON header, and nothing else, so a checkpoint of any size is counted in
// the time it takes to read a few megabytes. Every number in the header is
// checked (length against the file and a 100 MiB limit, shapes against
// overflow, byte ranges against dtype, shape, file and each other) before it
// is used. ReadSafetensors also reads a directory of shards through its
// model.safetensors.index.json.
//
// # Command-line use
//
// The flags the issue asks for map onto this API as follows:
//
//	gpuplan estimate --hf-config PATH    cfg, err := hf.ReadConfig(PATH)
//	                                     arch := cfg.Arch; p, ok := cfg.Precision(task)
//	                                     (default precision when the user gave none;
//	                                     arch.MaxPositions bounds --seq-len when > 0,
//	                                     a refusal past arch.PositionLimit() (a learned
//	                                     position table), else a warning;
//	                                     print cfg.Warnings on stderr)
//	gpuplan estimate --safetensors PATH  n, err := hf.ReadSafetensors(PATH)
//	                                     model.Architecture{Params: float64(n.Params), ...}
//	                                     (n.Warnings on stderr; n.DType() suggests precision)
//	both flags                           arch, warn := cfg.WithCounts(n)
//
// The package reads files only in ReadConfig and ReadSafetensors; the parsers
// take bytes or an io.Reader so that tests and fuzzing need no files.
package hf
