package offerargs

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/model/market/markettest"
)

func TestParseMarketArgs(t *testing.T) {
	c := markettest.Catalog()
	tests := []struct {
		name string
		args []string
		want market.Query
	}{
		{"nothing: the whole market", nil, market.Query{}},
		{"a GPU spec as gpuplan offers H100:8", []string{"H100:8"}, market.Query{GPUs: specs(t, c, "H100:8")}},
		{"comma list and a second spec match any", []string{"A100,L4", "H100:8"}, market.Query{GPUs: specs(t, c, "A100", "L4", "H100:8")}},
		{"--flag value", []string{"--vram", "24GB..80GB", "--max-price", "$2/h"}, market.Query{VRAMGiB: market.Bounds{Min: 24, Max: 80}, MaxUSDPerHour: 2}},
		{"--flag=value and name=value", []string{"--regions=europe-,us-", "providers=GCP,aws"},
			market.Query{Regions: []string{"europe-", "us-"}, Providers: []string{"gcp", "aws"}}},
		{"pricing with the market's own modes", []string{"pricing=dws"}, market.Query{Pricing: model.FlexStart}},
		{"sort and group", []string{"sort=$/gpu", "--group-by", "provider"}, market.Query{Sort: market.ByGPUPrice, GroupBy: market.GroupProvider}},
		{"switches", []string{"--nvlink", "--efa", "--all-regions", "--all", "arch=aarch64"},
			market.Query{Interconnect: market.LinkNVLink, InfiniBand: true, AllRegions: true, Retired: true, Held: true, Arch: model.ArchARM}},
		{"interconnect by name", []string{"interconnect=xgmi"}, market.Query{Interconnect: "infinity-fabric"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.args, c)
			if err != nil {
				t.Fatalf("ParseMarketArgs(%q) error: %v", tt.args, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseMarketArgs(%q) =\n %+v, want\n %+v", tt.args, got, tt.want)
			}
		})
	}
}

func TestParseMarketArgsErrors(t *testing.T) {
	c := markettest.Catalog()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"GPU typo suggests the alias", []string{"H10:8"}, `did you mean H100`},
		{"filter typo suggests the flag", []string{"--vrma", "24GB"}, `unknown filter "--vrma"; did you mean --vram?`},
		{"typo without dashes", []string{"regoins=us-"}, `did you mean --regions?`},
		{"value missing at the end", []string{"--max-price"}, "--max-price needs a value"},
		{"a switch with a value", []string{"--nvlink=yes"}, "--nvlink takes no value"},
		{"a switch written as name=value", []string{"all-regions=1"}, "write --all-regions"},
		{"memory without its unit", []string{"--vram", "24"}, `"24" needs a unit (24GB)`},
		{"pricing typo lists the modes", []string{"pricing=spto"}, `pricing "spto": want on-demand, spot, reserved-1y, reserved-3y, flex-start or capacity-block`},
		{"price of 0", []string{"max-price=0"}, "want USD per hour above 0"},
		{"nvlink against pcie", []string{"--nvlink", "interconnect=pcie"}, "--nvlink and --interconnect pcie: give one"},
		{"bad sort", []string{"sort=cheap"}, `sort "cheap": want price`},
		{"regions naming none", []string{"regions="}, `--regions "" names no region; give regions`},
		{"countries naming none", []string{"--country", ",,,"}, `--country ",,," names no country; give ISO codes`},
		{"providers naming none", []string{"--providers="}, `--providers "" names no provider`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.args, c)
			if !errors.Is(err, market.ErrBadFilter) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseMarketArgs(%q) error = %v, want one line wrapping ErrBadFilter with %q", tt.args, err, tt.want)
			}
		})
	}
}

// FuzzParseMarketArgs: any words parse or fail with one line matching
// ErrBadFilter, never a panic.
func FuzzParseMarketArgs(f *testing.F) {
	for _, s := range []string{"H100:8", "--vram 24GB..80GB", "regions=europe-,us- --nvlink", "--sort", "all-regions=1", "a100,l4:1..4 max-price=$2/h"} {
		f.Add(s)
	}
	c := markettest.Catalog()
	f.Fuzz(func(t *testing.T, line string) {
		_, err := Parse(strings.Fields(line), c)
		if err != nil && (!errors.Is(err, market.ErrBadFilter) || strings.Contains(err.Error(), "\n")) {
			t.Errorf("ParseMarketArgs(%q) error %q: want one line matching ErrBadFilter", line, err)
		}
	})
}

// specs parses GPU specs for a wanted query.
func specs(t testing.TB, c *model.Catalog, s ...string) []market.GPUSpec {
	t.Helper()
	out := make([]market.GPUSpec, len(s))
	for i, x := range s {
		var err error
		if out[i], err = market.ParseGPUSpec(x, c); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// The browser's filter line takes regions=europe and country=de.
func TestMarketArgsGeography(t *testing.T) {
	q, err := Parse([]string{"regions=europe,us-", "country=de,France"}, markettest.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Regions, []string{"europe", "us-"}) || !slices.Equal(q.Countries, []string{"de", "France"}) {
		t.Errorf("regions %v countries %v", q.Regions, q.Countries)
	}
}
