package model

import "testing"

// Trap (issue 17): "1 sequences" in the summary and the formulas.
func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 sequences"}, {1, "1 sequence"}, {2, "2 sequences"}, {16, "16 sequences"}, {1000, "1000 sequences"}, {100207, "100,207 sequences"}} {
		if got := Count(tc.n, "sequence"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// Trap (trial 15 N8): the CLI printed "100207 offers" and "aws: 14387
// offers" beside "of 101,595 region prices".
func TestGrouped(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0"}, {7, "7"}, {999, "999"}, {3580, "3580"}, {9999, "9999"}, {10000, "10,000"}, {14387, "14,387"}, {100207, "100,207"},
		{999999, "999,999"}, {1000000, "1,000,000"}, {-12345, "-12,345"}, {-9999, "-9999"}} {
		if got := Grouped(tc.n); got != tc.want {
			t.Errorf("Grouped(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// Trap (issue 17): the ROCm reason named PyTorch for TensorFlow and JAX.
func TestFrameworkSupportNamesTheFramework(t *testing.T) {
	v520 := &GPU{Name: "Radeon Pro V520", Vendor: "amd", Architecture: "rdna1"}
	mi300 := &GPU{Name: "MI300X", Vendor: "amd", Architecture: "cdna3"}
	for _, tc := range []struct {
		g    *GPU
		fw   Framework
		want string
	}{
		{v520, PyTorch, "Radeon Pro V520 (rdna1) is not supported by PyTorch's ROCm builds"},
		{v520, TensorFlow, "Radeon Pro V520 (rdna1) is not supported by TensorFlow's ROCm builds"},
		{v520, JAX, "Radeon Pro V520 (rdna1) is not supported by JAX's ROCm builds"},
		{mi300, JAX, ""},
	} {
		if got := frameworkSupport(tc.g, tc.fw).String(); got != tc.want {
			t.Errorf("frameworkSupport(%s, %s) = %q, want %q", tc.g.Name, tc.fw, got, tc.want)
		}
	}
}
