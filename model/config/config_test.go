package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// fullConfig sets every key once, so the round trip covers them all.
func fullConfig() Config {
	return Config{
		Workload: WorkloadAnswers{
			Settings: model.Settings{Framework: model.PyTorch, Task: model.TaskLoRA, Precision: model.AMPBF16, Optimizer: model.AdamW8bit, MicroBatch: 8, SeqLen: 1024, GradAccum: 4, Checkpointing: model.Bool(true), FlashAttention: model.Bool(false), LoRARank: 32, LoRATargets: []string{"q", "v"}, DatasetTokens: 2.5e9, Epochs: 1.5, GPUs: 8, Strategy: model.FSDP, TP: 2, GPUsPerNode: 4, NetworkGbps: 400, MFU: 0.35},
			Model:    "tiny-llama",
		},
		Search: SearchAnswers{
			Providers: []string{"aws", "gcp"}, Regions: []string{"us-east-1", "europe-"}, Pricing: model.Spot,
			MaxPriceHour: 40, BudgetMonth: 12000.5, HoursPerMonth: 200, DeadlineHours: 72, AllowMultiNode: true, Sort: model.SortJob,
		},
		Estimate: &EstimateSummary{GPU: "a100-80gb", WeightsGiB: 12.5, GradientsGiB: 0.1, OptimizerStatesGiB: 0.2,
			ActivationsGiB: 30, OverheadGiB: 2.25, TotalGiB: 45.05, TotalFLOPs: 1.234e19, Hours: 10.5, GPUHours: 84},
		Selection: &Selection{Provider: "aws", InstanceType: "p4de.24xlarge", Region: "us-east-1", GPU: "a100-80gb",
			GPUs: 8, Instances: 1, Pricing: model.Spot, USDPerHour: 12.3456, MonthlyUSD: 9012.29, JobHours: 10.5, JobUSD: 129.63,
			CatalogAsOf: "2026-11-30"},
	}
}

func TestConfigRoundTrip(t *testing.T) {
	custom := Config{Workload: WorkloadAnswers{
		Settings: model.Settings{Task: model.TaskInference, Precision: model.INT4, MicroBatch: 16, SeqLen: 4096, ContextLen: 4096, Sequences: 16, GenTokens: 512},
		Custom: &CustomModel{Family: model.FamilyDecoder, Layers: 4,
			Hidden: 256, Heads: 4, KVHeads: 2, FFN: 1024, Vocab: 1000},
		AutoGPUs: true,
	}, Search: SearchAnswers{MaxGPUs: 4}} // up to 4 GPUs
	hf := Config{Workload: WorkloadAnswers{Settings: model.Settings{Epochs: 3, DatasetSamples: 1}, HFConfig: `C:\models\é "quoted"\config.json`}}
	params := Config{Workload: WorkloadAnswers{Settings: model.Settings{ImageSize: 224}, Custom: &CustomModel{Family: model.FamilyCNN, Params: 25.6e6}}}
	cjk := Config{Workload: WorkloadAnswers{Model: "llama"}, Selection: &Selection{Provider: "云", InstanceType: "ＧＰＵ服务器-🚀",
		Region: "東京 1", GPUs: 1, Instances: 1, PriceOrigin: `C:\价格\neg "q".toml`, PriceSource: "协议价 2031", PriceAsOf: "2031-05-17"}}
	for name, c := range map[string]Config{"full": fullConfig(), "custom shape": custom, "hf path": hf, "params only": params, "cjk and emoji": cjk} {
		t.Run(name, func(t *testing.T) {
			b, err := Encode(&c)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			got, err := Decode(b)
			if err != nil {
				t.Fatalf("Decode: %v\n%s", err, b)
			}
			if !reflect.DeepEqual(got, c) {
				t.Errorf("round trip differs:\n got %+v\nwant %+v\n%s", got, c, b)
			}
		})
	}
}

func TestEncodeConfigReadable(t *testing.T) {
	c := fullConfig()
	c.Selection.JobUSD, c.Selection.JobHours = 0, 0
	b, err := Encode(&c)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		"schema_version = 1", "[workload]", `model = "tiny-llama"`, "epochs = 1.5", "gpus = 8", "[search]",
		"hours_per_month = 200.0", "[selection]", `catalog_as_of = "2026-11-30"`, "# ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// Unknown prices are left out, never written as 0 (which reads as free).
	for _, bad := range []string{"job_cost_usd", "job_hours", "= 0\n", "= 0.0"} {
		if strings.Contains(s, bad) {
			t.Errorf("output contains %q:\n%s", bad, s)
		}
	}
}

func TestDecodeConfigErrors(t *testing.T) {
	const head = "schema_version = 1\n[workload]\nmodel = \"x\"\n"
	tests := []struct {
		name, in string
		key      string // Error.Key
		line     int
		msg      string // substring of the message
	}{
		{"typo suggests the key", head + "batchsize = 8\n", "workload.batchsize", 0, `did you mean "batch_size"?`},
		{"typo in a table name", head + "[serach]\npricing = \"spot\"\n", "serach", 0, `did you mean "search"?`},
		{"typo in custom", "schema_version = 1\n[workload.custom]\nlayer = 2\n", "workload.custom.layer", 0, `did you mean "layers"?`},
		{"string for an int", head + "batch_size = \"eight\"\n", "workload.batch_size", 4, `want a whole number such as 8, got "eight"`},
		{"fraction for an int", head + "batch_size = 8.5\n", "workload.batch_size", 4, "got 8.5"},
		{"token count not a count", head + "seq_len = \"abc\"\n", "workload.seq_len", 4, `"abc" is not a token count; want e.g. 4096, 8K (8192) or 8k (8000)`},
		{"binary suffix on a fraction", head + "seq_len = \"1.5K\"\n", "workload.seq_len", 4, "a binary suffix (K, M) takes a whole number"},
		// Issue 29: 1e14 is a whole number, too large, not "want a whole number".
		{"exponent for an int", head + "batch_size = 1e14\n", "workload.batch_size", 4, "must be 1–1048576, got 1e+14"},
		{"huge int", head + "batch_size = 100000000000000\n", "workload.batch_size", 4, "must be 1–1048576, got 100000000000000"},
		// walk37: past int32 the key's own range, not int32's 2147483647.
		{"huge seq_len", head + "seq_len = 99999999999\n", "workload.seq_len", 4, "must be 1–16777216, got 99999999999"},
		{"huge serve length", head + "[serve]\nmax_model_len = 3000000000\n", "serve.max_model_len", 5, "must be 1–16777216, got 3000000000"},
		{"bool for a float", head + "epochs = true\n", "workload.epochs", 4, "want a number"},
		{"duplicate key", head + "task = \"train\"\ntask = \"lora\"\n", "workload.task", 5, "already been defined"},
		{"duplicate table", head + "[workload]\n", "", 4, "already been defined"},
		{"bad enum", head + "task = \"trian\"\n", "workload.task", 4, "want train, finetune, lora, qlora or inference"},
		{"precision not for the task", head + "task = \"inference\"\nprecision = \"amp-bf16\"\n", "workload.precision", 0, "not valid for task inference"},
		{"zero price is never free", head + "[selection]\nprovider = \"a\"\ninstance_type = \"b\"\nregion = \"c\"\ngpus = 1\ninstances = 1\nprice_per_hour_usd = 0\n", "selection.price_per_hour_usd", 0, "never free"},
		{"zero budget", head + "[search]\nbudget_month = 0\n", "search.budget_month", 0, "leave the key out"},
		{"zero batch", head + "batch_size = 0\n", "workload.batch_size", 0, "must be 1–1048576, got 0"},
		{"negative epochs", head + "epochs = -1\n", "workload.epochs", 0, "must be > 0"},
		{"nan", head + "mfu = nan\n", "workload.mfu", 4, "finite"},
		{"zero network", head + "network_gbps = 0\n", "workload.network_gbps", 0, "leave the key out"},
		{"network past 100 Tbps", head + "network_gbps = 1e6\n", "workload.network_gbps", 0, "≤ 100000"},
		{"zero gpus per node", head + "gpus_per_node = 0\n", "workload.gpus_per_node", 0, "leave the key out"},
		{"gpus per node past 1024", head + "gpus_per_node = 2048\n", "workload.gpus_per_node", 0, "must be 1–1024"},
		{"two models", head + "hf_config = \"c.json\"\n", "workload.model", 0, "exactly one"},
		{"no model", "schema_version = 1\n[workload]\ntask = \"train\"\n", "workload.model", 0, "exactly one"},
		{"no workload", "schema_version = 1\n", "workload", 0, "missing [workload]"},
		{"no schema version", "[workload]\nmodel = \"x\"\n", "schema_version", 0, "missing"},
		{"future schema", "schema_version = 2\n[workload]\nmodel = \"x\"\n", "schema_version", 0, "2 is not supported"},
		{"both dataset units", head + "dataset_samples = 1\ndataset_tokens = 1\n", "workload.dataset_tokens", 0, "not both"},
		{"gpus word", head + "gpus = \"many\"\n", "workload.gpus", 4, `"auto"`},
		{"date-time for a date", head + "[selection]\nprovider = \"a\"\ninstance_type = \"b\"\nregion = \"c\"\ngpus = 1\ninstances = 1\ncatalog_as_of = 2026-11-30T10:00:00Z\n", "selection.catalog_as_of", 10, "want a date"},
		{"bad date", head + "[selection]\ncatalog_as_of = \"30/11/2026\"\n", "selection.catalog_as_of", 5, "want a date"},
		{"missing provider", head + "[selection]\ninstance_type = \"b\"\nregion = \"c\"\ngpus = 1\ninstances = 1\n", "selection.provider", 0, "missing"},
		{"syntax", "schema_version = \n", "schema_version", 1, "expected value"},
		{"bad custom shape", "schema_version = 1\n[workload.custom]\nlayers = 2\nhidden = 100\nheads = 3\n", "workload.custom", 0, "not a multiple of heads"},
		{"zero max_gpus", head + "gpus = \"auto\"\n[search]\nmax_gpus = 0\n", "search.max_gpus", 0, "leave the key out"},
		{"negative max_gpus", head + "gpus = \"auto\"\n[search]\nmax_gpus = -2\n", "search.max_gpus", 0, "must be 1–131072, got -2"},
		{"max_gpus below gpus", head + "gpus = 8\n[search]\nmax_gpus = 4\n", "search.max_gpus", 0, "4 is below workload.gpus = 8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.in))
			var ce *Error
			if !errors.As(err, &ce) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("Decode() error = %v, want a *Error", err)
			}
			if ce.Key != tt.key || (tt.line > 0 && ce.Line != tt.line) || !strings.Contains(ce.Msg.String(), tt.msg) {
				t.Errorf("Decode() = key %q line %d msg %q; want key %q line %d msg containing %q", ce.Key, ce.Line, ce.Msg, tt.key, tt.line, tt.msg)
			}
			if strings.Contains(err.Error(), "\n") || strings.HasPrefix(err.Error(), "toml:") {
				t.Errorf("error is not one tidy line: %q", err)
			}
		})
	}
}

func TestDecodeConfigAccepts(t *testing.T) {
	const head = "schema_version = 1\n[workload]\nmodel = \"x\"\n"
	tests := []struct {
		name, in string
		check    func(c Config) bool
	}{
		{"int for a float", head + "epochs = 3\n", func(c Config) bool { return c.Workload.Epochs == 3 }},
		{"float for a float", head + "epochs = 3.0\n", func(c Config) bool { return c.Workload.Epochs == 3 }},
		{"whole float for an int", head + "batch_size = 8.0\n", func(c Config) bool { return c.Workload.MicroBatch == 8 }},
		{"gpus auto", head + "gpus = \"auto\"\n", func(c Config) bool { return c.Workload.AutoGPUs && c.Workload.GPUs == 0 }},
		{"alias", head + "task = \"fine-tune\"\nprecision = \"bfloat16\"\n", func(c Config) bool {
			return c.Workload.Task == model.TaskFinetune && c.Workload.Precision == model.BF16
		}},
		{"toml local date", head + "[selection]\nprovider = \"a\"\ninstance_type = \"b\"\nregion = \"c\"\ngpus = 1\ninstances = 1\ncatalog_as_of = 2026-11-30\n",
			func(c Config) bool { return c.Selection.CatalogAsOf == "2026-11-30" }},
		{"empty arrays", head + "[search]\nproviders = []\nregions = []\n", func(c Config) bool { return c.Search.Providers == nil }},
		// Token counts read as the flags read them (ParseTokens): "8K"
		// binary, "8k" decimal, a number as it is (walk35).
		{"token suffixes", head + "seq_len = \"8K\"\ncontext_len = \"8k\"\ngen_tokens = \"1k\"\n", func(c Config) bool {
			return c.Workload.SeqLen == 8192 && c.Workload.ContextLen == 8000 && c.Workload.GenTokens == 1000
		}},
		{"serving token suffixes", head + "task = \"inference\"\n[serve]\nmax_model_len = \"128K\"\nprompt_tokens = \"2k\"\noutput_tokens = 512\nmax_num_batched_tokens = \"8K\"\nshared_prefix_tokens = \"1K\"\n", func(c Config) bool {
			s := c.Workload.Serve
			return s.MaxModelLen == 131072 && s.PromptTokens == 2000 && s.OutputTokens == 512 && s.MaxNumBatchedTokens == 8192 && s.SharedPrefixTokens == 1024
		}},
		{"up to 4 GPUs", head + "gpus = \"auto\"\n[search]\nmax_gpus = 4\n", func(c Config) bool {
			q := c.Search.Query(c.Workload.AutoGPUs)
			return c.Search.MaxGPUs == 4 && q.MaxGPUs == 4 && q.AutoGPUs
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Decode([]byte(tt.in))
			if err != nil {
				t.Fatalf("Decode() error: %v", err)
			}
			if !tt.check(c) {
				t.Errorf("Decode() = %+v", c)
			}
		})
	}
}

// A local date must not move when the machine is in a zone far from UTC.
func TestConfigDateNoZoneShift(t *testing.T) {
	for _, zone := range []*time.Location{time.FixedZone("UTC+14", 14*3600), time.FixedZone("UTC-12", -12*3600)} {
		old := time.Local
		time.Local = zone
		c, err := Decode([]byte("schema_version = 1\n[workload]\nmodel = \"x\"\n[selection]\nprovider = \"a\"\ninstance_type = \"b\"\nregion = \"c\"\ngpus = 1\ninstances = 1\ncatalog_as_of = 2026-01-01\n"))
		time.Local = old
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Selection.CatalogAsOf; got != "2026-01-01" {
			t.Errorf("in %s: catalog_as_of = %s, want 2026-01-01", zone, got)
		}
	}
}

func configCatalog() *model.Catalog {
	c := modeltest.Catalog()
	c.Models = []model.Architecture{{Key: "tiny-llama", Name: "Tiny Llama", Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4,
		FFN: 1024, Vocab: 1000, GatedMLP: true, Norm: model.RMSNorm, DefaultBatch: 4, DefaultSeqLen: 512}}
	c.Index()
	return c
}

func TestResolve(t *testing.T) {
	cat := configCatalog()
	c := fullConfig()
	w, _, err := c.Workload.Resolve(cat, Readers{})
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if w.Model.Key != "tiny-llama" || w.MicroBatch != 8 || w.GPUs != 8 || w.TP != 2 || !w.Ckpt() || w.Flash() {
		t.Errorf("Resolve() = %+v", w)
	}
	q := c.Search.Query(c.Workload.AutoGPUs)
	if q.Pricing != model.Spot || q.BudgetMonthUSD != 12000.5 || q.AutoGPUs || !q.AllowMultiNode {
		t.Errorf("Query() = %+v", q)
	}

	bad := []struct {
		name string
		edit func(w *WorkloadAnswers)
		key  string
		msg  string
	}{
		{"unknown model suggests", func(w *WorkloadAnswers) { w.Model = "tiny-lama" }, "workload.model", `did you mean "tiny-llama"?`},
		{"tp must divide gpus", func(w *WorkloadAnswers) { w.GPUs, w.TP = 3, 2 }, "workload.tp", "must divide gpus 3"},
		{"no hf reader", func(w *WorkloadAnswers) { w.Model, w.HFConfig = "", "x/config.json" }, "workload.hf_config", "cannot read"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			c := fullConfig()
			tt.edit(&c.Workload)
			_, _, err := c.Workload.Resolve(cat, Readers{})
			var ce *Error
			if !errors.As(err, &ce) || ce.Key != tt.key || !strings.Contains(ce.Msg.String(), tt.msg) {
				t.Errorf("Resolve() error = %v, want key %s with %q", err, tt.key, tt.msg)
			}
		})
	}

	// The reader maps the dtype for the task it is given (data/hf
	// Config.Precision); Resolve passes the request's task, train when unset.
	var asked []model.Task
	hf := Readers{HFConfig: func(path string, task model.Task) (model.Architecture, model.Precision, []model.Message, error) {
		if path != "m/config.json" {
			return model.Architecture{}, "", nil, fmt.Errorf("open %s: no such file", path)
		}
		asked = append(asked, task)
		a := cat.Models[0]
		a.Key = ""
		return a, model.AMPBF16, []model.Message{model.Msg("note")}, nil
	}}
	c = Config{Workload: WorkloadAnswers{Settings: model.Settings{Task: model.TaskFinetune}, HFConfig: "m/config.json"}}
	w, ws, err := c.Workload.Resolve(cat, hf)
	if err != nil || w.Precision != model.AMPBF16 || len(ws) != 1 {
		t.Errorf("Resolve(hf) = %v %v %v; want the reader's amp-bf16 and one warning", w.Precision, ws, err)
	}
	c.Workload.Task = ""
	c.Workload.Precision = model.FP32
	if w, _, err := c.Workload.Resolve(cat, hf); err != nil || w.Precision != model.FP32 {
		t.Errorf("Resolve(hf, precision fp32) = %v %v; the request's precision wins", w.Precision, err)
	}
	if !slices.Equal(asked, []model.Task{model.TaskFinetune, model.TaskTrain}) {
		t.Errorf("reader asked for tasks %v, want [finetune train]", asked)
	}
	c.Workload.HFConfig = "missing"
	if _, _, err := c.Workload.Resolve(cat, hf); err == nil || !strings.Contains(err.Error(), "workload.hf_config: open missing") {
		t.Errorf("Resolve(missing hf) error = %v", err)
	}
}

func TestCustomModelDefaults(t *testing.T) {
	a := (&CustomModel{Layers: 2, Hidden: 64, Heads: 4}).Architecture()
	if a.Family != model.FamilyDecoder || a.FFN != 256 || a.Vocab != 32000 || !a.HasShape() {
		t.Errorf("Architecture() = %+v, want decoder, ffn 4×64, vocab 32000", a)
	}
	if err := a.Validate(); err != nil {
		t.Error(err)
	}
}

func ExampleEncode() {
	c := Config{Workload: WorkloadAnswers{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 32, SeqLen: 384, Epochs: 2}, Model: "bert-large"}}
	b, _ := Encode(&c)
	back, _ := Decode(b)
	fmt.Println(back.Workload.Model, back.Workload.MicroBatch, back.Workload.Epochs)
	// Output: bert-large 32 2
}

func FuzzDecodeConfig(f *testing.F) {
	for _, c := range []Config{fullConfig(), {Workload: WorkloadAnswers{Custom: &CustomModel{Params: 7e9}, AutoGPUs: true}}} {
		b, err := Encode(&c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("schema_version = 1\n[workload]\nmodel = \"x\"\nbatch_size = 8.0\nepochs = 3\n"))
	f.Add([]byte("schema_version = 1\n[workload]\nmodel = \"x\"\ngpus = 32\ngpus_per_node = 8\nnetwork_gbps = 3200.5\n"))
	f.Add([]byte("schema_version = 1\n[workload]\nmodel = \"x\"\n[selection]\ncatalog_as_of = 2026-11-30\n"))
	f.Add([]byte("schema_version = 1\n[workload]\nmodel = \"x\"\ntask = \"inference\"\n[serve]\nweight_format = \"int4\"\nkv_cache_dtype = \"fp8\"\nmax_model_len = 8192\nprompt_tokens = 2048\noutput_tokens = 512\nrequests_per_sec = 3\nttft_ms = 500\ntpot_ms = 50.5\ntensor_parallel_size = 2\nreplicas = 0\ngpu_memory_utilization = 0.92\n"))
	f.Add([]byte("schema_version = 1\n[workload]\nmodel = \"x\"\n[serve]\nprovider = \"aws\"\nnodes = 1\nvllm_args = [\"--tensor-parallel-size\", \"2\"]\nconcurrency = 32\nmax_num_seqs = 1024\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrInvalid) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not a one-line Error", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted config does not validate: %v", err)
		}
		out, err := Encode(&c)
		if err != nil {
			t.Fatalf("accepted config does not encode: %v", err)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("encoded config does not decode: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("round trip differs:\n got %+v\nwant %+v\n%s", back, c, out)
		}
	})
}

// TestEstimateModelRoundTrip: a config.json or custom model's derived
// architecture is written under [estimate.model] and read back as written.
func TestEstimateModelRoundTrip(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA}, Model: mixtralShape()}
	e, err := model.Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Workload: WorkloadAnswers{Settings: model.Settings{Task: model.TaskQLoRA}, HFConfig: "mixtral/config.json"}, Estimate: NewEstimateSummary(&e)}
	b, err := Encode(&c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "[estimate.model]") || !strings.Contains(string(b), "experts = 8") {
		t.Fatalf("no derived architecture in:\n%s", b)
	}
	back, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := *back.Estimate.Model, *c.Estimate.Model; got != want {
		t.Errorf("round trip: %+v, want %+v", got, want)
	}
}

func mixtralShape() model.Architecture {
	return model.Architecture{Family: model.FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, GatedMLP: true,
		Vocab: 32000, Norm: model.RMSNorm, Experts: 8, ExpertsPerToken: 2, MaxPositions: 32768}
}

// The TOML library quotes what it found; from a file that is not TOML (a
// .env, credentials) that is a secret, so only the first character stays
// (attack round 8, #5).
func TestTidyTOMLMessageKeepsNoContent(t *testing.T) {
	for in, want := range map[string]string{
		`toml: expected value but found "wJalrXUtnFEMI" instead`: `expected value but found "w…" instead`,
		`expected '.' or '=', but got 'x' instead`:               `expected '.' or '=', but got 'x' instead`,
		`expected value but found "秘密の鍵" instead`:                `expected value but found "秘…" instead`,
		`bare keys cannot contain '='`:                           `bare keys cannot contain '='`,
	} {
		if got := TidyTOMLMessage(in); got != want {
			t.Errorf("TidyTOMLMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
