package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestServeScriptName (tui37): the export dialog of answers that serve an
// LLM names the vllm serve script gpuplan-vllm-serve.sh
// (launch.Format.ServeFileName), as gpuplan export suggests it, not the
// training launcher's gpuplan-torchrun.sh: as the default name, the name
// a directory or an empty name is told to take, and the file written
// (a vllm serve script, executable); the name follows the format to the
// docker script and back. In English and Chinese.
func TestServeScriptName(t *testing.T) {
	for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
		t.Run(lang.String(), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{Lang: lang}), size(120, 40))
			a := m.a
			a.Task, a.Model, a.InferPrecision = model.TaskInference, "llama-3.1-70b", model.BF16
			a.Batch, a.Length = "32", "8K"
			a.Serve = serveAnswers{WeightFormat: serve.WeightAWQ, KVCacheDType: serve.KVAuto, PromptTokens: "2K", OutputTokens: "512", TPOTMs: "50"}
			m.recompute()
			if m.res == nil || m.res.serving == nil || len(m.res.serve) == 0 {
				t.Fatalf("the answers serve no LLM: %+v", m.res)
			}
			flat := func(m app) string {
				return strings.Join(strings.Fields(strings.ReplaceAll(screenText(m), "║", "")), "")
			}
			m = drive(t, m, ctrlE, down, down) // TOML, SkyServe, the vllm serve script
			if m.dialog == nil || m.dialog.path != "./gpuplan-vllm-serve.sh" || !strings.Contains(flat(m), "./gpuplan-vllm-serve.sh") {
				t.Fatalf("the vllm serve script picked: name %q\n%s", m.dialog.path, screenText(m))
			}
			m = drive(t, m, down) // the docker script: the name follows
			if m.dialog.path != "./gpuplan-docker.sh" {
				t.Errorf("docker picked after the vllm serve script: name %q", m.dialog.path)
			}
			m = drive(t, m, up) // and back
			if m.dialog.path != "./gpuplan-vllm-serve.sh" {
				t.Errorf("the vllm serve script picked again: name %q", m.dialog.path)
			}
			dir := t.TempDir()
			m = drive(t, m, append([]tea.Msg{enter}, msgs(replace(dir), enter)...)...)
			if want := filepath.Join(dir, "gpuplan-vllm-serve.sh"); !strings.Contains(flat(m), want) || strings.Contains(flat(m), "gpuplan-torchrun.sh") {
				t.Errorf("a directory as the name: want %q suggested:\n%s", want, screenText(m))
			}
			m = drive(t, m, msgs(replace(""), enter)...)
			if !strings.Contains(flat(m), "gpuplan-vllm-serve.sh") || strings.Contains(flat(m), "gpuplan-torchrun.sh") {
				t.Errorf("an empty name: want gpuplan-vllm-serve.sh suggested:\n%s", screenText(m))
			}
			path := filepath.Join(dir, "gpuplan-vllm-serve.sh")
			m = drive(t, m, msgs(replace(path), enter)...)
			b, err := os.ReadFile(path)
			if err != nil || !strings.Contains(string(b), "vllm serve") {
				t.Fatalf("%s: %v\n%s\n%s", path, err, b, screenText(m))
			}
			if info, err := os.Stat(path); err != nil || info.Mode().Perm()&0o100 == 0 {
				t.Errorf("%s is not executable: %v", path, err)
			}
		})
	}
}
