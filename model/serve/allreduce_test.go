package serve

import (
	"math"
	"testing"
)

// TestAllReduceSec checks allReduceSec against values worked by hand from
// the measurements its doc comment quotes.
//
// PCIe with P2P (haohervchb/sglang-V100#2, 4 ranks): BusBW = 1.5 ×
// (393216 − 4096) B ÷ (83.5 − 19.4) µs = 9.10577 GB/s; Lat = 19.4 µs −
// 1.5 × 4096 B ÷ BusBW = 18.72526 µs; each ring step more or fewer moves
// the latency by 1 µs (NCCL tuning.cc, PCI ring LL).
//
// PCIe without P2P, NCCL's SHM (sgl-project/sglang#39605, 2 ranks): BusBW
// = (20971520 − 10240) B ÷ (10.9 ms − 39 µs) = 1.929958 GB/s; Lat = 39 µs −
// 10240 B ÷ BusBW = 33.69419 µs.
func TestAllReduceSec(t *testing.T) {
	nvlink := &Hardware{GPU: &h100SXM, InterconnectGBps: 900, NVLink: true}
	p2p := &Hardware{GPU: &h100SXM, InterconnectGBps: PCIeGBps, PeerToPeer: true}
	shm := &Hardware{GPU: &h100SXM, InterconnectGBps: PCIeGBps}
	for _, c := range []struct {
		name   string
		hw     *Hardware
		tp     int
		bytes  float64
		wantUS float64
	}{
		// The readings the lines are solved from come back.
		{"p2p tp4 4 KB (source row)", p2p, 4, 4 << 10, 19.4},
		{"p2p tp4 384 KB (source row)", p2p, 4, 384 << 10, 83.5},
		{"shm tp2 10 KB (source row)", shm, 2, 10240, 39},
		{"shm tp2 20 MiB (source row)", shm, 2, 20971520, 10900},
		// Rows between, and other ring sizes.
		{"p2p tp4 32 KB (source: 24.2 us)", p2p, 4, 32 << 10, 18.72526 + 1.5*32768/9.10577e3},
		{"p2p tp2 latency (2 steps, not 6)", p2p, 2, 0, 14.72526},
		{"p2p tp8 latency (14 steps)", p2p, 8, 0, 26.72526},
		{"p2p tp8 1 MiB", p2p, 8, 1 << 20, 26.72526 + 1.75*1048576/9.10577e3},
		{"shm tp4 latency", shm, 4, 0, 37.69419},
		{"shm tp8 8 B (nccl#1530: 42.14, nccl#1439: 54.18)", shm, 8, 8, 45.69419 + 1.75*8/1.929958e3},
		{"shm tp2 10 sequences × 5120 × 2 B", shm, 2, 102400, 33.69419 + 102400/1.929958e3},
		// NVLink: vLLM's custom all-reduce latency plus the ring's bytes.
		{"nvlink tp2 512 B", nvlink, 2, 512, 3.7 + 512/450e3},
		{"nvlink tp8 1 MiB", nvlink, 8, 1 << 20, 5.9 + 1.75*1048576/450e3},
		// NVLink at world sizes vLLM's custom all-reduce refuses
		// (_SUPPORTED_WORLD_SIZES 2, 4, 6, 8): NCCL's ring LL latency,
		// 6.6 µs + 2(tp−1) × 0.6 µs (tuning.cc baseLat, hwLat NVLINK), plus
		// the same ring bytes over the link.
		{"nvlink tp3 512 B: NCCL, 6.6 + 4 × 0.6", nvlink, 3, 512, 9.0 + 4.0/3*512/450e3},
		{"nvlink tp5 512 B: NCCL, 6.6 + 8 × 0.6", nvlink, 5, 512, 11.4 + 1.6*512/450e3},
		{"nvlink tp5 1 MiB: NCCL", nvlink, 5, 1 << 20, 11.4 + 1.6*1048576/450e3},
		{"nvlink tp6 512 B: custom all-reduce (6 is supported)", nvlink, 6, 512, 5.9 + 10.0/6*512/450e3},
	} {
		got := allReduceSec(c.hw, c.tp, c.bytes) * 1e6
		if math.Abs(got-c.wantUS) > 0.01 {
			t.Errorf("%s: allReduceSec = %.4f µs, want %.4f µs", c.name, got, c.wantUS)
		}
	}
}

// TestOfferPeerToPeer holds GeForce offers to NCCL's SHM path and other
// PCIe offers to its P2P path ("GeForce cards do not support P2P.",
// NVIDIA/nccl-tests#287).
func TestOfferPeerToPeer(t *testing.T) {
	geforce := h100SXM
	geforce.Name, geforce.Interconnect = "NVIDIA GeForce RTX 4090", "pcie"
	pcie := h100SXM
	pcie.Name, pcie.Interconnect = "NVIDIA L4", "pcie"
	for _, c := range []struct {
		o            Offer
		nvlink, peer bool
	}{
		{Offer{GPU: &geforce, GPUsPerNode: 8}, false, false},
		{Offer{GPU: &pcie, GPUsPerNode: 8}, false, true},
		{Offer{GPU: &h100SXM, GPUsPerNode: 8, Interconnect: "nvlink"}, true, true},
	} {
		hw := c.o.hardware()
		if hw.NVLink != c.nvlink || (!hw.NVLink && hw.PeerToPeer != c.peer) {
			t.Errorf("%s: NVLink %v PeerToPeer %v, want %v %v", c.o.GPU.Name, hw.NVLink, hw.PeerToPeer, c.nvlink, c.peer)
		}
	}
}
