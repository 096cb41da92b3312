package cli

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestFlagDefaultsSaid: a flag whose help states a default states the
// default the code applies, read from the code (Workload.Defaults, the
// custom model's, the serving and decide constants), and docs/cli.md's
// row for the flag names the same value. A new-user walk found
// --max-model-len's help saying "the model's context" where the code
// takes --context-len, else --seq-len, else the model's default sequence
// length; this holds the help and the code together for the defaults
// that are a value.
func TestFlagDefaultsSaid(t *testing.T) {
	var w model.Workload
	w.Defaults()
	var adapters, serving model.Workload
	adapters.Task = model.TaskQLoRA
	adapters.Defaults()
	serving.Task, serving.SeqLen, serving.Model.Family = model.TaskInference, 8192, model.FamilyDecoder
	serving.Defaults()
	custom := (&config.CustomModel{Layers: 2, Hidden: 64, Heads: 2}).Architecture()
	quant, doubleQuant := adapters.FourBit()
	g := func(f float64) string { return strconv.FormatFloat(f, 'g', 3, 64) }
	cases := []struct {
		cmd, flag string
		want      string // the code's default, as the help spells it
		docs      bool   // docs/cli.md's row for the flag names it too
	}{
		{"estimate", "framework", string(w.Framework), true},
		{"estimate", "task", string(w.Task), false},
		{"estimate", "strategy", string(w.Strategy), false},
		{"estimate", "epochs", strconv.Itoa(int(w.Epochs)), false},
		{"estimate", "gpus", strconv.Itoa(w.GPUs), false},
		{"estimate", "tp", strconv.Itoa(w.TP), false},
		{"estimate", "torch", w.Torch.String(), false},
		{"estimate", "trainer", string(w.Trainer), false},
		{"estimate", "zero-grad", string(w.ZeroGrad), false},
		{"estimate", "outputs", string(w.Outputs), true},
		{"estimate", "loss", string(w.LossImpl()), true},
		{"estimate", "lora-rank", strconv.Itoa(adapters.LoRARank), true},
		{"estimate", "lora-targets", strings.Join(adapters.LoRATargets, ","), true},
		{"estimate", "quant-type", string(quant), true},
		{"estimate", "double-quant", strconv.FormatBool(doubleQuant), false},
		{"estimate", "gen-tokens", strconv.Itoa(serving.GenTokens), false},
		{"estimate", "family", string(custom.Family), false},
		{"estimate", "vocab", strconv.Itoa(custom.Vocab), false},
		{"estimate", "ffn", strconv.Itoa(custom.FFN/custom.Hidden) + " × hidden", false},
		{"estimate", "tpot-ms", g(serve.DefaultTPOTTargetMs), false},
		{"estimate", "gpu-memory-utilization", g(serve.DefaultGPUMemoryUtilization), true},
		{"recommend", "pricing", string(model.OnDemand), true},
		{"recommend", "hours-per-month", strconv.Itoa(model.HoursPerMonth), true},
		{"recommend", "checkpoint-write-gbps", g(decide.DefaultCheckpointWriteBytesPerSecond / 1e9), false},
		{"recommend", "restart-minutes", g(decide.DefaultRestartHours * 60), false},
	}
	root := newRoot(&Env{Args: []string{"help"}})
	cmds := map[string]*cobra.Command{}
	for _, c := range root.Commands() {
		cmds[c.Name()] = c
	}
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	said := regexp.MustCompile(`default:? ([^,;:)]+)`)
	for _, tt := range cases {
		c := cmds[tt.cmd]
		if c == nil {
			t.Fatalf("no command %s", tt.cmd)
		}
		f := c.Flags().Lookup(tt.flag)
		if f == nil {
			t.Errorf("%s has no --%s", tt.cmd, tt.flag)
			continue
		}
		if !regexp.MustCompile(`default:? ` + regexp.QuoteMeta(tt.want) + `($|[^\w.])`).MatchString(f.Usage) {
			got := "none"
			if m := said.FindStringSubmatch(f.Usage); m != nil {
				got = m[1]
			}
			t.Errorf("%s --%s: the help says default %s, the code's is %s: %q", tt.cmd, tt.flag, got, tt.want, f.Usage)
		}
		if !tt.docs {
			continue
		}
		row := "" // the first line naming the flag in code: a table row, or prose
		named := regexp.MustCompile("`[^`]*--" + regexp.QuoteMeta(tt.flag) + "[ `]")
		for _, line := range strings.Split(string(doc), "\n") {
			if named.MatchString(line) {
				row = line
				break
			}
		}
		if !strings.Contains(row, "default") || !regexp.MustCompile(`(^|[^\w.])`+regexp.QuoteMeta(tt.want)+`($|[^\w.])`).MatchString(row) {
			t.Errorf("docs/cli.md: the row of --%s does not name its default %s: %q", tt.flag, tt.want, row)
		}
	}
}

// TestFlagDefaultRulesSaid: defaults that are a rule rather than a value
// are said alike by the help and docs/cli.md, and --max-model-len's rule
// is the code's: --context-len, else --seq-len, else the model's default
// sequence length (Llama 3.1 8B's default_seq_len, 4096; not vLLM's own
// default, its 131,072 positions), at least one average request.
func TestFlagDefaultRulesSaid(t *testing.T) {
	root := newRoot(&Env{Args: []string{"help"}})
	var est *cobra.Command
	for _, c := range root.Commands() {
		if c.Name() == "estimate" {
			est = c
		}
	}
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ flag, help, docs string }{
		{"max-model-len", "(default: --context-len, else --seq-len, else the model's default sequence length", "(default `--context-len`, else `--seq-len`, else the model's default sequence length"},
		{"gen-tokens", "(default 256, at most half the context)", "(default 256, at most half the context)"},
		{"optimizer", "(default: the model's training recipe's", "unless the model's training recipe names another"},
		{"tp", "serving: auto", "`auto` by default"},
	} {
		if u := est.Flags().Lookup(tt.flag).Usage; !strings.Contains(u, tt.help) {
			t.Errorf("--%s: the help does not say %q: %q", tt.flag, tt.help, u)
		}
		if !strings.Contains(string(doc), tt.docs) {
			t.Errorf("docs/cli.md does not say of --%s %q", tt.flag, tt.docs)
		}
	}

	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name                      string
		context, seq, prompt, out int
		want                      int
	}{
		{"none: the model's default sequence length", 0, 0, 0, 0, 4096},
		{"--seq-len", 0, 1000, 0, 0, 1000},
		{"--context-len over --seq-len", 8192, 1000, 0, 0, 8192},
		{"an average request longer than the default", 0, 0, 6000, 500, 6500},
	} {
		r := config.WorkloadAnswers{Model: "llama-3.1-8b"}
		r.Task, r.ContextLen, r.SeqLen = model.TaskInference, tt.context, tt.seq
		r.Serve.PromptTokens, r.Serve.OutputTokens = tt.prompt, tt.out
		w, _, err := r.Workload(cat, config.Readers{})
		if err != nil {
			t.Fatal(err)
		}
		w.Defaults()
		if got := r.Serving(&w).MaxModelLen; got != tt.want {
			t.Errorf("%s: max_model_len %d, want %d", tt.name, got, tt.want)
		}
	}
}
