package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// TestLearnedPositionsRefusedInPanel: the configurator refuses a sequence
// past a learned position table as estimate, recommend, plan and export
// do (model.Workload.Validate, on workload.seq_len), in English and in Chinese,
// where before it estimated GPT-2 at 8192 tokens; a rotary model past its
// positions is estimated.
func TestLearnedPositionsRefusedInPanel(t *testing.T) {
	for _, tt := range []struct {
		name, model, length string
		opts                Options
		want                string // "" when estimated
	}{
		{"gpt2 at 8192", "gpt2", "8192", Options{}, "1024 learned positions"},
		{"bert-base at 4096, in Chinese", "bert-base", "4096", zhOptions(), "学习式位置：它的位置嵌入表没有更靠后的行"},
		{"gpt2 at its 1024", "gpt2", "1024", Options{}, ""},
		{"qwen3-0.6b (rotary) past its 40960", "qwen3-0.6b", "65536", Options{}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := start(t, newTestApp(t, embeddedCatalog(t), tt.opts), size(160, 50))
			m.a.Task, m.a.Model, m.a.Length, m.a.Batch = model.TaskFinetune, tt.model, tt.length, "1"
			m.recompute()
			var ce *config.Error
			if tt.want == "" {
				if m.res.err != nil {
					t.Fatalf("err %v, want an estimate", m.res.err)
				}
				return
			}
			if !errors.As(m.res.err, &ce) || ce.Key != "workload.seq_len" {
				t.Fatalf("err %v, want a seq_len refusal", m.res.err)
			}
			if s := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(s, tt.want) {
				t.Errorf("the screen lacks %q:\n%s", tt.want, screenText(m))
			}
		})
	}
}
