package tui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/ui/cli"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// run runs the command line and returns stdout; it fails the test on a
// non-zero exit.
func run(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(cli.Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith, Readers: hf.Readers(),
		RunTUI: func(context.Context, *model.Catalog, tui.Options) error { return nil }})
	if code != 0 {
		t.Fatalf("gpuplan %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// TestOneRequestThreeWays: the same request typed as flags, written as a
// configuration file, and answered in the configurator gives the same
// estimate and recommend JSON, since all three fill one config.WorkloadAnswers
// and resolve it once.
func TestOneRequestThreeWays(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no catalog.d overlays from the user running the tests
	opt, err := filepath.Abs("../../data/hf/testdata/config/opt-350m.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		flags  string // estimate and recommend flags
		search string // recommend's flags
		file   string // the same request as a configuration's [workload] and [search]
	}{
		{"catalog qlora", "--model llama-3.1-8b --task qlora --epochs 3 --gpus 1", "",
			`model = "llama-3.1-8b"` + "\ntask = \"qlora\"\nepochs = 3\ngpus = 1"},
		{"alias, finetune with dataset", "--model bert-large --task finetune --batch-size 32 --seq-len 384 --dataset-samples 88000 --epochs 2 --gpus 1", "",
			`model = "bert-large"` + "\ntask = \"finetune\"\nbatch_size = 32\nseq_len = 384\ndataset_samples = 88000\nepochs = 2\ngpus = 1"},
		{"vision, 8 GPUs ddp", "--model resnet50 --task train --dataset-samples 1.28M --epochs 90 --gpus 8 --strategy ddp", "",
			`model = "resnet50"` + "\ntask = \"train\"\ndataset_samples = 1280000\nepochs = 90\ngpus = 8\nstrategy = \"ddp\""},
		{"custom vit shape", "--family vit --layers 12 --hidden 768 --heads 12 --task train --epochs 1 --gpus 1", "",
			"task = \"train\"\nepochs = 1\ngpus = 1\n[workload.custom]\nfamily = \"vit\"\nlayers = 12\nhidden = 768\nheads = 12"},
		{"custom count, zero3", "--params 7B --task finetune --batch-size 4 --epochs 1 --strategy zero3 --gpus 8", "",
			"task = \"finetune\"\nbatch_size = 4\nepochs = 1\nstrategy = \"zero3\"\ngpus = 8\n[workload.custom]\nparams = 7e9"},
		{"zero3, optimizer and parameters offloaded", "--model llama-3.1-8b --task finetune --epochs 1 --strategy zero3 --gpus 8 --offload-optimizer --offload-params", "",
			`model = "llama-3.1-8b"` + "\ntask = \"finetune\"\nepochs = 1\nstrategy = \"zero3\"\ngpus = 8\noffload_optimizer = true\noffload_params = true"},
		// A sharding strategy on one GPU survives the configurator (it read
		// gpus = 1 as its single-GPU choice, which writes strategy single and
		// dropped FSDP's CPU offload: 150.03 GiB against the CLI's 20.63).
		{"fsdp cpu offload, one GPU", "--model llama-3.1-8b --task finetune --epochs 1 --strategy fsdp --gpus 1 --offload-params --checkpointing --seq-len 2k", "",
			`model = "llama-3.1-8b"` + "\ntask = \"finetune\"\nepochs = 1\nstrategy = \"fsdp\"\ngpus = 1\noffload_params = true\ncheckpointing = true\nseq_len = 2000"},
		{"zero3 offload, one GPU", "--model llama-3.1-8b --task finetune --epochs 1 --strategy zero3 --gpus 1 --offload-optimizer --offload-params", "",
			`model = "llama-3.1-8b"` + "\ntask = \"finetune\"\nepochs = 1\nstrategy = \"zero3\"\ngpus = 1\noffload_optimizer = true\noffload_params = true"},
		{"zero2, one GPU", "--model llama-3.1-8b --task finetune --epochs 1 --strategy zero2 --gpus 1", "",
			`model = "llama-3.1-8b"` + "\ntask = \"finetune\"\nepochs = 1\nstrategy = \"zero2\"\ngpus = 1"},
		// The configurator learns a config.json's defaults only once it has read it.
		{"config.json inference", "--hf-config " + opt + " --task inference --precision fp16 --batch-size 1 --seq-len 2048 --gpus 1", "",
			"hf_config = '" + opt + "'\ntask = \"inference\"\nprecision = \"fp16\"\nbatch_size = 1\nseq_len = 2048\ngpus = 1"},
		{"int4 serving", "--model llama-3.1-70b --task inference --precision int4 --context-len 8192 --sequences 16 --gpus 1", "",
			`model = "llama-3.1-70b"` + "\ntask = \"inference\"\nprecision = \"int4\"\ncontext_len = 8192\nsequences = 16\ngpus = 1"},
		// The Batch and length page asks [serve]'s max_model_len and
		// concurrency when a file gives them; saved, they go back to
		// [serve], and seq_len and batch_size stay unwritten.
		{"serve max_model_len and concurrency", "--model llama-3.1-8b --task inference --max-model-len 16k --concurrency 8 --gpus 1", "",
			`model = "llama-3.1-8b"` + "\ntask = \"inference\"\ngpus = 1\n[serve]\nmax_model_len = 16000\nconcurrency = 8"},
		// A model released quantized serves as released unless a precision
		// is given (serve.ReleasedFormat): the configurator's Precision page
		// starts at the release's precision and, left there, names none
		// (it wrote bf16: gpt-oss-120b on 4×H200 at $7.98/h, not MXFP4's 1×H200).
		{"released mxfp4: gpt-oss-120b serving", "--model openai/gpt-oss-120b --task inference", "",
			`model = "openai/gpt-oss-120b"` + "\ntask = \"inference\""},
		{"released fp8: DeepSeek-R1 serving", "--model DeepSeek-R1 --task inference", "",
			`model = "DeepSeek-R1"` + "\ntask = \"inference\""},
		{"gpt-oss-120b serving, fp8 given", "--model openai/gpt-oss-120b --task inference --precision fp8", "",
			`model = "openai/gpt-oss-120b"` + "\ntask = \"inference\"\nprecision = \"fp8\""},
		{"DeepSeek-R1 serving, bf16 given", "--model DeepSeek-R1 --task inference --precision bf16", "",
			`model = "DeepSeek-R1"` + "\ntask = \"inference\"\nprecision = \"bf16\""},
		{"DeepSeek-R1 serving, fp8 given", "--model DeepSeek-R1 --task inference --precision fp8", "",
			`model = "DeepSeek-R1"` + "\ntask = \"inference\"\nprecision = \"fp8\""},
		{"tokens, fp32", "--model gpt2 --task train --epochs 1 --precision fp32 --dataset-tokens 1B --gpus 1", "",
			`model = "gpt2"` + "\ntask = \"train\"\nepochs = 1\nprecision = \"fp32\"\ndataset_tokens = 1e9\ngpus = 1"},
		{"lora targets", "--model mistral-7b --task lora --epochs 2 --lora-rank 32 --lora-targets q,v --gpus 1", "",
			`model = "mistral-7b"` + "\ntask = \"lora\"\nepochs = 2\nlora_rank = 32\nlora_targets = [\"q\", \"v\"]\ngpus = 1"},
		{"tensorflow", "--model bert-base --framework tensorflow --task train --epochs 1 --batch-size 16 --gpus 1", "",
			`model = "bert-base"` + "\nframework = \"tensorflow\"\ntask = \"train\"\nepochs = 1\nbatch_size = 16\ngpus = 1"},
		{"jax, checkpointing off", "--model t5-base --framework jax --task finetune --epochs 1 --checkpointing=false --gpus 4 --strategy ddp", "",
			`model = "t5-base"` + "\nframework = \"jax\"\ntask = \"finetune\"\nepochs = 1\ncheckpointing = false\ngpus = 4\nstrategy = \"ddp\""},
		{"search: spot on aws and gcp, budget", "--model qwen2.5-7b --task lora --epochs 1 --gpus 1", "--providers aws,gcp --pricing spot --budget-month 5000",
			`model = "qwen2.5-7b"` + "\ntask = \"lora\"\nepochs = 1\ngpus = 1\n[search]\nproviders = [\"aws\", \"gcp\"]\npricing = \"spot\"\nbudget_month = 5000"},
		// No gpus key: the GPU count is gpuplan's to pick, as recommend
		// without --gpus (issue 31: the configurator read the file as one
		// GPU, and its near misses and order differed from recommend's).
		{"no gpus key: auto", "--model resnet50 --task train --dataset-samples 1.28M --epochs 90", "",
			`model = "resnet50"` + "\ntask = \"train\"\ndataset_samples = 1280000\nepochs = 90"},
		{"no gpus key, up to 4 GPUs", "--model llama-3.1-8b --task lora --epochs 1", "--max-gpus 4 --providers aws,gcp,lambda",
			`model = "llama-3.1-8b"` + "\ntask = \"lora\"\nepochs = 1\n[search]\nmax_gpus = 4\nproviders = [\"aws\", \"gcp\", \"lambda\"]"},
		// No strategy given: a model that fits only sharded is sharded by
		// recommend, and the configurator must pick the same offer.
		{"no strategy: 70B full fine-tune", "--model llama-3.1-70b --task finetune --epochs 1", "",
			`model = "llama-3.1-70b"` + "\ntask = \"finetune\"\nepochs = 1"},
		{"no strategy: 13B train", "--model llama-2-13b --task train --epochs 1", "",
			`model = "llama-2-13b"` + "\ntask = \"train\"\nepochs = 1"},
		{"no strategy: 70B full fine-tune, 8 GPUs", "--model llama-3.1-70b --task finetune --epochs 1 --gpus 8", "",
			`model = "llama-3.1-70b"` + "\ntask = \"finetune\"\nepochs = 1\ngpus = 8"},
		{"no strategy: 13B train, 4 GPUs", "--model llama-2-13b --task train --epochs 1 --gpus 4", "",
			`model = "llama-2-13b"` + "\ntask = \"train\"\nepochs = 1\ngpus = 4"},
		// A strategy named with auto GPUs is kept on every offer, in the
		// file as on the command line (the file's ddp was not kept: its
		// 13B train went to FSDP rows that --strategy ddp never ranks).
		{"ddp named, auto GPUs: 13B train", "--model llama-2-13b --task train --epochs 1 --strategy ddp", "",
			`model = "llama-2-13b"` + "\ntask = \"train\"\nepochs = 1\nstrategy = \"ddp\""},
	}
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			body := "schema_version = 1\n[workload]\n" + tt.file + "\n"
			fromFile := filepath.Join(dir, "file.toml")
			if err := os.WriteFile(fromFile, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := config.Decode([]byte(body))
			if err != nil {
				t.Fatal(err)
			}
			answered, err := tui.ConfiguratorRequest(cat, &c)
			if err != nil {
				t.Fatal(err)
			}
			enc, err := config.Encode(&answered)
			if err != nil {
				t.Fatal(err)
			}
			fromAnswers := filepath.Join(dir, "answers.toml")
			if err := os.WriteFile(fromAnswers, enc, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, cmd := range []string{"estimate", "recommend"} {
				args := append([]string{cmd, "--json"}, strings.Fields(tt.flags)...)
				if cmd == "recommend" {
					args = append(args, strings.Fields(tt.search)...)
				}
				flags := run(t, args...)
				if file := run(t, cmd, "--json", "--config", fromFile); file != flags {
					t.Errorf("%s: the file's JSON differs from the flags': %s", cmd, firstDiff(flags, file))
				}
				if ans := run(t, cmd, "--json", "--config", fromAnswers); ans != flags {
					t.Errorf("%s: the configurator's JSON differs from the flags': %s\nits file:\n%s", cmd, firstDiff(flags, ans), enc)
				}
				if cmd == "recommend" {
					checkPanelBest(t, cat, &c, flags)
				}
			}
		})
	}
}

// checkPanelBest: the offer the configurator's panel ranks first for the
// request c is recommend's first offer (its JSON), with the same GPU
// count and strategy: one answer, on one offer.
func checkPanelBest(t *testing.T, cat *model.Catalog, c *config.Config, recommendJSON string) {
	t.Helper()
	var doc struct {
		Offers []struct {
			Provider string `json:"provider"`
			Type     string `json:"instance_type"`
			Region   string `json:"region"`
			Pricing  string `json:"pricing"`
			GPUs     int    `json:"gpu_count"`
			Strategy string `json:"strategy"`
			Serving  int    `json:"gpus"` // a serving plan's GPUs (it has no gpu_count or strategy)
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(recommendJSON), &doc); err != nil {
		t.Fatal(err)
	}
	best, err := tui.ConfiguratorBest(cat, c, hf.Readers().HFConfig)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case best == nil && len(doc.Offers) == 0:
	case best == nil:
		t.Errorf("the configurator ranks no offer; recommend ranks %+v first", doc.Offers[0])
	case len(doc.Offers) == 0:
		t.Errorf("recommend ranks no offer; the configurator ranks %s %s first", best.Instance.Provider, best.Instance.Type)
	default:
		want := doc.Offers[0]
		got := want
		got.Provider, got.Type, got.Region, got.Pricing = best.Instance.Provider, best.Instance.Type, best.Region, string(best.Pricing)
		if got.GPUs, got.Strategy = best.Rented(), string(best.Estimate.Workload.Strategy); want.Serving > 0 {
			got.GPUs, got.Strategy, got.Serving = 0, "", best.Rented()
		}
		if got != want {
			t.Errorf("the configurator ranks %+v first, recommend %+v", got, want)
		}
	}
}

// firstDiff shows the first line where two outputs differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, strings.TrimSpace(w[i]), strings.TrimSpace(g[i]))
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}
