package model

import (
	"errors"
	"strings"
	"testing"
)

// TestQwen3Thinking2507LeftOut: the Thinking-2507 ids, whose config.json
// was not found, are refused with why and what to give, not "did you mean
// qwen3-4b?" (an entry with a sixth of their context).
func TestQwen3Thinking2507LeftOut(t *testing.T) {
	cat := &Catalog{Models: []Architecture{{Key: "qwen3-4b", Name: "Qwen3 4B", Aliases: []string{"Qwen/Qwen3-4B"}}}}
	cat.Index()
	for _, id := range []string{"Qwen/Qwen3-4B-Thinking-2507", "Qwen/Qwen3-30B-A3B-Thinking-2507", "qwen3-235b-a22b-thinking-2507"} {
		_, err := cat.Model(id)
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "left out on purpose") || !strings.Contains(err.Error(), "--hf-config") {
			t.Errorf("%s: %v", id, err)
		}
	}
	if _, err := cat.Model("Qwen/Qwen3-4B"); err != nil {
		t.Errorf("Qwen/Qwen3-4B: %v", err)
	}
}
