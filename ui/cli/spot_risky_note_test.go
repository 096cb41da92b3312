package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestSpotRiskyNoteAgrees: under --pricing spot the JSON's risky_ahead
// note names the figure the table shows, the text report's sentence word
// for word (walk45c: "$5.20" in JSON, "$8.00" in the table).
func TestSpotRiskyNoteAgrees(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--dataset-tokens", "200M", "--pricing", "spot"}
	code, out, errOut := runWithSpot(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j report.RecommendJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.RiskyAhead == nil || j.RiskyAhead.Note == "" {
		t.Skip("no borderline offer ahead in this catalog: nothing to compare")
	}
	code, text, errOut := runWithSpot(t, append(args, "--limit", "3")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(text+errOut, j.RiskyAhead.Note) {
		t.Errorf("JSON note %q not in the text report:\n%s%s", j.RiskyAhead.Note, text, errOut)
	}
}
