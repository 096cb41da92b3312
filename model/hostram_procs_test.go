package model

import "testing"

// TestNodeHostRAMOffloadPerProcess: what a node's host RAM holds of the
// offload is each of the job's processes' on it, not each of the host's
// GPUs' (a walk: --gpus 1 on a 2× host "needs 393 GiB", on a 1× host 224).
// Worked by hand: the load is one 10 GiB copy (oneCopy), floored at
// MinHostRAMBytes (8 GiB): 10 GiB; the offload 100 GiB a process.
func TestNodeHostRAMOffloadPerProcess(t *testing.T) {
	h := nodeHostRAM{load: hostLoad{copyBytes: 10 * GiB, oneCopy: true}, hostOffload: 100 * GiB}
	for _, c := range []struct {
		jobGPUs, hostGPUs int
		want              float64 // GiB
	}{
		{1, 1, 110},
		{1, 2, 110}, // one process on a 2-GPU host: one offload
		{1, 8, 110},
		{2, 2, 210},
		{4, 2, 210}, // a 4-GPU job over 2-GPU nodes: two processes a node
		{0, 4, 410}, // the job's count not known: every GPU of the host
	} {
		h.jobGPUs = c.jobGPUs
		if got := h.need(c.hostGPUs) / GiB; got != c.want {
			t.Errorf("job on %d GPUs, host of %d: %.0f GiB, want %.0f", c.jobGPUs, c.hostGPUs, got, c.want)
		}
	}
}
