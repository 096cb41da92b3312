package data

import (
	"strings"
	"testing"
)

// TestPublishedRatesFilled pins the figures a new-user walk found shown as
// "—" although a vendor document (or, for the China-market parts, a quoted
// spec sheet) gives them: without an fp8 rate the RTX PRO 6000 was timed at
// bf16 and came out slower than an RTX 5090. Each figure is dense, per GPU,
// and its row's source names the document it was read from.
func TestPublishedRatesFilled(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key, field string
		want       float64
		source     string // a word the row's source must carry
	}{
		{"rtx-pro-6000", "fp8", 1000, "FP8 Tensor Core: 2 PFLOPS"},      // "2 PFLOPS" with sparsity, halved
		{"rtx-pro-6000", "tf32", 234, "TF32 Tensor Core: 234 TFLOPS"},   // printed without a sparsity mark
		{"rtx-pro-6000-ws", "fp8", 1007.6, "Appendix A"},                // "1,007.6 | 2,015.2"
		{"rtx-pro-6000-ws", "fp32", 125, "125 TFLOPS single precision"}, // datasheet, boost clock
		{"rtx-pro-6000-ws", "tf32", 251.9, "Appendix A"},
		{"rtx-pro-6000-ws", "int8", 1007.6, "Appendix A"},
		{"a30", "tf32", 82, "TF32 82"}, // "82 teraFLOPS | 165 teraFLOPS*"
		{"a30", "int8", 330, "INT8 330"},
		{"h20", "fp32", 44, "FP32 44"},
		{"h20", "tf32", 74, "TF32 (TensorFloat) 74"},
		{"l20", "tf32", 59.8, "TF32 (TensorFloat) 59.8"},
		{"h200-nvl", "fp32", 60, "FP32 60"},
		{"h200-nvl", "fp8", 1670.5, "3,341"}, // "3,341 TFLOPS*" halved
		{"h200-nvl", "int8", 1670.5, "3,341"},
		{"mi325x", "int8", 2614.9, "CDNA 3 white paper"},
		{"mi355x", "int8", 5033.2, "10.1 POPS"},
	} {
		g, err := cat.GPU(c.key)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{"fp32": g.FP32TFLOPS, "tf32": g.TF32TFLOPS, "fp8": g.FP8TFLOPS, "int8": g.INT8TOPS}[c.field]
		if got != c.want {
			t.Errorf("%s %s = %v, want %v", c.key, c.field, got, c.want)
		}
		if !strings.Contains(g.Source, c.source) {
			t.Errorf("%s source does not quote %q for its %s: %s", c.key, c.source, c.field, g.Source)
		}
	}
	if g, _ := cat.GPU("mi325x"); g.InterconnectGBps != 896 {
		t.Errorf("mi325x interconnect_gbps = %v, want 896 (CDNA 3 white paper: P2P ring peak aggregate I/O 896 GB/s)", g.InterconnectGBps)
	}
	if g, _ := cat.GPU("a30"); g.InterconnectGBps != 64 {
		t.Errorf("a30 interconnect_gbps = %v, want 64 (PCIe Gen4 x16)", g.InterconnectGBps)
	}
}
