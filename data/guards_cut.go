package data

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// cutFraction is the share of a type's own catalog price below which a
// fetched price for the same type, region and mode is flagged (rule
// "price-cut"). It is a policy choice, not a measured bound: no provider
// halves a list price overnight without notice (and EC2 says its spot
// prices "adjust gradually"), so a price under half of what the catalog
// knows for the very same type is far likelier a unit error, a per-GPU
// price written per instance or a forged price list meant to rank first
// (attack test M1: lambda gpu_8x_h100_sxm5 $31.92 → $3.30) than a cut. A
// real cut that deep is ranked by writing it in an overlay by hand and
// passing --trust-overlay (the guards hold it at load too).
const cutFraction = 0.5

// riseFactor is the multiple of a type's own catalog price above which a
// fetched on-demand price for the same type and region is flagged (rule
// "price-rise"): the mirror of cutFraction, and like it a policy choice,
// not a measured bound. GPU clouds' list prices move down far more often
// than up, and by steps of tens of percent (AWS cut P4 and P5 prices by up
// to 45% in June 2025; no GPU cloud in the catalog's history doubled a
// list price between snapshots), so a price over twice the catalog's for
// the very same type is far likelier a unit error (per instance written
// per GPU), a price in another currency or a forged price list meant to
// push a provider's offers out of the rankings (attack round 13: every
// lambda price ×50) than a rise. A spot price is flagged only when it is
// also above the catalog's on-demand price for the type and region: spot
// markets float up towards on demand (EC2's maximum spot price defaults
// to the on-demand price; GCP's spot discounts range over 60–91%, a 4×
// spread), not past it. A real rise that steep is ranked by writing it in
// an overlay by hand and passing --trust-overlay (the guards hold it at
// load too).
const riseFactor = 2.0

// CutGuards flags each price of insts (USD, on demand or spot) below
// cutFraction × the price base lists for the same provider, type, region
// and mode: rule "price-cut". Prices compare per GPU-hour when both sides
// have GPUs (a type whose GPU count grows at the same price is a cut too),
// else per instance-hour. Types, regions and modes base does not price
// are not checked (FloorGuards covers them).
func CutGuards(base *model.Catalog, insts []model.Instance) []Guard {
	var out guardList
	sameTypeGuards(base, insts, false, &out)
	return out.slice()
}

// RiseGuards flags each price of insts (USD) above riseFactor × the price
// base lists for the same provider, type, region and mode — a spot price
// only when it is also above base's on-demand price there: rule
// "price-rise". Prices compare as in CutGuards.
func RiseGuards(base *model.Catalog, insts []model.Instance) []Guard {
	var out guardList
	sameTypeGuards(base, insts, true, &out)
	return out.slice()
}

// sameTypeGuards is CutGuards, or RiseGuards when rise is set, adding to
// out.
func sameTypeGuards(base *model.Catalog, insts []model.Instance, rise bool, out *guardList) {
	var known byProvider[*model.Instance]
	for i := range base.Instances {
		if in := &base.Instances[i]; in.PriceCurrency() == "USD" {
			known.set(in.Provider, in.Type, in)
		}
	}
	for i := range insts {
		in := &insts[i]
		old, ok := known.get(in.Provider, in.Type)
		if !ok || in.PriceCurrency() != "USD" {
			continue
		}
		per, oldPer, perGPU := 1.0, 1.0, false
		if in.GPUCount > 0 && old.GPUCount > 0 {
			per, oldPer, perGPU = float64(in.GPUCount), float64(old.GPUCount), true
		}
		for _, p := range in.Prices {
			q, ok := regionPriceOf(old, p.Region)
			if !ok {
				continue
			}
			for _, m := range []struct {
				mode     string
				usd, was float64
			}{{"on-demand", p.OnDemandUSD, q.OnDemandUSD}, {"spot", p.SpotUSD, q.SpotUSD}} {
				now, then := m.usd/per, m.was/oldPer
				if !(m.usd > 0 && m.was > 0) {
					continue
				}
				switch {
				case !rise && now < cutFraction*then:
					out.add(Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: "price-cut", Origin: in.Origin,
						text: cutText(m.mode, now, then, perGPU)})
				case rise && now > riseFactor*then && (m.mode == "on-demand" || q.OnDemandUSD <= 0 || now > q.OnDemandUSD/oldPer):
					out.add(Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: "price-rise", Origin: in.Origin,
						text: riseText(m.mode, now, then, perGPU)})
				}
			}
		}
	}
}

// cutText is a price-cut finding's message (Guard.text): mode's price
// now against then, per GPU-hour or per instance-hour.
func cutText(mode string, now, then float64, perGPU bool) func(*Guard) model.Message {
	return func(*Guard) model.Message {
		key := "%s %s/h is under half the catalog's %s/h for this type and region (%.0f%% less): a fake or mistyped price? If the provider did cut it, write the price in an overlay by hand and pass --trust-overlay"
		if perGPU {
			key = "%s %s per GPU-hour is under half the catalog's %s per GPU-hour for this type and region (%.0f%% less): a fake or mistyped price? If the provider did cut it, write the price in an overlay by hand and pass --trust-overlay"
		}
		return model.Msg(key, model.Msg(mode), show.USDPerHour(now), show.USDPerHour(then), (1-now/then)*100)
	}
}

// riseText is a price-rise finding's message, as cutText.
func riseText(mode string, now, then float64, perGPU bool) func(*Guard) model.Message {
	return func(*Guard) model.Message {
		key := "%s %s/h is over twice the catalog's %s/h for this type and region (%.0f%% more): a fake or mistyped price? If the provider did raise it, write the price in an overlay by hand and pass --trust-overlay"
		if perGPU {
			key = "%s %s per GPU-hour is over twice the catalog's %s per GPU-hour for this type and region (%.0f%% more): a fake or mistyped price? If the provider did raise it, write the price in an overlay by hand and pass --trust-overlay"
		}
		return model.Msg(key, model.Msg(mode), show.USDPerHour(now), show.USDPerHour(then), (now/then-1)*100)
	}
}

// regionPriceOf returns in's price in region.
func regionPriceOf(in *model.Instance, region string) (model.RegionPrice, bool) {
	for _, p := range in.Prices {
		if p.Region == region {
			return p, true
		}
	}
	return model.RegionPrice{}, false
}
