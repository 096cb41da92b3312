package serve_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestReasonsCountInTheSingular: a serving plan's reasons count one
// replica or one GPU in the singular (model.CountMsg), in every reason
// that counts them (issue 31: "1 replicas carry …", "over 1 GPUs each").
func TestReasonsCountInTheSingular(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	small, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	big, err := cat.Model("llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	h100, err := cat.GPU("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	a100, err := cat.GPU("a100-80gb")
	if err != nil {
		t.Fatal(err)
	}
	oneH100 := serve.Offer{Name: "1×H100 SXM", GPU: h100, GPUsPerNode: 1, USDPerHour: 3}
	oneA100 := serve.Offer{Name: "1×A100 80GB", GPU: a100, GPUsPerNode: 1, USDPerHour: 1.8}
	base := serve.Serving{MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256}
	for _, tc := range []struct {
		name  string
		model bool // the 70B, else the 8B
		s     func(s serve.Serving) serve.Serving
		offer serve.Offer
		want  string
	}{
		{"rate over one replica", false, func(s serve.Serving) serve.Serving { s.RequestsPerSec, s.Replicas = 1000, 1; return s }, oneH100,
			"requests/s on 1 replica, fewer than the 1e+03 asked"},
		{"concurrency over one replica", false, func(s serve.Serving) serve.Serving { s.Concurrency, s.Replicas = 100000, 1; return s }, oneH100,
			"100000 concurrent requests over 1 replica need"},
		{"a replica across one-GPU nodes", true, func(s serve.Serving) serve.Serving { s.Concurrency = 1; return s }, oneA100,
			"over 1 GPU each): pipeline parallel across nodes needs a Ray cluster"},
	} {
		a := small
		if tc.model {
			a = big
		}
		p, err := serve.PlanServing(a, tc.s(base), tc.offer)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := strings.Join(p.Reasons, "\n")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: reasons %q lack %q", tc.name, got, tc.want)
		}
		for _, bad := range []string{"1 replicas", "1 GPUs"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s: %q in %q", tc.name, bad, got)
			}
		}
	}
}
