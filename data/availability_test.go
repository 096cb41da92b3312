package data

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestAvailabilityKeys decodes the availability, retirement, SkyPilot,
// architecture and currency keys, and pins their messages.
func TestAvailabilityKeys(t *testing.T) {
	// A GCP A4 row as the GCP consumption-options table sells it: no
	// on-demand, spot and flex-start priced, reservations possible.
	a4 := strings.Replace(okInstance, `prices = [{ region = "r1", on_demand = 2.5, spot = 1.0 }]`,
		`skypilot_accelerator = "B200"
cpu_arch = "arm64"
currency = "CNY"
retired = 2026-03-31
retired_source = "dstack PR #4018: platform shut down on March 31, 2026"
prices = [{ region = "r1", spot = 1.0, flex_start = 1.5, reservation = true }, { region = "r2", capacity_block = 3.25 }]`, 1)
	c, err := load(testFS(map[string]string{"catalog/instances/p.toml": a4}))
	if err != nil {
		t.Fatal(err)
	}
	in := &c.Instances[0]
	if in.SkyPilotAccelerator != "B200" || in.Arch() != "arm64" || in.PriceCurrency() != "CNY" || in.RetiredSource == "" || in.Retired != "2026-03-31" {
		t.Errorf("instance = %+v", *in)
	}
	r1, r2 := in.Prices[0], in.Prices[1]
	if got, want := r1.Modes(), []model.Pricing{model.Spot, model.FlexStart, model.Reservation}; !slices.Equal(got, want) {
		t.Errorf("r1 modes = %v, want %v", got, want)
	}
	if _, ok := r1.Price(model.OnDemand); ok {
		t.Error("r1 has an on-demand price; the row sells none")
	}
	if v, ok := r2.Price(model.CapacityBlock); !ok || v != 3.25 {
		t.Errorf("r2 capacity block = %v, %v", v, ok)
	}
	if got := c.Listed(false); len(got) != 0 {
		t.Errorf("Listed(false) shows %d retired instances", len(got))
	}
	if got := c.Listed(true); len(got) != 1 {
		t.Errorf("Listed(true) = %d instances, want 1", len(got))
	}

	bad := []struct{ name, from, to, want string }{
		{"no mode at all", "on_demand = 2.5, spot = 1.0", "reservation = false", `prices "r1": give on_demand, spot, flex_start, capacity_block or reservation = true`},
		{"zero flex-start", "spot = 1.0", "spot = 1.0, flex_start = 0.0", `flex_start must be > 0, got 0 (leave the key out when not sold)`},
		{"bad arch", "prices = [", "cpu_arch = \"aarch64\"\nprices = [", `cpu_arch "aarch64": want x86_64 or arm64`},
		{"bad currency", "prices = [", "currency = \"usd\"\nprices = [", `currency "usd": gpuplan converts only USD and CNY (CNY with --usd-cny RATE); write the prices in one of them`},
		{"SkyPilot name with a colon", "prices = [", "skypilot_accelerator = \"A100:8\"\nprices = [", `skypilot_accelerator "A100:8"`},
		{"typo suggests the new key", "spot = 1.0", "spot = 1.0, flex_strat = 2.0", `did you mean "flex_start"?`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(testFS(map[string]string{"catalog/instances/p.toml": strings.Replace(okInstance, tt.from, tt.to, 1)}))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("load() error = %v, want %q", err, tt.want)
			}
		})
	}
}
