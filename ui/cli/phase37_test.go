package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// writePlan37 writes a plan file (schema_version 1 and body) in a folder
// of its own and returns its path.
func writePlan37(t *testing.T, body string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "plan.toml")
	if err := os.WriteFile(file, []byte("schema_version = 1\nname = \"p37\"\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// qlora8 is a QLoRA phase whose answers give micro-batch 1 on 1 GPU, on
// one 8-GPU aws p4d.24xlarge: the recipe's global batch of 16 is
// accumulation 16 on 1 GPU, 2 on the offer's 8.
const qlora8 = `[[phase]]
name = "ans"
provider = "aws"
instance = "p4d.24xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 21.96
job_hours = 1
[phase.answers]
model = "llama-3.1-8b"
task = "qlora"
batch_size = "1"
gpus = "1"
dataset_tokens = "10M"
`

// TestPhaseBatchNoteOnOffer: estimate --phase of a training phase
// estimated on its offer's GPUs says the batch as estimated, in English
// and in Chinese (walk37: "accumulation 16 stays (global batch 16 on 1
// data-parallel GPUs)" under a header of 8 GPUs, accumulation 2).
func TestPhaseBatchNoteOnOffer(t *testing.T) {
	file := writePlan37(t, qlora8)
	for _, tt := range []struct {
		lang, want, stale string
	}{
		{"en", "so its accumulation 2 stays (global batch 16 on 8 data-parallel GPUs)", "on 1 data-parallel GPUs"},
		{"zh-CN", "保留其梯度累积 2（全局批大小 16，8 块数据并行 GPU）", "1 块数据并行 GPU"},
	} {
		code, out, errOut := runCLI(t, "estimate", "--config", file, "--phase", "ans", "--lang", tt.lang)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.lang, code, errOut)
		}
		if !strings.Contains(out, tt.want) || strings.Contains(out, tt.stale) {
			t.Errorf("%s: want %q and not %q in:\n%s", tt.lang, tt.want, tt.stale, out)
		}
	}
}

// rtrain37 is a training phase priced reserved-1y on aws g5.xlarge, which
// the catalog has no reserved price for.
const rtrain37 = `[[phase]]
name = "rtrain"
provider = "aws"
instance = "g5.xlarge"
region = "us-east-1"
pricing = "reserved-1y"
instances = 1
usd_per_hour = 0.634
job_hours = 0.4
[phase.answers]
model = "llama-3.1-8b"
task = "qlora"
batch_size = "1"
seq_len = "2048"
dataset_tokens = "1M"
`

// TestPlanSavingsUnpriced: plan's "what saves the most" on a phase the
// catalog has no price for in its pricing mode says that, and the modes
// it has, in English and in Chinese (walk37: it said the estimator
// "finds no offer … pick one that fits").
func TestPlanSavingsUnpriced(t *testing.T) {
	file := writePlan37(t, rtrain37)
	for _, tt := range []struct{ lang, want string }{
		{"en", `What saves the most: none ranked: the catalog has no reserved-1y price for phase "rtrain"'s aws g5.xlarge in us-east-1, so the plan as it stands has no cost to compare changes with; give the phase a pricing mode the catalog prices there (on-demand or spot) to rank them`},
		{"zh-CN", `无法排序：价格目录中没有阶段 "rtrain" 的 aws g5.xlarge 在 us-east-1 的1 年预留实例价格`},
	} {
		code, out, errOut := runCLI(t, "plan", file, "--lang", tt.lang)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.lang, code, errOut)
		}
		if !strings.Contains(out, tt.want) || strings.Contains(out, "pick one that fits") || strings.Contains(out, "放得下") {
			t.Errorf("%s: want %q in:\n%s", tt.lang, tt.want, out)
		}
	}
}

// TestPhasePlanFileTextType: a plan whose phase's pricing (or another
// text key) is not a string is refused by every phase command with one
// line naming the phase and the key, exit 2 (walk37: the TOML decoder's
// "incompatible types: TOML value has type int64").
func TestPhasePlanFileTextType(t *testing.T) {
	file := writePlan37(t, strings.Replace(rtrain37, `pricing = "reserved-1y"`, "pricing = 3", 1))
	const want = `phase "rtrain" pricing: want a string such as "on-demand", "spot", "reserved-1y", got a whole number`
	dst := filepath.Join(t.TempDir(), "out.toml")
	for _, args := range [][]string{
		{"plan", file},
		{"estimate", "--config", file, "--phase", "rtrain"},
		{"export", "--config", file, "--phase", "rtrain", "--format", "toml", "-o", dst},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, file+": "+want) || strings.Contains(errOut, "incompatible types") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, want 2 and the one line %q:\n%s", args[0], code, want, errOut)
		}
	}
	code, _, errOut := runCLI(t, "plan", file, "--lang", "zh-CN")
	if code != 2 || !strings.Contains(errOut, "应为字符串") || strings.Contains(errOut, "want a string") {
		t.Errorf("zh-CN: exit %d, want 2 and the line in Chinese:\n%s", code, errOut)
	}
}

// servePriced37 is a serving phase on one aws g5.12xlarge priced at its
// own $6/h (the catalog's is $5.672/h), and cfgPriced37 a phase naming a
// configuration file for one A10G on one 8-GPU p4d.24xlarge at $30/h
// (the catalog's $21.96/h).
const servePriced37 = `[[phase]]
name = "serve"
provider = "aws"
instance = "g5.12xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 6
months = 1
[phase.answers]
model = "llama-3.1-8b"
task = "inference"
`

const cfgPriced37 = `[[phase]]
name = "tune"
provider = "aws"
instance = "p4d.24xlarge"
region = "us-east-1"
instances = 1
usd_per_hour = 30
job_hours = 0.1
config = "cfg8.toml"
`

// writePlanCfg37 writes body as a plan beside testdata/phase36-cfg8.toml
// copied as cfg8.toml.
func writePlanCfg37(t *testing.T, body string) string {
	t.Helper()
	file := writePlan37(t, body)
	b, err := os.ReadFile("testdata/phase36-cfg8.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(file), "cfg8.toml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestPhaseExportPlanPrice: a file export --phase writes for a phase the
// plan prices at its own usd_per_hour, not the catalog's its header
// prints, says both in its notes (and on stderr), training and serving
// (walk37: the header's $21.96/h stood alone for a phase priced $30/h);
// at the catalog's price, or for another offer than the phase's, no note.
func TestPhaseExportPlanPrice(t *testing.T) {
	for _, tt := range []struct {
		name, body, phase string
		args              []string
		note              string // "" for none
	}{
		{"training", cfgPriced37, "tune", nil, `phase "tune": the plan prices this offer at $30/h (its usd_per_hour); the $21.96/h in the header is the catalog's`},
		{"training at the catalog's", strings.Replace(cfgPriced37, "usd_per_hour = 30", "usd_per_hour = 21.96", 1), "tune", nil, ""},
		{"training departing", cfgPriced37, "tune", []string{"--gpus", "16"}, ""},
		{"serving", servePriced37, "serve", nil, `phase "serve": the plan prices this offer at $6/h (its usd_per_hour); the $5.67/h in the header is the catalog's`},
		{"serving at the catalog's", strings.Replace(servePriced37, "usd_per_hour = 6", "usd_per_hour = 5.672", 1), "serve", nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := writePlanCfg37(t, tt.body)
			dst := filepath.Join(t.TempDir(), "run.sh")
			code, _, errOut := runCLI(t, append([]string{"export", "--config", file, "--phase", tt.phase, "--format", "docker", "-o", dst}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			b, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			if tt.note == "" {
				if strings.Contains(string(b)+errOut, "the plan prices this offer") {
					t.Errorf("a price note where none is due:\n%s\n%s", errOut, b)
				}
				return
			}
			if !strings.Contains(string(b), "# note: "+tt.note) || strings.Count(errOut, tt.note) != 1 {
				t.Errorf("want %q in the file's notes and once on stderr:\n%s\n%s", tt.note, errOut, b)
			}
		})
	}
}

// TestPhaseCommandsChinese: what walk37 changed in the phase commands is
// all in Chinese under --lang zh-CN: the export status lines' nodes and
// replicas (they said "1 node × … 4 replicas"), the configuration file's
// one GPU on the offer's 8, the plan's price in the file's notes, the
// unpriced training phase's warning and plan's savings line.
func TestPhaseCommandsChinese(t *testing.T) {
	allow := cliAllowlist(t)
	// Phases named in Chinese, as a Chinese user names them: the leak
	// check reads an English name as English left in.
	body := strings.Replace(cfgPriced37, `name = "tune"`, `name = "微调"`, 1) + servePriced37 +
		strings.Replace(rtrain37, `name = "rtrain"`, `name = "预留训练"`, 1)
	cfg := writePlanCfg37(t, body)
	// The adapter phase "微调" trains answers to a slug of the model's key
	// and the phase's name, an identifier (plan.AdapterName).
	allow.Add(plan.AdapterName("llama-3.1-8b", "微调"))
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--config", cfg, "--phase", "serve", "--format", "docker", "-o", filepath.Join(dir, "s.sh")}, "1 个节点 × 4 × a10g"},
		{[]string{"export", "--config", cfg, "--phase", "微调", "--format", "docker", "-o", filepath.Join(dir, "t.sh")}, "其配置文件 cfg8.toml 是按 1 块 GPU"},
		{[]string{"export", "--config", cfg, "--phase", "微调", "--gpus", "16", "--format", "docker", "-o", filepath.Join(dir, "t16.sh")}, "2 个节点 × 8 × A100"},
		{[]string{"estimate", "--config", cfg, "--phase", "预留训练"}, "export --phase 不会为它写出文件"},
		{[]string{"estimate", "--config", cfg, "--phase", "微调"}, "其配置文件 cfg8.toml 是按 1 块 GPU"},
		{[]string{"plan", cfg}, "无法排序：价格目录中没有阶段 \"预留训练\""},
	} {
		name := strings.Join(tt.args, " ")
		code, out, errs := runLang(t, zhLocale, tt.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
		}
		if !strings.Contains(out+errs, tt.want) {
			t.Errorf("%s: want %q in:\n%s%s", name, tt.want, out, errs)
		}
		if leaks := i18n.Leaks(out+errs, allow); len(leaks) > 0 {
			t.Errorf("%s: English left in Chinese output: %q\n%s%s", name, leaks, out, errs)
		}
	}
}
