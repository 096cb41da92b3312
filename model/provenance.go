package model

// Provenance returns the source and origin of the offer's price: the
// region's overlay when one patched that price, else the instance's.
func (o *Offer) Provenance() (source, origin string) {
	source, origin, _ = o.priceProvenance()
	return source, origin
}

// PriceAsOf returns the as_of of the offer's price: the overlay's that
// set its region's price, else the instance's.
func (o *Offer) PriceAsOf() string {
	_, _, asOf := o.priceProvenance()
	return asOf
}

// PriceAgeDays returns how many whole days the offer's price (PriceAsOf)
// is older than asOf, a YYYY-MM-DD date: the catalog's
// (Recommendation.AsOf, Catalog.AsOf), so that one catalog gives the same
// figure whatever the day it runs. It is 0 when the price is as new or
// newer, and when either date is missing or not YYYY-MM-DD.
func (o *Offer) PriceAgeDays(asOf string) int {
	ref, ok := dateDays(asOf)
	if !ok {
		return 0
	}
	price, ok := dateDays(o.PriceAsOf())
	if !ok || price >= ref {
		return 0
	}
	return ref - price
}

// PriceProvenance is Provenance and PriceAsOf at once: the source,
// origin and as_of of the offer's price.
func (o *Offer) PriceProvenance() (source, origin, asOf string) { return o.priceProvenance() }

func (o *Offer) priceProvenance() (source, origin, asOf string) {
	if d := o.Discount; d != nil && FromOverlay(d.Origin) { // a reserved price off an overlay's discount is the overlay's
		return d.Source, d.Origin, d.AsOf
	}
	return o.Instance.RegionProvenance(o.Region)
}

// RegionProvenance returns the source, origin and as_of of in's price in
// region: the overlay's that set it, else the instance's.
func (in *Instance) RegionProvenance(region string) (source, origin, asOf string) {
	for i := range in.Prices {
		if rp := &in.Prices[i]; rp.Region == region {
			return PriceProvenance(in, rp)
		}
	}
	return in.Source, in.Origin, in.AsOf
}

// FromOverlay reports whether origin (an instance's or a price's Origin)
// names an overlay file — catalog update's or the user's — rather than
// the embedded catalog.
func FromOverlay(origin string) bool { return origin != "" && origin != "embedded" }

// SpotWarning is the warning of a spot offer: the capacity can be taken
// back. Launch files say it in their notes.
const SpotWarning = "spot: can be reclaimed at short notice; checkpoint often and resume"

// SpotRestartWarning is SpotWarning for a job whose spot plan takes no
// checkpoint (decide.SpotEstimate.CheckpointWrites 0: the job is shorter
// than the checkpoint interval), where "checkpoint often" contradicted
// the Spot line beside it.
const SpotRestartWarning = "spot: can be reclaimed at short notice; the job takes no checkpoint, so an interruption restarts it"

// ArmHostWarning is the warning of an offer on an arm64 host (Grace,
// Graviton): pip wheels and container images built for x86_64 do not run.
const ArmHostWarning = "arm64 host: wheels and images must be arm64"

// PriceProvenance returns the source, origin and as_of of a region's price:
// the overlay's that patched it, else the instance's.
func PriceProvenance(in *Instance, rp *RegionPrice) (source, origin, asOf string) {
	if p := rp.Patch; p != nil && (p.Source != "" || p.Origin != "") {
		asOf = p.AsOf
		if asOf == "" {
			asOf = in.AsOf
		}
		return p.Source, p.Origin, asOf
	}
	return in.Source, in.Origin, in.AsOf
}
