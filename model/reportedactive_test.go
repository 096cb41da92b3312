package model_test

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// TestReportedActiveParams: the active count reports print is the
// publisher's. OpenAI's gpt-oss model card (arXiv 2508.10925, Table 1)
// counts the unembedding but not the input embedding: 3.61B (20b) and
// 5.13B (120b) active, where ActiveParams, which counts the 201,088 × 2880
// = 579,133,440 input embedding too, gave 4.19B and 5.71B (walk49).
// Mistral counts both (Mixtral 8x7B "uses 12.9B parameters per token"), so
// its figure is ActiveParams. The FLOPs do not change.
func TestReportedActiveParams(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key       string
		published float64 // the publisher's figure, to its rounding
		embedding float64 // what ReportedActiveParams leaves out of ActiveParams
	}{
		{"gpt-oss-20b", 3.61e9, 201088 * 2880},
		{"gpt-oss-120b", 5.13e9, 201088 * 2880},
		{"mixtral-8x7b", 12.9e9, 0},
	} {
		a, err := cat.Model(tt.key)
		if err != nil {
			t.Fatal(err)
		}
		got := a.ReportedActiveParams()
		if d := a.ActiveParams() - got; d != tt.embedding {
			t.Errorf("%s: ActiveParams − ReportedActiveParams = %.0f, want %.0f", tt.key, d, tt.embedding)
		}
		// The card rounds to 0.01B (Mistral to 0.1B).
		tol := 0.005e9
		if tt.key == "mixtral-8x7b" {
			tol = 0.05e9
		}
		if math.Abs(got-tt.published) > tol {
			t.Errorf("%s: ReportedActiveParams = %.4gB, want the published %.3gB", tt.key, got/1e9, tt.published/1e9)
		}
	}
}
