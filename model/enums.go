package model

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Framework is the deep-learning framework; it sets the runtime overhead
// (see FrameworkOverhead).
type Framework string

// Frameworks, spelled as in TOML and on the command line.
const (
	PyTorch    Framework = "pytorch"
	TensorFlow Framework = "tensorflow"
	JAX        Framework = "jax"
)

// Frameworks lists the valid frameworks, the default first.
var Frameworks = []Framework{PyTorch, TensorFlow, JAX}

// Task is what the workload does with the model.
type Task string

// Tasks, spelled as in TOML and on the command line.
const (
	TaskTrain     Task = "train"     // from scratch: every parameter trained
	TaskFinetune  Task = "finetune"  // full fine-tune: every parameter trained
	TaskLoRA      Task = "lora"      // frozen 16-bit base, trained low-rank adapters
	TaskQLoRA     Task = "qlora"     // frozen 4-bit NF4 base, trained low-rank adapters
	TaskInference Task = "inference" // forward passes only, with a KV cache for decoders
)

// Tasks lists the valid tasks, the default first.
var Tasks = []Task{TaskTrain, TaskFinetune, TaskLoRA, TaskQLoRA, TaskInference}

// Training reports whether the task computes gradients.
func (t Task) Training() bool { return t != TaskInference }

// Adapters reports whether the task trains LoRA adapters over a frozen base.
func (t Task) Adapters() bool { return t == TaskLoRA || t == TaskQLoRA }

// Family is the architecture family; it selects the memory and FLOPs formulas.
type Family string

// Families, spelled as in TOML.
const (
	FamilyDecoder        Family = "decoder"         // decoder-only transformer (GPT, Llama)
	FamilyEncoder        Family = "encoder"         // encoder-only transformer (BERT)
	FamilyEncoderDecoder Family = "encoder-decoder" // T5, Whisper
	FamilyViT            Family = "vit"             // vision transformer
	FamilyCNN            Family = "cnn"             // convolutional network (ResNet, YOLO)
	FamilyUNet           Family = "unet"            // diffusion or segmentation U-Net
)

// Families lists the valid families.
var Families = []Family{FamilyDecoder, FamilyEncoder, FamilyEncoderDecoder, FamilyViT, FamilyCNN, FamilyUNet}

// Transformer reports whether the family's memory follows the transformer
// formulas (as opposed to per-sample figures from the catalog).
func (f Family) Transformer() bool {
	return f == FamilyDecoder || f == FamilyEncoder || f == FamilyEncoderDecoder || f == FamilyViT
}

// Generative reports whether inference generates tokens with a KV cache
// (decoders and encoder-decoders); encoders and vision models run one
// forward pass per request.
func (f Family) Generative() bool { return f == FamilyDecoder || f == FamilyEncoderDecoder }

// HasAttention reports whether the family has attention layers, so that
// fused (flash) attention means anything: every family but CNNs (ResNet,
// EfficientNet, ConvNeXt and YOLO are convolutions, pooling and MLPs;
// diffusion U-Nets carry attention blocks).
func (f Family) HasAttention() bool { return f != FamilyCNN }

// Vision reports whether inputs are images (sized by ImageSize) rather than tokens.
func (f Family) Vision() bool { return f == FamilyViT || f == FamilyCNN || f == FamilyUNet }

// Precision is the numeric format of weights and compute.
type Precision string

// Precisions, spelled as in TOML and on the command line. The amp- forms are
// mixed precision (16-bit compute with fp32 master weights); bf16 and fp16
// for training are pure 16-bit (model.to(torch.bfloat16) or model.half(), no
// fp32 copy, no autocast).
const (
	FP32    Precision = "fp32"
	TF32    Precision = "tf32"
	AMPFP16 Precision = "amp-fp16"
	AMPBF16 Precision = "amp-bf16"
	BF16    Precision = "bf16"
	FP16    Precision = "fp16"
	FP8     Precision = "fp8"
	INT8    Precision = "int8"
	INT4    Precision = "int4"
)

// TrainingPrecisions and InferencePrecisions list what each kind of task accepts.
var (
	TrainingPrecisions  = []Precision{AMPBF16, AMPFP16, BF16, FP16, FP32, TF32, FP8}
	InferencePrecisions = []Precision{BF16, FP16, FP32, FP8, INT8, INT4}
	// Precisions is every precision, each once: the training ones, then
	// those only inference takes (the --precision flag's valid values; a
	// new user's --precision fp64 listed fp16 twice when the flag appended
	// fp16 to the training list that holds it).
	Precisions = []Precision{AMPBF16, AMPFP16, BF16, FP16, FP32, TF32, FP8, INT8, INT4}
)

// PrecisionsFor returns the precisions valid for t, the default first.
func PrecisionsFor(t Task) []Precision {
	if t.Training() {
		return TrainingPrecisions
	}
	return InferencePrecisions
}

// Optimizer is the training optimizer; it sets the optimizer-state bytes.
type Optimizer string

// Optimizers, spelled as in TOML and on the command line.
const (
	AdamW       Optimizer = "adamw"
	Adam        Optimizer = "adam"
	SGD         Optimizer = "sgd"
	SGDMomentum Optimizer = "sgd-momentum"
	Adafactor   Optimizer = "adafactor"
	AdamW8bit   Optimizer = "adamw-8bit"
	// AdamWFused is torch.optim.AdamW(fused=True) (Hugging Face
	// TrainingArguments optim="adamw_torch_fused"): the same two moments
	// as AdamW, stepped by one kernel per tensor group
	// (torch/optim/adamw.py _fused_adamw → torch._fused_adamw_,
	// aten/src/ATen/native/cuda/fused_adamw_impl.cu FusedAdamMathFunctor:
	// param, grad, exp_avg and exp_avg_sq read and written in place), so
	// the step allocates no temporary, where the foreach default's
	// _foreach_sqrt(exp_avg_sqs) allocates one state-sized copy.
	AdamWFused Optimizer = "adamw-fused"
	// PagedAdamW and PagedAdamW8bit are bitsandbytes' paged AdamW (32-bit
	// states) and AdamW8bit: the states of large tensors live in CUDA
	// unified memory (see PagedOptimizer).
	PagedAdamW     Optimizer = "paged-adamw"
	PagedAdamW8bit Optimizer = "paged-adamw8bit"
)

// Optimizers lists the valid optimizers, the default first.
var Optimizers = []Optimizer{AdamW, Adam, SGD, SGDMomentum, Adafactor, AdamW8bit, PagedAdamW, PagedAdamW8bit, AdamWFused}

// Paged reports whether o is a bitsandbytes paged optimizer:
// Optimizer8bit.get_state_buffer (bitsandbytes/optim/optimizer.py) puts the
// state of every parameter of at least 1e5 elements in F.get_paged
// (bitsandbytes/functional.py: lib.cget_managed_ptr, cudaMallocManaged
// unified memory, registered with GlobalPageManager), not in PyTorch's
// caching allocator. torch.cuda.max_memory_allocated and
// max_memory_reserved never count those states; nvidia-smi shows the pages
// resident on the GPU, all of them while the GPU has room (the driver
// evicts pages to host RAM only under memory pressure).
func (o Optimizer) Paged() bool { return o == PagedAdamW || o == PagedAdamW8bit }

// Strategy is how training is spread over data-parallel GPUs.
type Strategy string

// Strategies, spelled as in TOML and on the command line.
const (
	Single Strategy = "single" // one GPU (or tensor parallel only)
	DDP    Strategy = "ddp"    // replicated data parallel: every GPU holds all model states
	FSDP   Strategy = "fsdp"   // FULL_SHARD: parameters, gradients and optimizer states sharded
	ZeRO1  Strategy = "zero1"  // optimizer states sharded
	ZeRO2  Strategy = "zero2"  // optimizer states and gradients sharded
	ZeRO3  Strategy = "zero3"  // optimizer states, gradients and parameters sharded
)

// Strategies lists the valid strategies, the default first.
var Strategies = []Strategy{Single, DDP, FSDP, ZeRO1, ZeRO2, ZeRO3}

// ZeROStage returns 0–3: how many kinds of model state s shards
// (1 optimizer states, 2 adds gradients, 3 adds parameters). FSDP's
// FULL_SHARD is stage 3.
func (s Strategy) ZeROStage() int {
	switch s {
	case ZeRO1:
		return 1
	case ZeRO2:
		return 2
	case ZeRO3, FSDP:
		return 3
	}
	return 0
}

// Pricing is how an offer is billed.
type Pricing string

// Pricing modes, spelled as in TOML and on the command line.
const (
	OnDemand   Pricing = "on-demand"
	Spot       Pricing = "spot"
	Reserved1y Pricing = "reserved-1y"
	Reserved3y Pricing = "reserved-3y"
)

// PricingModes lists the valid pricing modes, the default first.
var PricingModes = []Pricing{OnDemand, Spot, Reserved1y, Reserved3y}

// Parse functions for the enums. Matching ignores case and surrounding
// space and accepts the aliases people type ("pt", "bfloat16", "zero-3"); the
// error names the bad value and lists the valid ones.

// ParseFramework parses a framework name.
func ParseFramework(s string) (Framework, error) {
	return ParseEnum(s, Verbatim("framework"), Frameworks, frameworkAliases)
}

var frameworkAliases = map[string]Framework{
	"torch": PyTorch, "pt": PyTorch, "tf": TensorFlow, "keras": TensorFlow, "flax": JAX,
}

// ParseTask parses a task name.
func ParseTask(s string) (Task, error) {
	return ParseEnum(s, Verbatim("task"), Tasks, taskAliases)
}

// TaskAliasNames are the other spellings ParseTask accepts ("serve",
// "infer", …), sorted: a did-you-mean offers them too.
func TaskAliasNames() []string { return slices.Sorted(maps.Keys(taskAliases)) }

var taskAliases = map[string]Task{
	"training": TaskTrain, "pretrain": TaskTrain, "fine-tune": TaskFinetune, "full": TaskFinetune,
	"infer": TaskInference, "serve": TaskInference,
}

// ParseFamily parses an architecture family.
func ParseFamily(s string) (Family, error) {
	return ParseEnum(s, Verbatim("family"), Families, familyAliases)
}

var familyAliases = map[string]Family{
	"decoder-only": FamilyDecoder, "encoder-only": FamilyEncoder, "seq2seq": FamilyEncoderDecoder,
	"diffusion-unet": FamilyUNet,
}

// ParsePrecision parses a precision.
func ParsePrecision(s string) (Precision, error) {
	return ParseEnum(s, Verbatim("precision"), []Precision{FP32, TF32, AMPFP16, AMPBF16, BF16, FP16, FP8, INT8, INT4}, precisionAliases)
}

var precisionAliases = map[string]Precision{
	"float32": FP32, "bfloat16": BF16, "float16": FP16, "half": FP16,
	"amp": AMPBF16, "mixed": AMPBF16, "amp_bf16": AMPBF16, "amp_fp16": AMPFP16,
}

// ParseOptimizer parses an optimizer name.
func ParseOptimizer(s string) (Optimizer, error) {
	return ParseEnum(s, Verbatim("optimizer"), Optimizers, optimizerAliases)
}

var optimizerAliases = map[string]Optimizer{
	"adamw8bit": AdamW8bit, "adamw_8bit": AdamW8bit, "adam8bit": AdamW8bit, "8bit-adam": AdamW8bit,
	"paged_adamw": PagedAdamW, "paged_adamw_32bit": PagedAdamW, "paged-adamw-32bit": PagedAdamW, "pagedadamw": PagedAdamW,
	"paged_adamw_8bit": PagedAdamW8bit, "paged-adamw-8bit": PagedAdamW8bit, "pagedadamw8bit": PagedAdamW8bit,
	"momentum": SGDMomentum, "sgd_momentum": SGDMomentum,
	"adamw_torch_fused": AdamWFused, "adamw_fused": AdamWFused, "fused-adamw": AdamWFused, "fused_adamw": AdamWFused,
}

// ParseStrategy parses a distribution strategy.
func ParseStrategy(s string) (Strategy, error) {
	return ParseEnum(s, Verbatim("strategy"), Strategies, strategyAliases)
}

var strategyAliases = map[string]Strategy{
	"none": Single, "zero-1": ZeRO1, "zero-2": ZeRO2, "zero-3": ZeRO3,
	"zero_1": ZeRO1, "zero_2": ZeRO2, "zero_3": ZeRO3, "full_shard": FSDP,
}

// ParsePricing parses a pricing mode.
//
// flex-start (dws) and capacity-block, which gpuplan offers lists, are
// refused with the reason: they are reservation modes, not ranked. A
// flex-start VM waits in a queue for capacity and runs at most 7 days
// (GCP Dynamic Workload Scheduler, "About GPU obtainability with
// flex-start"); an AWS capacity block is bought ahead for set dates
// ("Capacity Blocks for ML"): neither has a start a job's time can be
// priced from, so recommend, plans and configurations rank only the
// modes an instance runs in when asked for (walk49).
func ParsePricing(s string) (Pricing, error) {
	switch k := strings.ToLower(strings.TrimSpace(s)); Pricing(k) {
	case FlexStart, CapacityBlock, "dws":
		return "", Msg("%s is a reservation mode, not ranked: flex-start waits in a queue for capacity and a capacity block is bought ahead for set dates, so no job can be priced from now on them; gpuplan offers --pricing %s lists such prices where the catalog has any; rank on-demand, spot, reserved-1y or reserved-3y", k, k)
	}
	return ParseEnum(s, Verbatim("pricing"), PricingModes, pricingAliases)
}

var pricingAliases = map[string]Pricing{
	"ondemand": OnDemand, "on_demand": OnDemand, "preemptible": Spot, "reserved": Reserved1y,
	"1y": Reserved1y, "3y": Reserved3y,
}

// ParseEnum parses s (case and surrounding space ignored) as one of valid
// or an alias; the error names what and lists valid: `sort "x": want a, b
// or c`, after the closest valid name when one is close (`task "qlorra":
// did you mean "qlora"? want …`, walk37), as a plan's pricing says it.
// what is a message so that a descriptive name translates ("rope
// scaling type"); a key the user types as written is Verbatim.
func ParseEnum[T ~string](s string, what Message, valid []T, aliases map[string]T) (T, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	for _, v := range valid {
		if string(v) == k {
			return v, nil
		}
	}
	if v, ok := aliases[k]; ok {
		return v, nil
	}
	// The did-you-mean looks among the accepted spellings, aliases too:
	// "--task serv" is nearest "serve", which no canonical name is near.
	names := EnumNames(valid)
	for _, a := range slices.Sorted(maps.Keys(aliases)) {
		names = append(names, a)
	}
	if c := Closest(k, names, 1); len(c) > 0 {
		return "", Msg("%s %q: did you mean %q? want %v", what, s, c[0], OrMsg(EnumNames(valid)))
	}
	return "", Msg("%s %q: want %v", what, s, OrMsg(EnumNames(valid)))
}

// OrMsg is OrList as a message ("%s or %s"), so a translation says "or"
// in its language.
func OrMsg(names []string) Message {
	if len(names) < 2 {
		return Msg("%s", OrList(names))
	}
	return Msg("%s or %s", commaMsg(names[:len(names)-1]), names[len(names)-1])
}

// AndMsg is names joined as "a, b and c", as a message, so a translation
// says "and" in its language.
func AndMsg(names []string) Message {
	if len(names) < 2 {
		return Msg("%s", OrList(names))
	}
	return Msg("%s and %s", commaMsg(names[:len(names)-1]), names[len(names)-1])
}

// commaMsg is names joined as "a, b, c", each comma a message of its
// own, so a translation joins them its way (zh-CN with "、": walk3's
// did-you-mean read "gcp g2-standard-4, gcp g2-standard-48 或 …").
func commaMsg(names []string) Message {
	m := Msg("%s", names[0])
	for _, n := range names[1:] {
		m = Msg("%v, %s", m, n)
	}
	return m
}

// OrList joins names as "a, b or c", for messages that list what is valid.
func OrList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// UnmarshalTOML decodes each enum from a TOML string as its Parse
// function does (aliases accepted, the canonical spelling kept), so the
// config file decodes straight into the enum types. It is the TOML
// library's Unmarshaler rather than encoding.TextUnmarshaler, which would
// see the number 3 as the text "3" and could not say "want a string".
// Pricing has none: the plan file (plan_codec.go) keeps its pricing as
// written and reports a bad one under its own key.
func (v *Framework) UnmarshalTOML(x any) error { return unmarshalEnum(v, x, ParseFramework) }
func (v *Task) UnmarshalTOML(x any) error      { return unmarshalEnum(v, x, ParseTask) }
func (v *Family) UnmarshalTOML(x any) error    { return unmarshalEnum(v, x, ParseFamily) }
func (v *Precision) UnmarshalTOML(x any) error { return unmarshalEnum(v, x, ParsePrecision) }
func (v *Optimizer) UnmarshalTOML(x any) error { return unmarshalEnum(v, x, ParseOptimizer) }
func (v *Strategy) UnmarshalTOML(x any) error  { return unmarshalEnum(v, x, ParseStrategy) }
func (v *SortKey) UnmarshalTOML(x any) error   { return unmarshalEnum(v, x, ParseSortKey) }
func (v *Recipe) UnmarshalTOML(x any) error    { return unmarshalEnum(v, x, ParseRecipe) }
func (v *Loss) UnmarshalTOML(x any) error      { return unmarshalEnum(v, x, ParseLoss) }
func (v *QuantType) UnmarshalTOML(x any) error { return unmarshalEnum(v, x, ParseQuantType) }

func unmarshalEnum[T ~string](dst *T, x any, parse func(string) (T, error)) error {
	s, ok := x.(string)
	if !ok {
		return Msg("want a string in quotes, got %s", DescribeTOML(x))
	}
	v, err := parse(s)
	if err != nil {
		if m, ok := err.(Message); ok {
			return RememberMessage(m) // for config.ValueMessage to translate
		}
		return err
	}
	*dst = v
	return nil
}

// DescribeTOML renders a decoded TOML value for an error message: a string
// quoted, a number or boolean as written, "an array", "a table".
func DescribeTOML(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return "the date-time " + x.Format(time.RFC3339)
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%v", v)
}
