package serve_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestSplitThatFitsOneGPU: a model no split of one GPU holds said "these
// 1 GPUs" (a new user's walk); one GPU is "this one GPU".
func TestSplitThatFitsOneGPU(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	g, err := cat.GPU("l4")
	if err != nil {
		t.Fatal(err)
	}
	p, err := serve.PlanOnNodes(a, serve.Serving{TP: 1, Concurrency: 1, PromptTokens: 1000, OutputTokens: 200, MaxModelLen: 4096}, serve.GPUOffer(g, 1), 1)
	if err != nil {
		t.Fatal(err)
	}
	if w := p.Would.String(); strings.Contains(w, "these 1 GPUs") || !strings.Contains(w, "this one GPU") {
		t.Errorf("Would = %q, want this one GPU", w)
	}
}
