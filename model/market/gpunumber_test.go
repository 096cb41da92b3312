package market

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestGPUNumberAlias: a GeForce named by its number alone ("4090") is the
// same GPU for --gpu (Catalog.GPU) and for an offers spec, which took it
// for a count of 4090 GPUs; "4090:1" is the GPU and a count; "4" stays a
// count; "4090d" is the D variant, not the 4090; "9999" names nothing and
// stays a bad count.
func TestGPUNumberAlias(t *testing.T) {
	c := &model.Catalog{GPUs: []model.GPU{
		{Key: "rtx-4090", Name: "NVIDIA GeForce RTX 4090", Aliases: []string{"RTX4090"}, Vendor: "nvidia"},
		{Key: "rtx-4090d", Name: "NVIDIA GeForce RTX 4090 D", Aliases: []string{"RTX4090D"}, Vendor: "nvidia"},
	}}
	for _, name := range []string{"4090", "RTX4090", "rtx-4090"} {
		if g, err := c.GPU(name); err != nil || g.Key != "rtx-4090" {
			t.Errorf("Catalog.GPU(%q) = %v, %v", name, g, err)
		}
	}
	if g, err := c.GPU("4090d"); err != nil || g.Key != "rtx-4090d" {
		t.Errorf("Catalog.GPU(4090d) = %v, %v", g, err)
	}
	for _, c2 := range []struct {
		spec  string
		keys  []string
		count float64
	}{
		{"4090", []string{"rtx-4090"}, 0},
		{"4090:1", []string{"rtx-4090"}, 1},
		{"RTX4090:1", []string{"rtx-4090"}, 1},
		{"4", nil, 4},
	} {
		s, err := ParseGPUSpec(c2.spec, c)
		if err != nil || !slices.Equal(s.Keys, c2.keys) || s.Count.Min != c2.count {
			t.Errorf("ParseGPUSpec(%q) = %+v, %v", c2.spec, s, err)
		}
	}
	if _, err := ParseGPUSpec("9999", c); err == nil {
		t.Error("9999: no error")
	}
}

// TestGPUFamily: the variants Siblings names share the key's first
// segment when it holds a digit, else its first two; the 4090 D is not a
// variant of the 4090.
func TestGPUFamily(t *testing.T) {
	for k, want := range map[string]string{"a100-40gb": "a100", "a100-pcie-80gb": "a100", "h100-nvl": "h100", "l4": "l4",
		"rtx-4090": "rtx-4090", "rtx-4090d": "rtx-4090d", "mi300x": "mi300x"} {
		if got := gpuFamily(k); got != want {
			t.Errorf("gpuFamily(%q) = %q, want %q", k, got, want)
		}
	}
}
