package launch_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// trainerRun is what a training script would run with, read back from its
// arguments.
type trainerRun struct {
	ckpt, bf16, fp16 bool
	loss             string // TRL loss_type; "" for TrainingArguments (the model's own loss)
	dtype            string // the dtype the weights load in (TRL ModelConfig.dtype)
}

// parseTrainer reads args as HfArgumentParser fills a dataclass: a bool flag
// alone is true, or takes the bool word after it; then the dataclass's
// defaults fill what is missing. sft selects TRL's SFTConfig defaults
// (huggingface/trl @ f2cd57710ae3: trl/trainer/base_config.py _BaseConfig
// gradient_checkpointing = True, bf16 = None then "not fp16" in
// __post_init__; trl/trainer/sft_config.py loss_type = None then
// "chunked_nll" unless use_liger_kernel; trl/trainer/model_config.py
// ModelConfig dtype = "float32", passed to from_pretrained by
// trl/scripts/sft.py) over TrainingArguments' (gradient_checkpointing,
// bf16, fp16 all False; a script on it alone loads as it likes: dtype
// "" here).
func parseTrainer(args []string, sft bool) trainerRun {
	var ckpt, bf16, fp16 *bool
	loss, dtype := "", ""
	for i := 0; i < len(args); i++ {
		boolAt := func() *bool {
			v := true
			if i+1 < len(args) && slices.Contains(boolWords, strings.ToLower(args[i+1])) {
				i++
				v = slices.Contains([]string{"yes", "true", "t", "y", "1"}, strings.ToLower(args[i]))
			}
			return &v
		}
		switch args[i] {
		case "--gradient_checkpointing":
			ckpt = boolAt()
		case "--bf16":
			bf16 = boolAt()
		case "--fp16":
			fp16 = boolAt()
		case "--loss_type":
			i++
			loss = args[i]
		case "--dtype":
			i++
			dtype = args[i]
		}
	}
	r := trainerRun{}
	if fp16 != nil {
		r.fp16 = *fp16
	}
	switch {
	case ckpt != nil:
		r.ckpt = *ckpt
	case sft:
		r.ckpt = true
	}
	switch {
	case bf16 != nil:
		r.bf16 = *bf16
	case sft:
		r.bf16 = !r.fp16
	}
	if sft && loss == "" {
		loss = "chunked_nll"
	}
	if sft && dtype == "" {
		dtype = "float32"
	}
	if !sft {
		loss, dtype = "", ""
	}
	r.loss, r.dtype = loss, dtype
	return r
}

// TestTrainingArgsPinDefaults: the training script arguments make TRL's
// SFTConfig and plain TrainingArguments run the job the estimate priced:
// checkpointing on or off as estimated (SFTConfig would turn it on), the
// precision's autocast (SFTConfig would pick bf16 for fp32), and the
// estimate's loss as TRL's loss_type (SFTConfig would chunk it). Without
// the pins, the LoRA case runs with checkpointing and a chunked loss the
// estimate did not price (TRIAL.md S2).
func TestTrainingArgsPinDefaults(t *testing.T) {
	lora := cases[0] // one A10G
	lora.w.Task = model.TaskLoRA
	lora.w.Checkpointing = nil // LoRA's default: off
	lora.w.MicroBatch, lora.w.SeqLen, lora.w.GradAccum = 1, 512, 32
	qloraChunked := cases[0]
	qloraChunked.w.Checkpointing, qloraChunked.w.Loss = model.Bool(true), model.LossChunked
	qloraFused := cases[0]
	qloraFused.w.Loss = model.LossFused
	qloraFP16 := cases[0]
	qloraFP16.w.Precision = model.AMPFP16
	fp32 := cases[1] // 8 × A100, ZeRO-3, checkpointing on
	fp32.w.Precision = model.FP32
	tf32 := cases[1]
	tf32.w.Precision = model.TF32
	for _, tt := range []struct {
		name string
		tc   testCase
		want trainerRun // what the estimate assumed, as the trainer names it
		note string     // a note the files must carry; "" for none
	}{
		{"LoRA, checkpointing off, hf-fp32 loss: TRL's 'nll', a bf16 base", lora, trainerRun{ckpt: false, bf16: true, loss: "nll", dtype: "bfloat16"}, ""},
		{"QLoRA, checkpointing on, chunked loss: TRL's 'chunked_nll'", qloraChunked, trainerRun{ckpt: true, bf16: true, loss: "chunked_nll", dtype: "bfloat16"}, ""},
		{"QLoRA amp-fp16: --fp16 true, no bf16, an fp16 base", qloraFP16, trainerRun{ckpt: true, fp16: true, loss: "nll", dtype: "float16"}, ""},
		{"QLoRA, fused loss: no TRL flag, a note", qloraFused, trainerRun{ckpt: true, bf16: true, loss: "chunked_nll", dtype: "bfloat16"},
			"the estimate assumed the fused loss, which TRL has no --loss_type for"},
		{"full fine-tune fp32: --bf16 false, or SFTConfig trains in bf16", fp32, trainerRun{ckpt: true, loss: "nll", dtype: "float32"}, ""},
		{"full fine-tune tf32: --tf32 true --bf16 false", tf32, trainerRun{ckpt: true, loss: "nll", dtype: "float32"}, ""},
		{"full fine-tune amp-bf16: fp32 master weights", cases[1], trainerRun{ckpt: true, bf16: true, loss: "nll", dtype: "float32"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := plan(t, tt.tc, launch.Options{})
			if got := parseTrainer(p.ScriptArgs, true); got != tt.want {
				t.Errorf("SFTConfig runs %+v, the estimate assumed %+v\nargs %q", got, tt.want, p.ScriptArgs)
			}
			// TrainingArguments has no loss_type nor dtype; the rest must agree too.
			want := tt.want
			want.loss, want.dtype = "", ""
			if got := parseTrainer(p.ScriptArgs, false); got != want {
				t.Errorf("TrainingArguments runs %+v, the estimate assumed %+v\nargs %q", got, want, p.ScriptArgs)
			}
			if bad := checkScriptArgs(t, p.ScriptArgs); len(bad) > 0 {
				t.Errorf("HfArgumentParser would stop on %v", bad)
			}
			notes := strings.Join(p.Notes(), "\n")
			if tt.note != "" && !strings.Contains(notes, tt.note) || tt.note == "" && strings.Contains(notes, "--loss_type") {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}
