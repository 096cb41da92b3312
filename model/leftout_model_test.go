package model

import (
	"errors"
	"strings"
	"testing"
)

// TestLeftOutDiffusionTransformers: the diffusion transformers docs/data.md
// leaves out say so with the reason and what the catalog has instead, not
// only "not found" (new-user walk; issue 32: left out with a reason); other
// unknown names keep the did-you-mean.
func TestLeftOutDiffusionTransformers(t *testing.T) {
	c := &Catalog{Models: []Architecture{{Key: "sdxl-unet", Name: "Stable Diffusion XL 1.0 base U-Net"}, {Key: "llama-3.1-8b"}}}
	for _, name := range []string{"flux", "FLUX.1-dev", "black-forest-labs/FLUX.1-dev", "black-forest-labs/FLUX.1-schnell",
		"stabilityai/stable-diffusion-3.5-large", "stable-diffusion-3-medium", "sd3.5"} {
		_, err := c.Model(name)
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("%s: %v, want ErrNotFound", name, err)
		}
		for _, want := range []string{"left out on purpose", "diffusion transformers", "measured MACs", "sdxl-unet"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", name, err, want)
			}
		}
	}
	if _, err := c.Model("llama-3.1-8c"); err == nil || strings.Contains(err.Error(), "left out") {
		t.Errorf("a typo is not a left-out model: %v", err)
	}
	if _, err := c.Model("stabilityai/stable-diffusion-xl-base-1.0"); err != nil && strings.Contains(err.Error(), "left out") {
		t.Errorf("SDXL is a U-Net, not a left-out DiT: %v", err)
	}
}
