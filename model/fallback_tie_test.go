package model

import "testing"

// TestTieGoesToNativePrecision (a walk): at one price and headroom the
// GPU that runs the precision asked ranks before one running a fallback,
// whatever the names (seeweb's Quadro RTX 6000 at ↺amp-fp16 was best over
// its A30 in bf16, both $0.29/h, by "ECS1GPU" < "ECS1GPU11"). The sort
// (sortOffersFrom) and compareOffers agree.
func TestTieGoesToNativePrecision(t *testing.T) {
	quadro := Offer{Instance: &Instance{Provider: "seeweb", Type: "ECS1GPU"}, Region: "it-fr2", USDPerHour: 0.29, HeadroomPct: 37, Fallback: AMPFP16}
	a30 := Offer{Instance: &Instance{Provider: "seeweb", Type: "ECS1GPU11"}, Region: "it-fr2", USDPerHour: 0.29, HeadroomPct: 37}
	for _, k := range []SortKey{SortPrice, SortJob} {
		if c := compareOffers(&a30, &quadro, k); c >= 0 {
			t.Errorf("%s: compareOffers(A30, Quadro ↺) = %d, want < 0", k, c)
		}
		offers := []Offer{quadro, a30}
		sortOffersFrom(offers, k, nil)
		if offers[0].Instance.Type != "ECS1GPU11" {
			t.Errorf("%s: sorted %s first, want the A30 (ECS1GPU11)", k, offers[0].Instance.Type)
		}
	}
	// Names still decide between two native offers.
	b := a30
	b.Instance = &Instance{Provider: "runpod", Type: "x"}
	if c := compareOffers(&b, &a30, SortPrice); c >= 0 {
		t.Errorf("runpod before seeweb at a tie: %d", c)
	}
}
