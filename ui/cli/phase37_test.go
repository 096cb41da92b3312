package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{"en", `What saves the most: none ranked: the catalog has no reserved-1y price for phase "rtrain"'s aws g5.xlarge in us-east-1, so the plan as it stands has no cost to compare changes with; give the phase a pricing mode the catalog prices there (pricing = "on-demand" or pricing = "spot") to rank them`},
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
