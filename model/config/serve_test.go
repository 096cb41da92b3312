package config

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

func TestServeConfigRoundTrip(t *testing.T) {
	in := `schema_version = 1
[workload]
task = "inference"
model = "llama-3.1-70b"
[serve]
weight_format = "int4"
kv_cache_dtype = "fp8"
max_model_len = 8192
rope_scaling = "yarn:2"
prompt_tokens = 7000
output_tokens = 1000
shared_prefix_tokens = 512
concurrency = 32
tpot_ms = 50
tensor_parallel_size = 2
gpu_memory_utilization = 0.92
`
	c, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := serve.Serving{WeightFormat: serve.WeightAWQ, KVCacheDType: serve.KVFP8, MaxModelLen: 8192, RopeScaling: serve.RopeScaling{Type: "yarn", Factor: 2}, PromptTokens: 7000, OutputTokens: 1000,
		SharedPrefixTokens: 512, Concurrency: 32, TPOTTargetMs: 50, TP: 2, GPUMemoryUtilization: 0.92}
	if c.Workload.Serve != want {
		t.Fatalf("decoded %+v, want %+v", c.Workload.Serve, want)
	}
	out, err := Encode(&c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "[serve]") || !strings.Contains(string(out), `weight_format = "awq"`) {
		t.Fatalf("encoded without [serve]:\n%s", out)
	}
	back, err := Decode(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if back.Workload.Serve != want {
		t.Fatalf("round trip %+v, want %+v", back.Workload.Serve, want)
	}
}

// TestServeFloorMessages: a latency target or memory share outside its
// range says the range, whichever side it is on (walk35: -1 said "> 0
// and ≤ 3.6e+06", 0.01 "0.1–3600000").
func TestServeFloorMessages(t *testing.T) {
	head := "schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"llama-3.1-8b\"\n[serve]\n"
	for _, tc := range []struct{ body, want string }{
		{"tpot_ms = -1.0", "serve.tpot_ms: must be 0.1–3600000, got -1"},
		{"tpot_ms = 0.01", "serve.tpot_ms: must be 0.1–3600000, got 0.01"},
		{"tpot_ms = nan", "serve.tpot_ms (line 6): want a finite number, got NaN"},
		{"ttft_ms = -5.0", "serve.ttft_ms: must be 0.1–3600000, got -5"},
		{"ttft_ms = 4e6", "serve.ttft_ms: must be 0.1–3600000, got 4e+06"},
		{"gpu_memory_utilization = -0.5", "serve.gpu_memory_utilization: must be 0.01–1, got -0.5"},
		{"gpu_memory_utilization = 1.5", "serve.gpu_memory_utilization: must be 0.01–1, got 1.5"},
		// A length written as 0 is refused, as seq_len = 0 is (walk35:
		// it became the 4096 default silently).
		{"max_model_len = 0", "serve.max_model_len: must be 1–16777216, got 0; leave the key out for the default"},
		{`max_model_len = "0"`, "serve.max_model_len: must be 1–16777216, got 0"},
		{"prompt_tokens = 0", "serve.prompt_tokens: must be 1–16777216, got 0"},
		{"output_tokens = 0.0", "serve.output_tokens: must be 1–16777216, got 0"},
		{"max_num_batched_tokens = 0", "serve.max_num_batched_tokens: must be 1–16777216, got 0"},
	} {
		_, err := Decode([]byte(head + tc.body + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

func TestServeConfigErrors(t *testing.T) {
	head := "schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"llama-3.1-8b\"\n[serve]\n"
	for _, tc := range []struct{ body, want string }{
		{`weight_format = "int3"`, "serve.weight_format"},
		{`kv_cache_dtype = "int8"`, "serve.kv_cache_dtype"},
		{`concurrency = 4` + "\n" + `requests_per_sec = 2.0`, "serve.requests_per_sec"},
		{`gpu_memory_utilization = 1.5`, "serve.gpu_memory_utilization"},
		{`max_model_len = -1`, "serve.max_model_len"},
		{`shared_prefix_tokens = -5`, "serve.shared_prefix_tokens"},
		{`tensor_paralel_size = 2`, `did you mean "tensor_parallel_size"`},
		{`ttft_ms = "fast"`, "serve.ttft_ms"},
		{`rope_scaling = "yarm:4"`, `serve.rope_scaling: rope scaling type "yarm": did you mean "yarn"?`},
		{`rope_scaling = "yarn:0.5"`, `serve.rope_scaling: rope scaling factor "0.5": want a number above 1`},
		{`rope_scaling = 4`, "serve.rope_scaling"},
	} {
		_, err := Decode([]byte(head + tc.body + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.body, err, tc.want)
		}
	}
}

// whisperShape is an encoder-decoder with Whisper's fixed 1500-position
// audio encoder (serve.AudioInput).
var whisperShape = model.Architecture{Family: model.FamilyEncoderDecoder, ModelType: "whisper", EncoderSeqLen: 1500}

func TestAnswersServing(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    WorkloadAnswers
		w    model.Workload
		want serve.Serving
	}{
		// A load named (sequences here) is the question: ranked by the cost
		// of carrying it. No TPOT target named: the default, 100 ms.
		{"older keys fill in", WorkloadAnswers{Settings: model.Settings{ContextLen: 8192, GenTokens: 512, Sequences: 16, TP: 2}},
			model.Workload{Settings: model.Settings{Precision: model.INT4, ContextLen: 8192, GenTokens: 512, Sequences: 16}},
			serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 8192, PromptTokens: 7680, OutputTokens: 512, Concurrency: 16, TP: 2,
				TPOTTargetMs: serve.DefaultTPOTTargetMs, DefaultTPOT: true}},
		// Prompt and output are averages: max_model_len (vLLM rejects a
		// longer request) is the model's context, not their sum 1200
		// (issue 31), unless one average request is longer.
		{"averages keep the model's context", WorkloadAnswers{Serve: serve.Serving{PromptTokens: 1000, OutputTokens: 200, RequestsPerSec: 3}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 4096, GenTokens: 256, Sequences: 1}},
			// bf16 from the precision is vLLM's --dtype auto: fp16 where the GPU has no bf16
			serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 4096, PromptTokens: 1000, OutputTokens: 200, RequestsPerSec: 3, AllowPrecisionFallback: true, DTypeAuto: true,
				TPOTTargetMs: serve.DefaultTPOTTargetMs, DefaultTPOT: true}},
		{"an average request longer than the context", WorkloadAnswers{Serve: serve.Serving{PromptTokens: 6000, OutputTokens: 1000, RequestsPerSec: 3}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 4096, GenTokens: 256, Sequences: 1}},
			serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 7000, PromptTokens: 6000, OutputTokens: 1000, RequestsPerSec: 3, AllowPrecisionFallback: true, DTypeAuto: true,
				TPOTTargetMs: serve.DefaultTPOTTargetMs, DefaultTPOT: true}},
		// precision = "bf16" written in the file (or answered in the
		// configurator) is asked, as --precision bf16 typed: a GPU without
		// bf16 serves it only when the search allows the fallback
		// (SearchAnswers.ServeSearch), not as --dtype auto (new-user walk:
		// the file said allow_precision_fallback = false and ranked V100s).
		{"a precision bf16 given asks for bf16 itself", WorkloadAnswers{Settings: model.Settings{Precision: model.BF16}, Serve: serve.Serving{Concurrency: 4}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 2048, GenTokens: 256, Sequences: 4}},
			serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 4,
				TPOTTargetMs: serve.DefaultTPOTTargetMs, DefaultTPOT: true}},
		// No load named: a price per token, at the workload's sequences.
		{"a bf16 weight format asks for bf16 itself", WorkloadAnswers{Serve: serve.Serving{WeightFormat: serve.WeightBF16}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 2048, GenTokens: 256, Sequences: 4}},
			serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 4,
				PerToken: true, TPOTTargetMs: serve.DefaultTPOTTargetMs, DefaultTPOT: true}},
		{"the weight format wins over the precision", WorkloadAnswers{Serve: serve.Serving{WeightFormat: serve.WeightGPTQ, TPOTTargetMs: 50}},
			model.Workload{Settings: model.Settings{Precision: model.FP8, ContextLen: 2048, GenTokens: 256, Sequences: 4}},
			serve.Serving{WeightFormat: serve.WeightGPTQ, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 4,
				PerToken: true, TPOTTargetMs: 50}},
		// A GPTQ checkpoint's int4 (config.json quant_method) is served as GPTQ, not AWQ.
		{"a GPTQ checkpoint", WorkloadAnswers{Serve: serve.Serving{Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.INT4, ContextLen: 2048, GenTokens: 256, Sequences: 4}, Model: model.Architecture{QuantMethod: "gptq"}},
			serve.Serving{WeightFormat: serve.WeightGPTQ, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 8, NoTPOTTarget: true}},
		{"an AWQ checkpoint", WorkloadAnswers{Serve: serve.Serving{Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.INT4, ContextLen: 2048, GenTokens: 256, Sequences: 4}, Model: model.Architecture{QuantMethod: "awq"}},
			serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 8, NoTPOTTarget: true}},
		// A bitsandbytes 4-bit checkpoint is served as bitsandbytes (vLLM's
		// --quantization bitsandbytes), not as AWQ (attack round 11).
		{"a bitsandbytes checkpoint", WorkloadAnswers{Serve: serve.Serving{Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.INT4, ContextLen: 2048, GenTokens: 256, Sequences: 4}, Model: model.Architecture{QuantMethod: "bitsandbytes"}},
			serve.Serving{WeightFormat: serve.WeightBNB, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 8, NoTPOTTarget: true}},
		// DeepSeek-V3/R1 are released in fp8 (config.json quant_method
		// "fp8"): served as released unless a precision is asked (issue 30).
		{"a model released in fp8", WorkloadAnswers{Serve: serve.Serving{Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 2048, GenTokens: 256, Sequences: 4}, Model: model.Architecture{QuantMethod: "fp8"}},
			serve.Serving{WeightFormat: serve.WeightFP8, AsReleased: true, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 8, NoTPOTTarget: true}},
		{"a model released in fp8, bf16 asked", WorkloadAnswers{Settings: model.Settings{Precision: model.BF16}, Serve: serve.Serving{Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 2048, GenTokens: 256, Sequences: 4}, Model: model.Architecture{QuantMethod: "fp8"}},
			serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 8, NoTPOTTarget: true}},
		// Whisper takes 30 s of audio in its encoder (1500 positions):
		// a request's prompt is its 4 task tokens (vLLM's Whisper prompt)
		// and, without an output length, its output fills the decoder's
		// 448 positions: 448 − 4 = 444 (walk49: 224 prompt + 224 output).
		{"a transcription: 4 task tokens, output to max_model_len", WorkloadAnswers{Serve: serve.Serving{Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 448, GenTokens: 224, Sequences: 4}, Model: whisperShape},
			serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 448, PromptTokens: 4, OutputTokens: 444, Concurrency: 8, NoTPOTTarget: true,
				AllowPrecisionFallback: true, DTypeAuto: true}},
		{"a transcription with its output given", WorkloadAnswers{Serve: serve.Serving{OutputTokens: 100, Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 448, GenTokens: 224, Sequences: 4}, Model: whisperShape},
			serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 448, PromptTokens: 4, OutputTokens: 100, Concurrency: 8, NoTPOTTarget: true,
				AllowPrecisionFallback: true, DTypeAuto: true}},
		{"a transcription with a previous-text prompt given", WorkloadAnswers{Serve: serve.Serving{PromptTokens: 40, Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.BF16, ContextLen: 448, GenTokens: 224, Sequences: 4}, Model: whisperShape},
			serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 448, PromptTokens: 40, OutputTokens: 408, Concurrency: 8, NoTPOTTarget: true,
				AllowPrecisionFallback: true, DTypeAuto: true}},
		{"no TPOT target asked", WorkloadAnswers{Serve: serve.Serving{Concurrency: 8, NoTPOTTarget: true}},
			model.Workload{Settings: model.Settings{Precision: model.FP8, ContextLen: 2048, GenTokens: 256, Sequences: 4}},
			serve.Serving{WeightFormat: serve.WeightFP8, MaxModelLen: 2048, PromptTokens: 1792, OutputTokens: 256, Concurrency: 8, NoTPOTTarget: true}},
	} {
		if got := tc.r.Serving(&tc.w); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestServeNoTPOTTargetRoundTrip: tpot_ms = 0 written out asks for no
// TPOT target (the default, 100 ms, applies when the key is left out), and
// the encoder writes it back so the file reopens the same.
func TestServeNoTPOTTargetRoundTrip(t *testing.T) {
	head := "schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"llama-3.1-8b\"\n[serve]\nconcurrency = 8\n"
	for _, tc := range []struct {
		body string
		none bool
	}{{"tpot_ms = 0\n", true}, {"", false}} {
		c, err := Decode([]byte(head + tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if c.Workload.Serve.NoTPOTTarget != tc.none {
			t.Fatalf("%q: no TPOT target %v, want %v", tc.body, c.Workload.Serve.NoTPOTTarget, tc.none)
		}
		out, err := Encode(&c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if back.Workload.Serve != c.Workload.Serve {
			t.Errorf("%q: round trip %+v, want %+v\n%s", tc.body, back.Workload.Serve, c.Workload.Serve, out)
		}
	}
}
