package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/model"
)

// llama2Config is Llama-2-7b's config.json (meta-llama/Llama-2-7b-hf, as
// data/hf/testdata/config/llama-2-7b.json), the %d its hidden_size.
const llama2Config = `{"architectures": ["LlamaForCausalLM"], "hidden_act": "silu", "hidden_size": %d,
 "intermediate_size": 11008, "max_position_embeddings": 4096, "model_type": "llama",
 "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
 "rms_norm_eps": 1e-05, "torch_dtype": "float16", "vocab_size": 32000}`

// Trap (trial M2): a path pasted and entered in one go — before the
// recompute command that reads it has run — passed the config.json
// question, because its check judged only reads already finished. Here
// the paste and the enter go through Update back to back and no command
// runs before the enter: enter must still stop on a file the reader refuses, and pass a
// good one.
func TestPastedConfigJSONIsCheckedOnEnter(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json") // 200 MB, as in the trial: sparse, so the test writes nothing
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(200 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	write := func(name string, hidden int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Replace(llama2Config, "%d", strconv.Itoa(hidden), 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	neg, good := write("h_neg.json", -4096), write("good.json", 4096)
	for _, tt := range []struct {
		name, path string
		want       string // in the footer's ✗ line; "" when enter moves on
	}{
		{"200 MB file", huge, "file too large"},
		{"hidden_size -4096", neg, "invalid config"},
		{"Llama-2-7b", good, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := pickModel(t, newTestApp(t, testCatalog(t), Options{ReadHFConfig: hf.Readers().HFConfig}), "hugging")
			if focusedTitle(m) != "Hugging Face config.json" {
				t.Fatalf("not on the config.json page but %q", focusedTitle(m))
			}
			m.async = true                                    // reads run in commands, which this test never runs: the enter comes first
			tm, _ := m.Update(tea.PasteMsg{Content: tt.path}) // its command, which reads the path, is dropped
			m = drive(t, tm, enter)                           // the enter's commands run: the form moves on in one
			text := screenText(m)
			if tt.want == "" {
				if focusedTitle(m) == "Hugging Face config.json" {
					t.Errorf("enter on a good config.json did not move on:\n%s", text)
				}
				return
			}
			if focusedTitle(m) != "Hugging Face config.json" {
				t.Errorf("enter right after pasting %s moved on to %q", tt.path, focusedTitle(m))
			}
			flat := strings.Join(strings.Fields(text), " ") // an error wraps in the footer
			if !strings.Contains(text, "✗ config.json:") || !strings.Contains(flat, tt.want) {
				t.Errorf("the footer does not say why (want %q):\n%s", tt.want, text)
			}
		})
	}
}

// check waits for a read under way, up to its bound, and then says the
// file is still being read rather than passing it.
func TestHFCheckWaitsWithABound(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	h := &hfReader{wait: 50 * time.Millisecond, read: func(path string, _ model.Task) (model.Architecture, model.Precision, []model.Message, error) {
		if path == "slow" {
			<-release
		}
		return model.Architecture{}, "", nil, os.ErrNotExist
	}}
	check := h.check()
	if err := check("slow", model.TaskInference); err == nil || !strings.Contains(err.Error(), "still reading it after 50ms") {
		t.Errorf("check on a read that never ends = %v, want the still-reading error", err)
	}
	if err := check("fast", model.TaskInference); err != os.ErrNotExist {
		t.Errorf("check on a missing file = %v, want the reader's error", err)
	}
}
