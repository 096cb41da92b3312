package launch_test

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// The exported training command is checked against the parser that will
// read it: TRL's `trl sft` entry point (trl/scripts/sft.py, an
// HfArgumentParser over ScriptArguments, SFTConfig, ModelConfig and
// DatasetMixtureConfig). testdata/trl_sft_args.tsv holds their fields,
// copied from the source with its commit; hfParser turns them into
// options by the rules of HfArgumentParser._parse_dataclass_field, so a
// flag that is no field, a bool written bare where a value is required,
// or a value outside a field's choices fails here as it would on the
// cluster.

// hfField is one dataclass field: its annotation and default as written
// in the source, and the argparse choices its metadata lists.
type hfField struct {
	class, name, ann, def string
	choices               []string
}

// trlEntry is what the fixture says about TRL's command line: the `trl`
// subcommand, the module it runs and the dataclasses of its parser.
type trlEntry struct {
	command, module string
	classes         []string
}

type trlFixture struct {
	entries []trlEntry
	bases   map[string]string // dataclass → its base dataclass
	fields  map[string][]hfField
}

func loadTRLFixture() (*trlFixture, error) {
	f, err := os.Open("testdata/trl_sft_args.tsv")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fx := &trlFixture{bases: map[string]string{}, fields: map[string][]hfField{}}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		switch {
		case c[0] == "command" && len(c) == 4:
			fx.entries = append(fx.entries, trlEntry{c[1], c[2], strings.Fields(c[3])})
		case c[0] == "base" && len(c) == 3:
			fx.bases[c[1]] = c[2]
		case c[0] == "field" && len(c) == 6:
			var ch []string
			if c[5] != "" {
				ch = strings.Split(c[5], ",")
			}
			fx.fields[c[1]] = append(fx.fields[c[1]], hfField{class: c[1], name: c[2], ann: c[3], def: c[4], choices: ch})
		default:
			return nil, fmt.Errorf("testdata/trl_sft_args.tsv:%d: %q", n, line)
		}
	}
	return fx, sc.Err()
}

// dataclassFields returns class's fields as dataclasses.fields lists them:
// the base class's first, a field redefined by a subclass in its base's
// place with the subclass's annotation and default.
func (fx *trlFixture) dataclassFields(class string) []hfField {
	var out []hfField
	if base, ok := fx.bases[class]; ok {
		out = fx.dataclassFields(base)
	}
	for _, f := range fx.fields[class] {
		if i := slices.IndexFunc(out, func(g hfField) bool { return g.name == f.name }); i >= 0 {
			out[i] = f
			continue
		}
		out = append(out, f)
	}
	return out
}

// hfOption is one argparse option HfArgumentParser adds.
type hfOption struct {
	dest    string
	nargs   string // "1" one value, "?" zero or one (bools with a default), "+" one or more, "0" none (--no_*)
	typ     string // what the value converts with: str, int, float, bool, or a class name argparse calls
	choices []string
	none    bool // "none" and "null" parse to None (_accept_none)
}

// hfParser maps every option string to its option.
type hfParser map[string]hfOption

// unionMembers splits a PEP 604 annotation at its top-level '|'.
func unionMembers(ann string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range ann {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, strings.TrimSpace(ann[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(ann[start:]))
}

// newHFParser builds the options of HfArgumentParser(classes) by
// _parse_dataclass_field (huggingface/trl trl/scripts/_hf_argparser.py, a
// copy of transformers' hf_argparser.py): "--name" and, for a name with
// '_', "--na-me"; a Union keeps one member (X | None → X unless X is
// bool; X | str without None → X; else the second member); bool and
// bool | None with a non-None default take an optional value (nargs '?',
// const True), bool | None defaulting to None requires one; list[X] takes
// one or more; a bool defaulting to True also gets "--no_name"; the
// metadata's choices bound the value. Duplicate options are an error, as
// argparse raises on them.
func newHFParser(fx *trlFixture, classes []string) (hfParser, error) {
	p := hfParser{}
	var err error
	add := func(opt string, o hfOption) {
		if _, dup := p[opt]; dup && err == nil {
			err = fmt.Errorf("argparse.ArgumentError: conflicting option string %s", opt)
		}
		p[opt] = o
	}
	for _, class := range classes {
		fields := fx.dataclassFields(class)
		if len(fields) == 0 {
			return nil, fmt.Errorf("the fixture has no fields for %s", class)
		}
		for _, f := range fields {
			typ, none := f.ann, false
			if m := unionMembers(f.ann); len(m) > 1 {
				hasNone, hasBool := slices.Contains(m, "None"), slices.Contains(m, "bool")
				switch {
				case !hasNone:
					typ = m[1]
					if m[1] == "str" {
						typ = m[0]
					}
				case !hasBool:
					typ = m[1]
					if m[1] == "None" {
						typ = m[0]
					}
					none = typ != "str"
				default:
					typ = "bool | None"
				}
			}
			o := hfOption{dest: f.name, nargs: "1", typ: typ, choices: f.choices, none: none}
			switch {
			case typ == "bool", typ == "bool | None":
				o.typ = "bool"
				if typ == "bool" || f.def != "None" && f.def != "MISSING" {
					o.nargs = "?"
				}
			case strings.HasPrefix(typ, "list["):
				o.nargs, o.typ = "+", strings.TrimSuffix(strings.TrimPrefix(typ, "list["), "]")
			}
			add("--"+f.name, o)
			if strings.Contains(f.name, "_") {
				add("--"+strings.ReplaceAll(f.name, "_", "-"), o)
			}
			if f.def == "True" && o.typ == "bool" {
				no := hfOption{dest: f.name, nargs: "0", typ: "bool"}
				add("--no_"+f.name, no)
				add("--no-"+strings.ReplaceAll(f.name, "_", "-"), no)
			}
		}
	}
	return p, err
}

var boolTrue, boolFalse = []string{"yes", "true", "t", "y", "1"}, []string{"no", "false", "f", "n", "0"}

// isOption is argparse's test for a word that starts an option rather
// than being a value: a leading '-' that is not a negative number (the
// parser has no options that look like negative numbers).
func isOption(s string) bool {
	if !strings.HasPrefix(s, "-") || s == "-" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err != nil
}

// convert applies the option's type and choices to one value, as argparse
// calls type then checks choices.
func (o hfOption) convert(opt, v string) error {
	if o.none && (strings.EqualFold(v, "none") || strings.EqualFold(v, "null")) {
		return nil
	}
	switch o.typ {
	case "int":
		if _, err := strconv.Atoi(strings.TrimSpace(v)); err != nil {
			return fmt.Errorf("argument %s: invalid int value: %q", opt, v)
		}
	case "float":
		if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
			return fmt.Errorf("argument %s: invalid float value: %q", opt, v)
		}
	case "bool":
		if !slices.Contains(boolTrue, strings.ToLower(v)) && !slices.Contains(boolFalse, strings.ToLower(v)) {
			return fmt.Errorf("argument %s: Truthy value expected: got %s", opt, v)
		}
	}
	if len(o.choices) > 0 && !slices.Contains(o.choices, v) {
		return fmt.Errorf("argument %s: invalid choice: %q (choose from %s)", opt, v, strings.Join(o.choices, ", "))
	}
	return nil
}

// parse reads args as parse_args_into_dataclasses does with
// return_remaining_strings False (TrlParser.parse_args_and_config, which
// trl/scripts/sft.py calls): every word must belong to an option, and a
// word that belongs to none ends the run ("Some specified arguments are not
// used by the HfArgumentParser"). Options must be spelled whole: gpuplan
// never relies on argparse's prefix matching. It returns the values each
// field got, in order ("true" for a bare bool).
func (p hfParser) parse(args []string) (map[string][]string, error) {
	got := map[string][]string{}
	for i := 0; i < len(args); i++ {
		opt, val, hasVal := strings.Cut(args[i], "=")
		o, ok := p[opt]
		if !ok || !strings.HasPrefix(opt, "--") {
			return got, fmt.Errorf("some specified arguments are not used by the HfArgumentParser: %q", args[i:])
		}
		var vals []string
		if hasVal {
			vals = []string{val}
		}
		for !hasVal && i+1 < len(args) && !isOption(args[i+1]) && (o.nargs == "+" || len(vals) == 0 && o.nargs != "0") {
			i++
			vals = append(vals, args[i])
		}
		switch {
		case o.nargs == "0" && len(vals) > 0:
			return got, fmt.Errorf("argument %s: ignored explicit argument %q", opt, vals[0])
		case o.nargs == "0":
			vals = []string{"false"}
		case o.nargs == "?" && len(vals) == 0:
			vals = []string{"true"}
		case (o.nargs == "1" || o.nargs == "+") && len(vals) == 0:
			return got, fmt.Errorf("argument %s: expected %s argument", opt, map[string]string{"1": "one", "+": "at least one"}[o.nargs])
		}
		if o.nargs != "0" {
			for _, v := range vals {
				if err := o.convert(opt, v); err != nil {
					return got, err
				}
			}
		}
		got[o.dest] = vals
	}
	return got, nil
}

var (
	sftOnce   sync.Once
	sftCached hfParser
	sftErr    error
)

// sftParser is the parser of TRL's SFT script, `trl sft`: the fixture's
// sft command, its module and dataclasses.
func sftParser(t *testing.T) hfParser {
	t.Helper()
	sftOnce.Do(func() {
		fx, err := loadTRLFixture()
		if err != nil {
			sftErr = err
			return
		}
		sftErr = fmt.Errorf("testdata/trl_sft_args.tsv has no sft command")
		for _, e := range fx.entries {
			if e.command == "sft" {
				sftCached, sftErr = newHFParser(fx, e.classes)
			}
		}
	})
	if sftErr != nil {
		t.Fatal(sftErr)
	}
	return sftCached
}

// TestHFParserRules: the port of HfArgumentParser refuses what the real one
// refuses (negative controls), so the entry-point tests can fail.
func TestHFParserRules(t *testing.T) {
	p := sftParser(t)
	ok := []string{"--model_name_or_path", "meta-llama/Llama-3.1-8B", "--dataset_name", "trl-lib/Capybara", "--bf16", "true",
		"--gradient_checkpointing", "--use_peft", "--lora_r", "16", "--lora_alpha", "32", "--lora_target_modules", "q_proj", "v_proj",
		"--optim", "adamw_torch", "--learning_rate", "2e-04", "--dtype", "bfloat16", "--max-length", "2048", "--no_gradient_checkpointing"}
	got, err := p.parse(ok)
	if err != nil {
		t.Fatalf("a valid line fails: %v", err)
	}
	for dest, want := range map[string]string{"lora_target_modules": "q_proj v_proj", "gradient_checkpointing": "false", "use_peft": "true", "max_length": "2048"} {
		if g := strings.Join(got[dest], " "); g != want {
			t.Errorf("%s = %q, want %q", dest, g, want)
		}
	}
	for _, bad := range [][]string{
		{"--lora_rank", "16"},                    // not a field (ModelConfig.lora_r)
		{"--max_seq_length", "2048"},             // renamed max_length in TRL 0.16
		{"--torch_dtype", "bfloat16"},            // renamed dtype in TRL 0.23
		{"--tf32", "--lora_r", "16"},             // bool | None = None: a value is required
		{"--bf16", "--lora_r", "16"},             // SFTConfig.bf16 is bool | None = None too
		{"--optim", "adamw"},                     // not an OptimizerNames value
		{"--dtype", "bf16"},                      // ModelConfig.dtype choices
		{"--bnb_4bit_quant_type", "int4"},        // ModelConfig.bnb_4bit_quant_type choices
		{"--lora_r", "16.5"},                     // int
		{"--lora_target_modules", "--use_peft"},  // nargs '+'
		{"--use_peft", "maybe"},                  // string_to_bool
		{"--no_gradient_checkpointing", "false"}, // store_false takes no value
		{"train.py"},                             // no positionals
		{"--lora"},                               // gpuplan writes whole names, never argparse prefixes
	} {
		if _, err := p.parse(bad); err == nil {
			t.Errorf("HfArgumentParser would stop on %q; the port accepts it", bad)
		}
	}
}

// runEnv stands for the variables the launchers set (SkyPilot, Kubeflow),
// so words such as --node-rank=$SKYPILOT_NODE_RANK expand; more are
// added per file (SkyPilot's GPUs per node).
func runEnv(more ...string) expand.Environ {
	return expand.ListEnviron(append([]string{"SKYPILOT_NUM_NODES=1", "SKYPILOT_NODE_RANK=0",
		"MASTER_ADDR=10.0.0.1", "PET_NNODES=2", "PET_NPROC_PER_NODE=8", "PET_NODE_RANK=0", "PET_MASTER_ADDR=10.0.0.1", "PET_MASTER_PORT=29500",
		"HEAD_IP=10.0.0.1", "RANK=0", "MASTER_PORT=29500", "PWD=/workspace", "HOME=/root"}, more...)...)
}

// torchrunCommands returns the words of every torchrun command in the
// shell script src, as the shell passes them (quotes removed, variables
// expanded from env), looking inside `bash -c SCRIPT` too (the docker
// container's command).
func torchrunCommands(t *testing.T, src string, env expand.Environ) [][]string {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	cfg := &expand.Config{Env: env}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		words := make([]string, len(call.Args))
		for i, w := range call.Args {
			if words[i], err = expand.Literal(cfg, w); err != nil {
				t.Fatalf("expand %v: %v", w, err)
			}
		}
		if words[0] == "exec" {
			words = words[1:]
		}
		for i := 0; i+2 < len(words); i++ {
			if words[i] == "bash" && words[i+1] == "-c" {
				out = append(out, torchrunCommands(t, words[i+2], env)...)
			}
		}
		if len(words) > 0 && words[0] == "torchrun" {
			out = append(out, words)
		}
		return true
	})
	return out
}

// torchrunOptions are the options of torch/distributed/run.py
// get_args_parser that gpuplan writes; every one takes its value after
// '=' except --standalone and -m (--module), which take none.
var torchrunOptions = []string{"--standalone", "--nnodes", "--nproc-per-node", "--rdzv-backend", "--rdzv-endpoint", "--rdzv-id",
	"--node-rank", "--master-addr", "--master-port", "-m", "--module"}

// splitTorchrun splits a torchrun command into its options, the module
// (with -m) or script it starts, and that one's arguments.
func splitTorchrun(t *testing.T, argv []string) (opts map[string]string, module, script string, args []string) {
	t.Helper()
	opts = map[string]string{}
	i := 1
	for ; i < len(argv) && strings.HasPrefix(argv[i], "-"); i++ {
		k, v, _ := strings.Cut(argv[i], "=")
		if !slices.Contains(torchrunOptions, k) {
			t.Fatalf("torchrun option %q is not torch/distributed/run.py's: %q", argv[i], argv)
		}
		opts[k] = v
	}
	if i == len(argv) {
		t.Fatalf("torchrun starts nothing: %q", argv)
	}
	if _, m := opts["-m"]; m {
		return opts, argv[i], "", argv[i+1:]
	}
	return opts, "", argv[i], argv[i+1:]
}

// exportedCommands renders p in the three formats the issue names and
// returns each one's torchrun command lines.
func exportedCommands(t *testing.T, p *launch.Plan) map[launch.Format][][]string {
	t.Helper()
	out := map[launch.Format][][]string{}
	sky, err := p.SkyPilot()
	if err != nil {
		t.Fatal(err)
	}
	task := parseSkyPilot(t, sky)
	out[launch.FormatSkyPilot] = torchrunCommands(t, task.Run, runEnv(fmt.Sprintf("SKYPILOT_NUM_GPUS_PER_NODE=%d", skyGPUsPerNode(t, task.Resources.skyOffer))))
	docker, err := p.Docker()
	if err != nil {
		t.Fatal(err)
	}
	out[launch.FormatDocker] = torchrunCommands(t, string(docker), runEnv())
	k8s, err := p.Kubernetes()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range containersOf(t, k8s) {
		out[launch.FormatK8s] = append(out[launch.FormatK8s], torchrunCommands(t, c.Args[0], runEnv())...)
	}
	return out
}

// TestEntryPointTRL is the test: a SkyPilot file, a docker script
// and a Kubernetes Job exported for LoRA on Llama 3.1 8B (one A10G; eight
// A100s with DDP) and QLoRA start TRL's SFT script, the module `trl sft`
// runs (the fixture's command record), and its HfArgumentParser accepts
// every argument and reads back what the plan priced. Before, the files
// ran a train.py nobody provides.
func TestEntryPointTRL(t *testing.T) {
	fx, err := loadTRLFixture()
	if err != nil {
		t.Fatal(err)
	}
	var sft trlEntry
	for _, e := range fx.entries {
		if e.command == "sft" {
			sft = e
		}
	}
	lora := cases[0]
	lora.w.Task, lora.w.MicroBatch, lora.w.SeqLen, lora.w.GradAccum = model.TaskLoRA, 1, 512, 32
	ddp := cases[1]
	ddp.w.Task, ddp.w.Strategy, ddp.w.MicroBatch, ddp.w.SeqLen = model.TaskLoRA, model.DDP, 2, 2048
	for _, tc := range []struct {
		c     testCase
		procs string
		want  map[string]string
	}{
		{lora, "1", map[string]string{"model_name_or_path": "meta-llama/Llama-3.1-8B", "dataset_name": launch.PlaceholderDataset,
			"max_length": "512", "per_device_train_batch_size": "1", "gradient_accumulation_steps": "32", "gradient_checkpointing": "false",
			"bf16": "true", "dtype": "bfloat16", "use_peft": "true", "lora_r": "16", "lora_alpha": "32", "lora_target_modules": "q_proj k_proj v_proj o_proj",
			"optim": "adamw_torch", "learning_rate": "2e-04", "loss_type": "nll", "num_train_epochs": "1"}},
		{ddp, "8", map[string]string{"max_length": "2048", "per_device_train_batch_size": "2", "gradient_accumulation_steps": "4",
			"use_peft": "true", "lora_r": "16", "optim": "adamw_torch", "learning_rate": "2e-04", "dtype": "bfloat16"}},
		{cases[0], "1", map[string]string{"load_in_4bit": "true", "bnb_4bit_quant_type": "nf4", "use_bnb_nested_quant": "true",
			"use_peft": "true", "gradient_checkpointing": "true", "per_device_train_batch_size": "2", "gradient_accumulation_steps": "8"}},
	} {
		p := plan(t, tc.c, launch.Options{})
		for f, cmds := range exportedCommands(t, p) {
			where := fmt.Sprintf("%s %s on %s", tc.c.w.Task, f, p.InstanceType)
			if len(cmds) != 1 {
				t.Fatalf("%s: %d torchrun commands, want 1", where, len(cmds))
			}
			opts, module, script, args := splitTorchrun(t, cmds[0])
			if module != sft.module || script != "" || module != launch.TRLSFTModule {
				t.Errorf("%s runs module %q script %q; want TRL's %s (trl %s)", where, module, script, sft.module, sft.command)
			}
			if n := opts["--nproc-per-node"]; n != tc.procs {
				t.Errorf("%s: --nproc-per-node=%s, want %s", where, n, tc.procs)
			}
			got, err := sftParser(t).parse(args)
			if err != nil {
				t.Errorf("%s: TRL's SFT script stops: %v\n%q", where, err, args)
				continue
			}
			for dest, want := range tc.want {
				if g := strings.Join(got[dest], " "); g != want {
					t.Errorf("%s: %s = %q, want %q", where, dest, g, want)
				}
			}
		}
	}
}

// skyAccel is one row of testdata/skypilot_accelerators.csv: what
// SkyPilot's catalog says an instance type has.
type skyAccel struct {
	name  string
	count float64
}

var (
	skyAccelOnce sync.Once
	skyAccels    map[[2]string][]skyAccel
	skyAccelErr  error
)

// skyPilotAccelerators reads testdata/skypilot_accelerators.csv, keyed by
// (cloud, instance type).
func skyPilotAccelerators(t *testing.T) map[[2]string][]skyAccel {
	t.Helper()
	skyAccelOnce.Do(func() {
		f, err := os.Open("testdata/skypilot_accelerators.csv")
		if err != nil {
			skyAccelErr = err
			return
		}
		defer f.Close()
		r := csv.NewReader(f)
		r.Comment = '#'
		rows, err := r.ReadAll()
		if err != nil {
			skyAccelErr = err
			return
		}
		skyAccels = map[[2]string][]skyAccel{}
		for _, row := range rows[1:] {
			n, err := strconv.ParseFloat(row[3], 64)
			if err != nil {
				skyAccelErr = err
				return
			}
			k := [2]string{row[0], row[1]}
			skyAccels[k] = append(skyAccels[k], skyAccel{row[2], n})
		}
	})
	if skyAccelErr != nil {
		t.Fatal(skyAccelErr)
	}
	return skyAccels
}

// skyGPUsPerNode is $SKYPILOT_NUM_GPUS_PER_NODE for an offer: the count of
// its accelerators, or, when the file names only the instance type, the
// count SkyPilot's catalog gives the type (sky/resources.py infers
// accelerators from the instance type; SkyPilot's docs: the variable is
// "the same as the count in accelerators: <name>:<count>, rounded up").
func skyGPUsPerNode(t *testing.T, o skyOffer) int {
	t.Helper()
	if m := acceleratorsRE.FindStringSubmatch(o.Accelerators); m != nil {
		n, _ := strconv.Atoi(m[2])
		return n
	}
	rows := skyPilotAccelerators(t)[[2]string{o.Cloud, o.InstanceType}]
	if len(rows) == 0 {
		t.Fatalf("%s %s: no accelerators and no row in SkyPilot's catalog", o.Cloud, o.InstanceType)
	}
	return int(math.Ceil(rows[0].count))
}
