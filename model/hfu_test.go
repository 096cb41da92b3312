package model

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Issue 31 item 10: the assumptions printed "hardware utilisation 0.35
// … resulting MFU 0.38" for a LoRA fine-tune of Llama 3.1 8B on an H100:
// MFU above the utilisation it came from. MFU counts the full square of
// causal attention (PaLM App. B) while the kernel executes half of it
// (CausalAttentionWork), so the 0.35 of the matmuls is not the HFU of the
// job. HFUAchieved is hardware FLOPs (model FLOPs plus recomputation,
// counted as MFU counts them) over time × peak: never below MFU, and
// what the assumptions print as HFU.
func TestHFUNeverBelowMFU(t *testing.T) {
	lora := Workload{Settings: Settings{Task: TaskLoRA, MicroBatch: 4, SeqLen: 4096, DatasetTokens: 1e8}, Model: llama31_8B}
	ckpt := lora
	ckpt.Checkpointing = Bool(true)
	long := lora
	long.SeqLen = 32768
	ddp := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e8, GPUs: 8, Strategy: FSDP}, Model: llama2_7B}
	cnn := Workload{Settings: Settings{Task: TaskTrain, MicroBatch: 256, DatasetSamples: 1.28e6}, Model: resnet50}
	for name, w := range map[string]Workload{"lora 4k": lora, "lora ckpt": ckpt, "lora 32k": long, "fsdp 8": ddp, "resnet50": cnn} {
		for _, g := range []*GPU{testA100, testH100} {
			e, err := Compute(w, g)
			if err != nil {
				t.Fatal(err)
			}
			if !(e.HFUAchieved >= e.MFU) || e.HFUAchieved > 1 {
				t.Errorf("%s on %s: HFU %.4f, MFU %.4f; want MFU ≤ HFU ≤ 1", name, g.Name, e.HFUAchieved, e.MFU)
			}
			text := strings.Join(e.Assumptions(), "\n")
			hfu, mfu := printed(t, text, `HFU ([0-9.]+)`), printed(t, text, `MFU ([0-9.]+)`)
			if hfu < mfu {
				t.Errorf("%s on %s: prints HFU %.2f below MFU %.2f:\n%s", name, g.Name, hfu, mfu, text)
			}
		}
	}
}

// printed is the number after the first match of re's group in text.
func printed(t *testing.T, text, re string) float64 {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s in:\n%s", re, text)
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(m[1], "."), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
