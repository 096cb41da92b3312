package hf

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// Config is what a config.json gives: the architecture plus hints.
type Config struct {
	// Arch is the architecture: Key is empty, Name comes from _name_or_path
	// (or, from ReadConfig, the directory name; else model_type), Family is
	// set, and ParamCount/ActiveParams give the exact count (see the package
	// documentation for the convention).
	Arch      model.Architecture
	ModelType string // as written, e.g. "llama", "RefinedWebModel"; "" when absent
	// DType is torch_dtype (or dtype, its newer name) as written without a
	// "torch." prefix, e.g. "bfloat16"; "" when absent. See Precision.
	DType string
	// Quantized is the weight format of a quantized checkpoint
	// (quantization_config): FP8, INT8 or INT4; "" when not quantized.
	// config.FromCheckpoint turns it into the workload for a task: a 4-bit
	// checkpoint is fine-tuned with QLoRA, inference keeps the format.
	Quantized model.Precision
	// Quantization is quantization_config as written: the method ("awq",
	// "gptq", "bitsandbytes", "fp8", ...) and bits (bits, w_bit,
	// weight_bits, or 4/8 from load_in_4bit/load_in_8bit); zero when the
	// config has none.
	Quantization Quantization
	Warnings     []model.Message // e.g. an unknown model_type read through the generic keys; messages, so a UI translates them
}

// MaxConfigBytes bounds a config.json: real ones are a few KiB (Phi-3's
// long-RoPE factor lists make the largest we know ~10 KiB). It is
// safeio.HFConfig's cap, which ReadConfig applies.
const MaxConfigBytes = 4 << 20

// ErrConfig is wrapped by every ParseConfig and ReadConfig error about the
// content of a config.json (not by file-system errors).
var ErrConfig = errors.New("invalid config.json")

// ParseConfig reads a config.json. It is pure: no file access. Errors wrap
// ErrConfig and name the key at fault; all missing required keys are
// reported together.
func ParseConfig(data []byte) (*Config, error) {
	c, err := parseConfig(data, true, taskHead{})
	if err != nil {
		return nil, model.Msg("%v: %v", ErrConfig, err)
	}
	return c, nil
}

// ReadConfig reads path, a config.json or a directory holding one, through
// safeio: a FIFO, device or oversized file is an error, never a hang.
// Errors start with the file's path. A config in the Hugging Face hub cache
// is named after its repository (hubCacheName); else, when the config has
// no _name_or_path, the architecture is named after the directory holding
// config.json (or after a file given another name, without .json).
func ReadConfig(path string) (*Config, error) {
	file := path
	if fi, err := os.Stat(path); err != nil {
		return nil, err // *PathError names the path
	} else if fi.IsDir() {
		file = filepath.Join(path, "config.json")
	}
	data, err := safeio.ReadFile(file, safeio.HFConfig) // regular files only, never blocks
	if err != nil {
		return nil, model.Msg("%s: %v", file, err)
	}
	c, err := parseConfig(data, true, taskHead{})
	if err != nil {
		return nil, model.Msg("%s: %v: %v", file, ErrConfig, err)
	}
	if name := hubCacheName(file); name != "" {
		c.Arch.Name = name
	} else if c.Arch.Name == c.ModelType || c.Arch.Name == "" {
		name := strings.TrimSuffix(filepath.Base(file), ".json") // my-model.json → my-model
		if name == "config" {                                    // models/my-model/config.json → my-model
			abs, err := filepath.Abs(file)
			name = filepath.Base(filepath.Dir(abs))
			if err != nil || name == string(filepath.Separator) || name == "." {
				name = ""
			}
		}
		if name != "" {
			c.Arch.Name = name
		}
	}
	c.Arch.Source = file
	return c, nil
}

// hubCacheName is the repository a config.json in the Hugging Face hub
// cache belongs to, "Qwen/Qwen3-8B" for
// models--Qwen--Qwen3-8B/snapshots/<commit>/config.json, or "" for a path
// not laid out so. The cache names the snapshot's directory by its commit
// hash, which titled the estimate "0123abcdef · train" (walk49).
func hubCacheName(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	snapshot := filepath.Dir(abs)
	snapshots := filepath.Dir(snapshot)
	repo := filepath.Base(filepath.Dir(snapshots))
	if filepath.Base(snapshots) != "snapshots" || !strings.HasPrefix(repo, "models--") {
		return ""
	}
	// The cache writes "/" as "--": models--org--name, or models--name
	// for a repository without an owner (gpt2).
	return strings.Replace(strings.TrimPrefix(repo, "models--"), "--", "/", 1)
}

// parseConfig does ParseConfig's work; top is false for a text_config,
// which is not searched for another, and takes the wrapper's task head
// (outer) when it names none itself (Gemma3ForSequenceClassification's
// architectures sit beside the text_config).
func parseConfig(data []byte, top bool, outer taskHead) (*Config, error) {
	if len(data) > MaxConfigBytes {
		return nil, model.Msg("%d bytes is above the %d MiB limit for a config.json", len(data), MaxConfigBytes>>20)
	}
	raw, err := decodeObject(data, top)
	if err != nil {
		return nil, err
	}
	f := &fields{raw: raw}
	c := &Config{ModelType: f.name("model_type")}
	c.DType = strings.TrimPrefix(f.text("torch_dtype", "dtype"), "torch.")
	var qnote model.Message
	c.Quantized, c.Quantization, qnote = f.quantization(c.DType)
	if qnote.Key != "" {
		c.Warnings = append(c.Warnings, qnote)
	}
	if c.DType != "" && !knownDType(c.DType) {
		c.Warnings = append(c.Warnings, model.Msg(
			"torch_dtype %q is not a dtype gpuplan knows (bfloat16, float16, float32, float8_e4m3fn, float8_e5m2, int8): the precision is the task's default; give --precision to choose it",
			c.DType))
	}
	a := &c.Arch
	a.Name = displayName(f.name("_name_or_path"), c.ModelType)
	a.Source = "config.json"
	a.Family = model.FamilyDecoder
	th := f.taskHead()
	if th.head == "" {
		th = outer
	}

	m, known := mappings[c.ModelType]
	if !known {
		if tc, ok := raw["text_config"]; ok && top && !isNull(tc) && !f.has("hidden_size", "n_embd", "d_model") {
			// A multimodal wrapper (llava, mllama, gemma3, ...): read the
			// language model, which holds nearly all of the parameters.
			if len(f.errs) > 0 {
				return nil, joined(f.errs)
			}
			inner, err := parseConfig(tc, false, th)
			if err != nil {
				return nil, model.Msg("text_config: %v", err)
			}
			if tower, ok := visionTowers[c.ModelType]; ok {
				v, err := tower(raw, inner.Arch.Hidden)
				if err != nil {
					return nil, err
				}
				inner.Arch.VisionParams = v
			} else {
				inner.Warnings = append([]model.Message{model.Msg(
					"model_type %q: read its text_config (model_type %q) only; the vision or audio tower is not counted",
					c.ModelType, inner.ModelType)}, inner.Warnings...)
			}
			inner.ModelType, inner.DType, inner.Quantized = c.ModelType, cmp.Or(inner.DType, c.DType), cmp.Or(inner.Quantized, c.Quantized)
			if inner.Quantization.zero() {
				inner.Quantization = c.Quantization
				if qnote.Key != "" {
					inner.Warnings = append(inner.Warnings, qnote)
				}
			}
			inner.Arch.Name = a.Name
			return inner, nil
		}
		m = generic
		if c.ModelType == "" {
			c.Warnings = append(c.Warnings, model.Msg("no model_type: read the generic keys as a Llama-style decoder; the parameter count is an estimate"))
		} else {
			c.Warnings = append(c.Warnings, model.Msg(
				"model_type %q is not one gpuplan knows (%s): read the generic keys as a Llama-style decoder; the parameter count is an estimate",
				c.ModelType, strings.Join(ModelTypes(), ", ")))
		}
	}
	a.Head, a.Labels = th.head, th.labels // before m: some heads change a mapping's extras
	delta := m(f, a)
	if a.Head != "" && a.Family != model.FamilyDecoder && a.Family != model.FamilyEncoder {
		// T5ForSequenceClassification, BartForSequenceClassification:
		// an encoder-decoder's heads are not modelled.
		c.Warnings = append(c.Warnings, model.Msg(
			"architectures %q: gpuplan costs classification heads on decoders and encoders only; this %s is costed as its generation model, LM head and vocabulary logits included",
			th.class, a.Family))
		a.Head, a.Labels = "", 0
	}
	a.Dropout = f.dropout(c.ModelType)
	if a.Family == model.FamilyDecoder && a.KVLoRARank == 0 {
		// vLLM runs multi-head latent attention without a window.
		var note model.Message
		a.SlidingWindow, a.SlidingLayers, note = f.slidingWindow(c.ModelType, a.Layers, a.MaxPositions)
		if note.Key != "" {
			c.Warnings = append(c.Warnings, note)
		}
	}
	if a.LearnedPositions == 0 { // rotary or none: a RoPE scaling sets the positions vLLM serves
		a.MaxPositions, a.RopeTheta, a.RopeOriginal = f.ropePositions(c.ModelType, a.MaxPositions)
	}
	// What selects the modeling code's own saved tensors
	// (model.Architecture.ModelType, Activation, ParallelResidual).
	if known {
		a.ModelType = c.ModelType
	}
	a.Activation = f.name("hidden_act", "activation_function")
	a.ParallelResidual = f.bool(false, "use_parallel_residual", "parallel_attn")
	if len(f.errs) > 0 {
		err := error(joined(f.errs))
		if !known && c.ModelType != "" {
			err = model.Msg("model_type %q, read through the generic keys: %v", c.ModelType, err)
		}
		return nil, err
	}
	if delta < 0 { // fewer parameters than the formula: carry the exact count
		exact := a.ParamCount() + delta
		if exact < 1 {
			return nil, model.Msg("the shape gives %.0f parameters", exact)
		}
		a.Params = exact
	} else {
		a.ExtraParams = delta
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	if c.Quantization.Method == "mxfp4" && a.Experts <= 1 && c.Quantized == model.INT4 {
		// MXFP4 is an MoE's experts in 4-bit (transformers'
		// Mxfp4HfQuantizer converts GptOssExperts only, vLLM's Mxfp4Config
		// FusedMoE layers only): a dense model has none, so no weight is
		// 4-bit. It was labelled "awq weights", and its file asked for an
		// AWQ checkpoint (walk49).
		c.Quantized = ""
		var dtype any = model.Msg("torch_dtype not given")
		if c.DType != "" {
			dtype = c.DType
		}
		c.Warnings = append(c.Warnings, model.Msg("quantization_config: quant_method \"mxfp4\" quantizes an MoE's experts only, and this model has none: the weights are costed as the unquantized dtype (%v)", dtype))
	}
	return c, nil
}

// taskHead is the classification head a config.json's architectures
// names, with its labels and the class as written; zero for none.
type taskHead struct {
	head   model.Head
	labels int
	class  string
}

// headSuffixes map the class names transformers gives its classification
// models (LlamaForSequenceClassification, BertForTokenClassification, ...)
// to the head they build.
var headSuffixes = []struct {
	suffix string
	head   model.Head
}{
	{"ForSequenceClassification", model.HeadSequenceClassification},
	{"ForTokenClassification", model.HeadTokenClassification},
}

// taskHead reads the head from architectures, whose first entry is the
// class save_pretrained wrote (PretrainedConfig.architectures, "Model
// architectures that can be used with the model pretrained weights"),
// and its labels: the size of id2label when the config has one, else
// num_labels, else 2, as transformers' PretrainedConfig.__init__ ("if
// self.id2label is None: self._create_id_label_maps(num_labels if
// num_labels is not None else 2)"). Labels are read only for a
// classification head, so an LM's leftover id2label is never an error.
func (f *fields) taskHead() taskHead {
	archs := f.architectures()
	if len(archs) == 0 {
		return taskHead{}
	}
	var th taskHead
	for _, h := range headSuffixes {
		if strings.HasSuffix(archs[0], h.suffix) {
			th.head = h.head
		}
	}
	if th.head == "" {
		return taskHead{}
	}
	if err := safeio.CheckName(archs[0]); err != nil { // shown in warnings
		f.fail("architectures: %v", err)
		return taskHead{}
	}
	th.class = archs[0]
	if v, ok := f.raw["id2label"]; ok && !isNull(v) {
		labels, err := decodeObject(v, false)
		switch {
		case err != nil:
			f.fail("id2label: %v", err)
		case len(labels) == 0:
			f.fail("id2label: want at least one label, got {}")
		}
		th.labels = len(labels)
	} else {
		th.labels = f.count(2, "num_labels")
	}
	return th
}

// displayName returns a name for the architecture: the Hub id in
// _name_or_path ("meta-llama/Llama-2-7b-hf"), the last element of a local
// path written there, or else the model_type.
func displayName(nameOrPath, modelType string) string {
	n := strings.TrimRight(strings.TrimSpace(nameOrPath), `/\`)
	if n == "" {
		return modelType
	}
	if strings.Count(n, "/") > 1 || strings.ContainsAny(n, `\:`) || strings.HasPrefix(n, "/") || strings.HasPrefix(n, ".") {
		n = n[strings.LastIndexAny(n, `/\:`)+1:]
	}
	return n
}

// decodeObject decodes a JSON object into its raw members; syntax errors
// give the line and column. configFile is true for a whole config.json,
// whose error says how one starts; a nested field's (quantization_config,
// text_config) or another file's does not (walk49: a string
// quantization_config was told "a config.json starts with {").
func decodeObject(data []byte, configFile bool) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, model.Msg("empty file: want a JSON object")
	}
	if trimmed[0] != '{' {
		// Name the kind, never the content: a config may point hf_config at
		// any file, and its first bytes are no business of the terminal.
		if !configFile {
			return nil, model.Msg("want a JSON object, got %s", model.Msg(jsonKind(trimmed)))
		}
		return nil, model.Msg("want a JSON object (a config.json starts with {), got %s", model.Msg(jsonKind(trimmed)))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset)
			return nil, model.Msg("malformed JSON at line %d, column %d: %v", line, col, err)
		}
		return nil, model.Msg("malformed JSON: %v", err)
	}
	return raw, nil
}

// jsonKind names what a document that is not an object is.
func jsonKind(v []byte) string {
	if !json.Valid(v) {
		return "a file that is not JSON"
	}
	switch v[0] {
	case '[':
		return "a JSON array"
	case '"':
		return "a JSON string"
	case 't', 'f':
		return "a JSON boolean"
	case 'n':
		return "null"
	}
	return "a JSON number"
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, col
}

// describe shows a JSON value in an error, cut to 40 bytes.
func describe(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) > 40 {
		return string(v[:37]) + "..."
	}
	return string(v)
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// joined reports several problems in one line, separated by semicolons;
// errors.Is and errors.As see each.
type joined []error

func (j joined) Error() string {
	msgs := make([]string, len(j))
	for i, err := range j {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (j joined) Unwrap() []error { return j }

// maxField bounds every whole-number field (2³¹−1) so that products of
// fields cannot overflow; model.Architecture.Validate then applies the
// tighter shape limits.
const maxField = math.MaxInt32

// fields reads typed values from one config.json object. JSON null counts
// as absent (Python's None, e.g. "n_inner": null). Problems accumulate in
// errs and are reported together.
type fields struct {
	raw  map[string]json.RawMessage
	errs []error
	// archs is architectures, read once (architectures) so that a bad
	// value is reported once.
	archs     []string
	archsRead bool
}

// architectures returns the architectures list (see taskHead), nil when
// absent or unreadable (reported on the first call).
func (f *fields) architectures() []string {
	if !f.archsRead {
		f.archs, f.archsRead = f.texts("architectures"), true
	}
	return f.archs
}

func (f *fields) fail(format string, args ...any) {
	f.errs = append(f.errs, model.Msg(format, args...))
}

// lookup returns the first of keys that is present and not null.
func (f *fields) lookup(keys []string) (string, json.RawMessage, bool) {
	for _, k := range keys {
		if v, ok := f.raw[k]; ok && !isNull(v) {
			return k, v, true
		}
	}
	return "", nil, false
}

// has reports whether any of keys is present and not null.
func (f *fields) has(keys ...string) bool {
	_, _, ok := f.lookup(keys)
	return ok
}

// need returns the whole number at the first present key, which must be
// > 0; a missing key is an error naming it (and its other spellings).
func (f *fields) need(keys ...string) int {
	k, v, ok := f.lookup(keys)
	if !ok {
		if len(keys) == 1 {
			f.fail("missing %q", keys[0])
		} else {
			f.fail("missing %q (or %s)", keys[0], quoteOr(keys[1:]))
		}
		return 0
	}
	n, _ := f.parseInt(k, v, 1)
	return n
}

// dropoutKeys are the config.json fields that switch on dropout during
// training, across model types (BERT hidden_dropout_prob and
// attention_probs_dropout_prob, GPT-2 resid/attn/embd_pdrop, T5
// dropout_rate, Llama-style attention_dropout, Falcon hidden_dropout, BART
// dropout).
var dropoutKeys = []string{"hidden_dropout_prob", "attention_probs_dropout_prob", "resid_pdrop", "attn_pdrop", "embd_pdrop",
	"dropout_rate", "attention_dropout", "hidden_dropout", "dropout", "activation_dropout"}

// dropoutDefaults are the dropout fields whose configuration class
// defaults them above 0 (0.1 each), by model_type: a config.json without
// one trains with the default, as the class fills it in. BertConfig
// hidden_dropout_prob and attention_probs_dropout_prob
// (models/bert/configuration_bert.py); GPT2Config resid_pdrop, embd_pdrop
// and attn_pdrop (configuration_gpt2.py); T5Config and MT5Config
// dropout_rate (configuration_t5.py, configuration_mt5.py); OPTConfig
// dropout (configuration_opt.py); DistilBertConfig dropout and
// attention_dropout (configuration_distilbert.py). Every other model type the importer
// knows defaults its dropout to 0 (Llama's attention_dropout, Whisper's
// dropout) or was not checked, and reads only what the file says.
var dropoutDefaults = map[string][]string{
	"bert": {"hidden_dropout_prob", "attention_probs_dropout_prob"},
	"gpt2": {"resid_pdrop", "embd_pdrop", "attn_pdrop"},
	"t5":   {"dropout_rate"}, "mt5": {"dropout_rate"},
	"opt":        {"dropout"},
	"distilbert": {"dropout", "attention_dropout"},
}

// dropout reports whether any dropout field is a number above 0, a field
// missing from the file counting at its configuration class's default
// (dropoutDefaults for modelType). The fields only refine the memory
// estimate, so an unreadable one is ignored rather than failing the file.
func (f *fields) dropout(modelType string) bool {
	for _, k := range dropoutDefaults[modelType] {
		if v, ok := f.raw[k]; !ok || isNull(v) {
			return true
		}
	}
	for _, k := range dropoutKeys {
		var p float64
		if v, ok := f.raw[k]; ok && json.Unmarshal(v, &p) == nil && p > 0 && p < 1 {
			return true
		}
	}
	return false
}

// int returns the whole number at the first present key, or def.
func (f *fields) int(def int, keys ...string) int {
	k, v, ok := f.lookup(keys)
	if !ok {
		return def
	}
	n, _ := f.parseInt(k, v, 0)
	return n
}

// count is int for a key that sizes a tensor when present (heads, head
// dim): the modeling code divides by it or allocates by it, so an explicit
// 0 is refused (1–maxField) rather than read as "absent"; def when the key
// is missing or null.
func (f *fields) count(def int, keys ...string) int {
	k, v, ok := f.lookup(keys)
	if !ok {
		return def
	}
	n, _ := f.parseInt(k, v, 1)
	return n
}

// parseInt parses a whole number in lo–maxField; ok is false (and the
// problem recorded, naming that range) otherwise.
func (f *fields) parseInt(k string, v json.RawMessage, lo int64) (n int, ok bool) {
	s := string(bytes.TrimSpace(v))
	i, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		// s is valid JSON, so a number starts with '-' or a digit. Accept
		// integral floats (4096.0), as Python's int() would.
		if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
			f.fail("%s: want a whole number, got %s", k, describe(v))
			return 0, false
		}
		x, _ := strconv.ParseFloat(s, 64) // ±Inf when out of float range
		switch {
		case math.Abs(x) > maxField:
			f.fail("%s: %s is out of range (%d–%d)", k, describe(v), lo, maxField)
			return 0, false
		case x != math.Trunc(x):
			f.fail("%s: want a whole number, got %s", k, describe(v))
			return 0, false
		}
		i = int64(x)
	}
	if i < lo || i > maxField {
		f.fail("%s must be %d–%d, got %d", k, lo, maxField, i)
		return 0, false
	}
	return int(i), true
}

// bool returns the boolean at the first present key, or def.
func (f *fields) bool(def bool, keys ...string) bool {
	k, v, ok := f.lookup(keys)
	if !ok {
		return def
	}
	switch string(bytes.TrimSpace(v)) {
	case "true":
		return true
	case "false":
		return false
	}
	f.fail("%s: want true or false, got %s", k, describe(v))
	return def
}

// text returns the string at the first present key, or "".
func (f *fields) text(keys ...string) string {
	k, v, ok := f.lookup(keys)
	if !ok {
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		f.fail("%s: want a string, got %s", k, describe(v))
		return ""
	}
	return s
}

// name is text for a name-like key (_name_or_path, model_type): names are
// data and reach tables, shell scripts and YAML, so control characters,
// invalid UTF-8 and absurd lengths are errors (safeio.CheckName).
//
// The JSON decoder turns invalid UTF-8 and a lone surrogate escape
// ("\udc80") into U+FFFD, which CheckName then takes for a character:
// the raw value is checked first, and a U+FFFD the file did not write
// as one is refused (attack r29: an invalid byte was shown as two U+FFFD
// while U+2028 was refused).
func (f *fields) name(keys ...string) string {
	k, raw, _ := f.lookup(keys)
	if !utf8.Valid(raw) {
		i := 0
		for i < len(raw) {
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		f.fail("%s: %v", k, model.Msg("invalid UTF-8 at byte %d; save the file as UTF-8", max(i-1, 0)))
		return ""
	}
	s := f.text(keys...)
	if i := strings.IndexRune(s, utf8.RuneError); i >= 0 && !bytes.Contains(bytes.ToLower(raw), []byte(`\ufffd`)) && !bytes.ContainsRune(raw, utf8.RuneError) {
		f.fail("%s: %v", k, model.Msg("a \\u escape that is no character (a lone surrogate) at byte %d; save the name as UTF-8", i))
		return ""
	}
	if err := safeio.CheckName(s); err != nil {
		f.fail("%s: %v", k, err)
		return ""
	}
	return s
}

// ints returns the array of whole numbers at key, or nil.
func (f *fields) ints(key string) []int {
	_, v, ok := f.lookup([]string{key})
	if !ok {
		return nil
	}
	var ns []int
	if err := json.Unmarshal(v, &ns); err != nil || len(ns) > maxField {
		f.fail("%s: want a list of whole numbers, got %s", key, describe(v))
		return nil
	}
	return ns
}

// texts returns the array of strings at key, or nil.
func (f *fields) texts(key string) []string {
	_, v, ok := f.lookup([]string{key})
	if !ok {
		return nil
	}
	var ss []string
	if err := json.Unmarshal(v, &ss); err != nil {
		f.fail("%s: want a list of strings, got %s", key, describe(v))
		return nil
	}
	return ss
}

// quantization reads quantization_config into the weight format it
// stores, following transformers' quantization configs
// (src/transformers/utils/quantization_config.py):
//   - BitsAndBytesConfig raises "load_in_4bit and load_in_8bit are both
//     True, but only one can be used at the same time": refused here too;
//   - GPTQConfig.post_init (and AutoRoundConfig's) raises unless bits is
//     2, 3, 4 or 8: other bits, 0 or missing, are refused; 2- and 3-bit
//     weights are costed as int4 (an upper bound) with a note;
//   - AwqConfig's bits default to 4;
//   - a method gpuplan does not cost (QuantizationMethod also lists aqlm,
//     hqq, bitnet, torchao, ...), or one whose bits the config does not
//     give, is costed as the unquantized dtype, with a note saying so.
//
// Any other bits given (bits, w_bit, weight_bits) must be a whole number
// of at least 1. dtype is the config's torch_dtype, for the note.
func (f *fields) quantization(dtype string) (model.Precision, Quantization, model.Message) {
	_, v, ok := f.lookup([]string{"quantization_config"})
	if !ok {
		return "", Quantization{}, model.Message{}
	}
	raw, err := decodeObject(v, false)
	if err != nil {
		f.fail("quantization_config: %v", err)
		return "", Quantization{}, model.Message{}
	}
	q := &fields{raw: raw}
	method := strings.ToLower(q.text("quant_method"))
	bitsKey, _, hasBits := q.lookup([]string{"bits", "w_bit", "weight_bits"})
	bits := q.int(0, "bits", "w_bit", "weight_bits")
	in4, in8 := q.bool(false, "load_in_4bit"), q.bool(false, "load_in_8bit")
	block := q.ints("weight_block_size")
	for _, err := range q.errs {
		f.fail("quantization_config: %v", err)
	}
	if err := safeio.CheckName(method); err != nil {
		f.fail("quantization_config.quant_method: %v", err)
	}
	if len(q.errs) > 0 {
		return "", Quantization{}, model.Message{}
	}
	if in4 && in8 {
		f.fail("quantization_config: load_in_4bit and load_in_8bit are both true; transformers' BitsAndBytesConfig refuses that: keep one")
		return "", Quantization{}, model.Message{}
	}
	switch {
	case method == "gptq" || method == "auto-round":
		if bits != 2 && bits != 3 && bits != 4 && bits != 8 {
			got := "none"
			if hasBits {
				got = fmt.Sprint(bits)
			}
			f.fail("quantization_config: %s bits %s: transformers' %s supports 2, 3, 4 or 8", method, got,
				map[string]string{"gptq": "GPTQConfig", "auto-round": "AutoRoundConfig"}[method])
			return "", Quantization{}, model.Message{}
		}
	case hasBits && bits < 1:
		f.fail("quantization_config.%s: want a whole number of bits ≥ 1, got %d", bitsKey, bits)
		return "", Quantization{}, model.Message{}
	case method == "awq" && bits == 0:
		bits = 4 // AwqConfig's default
	case bits == 0 && in4:
		bits = 4
	case bits == 0 && in8:
		bits = 8
	}
	qc := Quantization{Method: method, Bits: bits, Skip: q.quantSkip()}
	if len(q.errs) > 0 {
		for _, err := range q.errs {
			f.fail("quantization_config: %v", err)
		}
		return "", Quantization{}, model.Message{}
	}
	if block != nil {
		// transformers FineGrainedFP8Config: weight_block_size (n, k), one
		// scale per n×k block (DeepSeek-V3's config.json: [128, 128]).
		if len(block) != 2 || block[0] < 1 || block[1] < 1 {
			f.fail("quantization_config.weight_block_size: want two whole numbers ≥ 1 such as [128, 128], got %v", block)
			return "", Quantization{}, model.Message{}
		}
		qc.BlockSize = [2]int{block[0], block[1]}
	}
	switch {
	case strings.Contains(method, "fp8"):
		return model.FP8, qc, model.Message{}
	case in4 || bits == 4 || method == "mxfp4":
		return model.INT4, qc, model.Message{}
	case bits == 2 || bits == 3:
		var name any = method
		if method == "" {
			name = model.Msg("quantized")
		}
		return model.INT4, qc, model.Msg("quantization_config: %d-bit %v weights are costed as int4, an upper bound", bits, name)
	case in8 || bits == 8:
		return model.INT8, qc, model.Message{}
	}
	what := model.Msg("quant_method %q", method)
	if method == "" {
		what = model.Msg("a quantization_config without quant_method")
	}
	if hasBits {
		what = model.Msg("%v at %d bits", what, bits)
	}
	var of any = dtype
	if dtype == "" {
		of = model.Msg("torch_dtype not given")
	}
	return "", qc, model.Msg("quantization_config: %v is not a format gpuplan costs: the weights are costed as the unquantized dtype (%v), an upper bound",
		what, of)
}

// quoteOr formats keys as `"a", "b" or "c"`.
func quoteOr(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// Quantization describes a quantized checkpoint's quantization_config.
type Quantization struct {
	Method string // quant_method, lower case
	Bits   int    // weight bits, 0 when the config does not say
	// BlockSize is weight_block_size, [n, k] (block-quantized fp8:
	// DeepSeek-V3's [128, 128]); zeros when the config does not give one.
	BlockSize [2]int
	// Skip lists the modules the checkpoint leaves unconverted, as the
	// config writes them (quantSkipKeys: modules_to_not_convert,
	// ignored_layers, ignore, exclude_modules); nil for none.
	Skip []string
}

func (q *Quantization) zero() bool {
	return q.Method == "" && q.Bits == 0 && q.BlockSize == [2]int{} && len(q.Skip) == 0
}

// Precision suggests the default precision for task t: the checkpoint's
// quantized format for inference when it has one, and for training when
// bitsandbytes quantized it (config.FromCheckpoint then makes fine-tuning
// its 4-bit weights QLoRA and its 8-bit ones LoRA, with a note: a
// bitsandbytes model trains only through adapters, transformers'
// Trainer refusing "purely quantized models", trainer.py Trainer.__init__);
// else its dtype, as mixed precision for training (bfloat16 → amp-bf16,
// float16 → amp-fp16) and as stored for inference (bfloat16 → bf16). An AWQ or GPTQ checkpoint
// trains as its dtype (model.Workload.PrequantizedQLoRA says what QLoRA
// of it runs on). ok is false when the config names no dtype gpuplan
// knows.
func (c *Config) Precision(t model.Task) (p model.Precision, ok bool) {
	if c.Quantized != "" && (!t.Training() || c.Quantization.Method == "bitsandbytes") {
		return c.Quantized, true
	}
	return PrecisionFor(c.DType, t)
}

// PrecisionFor maps a dtype, spelled as torch ("bfloat16", "float16",
// "float32") or safetensors ("BF16", "F16", "F32", "F8_E4M3", "I8") spell
// it, to the precision gpuplan would default to for task t. Integer
// formats are inference-only.
func PrecisionFor(dtype string, t model.Task) (model.Precision, bool) {
	train := t.Training()
	switch strings.ToLower(strings.TrimPrefix(strings.TrimSpace(dtype), "torch.")) {
	case "bfloat16", "bf16":
		if train {
			return model.AMPBF16, true
		}
		return model.BF16, true
	case "float16", "fp16", "f16", "half":
		if train {
			return model.AMPFP16, true
		}
		return model.FP16, true
	case "float32", "fp32", "f32", "float":
		return model.FP32, true
	case "f8_e4m3", "f8_e5m2", "float8_e4m3fn", "float8_e5m2", "fp8":
		return model.FP8, true
	case "i8", "int8":
		if !train {
			return model.INT8, true
		}
	}
	return "", false
}

// knownDType reports whether PrecisionFor maps dtype for some task
// (int8 is inference-only).
func knownDType(dtype string) bool {
	_, train := PrecisionFor(dtype, model.TaskTrain)
	_, infer := PrecisionFor(dtype, model.TaskInference)
	return train || infer
}

// ModelTypes returns the model_type values ParseConfig maps exactly, sorted.
func ModelTypes() []string {
	names := make([]string, 0, len(mappings))
	for k := range mappings {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// WithCounts returns the architecture adjusted to n, the exact count read
// from the checkpoint's safetensors headers, for when both are given.
//
// When the headers hold more parameters than the config's shape (task
// heads such as BERT's MLM head, a stored copy of a tied LM head), the
// difference goes to ExtraParams (or Params, when the shape's count is
// carried there), so ParamCount equals n.Params while MoE active counts
// still follow the shape. When they hold fewer (packed quantized weights,
// a partial checkpoint), the shape's count is kept. warn is zero unless the
// two differ by more than 1%; it names where the shape came from: the
// catalog (a.Key set: `--model llama-3.1-8b --safetensors X` was told
// "config.json gives …" with no config.json given), a config.json (a.Source
// set, by ParseConfig and ReadConfig) or a custom shape.
func (c *Config) WithCounts(n TensorCounts) (a model.Architecture, warn model.Message) {
	a = c.Arch
	shape, got := a.ParamCount(), float64(n.Params)
	if shape <= 0 || got <= 0 {
		return a, model.Message{}
	}
	if diff := got - shape; diff > 0 {
		if a.Params > 0 {
			a.Params = got
		} else {
			a.ExtraParams += diff
		}
	}
	if rel := (got - shape) / shape; rel > 0.01 || rel < -0.01 {
		from, count := model.Msg("the custom shape"), model.Msg("the custom shape's count")
		switch {
		case a.Key != "":
			from, count = model.Msg("the catalog's %s shape", a.Name), model.Msg("the catalog's count")
		case a.Source != "":
			from, count = model.Msg("config.json"), model.Msg("the config.json count")
		}
		kept := model.Msg("the safetensors count")
		if got < shape {
			kept = count
		}
		warn = model.Msg("%v gives %.0f parameters and the safetensors headers %d (%+.1f%%): using %v",
			from, shape, n.Params, 100*rel, kept)
	}
	return a, warn
}
