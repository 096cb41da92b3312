package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanRefusesWhatEstimatePhaseRefuses (walk54): a serving phase of a
// sequence-classification config.json with gen_tokens = "128" was priced
// by gpuplan plan (exit 0, its savings saying only "no offers") while
// estimate --phase refused it (exit 2: a classifier generates no tokens).
// plan now refuses it too, in the same words under the phase's key, and
// in Chinese names the head in Chinese.
func TestPlanRefusesWhatEstimatePhaseRefuses(t *testing.T) {
	cls, err := os.ReadFile("data/hf/testdata/config/llama-3.1-8b-seq-cls.json")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "plan.toml")
	writeFile(t, p, []byte(`schema_version = 1
name = "classifier"

[[phase]]
name = "serve"
provider = "aws"
instance = "g6e.xlarge"
region = "us-east-1"
pricing = "on-demand"
instances = 1
usd_per_hour = 1.861
months = 1
[phase.answers]
hf_config = "cls.json"
task = "inference"
gen_tokens = "128"
`))
	if err := os.WriteFile(filepath.Join(filepath.Dir(p), "cls.json"), cls, 0o644); err != nil {
		t.Fatal(err)
	}
	const why = "a sequence-classification model generates no tokens: drop gen_tokens (--gen-tokens)"
	for _, args := range [][]string{{"plan", p}, {"plan", p, "--json"}, {"estimate", "--config", p, "--phase", "serve"}} {
		code, out, errOut := runArgs(t, args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, why) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line saying %q", args, code, out, errOut, why)
		}
	}
	code, _, errOut := runArgs(t, "plan", p)
	if want := `phase "serve" answers.gen_tokens: ` + why; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("plan: stderr %q lacks %q", errOut, want)
	}
	code, _, errOut = runArgs(t, "plan", p, "--lang", "zh-CN")
	if want := "序列分类模型不生成 token"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("plan --lang zh-CN: stderr %q lacks %q", errOut, want)
	}
	// Without gen_tokens the phase is priced.
	writeFile(t, p, []byte(strings.Replace(mustRead(t, p), `gen_tokens = "128"`, "", 1)))
	if code, out, errOut := runArgs(t, "plan", p, "--no-savings"); code != 0 || !strings.Contains(out, "Total $1,359") {
		t.Errorf("plan without gen_tokens: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
