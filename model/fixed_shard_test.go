package model

import (
	"fmt"
	"strings"
	"testing"
)

// TestFixedGPUsTryFSDP: a fixed GPU count with no strategy named tries
// FSDP where data parallel does not fit, as auto GPUs do (issue rank32:
// recommend --gpus 8 kept DDP at 253 GiB per GPU and offered only
// 8×MI355X/B300, while FSDP over the same 8 GPUs fits cheaper GPUs). A
// strategy the user named is kept (Query.KeepStrategy), and a layout
// that fits with DDP stays DDP.
func TestFixedGPUsTryFSDP(t *testing.T) {
	// Llama 2 7B full fine-tune at micro-batch 1: DDP needs about 16
	// bytes a parameter (~108 GiB), past G80's 76 GiB usable; FSDP over
	// 8 GPUs shards the states to ~1/8.
	w := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e9, GPUs: 8}, Model: llama2_7B}
	q := Query{Providers: []string{"p2"}, Regions: []string{"us-east-1"}}
	r := recommend(t, w, q)
	if len(r.Offers) != 1 || r.Offers[0].Instance.Type != "huge.8" || r.Offers[0].Strategy != FSDP || r.Offers[0].GPUs != 8 {
		t.Fatalf("7B full fine-tune on 8 GPUs: %s, want huge.8 with FSDP ×8 (DDP does not fit)", offerNames(r))
	}
	if o := r.Offers[0]; o.NeedBytes > o.UsableBytes {
		t.Errorf("FSDP offer needs %.1f GiB, over the %.1f GiB usable", o.NeedBytes/GiB, o.UsableBytes/GiB)
	}

	// Named: kept on every offer, so nothing fits.
	named := w
	named.Strategy = DDP
	kq := q
	kq.KeepStrategy = true
	r = recommend(t, named, kq)
	if len(r.Offers) != 0 {
		t.Errorf("--strategy ddp kept: %s, want no offer (DDP does not fit G80)", offerNames(r))
	}

	// DDP fits: stays DDP.
	fits := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 8}, Model: gpt2Small}
	r = recommend(t, fits, q)
	if len(r.Offers) != 1 || r.Offers[0].Strategy != DDP {
		t.Errorf("GPT-2 on 8 GPUs: %s strategy %v, want DDP", offerNames(r), r.Offers)
	}

	// Neither fits (activations, which FSDP does not shard, at
	// micro-batch 64 × 4096): the near miss says FSDP does not either,
	// with FSDP's need (the nearer one).
	big := w
	big.MicroBatch, big.SeqLen = 64, 4096
	r = recommend(t, big, q)
	if len(r.Offers) != 0 || len(r.Rejected) == 0 {
		t.Fatalf("7B at micro-batch 64 on 8×G80: %d offers, %d near misses", len(r.Offers), len(r.Rejected))
	}
	ddp, err := Compute(func() Workload { v := big; v.Strategy = DDP; return v }(), &testCatalog().GPUs[2])
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("needs %.1f GiB per GPU, ", ddp.ResidentNeed()/GiB)
	if got := r.Rejected[0].ReasonMsg.String(); !strings.HasPrefix(got, want) || !strings.Contains(got, "GiB even sharded with FSDP") {
		t.Errorf("7B at micro-batch 64 near miss: %q, want DDP's need first (%q, as estimate says it) and FSDP's after it", got, want)
	}
	if short := r.Rejected[0].ShortBytes; short <= 0 || short >= ddp.ResidentNeed()-UsableBytes(&testCatalog().GPUs[2]) {
		t.Errorf("near miss short by %.1f GiB, want FSDP's shortfall, below DDP's", short/GiB)
	}
}
