package model

import (
	"errors"
	"strings"
	"testing"
)

// TestTaskPrecisionVerdicts pins the verdict of every task × precision
// pair, so each is either estimated as the software runs it or refused on
// the precision field in one line (the CLI exits 2 with it):
//
//   - training takes amp-bf16, amp-fp16, bf16, fp16, fp32, tf32 and fp8,
//     except QLoRA in fp8: bitsandbytes' Linear4bit computes in its
//     compute_dtype and dequantize_4bit takes only bf16, fp16 and fp32
//     (bitsandbytes nn/modules.py Linear4bit.forward, functional.py
//     dequantize_4bit), so QLoRA never runs an fp8 matmul (walk49: it was
//     timed at the fp8 peak, 1.0 h against the 1.8 h it runs);
//   - int8 and int4 are weight formats of inference only;
//   - inference takes bf16, fp16, fp32, fp8, int8 and int4, not the
//     mixed-precision recipes (amp-*) nor tf32.
func TestTaskPrecisionVerdicts(t *testing.T) {
	refused := map[Task]map[Precision]string{
		TaskTrain:     {INT8: "not a training precision", INT4: "not a training precision"},
		TaskFinetune:  {INT8: "not a training precision", INT4: "not a training precision"},
		TaskLoRA:      {INT8: "not a training precision", INT4: "not a training precision"},
		TaskQLoRA:     {INT8: "not a training precision", INT4: "not a training precision", FP8: "qlora computes in bf16, fp16 or fp32"},
		TaskInference: {AMPBF16: "not an inference precision", AMPFP16: "not an inference precision", TF32: "not an inference precision"},
	}
	n := 0
	for _, task := range Tasks {
		for _, p := range Precisions {
			n++
			want, bad := refused[task][p]
			w := Workload{Settings: Settings{Task: task, Precision: p, MicroBatch: 1, SeqLen: 512}, Model: llama8B()}
			w.Defaults()
			err := w.Validate()
			var fe *FieldError
			switch {
			case !bad && err != nil:
				t.Errorf("%s × %s: %v, want accepted", task, p, err)
			case bad && (!errors.As(err, &fe) || fe.Field != "precision"):
				t.Errorf("%s × %s: %v, want a precision error", task, p, err)
			case bad && !strings.Contains(err.Error(), want):
				t.Errorf("%s × %s: %v, want it to say %q", task, p, err, want)
			}
		}
	}
	if n != len(Tasks)*len(Precisions) || n != 45 {
		t.Errorf("%d pairs checked, want every one of the 5 tasks × 9 precisions", n)
	}
}
