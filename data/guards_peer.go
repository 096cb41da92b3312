package data

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// Peer fractions: the share of the cheapest price per GPU-hour at which a
// provider already offers a GPU in another type below which a fetched
// price for that GPU is flagged (rule "below-peer"). CutGuards compares a
// type only with itself, so a new type (or a renamed one: Lambda's
// gpu_8x_h100_sxm5 at $31.92 listed again as gpu_8x_h100_sxm5b at $3.30)
// escaped it.
//
// Measured on the embedded catalog (2026-12-02): for every offered USD
// type, its cheapest price per GPU-hour over the cheapest of the same
// provider's other types with the same GPU. The lowest ratios on demand
// are 0.559 (primeintellect's datacrunch 8×A100-40GB against its
// lambdalabs one), 0.697–0.699 (lium RTXPRO6000, T4 sizes at AWS and
// Azure); on spot 0.170 (aws p5.48xlarge against p5.4xlarge), 0.330 (aws
// g4dn.xlarge), 0.365 (aws p5en.48xlarge). The fractions sit below those
// with room for a real price drop: no legitimate offer of the snapshot is
// flagged, and the 90%-cheaper attack (0.103 of Lambda's own H100 price)
// is.
//
// A spot price of a GPU the provider sells on spot in no other type is
// compared with the on-demand peer instead, at peerSpotOnDemandFraction:
// the lowest spot price per GPU-hour of the embedded catalog over the
// cheapest on-demand price of the same provider's other types of that GPU
// is 0.077 (azure Standard_NC4as_T4_v3 against Standard_NC8as_T4_v3), then
// 0.109 (gcp P100 sizes), so the fraction is 0.05, not the spot-to-spot 0.1.
const (
	peerOnDemandFraction     = 0.4
	peerSpotFraction         = 0.1
	peerSpotOnDemandFraction = 0.05
)

// PeerGuards flags each new or changed price of insts (USD, per GPU-hour;
// a region price equal to base's for the same type is not checked) below
// the peer fraction of the cheapest price per GPU-hour base lists for the
// same provider and GPU in another offered type, on demand against on
// demand and spot against spot: rule "below-peer". A provider base has
// no other type of that GPU for is not checked (FloorGuards covers it).
func PeerGuards(base *model.Catalog, insts []model.Instance) []Guard {
	var out guardList
	peerGuards(base, insts, &out)
	return out.slice()
}

// peerGuards is PeerGuards adding to out.
func peerGuards(base *model.Catalog, insts []model.Instance, out *guardList) {
	cheapest, self := peersOf(base)
	for i := range insts {
		in := &insts[i]
		c := cheapest.at(in.Provider, in.GPU)
		if c == nil || in.GPUCount <= 0 || in.PriceCurrency() != "USD" {
			continue
		}
		old := self.at(in.Provider, in.Type)
		for _, p := range in.Prices {
			var was model.RegionPrice
			if old != nil {
				was, _ = regionPriceOf(old, p.Region)
			}
			for mode, m := range [2]struct {
				name     string
				usd, was float64
				fraction float64
			}{{"on-demand", p.OnDemandUSD, was.OnDemandUSD, peerOnDemandFraction}, {"spot", p.SpotUSD, was.SpotUSD, peerSpotFraction}} {
				ref := otherPeer(c[mode], in.Type)
				againstOnDemand := mode == 1 && ref.typ == ""
				if againstOnDemand {
					ref, m.fraction = otherPeer(c[0], in.Type), peerSpotOnDemandFraction
				}
				per := m.usd / float64(in.GPUCount)
				if ref.typ == "" || m.usd <= 0 || m.usd == m.was || per >= m.fraction*ref.usd {
					continue
				}
				out.add(Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: "below-peer", Origin: in.Origin,
					text: peerText(m.name, per, m.fraction, ref, in.GPU, againstOnDemand)})
			}
		}
	}
}

// peerText is a below-peer finding's message (Guard.text): mode's price
// per GPU-hour under fraction of ref's, a type of the finding's provider
// with the same gpu; againstOnDemand when a spot price is judged by the
// on-demand peer.
func peerText(mode string, per, fraction float64, ref peer, gpu string, againstOnDemand bool) func(*Guard) model.Message {
	return func(g *Guard) model.Message {
		if againstOnDemand {
			return model.Msg("spot %s per GPU-hour is under %.0f%% of the on-demand %s per GPU-hour %s asks for the same %s in %s, and it sells that GPU on spot in no other type: a fake or mistyped price?",
				show.USDPerHour(per), fraction*100, show.USDPerHour(ref.usd), g.Provider, gpu, ref.typ)
		}
		return model.Msg("%s %s per GPU-hour is under %.0f%% of the %s per GPU-hour %s asks for the same %s in %s: a fake or mistyped price?",
			model.Msg(mode), show.USDPerHour(per), fraction*100, show.USDPerHour(ref.usd), g.Provider, gpu, ref.typ)
	}
}

// PeerFloors raises the CurrencyFloor of each of insts priced in another
// currency than USD to the peer guard's bound, USD per GPU-hour: the
// below-peer rule cannot judge a CNY price at load (the rate is the
// query's), so, as the floor, it is applied once the price is converted
// (model.HeldAt). A CNY type of a provider that sells the same GPU in USD
// types is held below peerOnDemandFraction of their cheapest on demand
// (spot: peerSpotFraction of the cheapest spot, else
// peerSpotOnDemandFraction of the on-demand), as a USD price is (attack
// round 11, S6).
func PeerFloors(base *model.Catalog, insts []*model.Instance) {
	cheapest, _ := peersOf(base)
	for _, in := range insts {
		c := cheapest.at(in.Provider, in.GPU)
		if c == nil || in.GPUCount <= 0 || in.PriceCurrency() == "USD" {
			continue
		}
		od := peerOnDemandFraction * otherPeer(c[0], in.Type).usd
		sp := peerSpotFraction * otherPeer(c[1], in.Type).usd
		if otherPeer(c[1], in.Type).typ == "" {
			sp = peerSpotOnDemandFraction * otherPeer(c[0], in.Type).usd
		}
		if od == 0 && sp == 0 {
			continue
		}
		f := model.CurrencyFloor{}
		if in.CurrencyFloor != nil {
			f = *in.CurrencyFloor
		}
		f.OnDemandUSD, f.SpotUSD = max(f.OnDemandUSD, od), max(f.SpotUSD, sp)
		in.CurrencyFloor = &f
	}
}

// peer is a type's cheapest price per GPU-hour in one mode.
type peer struct {
	typ string
	usd float64 // per GPU-hour
}

// otherPeer is the cheapest of two that is not typ.
func otherPeer(two [2]peer, typ string) peer {
	if two[0].typ == typ {
		return two[1]
	}
	return two[0]
}

// peersOf returns the two cheapest of base's offered USD types per
// provider, GPU and mode (on demand, spot): a type's peer is the cheapest
// other than itself; and base's USD types by provider and type.
func peersOf(base *model.Catalog) (cheapest *byProvider[*[2][2]peer], self *byProvider[*model.Instance]) {
	cheapest, self = &byProvider[*[2][2]peer]{}, &byProvider[*model.Instance]{}
	for i := range base.Instances {
		in := &base.Instances[i]
		if in.PriceCurrency() != "USD" {
			continue
		}
		self.set(in.Provider, in.Type, in)
		if !in.Offered() || in.GPUCount <= 0 {
			continue
		}
		c := cheapest.at(in.Provider, in.GPU)
		if c == nil {
			c = &[2][2]peer{}
			cheapest.set(in.Provider, in.GPU, c)
		}
		for mode := range 2 {
			low := 0.0
			for _, p := range in.Prices {
				usd := [2]float64{p.OnDemandUSD, p.SpotUSD}[mode] / float64(in.GPUCount)
				if usd > 0 && (low == 0 || usd < low) {
					low = usd
				}
			}
			if low == 0 {
				continue
			}
			two := &c[mode]
			switch {
			case two[0].typ == "" || low < two[0].usd:
				two[1], two[0] = two[0], peer{in.Type, low}
			case two[1].typ == "" || low < two[1].usd:
				two[1] = peer{in.Type, low}
			}
		}
	}
	return cheapest, self
}
