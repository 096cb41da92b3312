package model

import (
	"strings"
	"testing"
)

// Issue 31 item 9: "up to N GPUs". With auto GPUs, MaxGPUs caps the GPUs
// an offer may rent: no offer above it, an instance type with more GPUs
// than the cap is a near miss saying so, and a workload that needs more
// GPUs than the cap allows fits nowhere.
func TestMaxGPUs(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e9}, Model: llama2_7B}
	q := Query{AutoGPUs: true, AllowMultiNode: true, Providers: []string{"p2"}, Regions: []string{"us-east-1"}}
	r := recommend(t, w, q)
	if len(r.Offers) != 1 || r.Offers[0].GPUs != 8 {
		t.Fatalf("without a cap: %s, want huge.8 on 8 GPUs", offerNames(r))
	}
	q.MaxGPUs = 4
	r = recommend(t, w, q)
	if len(r.Offers) != 0 {
		t.Errorf("at most 4 GPUs: %s, want none (the 7B full fine-tune needs 8)", offerNames(r))
	}
	found := false
	for _, x := range r.Rejected {
		if x.Instance.Type == "huge.8" {
			found = true
			if x.Kind != RejectGPULimit || !strings.Contains(x.Reason, "has 8 GPUs, above the 4-GPU limit") {
				t.Errorf("huge.8 rejected as %s: %q", x.Kind, x.Reason)
			}
		}
	}
	if !found {
		t.Errorf("huge.8 is not a near miss under a 4-GPU cap: %+v", r.Rejected)
	}
	// A cap at or above what the job takes changes nothing.
	q.MaxGPUs = 8
	if r = recommend(t, w, q); len(r.Offers) != 1 || r.Offers[0].GPUs != 8 {
		t.Errorf("at most 8 GPUs: %s, want huge.8 on 8 GPUs", offerNames(r))
	}
	// Multi-node growth stops at the cap: 2 × 8 would be 16.
	q.MaxGPUs, q.DeadlineHours = 8, r.Offers[0].JobHours*0.6
	if r = recommend(t, w, q); len(r.Offers) != 0 {
		t.Errorf("a deadline needing 16 GPUs under an 8-GPU cap: %s, want none", offerNames(r))
	}
}
