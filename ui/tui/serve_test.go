package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuplan/gpuplan/model"
)

// servingApp is the configurator answered for the case: Llama 3.1
// 70B in AWQ at an 8k context, 32 concurrent requests of 2k + 512 tokens,
// at most 50 ms per output token.
func servingApp(t *testing.T, w, h int) app {
	t.Helper()
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(w, h))
	a := m.a
	a.Task, a.Model, a.InferPrecision = model.TaskInference, "llama-3.1-70b", model.BF16
	a.Batch, a.Length = "32", "8k"
	a.Serve = serveAnswers{WeightFormat: model.WeightAWQ, KVCacheDType: model.KVAuto, PromptTokens: "2k", OutputTokens: "512", TPOTMs: "50"}
	m.recompute()
	return m
}

// TestServingPanel: the panel (alone, at two sizes) shows the KV capacity, the concurrent
// sequences, tokens/s, TTFT/TPOT and $ per million output tokens of the
// best offer, and the offers meeting the targets by $/Mtok.
func TestServingPanel(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := servingApp(t, sz[0], sz[1])
			if m.res == nil || m.res.serve == nil {
				t.Fatalf("no serving plan: %+v", m.res)
			}
			best := &m.res.serve[0]
			if !best.Meets || best.Serving.WeightFormat != model.WeightAWQ || best.Serving.MaxModelLen != 8192 || best.Serving.Concurrency != 32 {
				t.Errorf("best plan %+v", best.Serving)
			}
			p := m.panel
			p.cache = nil
			p.setSize(sz[0], sz[1])
			view := p.view(false)
			checkFits(t, view, sz[0], sz[1])
			text := strings.Join(strings.Fields(ansi.Strip(view)), " ")
			for _, want := range []string{"KV cache", "concurrent 8192-token sequences", "output tokens/s", "TTFT", "TPOT", "per million output tokens", "meet the targets"} {
				if !strings.Contains(text, want) {
					t.Errorf("the panel lacks %q:\n%s", want, ansi.Strip(view))
				}
			}
			golden.RequireEqual(t, []byte(ansi.Strip(view)))
		})
	}
}

// TestServingQuestions: the inference path of an LLM asks the serving
// questions and not the training strategy; the answers become [serve].
func TestServingQuestions(t *testing.T) {
	m := servingApp(t, 120, 40)
	titles := map[string]bool{}
	for _, p := range m.wiz.pages {
		if p.hide == nil || !p.hide() {
			titles[p.title] = true
		}
	}
	if !titles["Serving"] || titles["GPUs and strategy"] || titles["Distribution"] {
		t.Errorf("pages shown: %v; want Serving, without Distribution and GPUs and strategy", titles)
	}
	m.a.Serve.RPS, m.a.Serve.TTFTMs = "3", "500"
	c, err := m.a.config()
	if err != nil {
		t.Fatal(err)
	}
	s := c.Workload.Serve
	if s.WeightFormat != model.WeightAWQ || s.PromptTokens != 2048 || s.OutputTokens != 512 || s.RequestsPerSec != 3 ||
		s.TTFTTargetMs != 500 || s.TPOTTargetMs != 50 || s.Concurrency != 0 {
		t.Errorf("[serve] from the answers: %+v", s)
	}
	back := answersFromConfig(testCatalog(t), &c)
	if back.Serve.WeightFormat != model.WeightAWQ || back.Serve.PromptTokens != "2048" || back.Serve.RPS != "3" {
		t.Errorf("answers from the file: %+v", back.Serve)
	}
	m.a.Serve.OutputTokens = "lots"
	if _, err := m.a.config(); err == nil || !strings.Contains(err.Error(), "output tokens") {
		t.Errorf("a bad output length: %v", err)
	}
}
