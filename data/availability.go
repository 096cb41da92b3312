package data

import (
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// The catalog keys added for availability modes, retirements, SkyPilot
// accelerator names, CPU architecture and currency (issue 14). They live
// here, embedded in rawInstance and rawPrice, so load.go keeps its shape.

// rawInstanceExt holds the optional instance keys of this file.
type rawInstanceExt struct {
	RetiredSource       *string `toml:"retired_source"`
	SkyPilotAccelerator *string `toml:"skypilot_accelerator"`
	CPUArch             *string `toml:"cpu_arch"`
	Currency            *string `toml:"currency"`
	// MissingSince and MissingSource are written by `catalog update` for a
	// type its fetch no longer lists (model.Instance.MissingSince).
	MissingSince  *date   `toml:"missing_since"`
	MissingSource *string `toml:"missing_source"`
	// Fabric is the GPU network between instances (model.Fabrics), stated
	// by the entry's source.
	Fabric *string `toml:"fabric"`
}

// rawPriceExt holds the availability modes beyond on-demand and spot.
type rawPriceExt struct {
	FlexStart     *float64 `toml:"flex_start"`
	CapacityBlock *float64 `toml:"capacity_block"`
	Reservation   *bool    `toml:"reservation"`
}

var cpuArchs = []string{"x86_64", "arm64"}

// apply copies the keys into in and returns what is wrong with them.
func (r *rawInstanceExt) apply(in *model.Instance) []error {
	var errs []error
	if r.RetiredSource != nil {
		in.RetiredSource = *r.RetiredSource
		if err := required("retired_source", *r.RetiredSource); err != nil {
			errs = append(errs, err)
		}
	}
	if r.SkyPilotAccelerator != nil {
		in.SkyPilotAccelerator = *r.SkyPilotAccelerator
		if strings.TrimSpace(*r.SkyPilotAccelerator) == "" || strings.ContainsAny(*r.SkyPilotAccelerator, ":,\t\n\"'") {
			errs = append(errs, model.Msg("skypilot_accelerator %q: want SkyPilot's accelerator name such as \"A100-80GB\" (no colons, commas or quotes)", *r.SkyPilotAccelerator))
		}
	}
	if r.CPUArch != nil {
		in.CPUArch = *r.CPUArch
		if !contains(cpuArchs, *r.CPUArch) {
			errs = append(errs, model.Msg("cpu_arch %q: want %s", *r.CPUArch, model.OrMsg(cpuArchs)))
		}
	}
	if r.MissingSince != nil {
		in.MissingSince = string(*r.MissingSince)
		if r.MissingSource == nil {
			errs = append(errs, model.Msg("missing_since needs missing_source: say which fetch no longer lists the type"))
		}
	}
	if r.MissingSource != nil {
		in.MissingSource = *r.MissingSource
		if err := required("missing_source", *r.MissingSource); err != nil {
			errs = append(errs, err)
		}
	}
	if r.Fabric != nil {
		in.Fabric = *r.Fabric
		if !contains(model.Fabrics, *r.Fabric) {
			errs = append(errs, model.Msg("fabric %q: want %s", *r.Fabric, model.OrMsg(model.Fabrics)))
		}
	}
	if r.Currency != nil {
		in.Currency = *r.Currency
		// Only the codes a price can be converted from: USD, and CNY with
		// --usd-cny (search.usd_cny). Any other code loaded fine and then
		// was never ranked, with a hint (--usd-cny) that could not help.
		if *r.Currency != "USD" && *r.Currency != "CNY" {
			errs = append(errs, model.Msg("currency %q: gpuplan converts only USD and CNY (CNY with --usd-cny RATE); write the prices in one of them", *r.Currency))
		}
	}
	return errs
}

// apply copies the extra modes into rp; hasBasic says whether on_demand or
// spot was given. A region must sell in at least one mode.
func (r *rawPriceExt) apply(rp *model.RegionPrice, region string, hasBasic bool) []error {
	var errs []error
	for _, f := range []struct {
		key string
		v   *float64
		dst *float64
	}{{"flex_start", r.FlexStart, &rp.FlexStartUSD}, {"capacity_block", r.CapacityBlock, &rp.CapacityBlockUSD}} {
		if f.v == nil {
			continue
		}
		if err := positive(f.key, *f.v); err != nil {
			errs = append(errs, model.Msg("prices %q: %v (leave the key out when not sold)", region, err))
		}
		if *f.v > 10000 {
			errs = append(errs, model.Msg("prices %q: %s above 10000 per hour; prices are per instance-hour", region, f.key))
		}
		*f.dst = *f.v
	}
	if r.Reservation != nil {
		rp.Reservation = *r.Reservation
	}
	if !hasBasic && r.FlexStart == nil && r.CapacityBlock == nil && !rp.Reservation {
		errs = append(errs, model.Msg("prices %q: give on_demand, spot, flex_start, capacity_block or reservation = true", region))
	}
	return errs
}

// patchExt applies an overlay's extra instance keys over dst and reports
// whether it set any.
func patchExt(dst, s *model.Instance) bool {
	set := false
	for _, f := range []struct{ dst, v *string }{
		{&dst.RetiredSource, &s.RetiredSource}, {&dst.SkyPilotAccelerator, &s.SkyPilotAccelerator},
		{&dst.CPUArch, &s.CPUArch}, {&dst.Currency, &s.Currency},
		{&dst.MissingSince, &s.MissingSince}, {&dst.MissingSource, &s.MissingSource},
		{&dst.Fabric, &s.Fabric},
	} {
		if *f.v != "" {
			*f.dst, set = *f.v, true
		}
	}
	return set
}

// mergePriceExt merges an overlay region's extra modes into dst.
func mergePriceExt(dst, u *model.RegionPrice) {
	if u.FlexStartUSD > 0 {
		dst.FlexStartUSD = u.FlexStartUSD
	}
	if u.CapacityBlockUSD > 0 {
		dst.CapacityBlockUSD = u.CapacityBlockUSD
	}
	if u.Reservation {
		dst.Reservation = true
	}
}
