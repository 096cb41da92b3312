package report

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/gpuplan/gpuplan/model"
)

// TestOfferRowCountry: recommend's region cell tags the country as offers
// does, "it-fr2 (IT)" (walk49: it-fr2, NORWAY-1 and FIN-03 showed none in
// recommend, (IT) etc. in offers), before a collapsed run's "+N"; a region
// that is its country, or unknown, gets no tag; the JSON view carries
// country, city and continent as offers --json does.
func TestOfferRowCountry(t *testing.T) {
	in := &model.Instance{Provider: "seeweb", Type: "ECS1GPU11", GPU: "a30", GPUCount: 1}
	for _, tt := range []struct {
		region, country, want string
	}{
		{"it-fr2", "IT", "it-fr2 (IT)"},
		{"FIN-01 +1", "FI", "FIN-01 (FI) +1"},
		{"NORWAY-1", "NO", "NORWAY-1 (NO)"},
		{"FI", "FI", "FI"},
		{"somewhere-1", "", "somewhere-1"},
	} {
		o := model.Offer{Instance: in, GPU: &model.GPU{Key: "a30"}, Region: tt.region, GPUs: 1,
			Geo: model.RegionGeo{Country: tt.country}}
		if got := OfferRowIn(nil, &o)[2]; got != tt.want {
			t.Errorf("region %q in %q: cell %q, want %q", tt.region, tt.country, got, tt.want)
		}
	}
	o := model.Offer{Instance: in, GPU: &model.GPU{Key: "a30"}, Region: "it-fr2", GPUs: 1,
		Geo: model.RegionGeo{Region: "it-fr2", Country: "IT", City: "Frosinone", Continent: "europe"}}
	if j := NewOfferJSON(&o, ""); j.Country != "IT" || j.City != "Frosinone" || j.Continent != "europe" {
		t.Errorf("JSON country, city, continent = %q, %q, %q", j.Country, j.City, j.Continent)
	}
}

// TestNearMissesAligned: the near-miss lines keep their instance column in
// line whatever the provider's length (walk49: primeintellect, 14 letters,
// pushed its row past the others').
func TestNearMissesAligned(t *testing.T) {
	rec, base := layoutRec() // recwide_test.go
	for _, p := range []string{"lambda", "primeintellect"} {
		rec.Rejected = append(rec.Rejected, model.Rejection{Instance: &model.Instance{Provider: p, Type: "type-" + p, GPUCount: 1},
			Region: "r", USDPerHour: 1, Instances: 1, Reason: "too small", ReasonMsg: model.Msg("too small")})
	}
	var b strings.Builder
	if err := WriteRecommend(&b, &Renderer{Profile: colorprofile.NoTTY, Plain: true}, &rec, &base, 10, 0); err != nil {
		t.Fatal(err)
	}
	var cols []int
	for _, l := range strings.Split(b.String(), "\n") {
		if i := strings.Index(l, "type-"); i >= 0 {
			cols = append(cols, i)
		}
	}
	if len(cols) != 2 || cols[0] != cols[1] {
		t.Errorf("instance columns at %v, want two equal:\n%s", cols, b.String())
	}
}
