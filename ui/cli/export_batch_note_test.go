package cli

import (
	"strings"
	"testing"
)

// TestExportSaysBatchShared: export without --gpus takes micro-batch 4 ×
// accumulation 2 on one GPU as a global batch of 8, as recommend does,
// and shares it over the p4de's 8 GPUs at 1 × 1 (new user's walk: the
// file said 1 and 1 with no line why, beside estimate --gpus 8's 4 × 2).
// The file's notes say so in one line, and stderr does when it is
// written to a file.
func TestExportSaysBatchShared(t *testing.T) {
	args := []string{"export", "--model", "llama-3.1-8b", "--task", "finetune", "--strategy", "zero3", "--batch-size", "4", "--grad-accum", "2",
		"--instance", "aws/p4de.24xlarge", "--format", "torchrun"}
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	for _, want := range []string{`"train_micro_batch_size_per_gpu": 1`, `"gradient_accumulation_steps": 1`, "--per_device_train_batch_size 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the file lacks %q: the batch recommend runs on 8 GPUs", want)
		}
	}
	note := "# note: batch: micro-batch 4 × gradient accumulation 2 on 1 GPU (a global batch of 8) runs as micro-batch 1 × accumulation 1 on each of the offer's 8 GPUs, the same global batch, as recommend shares it; --gpus 8 asks for 4 × 2 on each GPU (a global batch of 64)"
	if strings.Count(out, note) != 1 {
		t.Errorf("want the file's note %q once:\n%s", note, out)
	}
	path := t.TempDir() + "/run.sh"
	code, _, errs = runCLI(t, append(args, "-o", path)...)
	if code != 0 || strings.Count(errs, "batch: micro-batch 4 × gradient accumulation 2 on 1 GPU") != 1 {
		t.Errorf("exit %d; want the batch note once on stderr:\n%s", code, errs)
	}
}

// TestExportSaysDefaultBatchShared: a batch from defaults moves too: the
// QLoRA recipe's micro-batch 1 × accumulation 16 the estimate's header
// shows is written as 1 × 2 on each of lambda's 8 H100s (fresh-user walk:
// silently), so the file says why, once, with --gpus 8 too (it wrote the
// same 1 × 2 and dropped the line); on 1 GPU the file writes the header's
// batch and says nothing. GPUs that cannot share 16 (3 of a p4de) write
// the nearest they share, 1 × 5 (was 1 × 1, unsaid), and say it.
func TestExportSaysDefaultBatchShared(t *testing.T) {
	note8 := "# note: batch: the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), micro-batch 1 × accumulation 2 × 8 data-parallel GPUs"
	note3 := "# note: batch: 3 data-parallel GPUs cannot share the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), so the nearest they share: 15 = micro-batch 1 × accumulation 5 × 3 GPUs"
	for _, tt := range []struct {
		instance string
		gpus     string
		note     string
		want     int
		accum    string
	}{
		{"lambda/gpu_8x_h100_sxm5", "", note8, 1, "--gradient_accumulation_steps 2"},
		{"lambda/gpu_8x_h100_sxm5", "8", note8, 1, "--gradient_accumulation_steps 2"},
		{"lambda/gpu_1x_h100_sxm5", "", note8, 0, "--gradient_accumulation_steps 16"},
		{"aws/p4de.24xlarge", "3", note3, 1, "--gradient_accumulation_steps 5"},
	} {
		args := []string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", tt.instance, "--format", "torchrun"}
		if tt.gpus != "" {
			args = append(args, "--gpus", tt.gpus)
		}
		code, out, errs := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%s --gpus %q: exit %d:\n%s", tt.instance, tt.gpus, code, errs)
		}
		if got := strings.Count(out, tt.note); got != tt.want {
			t.Errorf("%s --gpus %q: the note %q %d times, want %d:\n%s", tt.instance, tt.gpus, tt.note, got, tt.want, out)
		}
		if !strings.Contains(out, tt.accum) {
			t.Errorf("%s --gpus %q: the file lacks %q:\n%s", tt.instance, tt.gpus, tt.accum, out)
		}
	}
}
