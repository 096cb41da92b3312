package launch_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestAlternativesStayInSearch (walk54): the failover candidates were
// ranked on the chosen offer's GPU, count and pricing alone, so a search
// for the US failed over to Finland and Italy. Alternatives now ranks
// under the user's search: every alternative, and every candidate the
// SkyPilot file lists, passes its providers, regions, countries and price
// cap. Each case also checks that the search leaves some offer out, so
// that it proves something.
func TestAlternativesStayInSearch(t *testing.T) {
	for _, tt := range []struct {
		name   string
		search model.Query
	}{
		{"--country us", model.Query{Countries: []string{"us"}}},
		{"--regions europe: a continent", model.Query{Regions: []string{"europe"}}},
		{"--regions us-east-1,us-west-2: region names", model.Query{Regions: []string{"us-east-1", "us-west-2"}}},
		{"--providers aws,lambda", model.Query{Providers: []string{"aws", "lambda"}}},
		{"--providers and --country", model.Query{Providers: []string{"aws", "gcp", "azure", "nebius"}, Countries: []string{"us"}}},
		{"--max-price-hour 60: the whole deployment", model.Query{MaxUSDPerHour: 60}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cat, o := catalogOffer(t, "aws", "p5.48xlarge", 1, model.OnDemand)
			o.Region = "us-east-1"
			where := tt.search.RegionFilter(cat)
			allowed := func(a *model.Offer) bool {
				return tt.search.AllowsProvider(a.Instance.Provider) && where.Match(a.Instance.Provider, a.Region) &&
					(tt.search.MaxUSDPerHour == 0 || a.USDPerHour <= tt.search.MaxUSDPerHour)
			}
			if !slices.ContainsFunc(launch.Alternatives(o.Estimate.Workload, cat, o, model.Query{}), func(a *model.Offer) bool { return !allowed(a) }) {
				t.Fatal("the search leaves no alternative out: the test proves nothing")
			}
			alts := launch.Alternatives(o.Estimate.Workload, cat, o, tt.search)
			if len(alts) == 0 {
				t.Fatal("no alternatives in the search: the test proves nothing")
			}
			for _, a := range alts {
				if !allowed(a) {
					t.Errorf("alternative %s/%s in %s at $%.2f/h is outside the search", a.Instance.Provider, a.Instance.Type, a.Region, a.USDPerHour)
				}
			}
			p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Alternatives: alts, Where: where})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Candidates) == 0 {
				t.Fatal("no candidates")
			}
			for _, c := range p.Candidates {
				if !tt.search.AllowsProvider(c.Provider) || c.Region == "" && !slices.Contains(model.RegionsUnconfirmedProviders, c.Provider) ||
					c.Region != "" && !where.Match(c.Provider, c.Region) {
					t.Errorf("candidate %s/%s in %q is outside the search", c.Provider, c.InstanceType, c.Region)
				}
			}
		})
	}
}

// regionOffer is catalogOffer in a region of the caller's.
func regionOffer(t *testing.T, provider, typ, region string) (*model.Catalog, *model.Offer) {
	t.Helper()
	cat, o := catalogOffer(t, provider, typ, 1, model.OnDemand)
	o.Region = region
	return cat, o
}

// skyEntries are the offers of a SkyPilot file's resources: the inline
// one, or those of any_of or ordered, with which list holds them.
func skyEntries(t *testing.T, sky string) (list string, entries []skyOffer) {
	t.Helper()
	r := parseSkyPilot(t, []byte(sky)).Resources
	switch {
	case len(r.AnyOf) > 0 && len(r.Ordered) > 0:
		t.Fatal("resources has both any_of and ordered; SkyPilot accepts one")
	case len(r.AnyOf) > 0:
		return "any_of", r.AnyOf
	case len(r.Ordered) > 0:
		return "ordered", r.Ordered
	}
	return "", []skyOffer{r.skyOffer}
}

// TestPriceRegionNamedAsSearched (walk54): a Lambda or OCI offer stands
// for "any of N regions" of its price, and the SkyPilot file named no
// region, so SkyPilot could start it in any of them whatever the search
// allowed; only --region pinned one. Under a search that allows some of
// the price's regions the file now names each (any_of), or the one left
// (resources.region), in the header's words too; a search that allows all
// of them, or none given, names none as before, and an offer outside the
// search (a plan's phase) keeps its price's regions.
func TestPriceRegionNamedAsSearched(t *testing.T) {
	usLambda := []string{"us-east-1", "us-east-2", "us-east-3", "us-midwest-1", "us-south-1", "us-south-2", "us-south-3", "us-west-1", "us-west-2", "us-west-3"}
	for _, tt := range []struct {
		name, provider, typ, region string
		search                      model.Query
		regionGiven                 bool
		list                        string   // "" inline, "any_of"
		regions                     []string // the entries' regions, in order
		shown                       string   // the header's region
	}{
		{"lambda, --regions us-east-1: pinned", "lambda", "gpu_1x_a10", "us-east-1", model.Query{Regions: []string{"us-east-1"}}, false, "", []string{"us-east-1"}, "us-east-1"},
		{"lambda, --country de: one region left", "lambda", "gpu_1x_a10", "europe-central-1", model.Query{Countries: []string{"de"}}, false, "", []string{"europe-central-1"}, "europe-central-1"},
		{"lambda, --country us: 10 of 17", "lambda", "gpu_1x_a10", "us-east-1", model.Query{Countries: []string{"us"}}, false, "any_of", usLambda, "any of 10 regions"},
		{"lambda, --regions us-west-1,us-west-2", "lambda", "gpu_1x_a10", "us-west-1", model.Query{Regions: []string{"us-west-1", "us-west-2"}}, false, "any_of", []string{"us-west-1", "us-west-2"}, "any of 2 regions"},
		{"lambda, no search: any of 17, no region", "lambda", "gpu_1x_a10", "us-east-1", model.Query{}, false, "", []string{""}, "any of 17 regions"},
		{"lambda, --regions of every price region: no region", "lambda", "gpu_1x_a10", "us-east-1", model.Query{Regions: []string{"us-", "asia-", "australia-", "europe-", "me-"}}, false, "", []string{""}, "any of 17 regions"},
		{"lambda, --region given wins", "lambda", "gpu_1x_a10", "us-west-2", model.Query{Countries: []string{"us"}}, true, "", []string{"us-west-2"}, "us-west-2"},
		{"lambda outside the search (a phase): its price's regions", "lambda", "gpu_1x_a10", "us-east-1", model.Query{Countries: []string{"de"}}, false, "", []string{""}, "any of 17 regions"},
		{"oci, --regions us-ashburn-1: pinned", "oci", "VM.GPU.A10.1", "us-ashburn-1", model.Query{Regions: []string{"us-ashburn-1"}}, false, "", []string{"us-ashburn-1"}, "us-ashburn-1"},
		{"aws names its region whatever the search", "aws", "g6e.xlarge", "us-east-1", model.Query{Countries: []string{"us"}}, false, "", []string{"us-east-1"}, "us-east-1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cat, o := regionOffer(t, tt.provider, tt.typ, tt.region)
			p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Where: tt.search.RegionFilter(cat), RegionGiven: tt.regionGiven})
			if err != nil {
				t.Fatal(err)
			}
			sky := render(t, p, launch.FormatSkyPilot)
			list, entries := skyEntries(t, sky)
			var regions []string
			for _, e := range entries {
				regions = append(regions, e.Region)
				if e.Cloud != tt.provider || e.InstanceType != p.InstanceType {
					t.Errorf("entry %s/%s, want %s/%s", e.Cloud, e.InstanceType, tt.provider, p.InstanceType)
				}
			}
			if list != tt.list || !slices.Equal(regions, tt.regions) {
				t.Errorf("resources %q with regions %q, want %q with %q\n%s", list, regions, tt.list, tt.regions, sky)
			}
			for _, f := range []launch.Format{launch.FormatSkyPilot, launch.FormatTorchrun, launch.FormatDocker, launch.FormatK8s} {
				_, head, _ := strings.Cut(render(t, p, f), "# generated by gpuplan export: ")
				head, _, _ = strings.Cut(head, "\n")
				if !strings.Contains(head, ", "+tt.shown+", ") {
					t.Errorf("%s header %q, want %q", f, head, tt.shown)
				}
			}
		})
	}
}

// TestPriceRegionCandidatesInSearch: with failover candidates the offer's
// regions the search allows come first in resources.ordered, then the
// candidates, each in a region of the search (a Lambda or OCI candidate
// in each region of its price the search allows, not in none), and the
// header counts the offer's regions.
func TestPriceRegionCandidatesInSearch(t *testing.T) {
	cat, o := regionOffer(t, "lambda", "gpu_8x_h100_sxm5", "us-east-1")
	search := model.Query{Countries: []string{"us"}}
	where := search.RegionFilter(cat)
	p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Where: where, Alternatives: launch.Alternatives(o.Estimate.Workload, cat, o, search)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Candidates) == 0 {
		t.Fatal("no candidates: the test proves nothing")
	}
	sky := render(t, p, launch.FormatSkyPilot)
	list, entries := skyEntries(t, sky)
	if list != "ordered" || len(entries) != len(p.Regions)+len(p.Candidates) || len(p.Regions) != 10 {
		t.Fatalf("resources %q of %d entries for %d regions and %d candidates, want ordered, 10 regions\n%s", list, len(entries), len(p.Regions), len(p.Candidates), sky)
	}
	for i, e := range entries {
		if e.Region == "" || !where.Match(e.Cloud, e.Region) {
			t.Errorf("entry %d: %s/%s in %q, want a US region", i, e.Cloud, e.InstanceType, e.Region)
		}
		if own := i < len(p.Regions); own != (e.Cloud == "lambda" && e.InstanceType == p.InstanceType) {
			t.Errorf("entry %d: %s/%s, want the offer's 10 regions first", i, e.Cloud, e.InstanceType)
		}
	}
	if want := "follow the offer's 10 regions in resources.ordered"; !strings.Contains(sky, want) {
		t.Errorf("header lacks %q:\n%s", want, sky)
	}
}

// TestServePriceRegionNamedAsSearched: a SkyServe service on a Lambda
// offer names the regions of its price the search allows, as a training
// file does (TestPriceRegionNamedAsSearched).
func TestServePriceRegionNamedAsSearched(t *testing.T) {
	cat := loadCatalog(t)
	m, err := cat.Model("qwen3-8b")
	if err != nil {
		t.Fatal(err)
	}
	one := *cat
	one.Instances = nil
	for _, in := range cat.Instances {
		if in.Provider == "lambda" && in.Type == "gpu_1x_a100_sxm4" {
			one.Instances = append(one.Instances, in)
		}
	}
	for _, tt := range []struct {
		name    string
		search  model.Query
		list    string
		regions []string
	}{
		{"--regions us-east-1", model.Query{Regions: []string{"us-east-1"}}, "", []string{"us-east-1"}},
		{"--regions us-east-1,us-east-2", model.Query{Regions: []string{"us-east-1", "us-east-2"}}, "any_of", []string{"us-east-1", "us-east-2"}},
		{"no search", model.Query{}, "", []string{""}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.search
			q.Pricing = model.OnDemand
			offers := serve.Offers(&one, q)
			if len(offers) == 0 {
				t.Fatal("no serving offer")
			}
			sp, err := serve.PlanServing(m, serve.Serving{MaxModelLen: 8192, PromptTokens: 1024, OutputTokens: 256, Concurrency: 4}, offers[0])
			if err != nil || !sp.Fits {
				t.Fatalf("serving: %v %v", err, sp.Reasons)
			}
			srv, err := launch.NewServe(m, &sp, launch.ServeOptions{Region: sp.Offer.Region, Pricing: sp.Offer.Pricing, Where: tt.search.RegionFilter(cat)})
			if err != nil {
				t.Fatal(err)
			}
			out, err := srv.Render(launch.FormatSkyPilot)
			if err != nil {
				t.Fatal(err)
			}
			list, entries := skyEntries(t, string(out))
			var regions []string
			for _, e := range entries {
				regions = append(regions, e.Region)
			}
			if list != tt.list || !slices.Equal(regions, tt.regions) {
				t.Errorf("resources %q with regions %q, want %q with %q\n%s", list, regions, tt.list, tt.regions, out)
			}
		})
	}
}

// TestFailoverHeaderCount: the header counts its candidates in words
// that agree ("1 equivalent offers follow" read wrong, walk57).
func TestFailoverHeaderCount(t *testing.T) {
	cat, o := regionOffer(t, "lambda", "gpu_8x_h100_sxm5", "us-east-1")
	search := model.Query{Countries: []string{"us"}}
	alts := launch.Alternatives(o.Estimate.Workload, cat, o, search)
	if len(alts) < 2 {
		t.Fatalf("%d alternatives: the test proves nothing", len(alts))
	}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "failover: 1 equivalent offer follows the offer's"},
		{2, "failover: 2 equivalent offers follow the offer's"},
	} {
		p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Where: search.RegionFilter(cat), Alternatives: alts[:tc.n]})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Candidates) != tc.n {
			t.Fatalf("%d candidates kept of %d", len(p.Candidates), tc.n)
		}
		if sky := render(t, p, launch.FormatSkyPilot); !strings.Contains(sky, tc.want) {
			t.Errorf("%d candidates: header lacks %q:\n%s", tc.n, tc.want, sky)
		}
	}
}
