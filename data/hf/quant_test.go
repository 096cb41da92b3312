package hf

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// TestQuantizationConfig: quantization_config as the quantizers write it
// (transformers' AwqConfig, GPTQConfig, BitsAndBytesConfig, FineGrainedFP8Config
// serialise quant_method and their bit fields) is exposed as method and
// bits, and the 4-bit ones are fine-tuned as QLoRA (config.FromCheckpoint).
func TestQuantizationConfig(t *testing.T) {
	const shape = `"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
		"intermediate_size": 11008, "vocab_size": 32000, "torch_dtype": "float16", `
	tests := []struct {
		name, qc  string
		want      Quantization
		format    model.Precision
		finetuneT model.Task
	}{
		{"AWQ", `{"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm", "zero_point": true}`,
			Quantization{Method: "awq", Bits: 4}, model.INT4, model.TaskQLoRA},
		{"AutoAWQ's w_bit", `{"quant_method": "awq", "w_bit": 4, "q_group_size": 128}`, Quantization{Method: "awq", Bits: 4}, model.INT4, model.TaskQLoRA},
		{"GPTQ 4-bit", `{"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": false}`, Quantization{Method: "gptq", Bits: 4}, model.INT4, model.TaskQLoRA},
		{"GPTQ 8-bit", `{"quant_method": "gptq", "bits": 8}`, Quantization{Method: "gptq", Bits: 8}, model.INT8, model.TaskLoRA},
		{"bitsandbytes 4-bit", `{"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_quant_type": "nf4"}`,
			Quantization{Method: "bitsandbytes", Bits: 4}, model.INT4, model.TaskQLoRA},
		{"bitsandbytes 8-bit", `{"quant_method": "bitsandbytes", "load_in_8bit": true}`, Quantization{Method: "bitsandbytes", Bits: 8}, model.INT8, model.TaskLoRA},
		{"fp8", `{"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}`,
			Quantization{Method: "fp8", BlockSize: [2]int{128, 128}}, model.FP8, model.TaskFinetune},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte("{" + shape + `"quantization_config": ` + tt.qc + "}"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Quantization, tt.want) || c.Quantized != tt.format {
				t.Errorf("Quantization = %+v, %s; want %+v, %s", c.Quantization, c.Quantized, tt.want, tt.format)
			}
			p, _ := c.Precision(model.TaskInference)
			if p != tt.format {
				t.Errorf("inference precision %s, want the stored %s", p, tt.format)
			}
			if task, _, _ := config.FromCheckpoint(model.TaskFinetune, p); task != tt.finetuneT {
				t.Errorf("finetune on this checkpoint estimates %s, want %s", task, tt.finetuneT)
			}
			// The path --task finetune takes (config.WorkloadMessages):
			// the precision for training, then the checkpoint's rule. A
			// bitsandbytes checkpoint trains through adapters as the rule
			// says (a new user's walk: a bnb 4-bit config.json under
			// finetune was a full 16-bit fine-tune, 254 GiB, no note); an
			// AWQ, GPTQ or fp8 one trains as its dtype.
			pt, _ := c.Precision(model.TaskFinetune)
			want := model.TaskFinetune
			if tt.want.Method == "bitsandbytes" {
				want = tt.finetuneT
			}
			if task, _, _ := config.FromCheckpoint(model.TaskFinetune, pt); task != want {
				t.Errorf("finetune precision %s estimates %s, want %s", pt, task, want)
			}
		})
	}
}

// TestQuantizationConfigRefusedAndNoted: what transformers' quantization
// configs raise on is refused; a method gpuplan does not cost is costed as
// the dtype, with a note saying so.
func TestQuantizationConfigRefusedAndNoted(t *testing.T) {
	const shape = `"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
		"intermediate_size": 128, "vocab_size": 100, "torch_dtype": "bfloat16", `
	tests := []struct {
		name, qc, err, note string
		format              model.Precision
	}{
		{"bnb 4 and 8 bit", `{"quant_method": "bitsandbytes", "load_in_4bit": true, "load_in_8bit": true}`,
			"load_in_4bit and load_in_8bit are both true; transformers' BitsAndBytesConfig refuses that", "", ""},
		{"gptq bits 0", `{"quant_method": "gptq", "bits": 0}`, "gptq bits 0: transformers' GPTQConfig supports 2, 3, 4 or 8", "", ""},
		{"gptq bits 5", `{"quant_method": "gptq", "bits": 5}`, "gptq bits 5", "", ""},
		{"gptq no bits", `{"quant_method": "gptq"}`, "gptq bits none", "", ""},
		{"awq bits 0", `{"quant_method": "awq", "bits": 0}`, "quantization_config.bits: want a whole number of bits ≥ 1, got 0", "", ""},
		{"gptq 3-bit", `{"quant_method": "gptq", "bits": 3}`, "", "3-bit gptq weights are costed as int4, an upper bound", model.INT4},
		{"awq default bits", `{"quant_method": "awq"}`, "", "", model.INT4},
		{"unknown method", `{"quant_method": "bitnet"}`, "",
			`quant_method "bitnet" is not a format gpuplan costs: the weights are costed as the unquantized dtype (bfloat16)`, ""},
		{"no bits known", `{"quant_method": "compressed-tensors"}`, "", `quant_method "compressed-tensors" is not a format gpuplan costs`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte("{" + shape + `"quantization_config": ` + tt.qc + "}"))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error = %v, want one line containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Quantized != tt.format {
				t.Errorf("format %q, want %q", c.Quantized, tt.format)
			}
			notes := strings.Join(model.Strings(c.Warnings), "\n")
			if tt.note == "" && notes != "" || !strings.Contains(notes, tt.note) {
				t.Errorf("warnings %q, want %q", c.Warnings, tt.note)
			}
		})
	}
}

// TestReaderCarriesQuantMethod: the config.json reader hands the method on,
// so that serving labels a GPTQ checkpoint's int4 as GPTQ (was AWQ).
func TestReaderCarriesQuantMethod(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	js := `{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
		"intermediate_size": 128, "vocab_size": 100, "torch_dtype": "float16", "quantization_config": {"quant_method": "gptq", "bits": 4}}`
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	a, p, _, err := Readers().HFConfig(path, model.TaskInference)
	if err != nil || a.QuantMethod != "gptq" || p != model.INT4 {
		t.Errorf("got QuantMethod %q, precision %s, %v; want gptq, int4", a.QuantMethod, p, err)
	}
	// A bitsandbytes 4-bit checkpoint (attack round 11: served as "awq").
	js = `{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
		"intermediate_size": 128, "vocab_size": 100, "torch_dtype": "bfloat16", "quantization_config": {"quant_method": "bitsandbytes",
		"load_in_4bit": true, "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": true}}`
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	a, p, _, err = Readers().HFConfig(path, model.TaskInference)
	if err != nil || a.QuantMethod != "bitsandbytes" || p != model.INT4 {
		t.Errorf("got QuantMethod %q, precision %s, %v; want bitsandbytes, int4", a.QuantMethod, p, err)
	}
}

// TestReaderCarriesFP8Blocks: DeepSeek-V3's config.json (testdata, as on
// huggingface.co/deepseek-ai/DeepSeek-V3: quantization_config
// {"quant_method": "fp8", "weight_block_size": [128, 128]}) reads as an fp8
// checkpoint with 128×128 block scales, served in fp8 (issue 30).
func TestReaderCarriesFP8Blocks(t *testing.T) {
	a, p, _, err := Readers().HFConfig(filepath.Join("testdata", "config", "deepseek-v3.json"), model.TaskInference)
	if err != nil || a.QuantMethod != "fp8" || a.WeightBlockSize != [2]int{128, 128} || p != model.FP8 {
		t.Errorf("got QuantMethod %q, blocks %v, precision %s, %v; want fp8, [128 128], fp8", a.QuantMethod, a.WeightBlockSize, p, err)
	}
	for _, bad := range []string{`[128]`, `[128, 0]`, `[128, 128, 128]`, `"128x128"`} {
		_, err := ParseConfig([]byte(`{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
			"intermediate_size": 128, "vocab_size": 100, "quantization_config": {"quant_method": "fp8", "weight_block_size": ` + bad + `}}`))
		if err == nil || !strings.Contains(err.Error(), "weight_block_size") {
			t.Errorf("weight_block_size %s: got %v, want an error naming weight_block_size", bad, err)
		}
	}
}
