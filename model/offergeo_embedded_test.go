package model_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestOffersPlacedEmbedded: every offer of a ranking says where its
// region is (Offer.Geo, Catalog.Geo), though the scan looks the place up
// only for the offers it keeps; with a spot view too, which is handed
// whole offers before they are kept, and in the savings' searches.
func TestOffersPlacedEmbedded(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 2, SeqLen: 2048, DatasetTokens: 1e9}, Model: *a}
	view := func(o *model.Offer) (model.Offer, bool) { return *o, false }
	for _, q := range []model.Query{
		{AutoGPUs: true},
		{AutoGPUs: true, Pricing: model.Spot, SpotView: view},
		{AutoGPUs: true, AllowMultiNode: true, Sort: model.SortPrice},
	} {
		rec, err := model.Recommend(w, cat, q)
		if err != nil {
			t.Fatal(err)
		}
		offers := rec.Offers
		f := rec.CheapestFinder(cat)
		for _, p := range []model.Pricing{model.OnDemand, model.Spot, model.Reserved1y} {
			sub := q
			sub.Pricing = p
			if o, ok := f.Offer(w, sub); ok {
				offers = append(offers, *o)
			}
		}
		if len(offers) < 100 {
			t.Fatalf("%+v: %d offers", q, len(offers))
		}
		for _, o := range offers {
			if want, _ := cat.Geo(o.Instance.Provider, o.Region); o.Geo != want {
				t.Fatalf("%s %s %s: Geo %+v, the catalog's %+v", o.Instance.Provider, o.Instance.Type, o.Region, o.Geo, want)
			}
		}
	}
}
