package cli

import (
	"encoding/json"
	"testing"
)

// TestFixedGPUsShardWhereDDPDoesNotFit: recommend --gpus N with no
// --strategy tries FSDP where data parallel does not fit, as without
// --gpus (the help: "recommend then also tries fsdp where data parallel
// does not fit"); --strategy ddp keeps DDP on every offer. Mistral 7B full
// fine-tune at 4 × 4096 on 8 GPUs: DDP needs ~253 GiB per GPU, so only
// 288 GiB GPUs ran it; FSDP over the same 8 GPUs needs ~143 GiB, which
// 8×MI300X (192 GB) holds at a lower job cost.
func TestFixedGPUsShardWhereDDPDoesNotFit(t *testing.T) {
	args := []string{"recommend", "--model", "mistral-7b", "--task", "finetune", "--gpus", "8", "--dataset-tokens", "200M", "--seq-len", "4096", "--json", "--limit", "0"}
	type doc struct {
		Offers []struct {
			GPUs     int `json:"gpu_count"`
			GPU      string
			Strategy string
		}
	}
	run := func(extra ...string) doc {
		t.Helper()
		code, out, errs := runCLI(t, append(args, extra...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := run()
	fsdp, mi300x := 0, false
	for _, o := range d.Offers {
		if o.GPUs != 8 {
			t.Errorf("offer of %d %s GPUs, want the 8 asked", o.GPUs, o.GPU)
		}
		if o.Strategy == "fsdp" {
			fsdp++
			mi300x = mi300x || o.GPU == "mi300x"
		}
	}
	if fsdp == 0 || !mi300x {
		t.Errorf("--gpus 8, no --strategy: %d FSDP offers (8×MI300X among them: %v), want FSDP where DDP does not fit", fsdp, mi300x)
	}
	for _, o := range run("--strategy", "ddp").Offers {
		if o.Strategy != "ddp" {
			t.Errorf("--strategy ddp: an offer runs %s on %s, want ddp kept", o.Strategy, o.GPU)
		}
	}
}
