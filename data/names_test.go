package data

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/data/synthcsv"
	"github.com/gpuplan/gpuplan/model"
)

// LookKey reads a name with stray or doubled punctuation, a case-only or
// accented copy as the real name (a re-attack: gpu_1x_gh200. at a low
// price ranked first and hid the real row), and keeps real names apart.
func TestLookKey(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"gpu_1x_gh200.", "gpu_1x_gh200", true},
		{"gpu_1x_gh200_", "gpu_1x_gh200", true},
		{"gpu_1x_gh200:", "gpu_1x_gh200", true},
		{".gpu_1x_gh200", "gpu_1x_gh200", true},
		{"gpu__1x_gh200", "gpu_1x_gh200", true},
		{"gpu_1x-gh200", "gpu_1x_gh200", true},
		{"gpu/1x gh200", "gpu_1x_gh200", true},
		{"GPU_1X_GH200", "gpu_1x_gh200", true},
		{"us-east-1.", "us-east-1", true},
		{"us-east-1,", "us-east-1", true},
		{"US-EAST-1", "us-east-1", true},
		{"us-éast-1", "us-east-1", true},
		{"p4d.24xlarge", "p4d-24xlarge", true},
		// Re-attack 6: '+' copies and a copy without separators.
		{"gpu_8x_h100_sxm5+", "gpu_8x_h100_sxm5", true},
		{"+gpu_8x_h100_sxm5", "gpu_8x_h100_sxm5", true},
		{"gpu_8x_h100+sxm5", "gpu_8x_h100_sxm5", true},
		{"gpu+8x+h100+sxm5", "gpu_8x_h100_sxm5", true},
		{"gpu8xh100sxm5", "gpu_8x_h100_sxm5", true},
		{"gpu_1x_gh200", "gpu_1x_h100", false},
		{"us-east-1", "us-east-2", false},
		{"gpu_1x_a10", "gpu_1x_a100", false},
	} {
		if got := LookKey(tc.a) == LookKey(tc.b); got != tc.same {
			t.Errorf("LookKey(%q)=%q, LookKey(%q)=%q: same %v, want %v", tc.a, LookKey(tc.a), tc.b, LookKey(tc.b), got, tc.same)
		}
	}
}

// An overlay (catalog.d, --catalog TOML or SkyPilot CSV) is checked by
// the same NameCheck as catalog update: a case-only copy of a real type,
// a region that reads as a real one and a type that is a spreadsheet
// formula are skipped with one summarised warning; a file with no good
// row is refused.
func TestOverlayNamesChecked(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	gpu := `"{'Gpus': [{'Name': 'GH200', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 98304}}], 'TotalGpuMemoryInMiB': 98304}"`
	row := func(typ, region, price string) string {
		return typ + ",GH200,1.0,64.0,432.0," + price + "," + region + "," + gpu + ",\n"
	}
	head := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
	csv := filepath.Join(dir, "lambda", "vms.csv")
	os.MkdirAll(filepath.Dir(csv), 0o755)
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(csv, head+row("gpu_1x_gh200", "us-east-1", "1.49")+row("GPU_1X_GH200", "us-east-1", "0.10")+
		row("gpu_1x_gh200.", "us-east-1", "0.10")+row("gpu_2x_gh200", "US-EAST-1", "0.20")+
		row(`"=HYPERLINK(""http://x"",""y"")"`, "us-east-1", "0.10"))
	c, w, err := LoadWith([]string{csv})
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Instances {
		if in := &c.Instances[i]; in.Provider == "lambda" && in.Type != "gpu_1x_gh200" && strings.Contains(strings.ToLower(in.Type), "gh200") {
			t.Errorf("look-alike type %q loaded", in.Type)
		}
		if in := &c.Instances[i]; strings.Contains(in.Type, "HYPERLINK") {
			t.Errorf("formula type %q loaded", in.Type)
		}
	}
	text := ""
	for _, m := range w {
		text += m.String() + "\n"
	}
	for _, want := range []string{"4 instance rows skipped for their names", `"GPU_1X_GH200" reads as "gpu_1x_gh200"`, `"gpu_1x_gh200." reads as "gpu_1x_gh200"`, "and 1 more"} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings lack %q:\n%s", want, text)
		}
	}
	write(csv, head+row("gpu_1x_gh200", "us-east-1", "1.49")+row("gpu_2x_gh200", `"us-east-1,"`, "0.10"))
	if _, w, err = LoadWith([]string{csv}); err != nil || len(w) == 0 || !strings.Contains(w[len(w)-1].String(), `1 instance rows skipped for their names (a name that reads as another is a cheap fake of it): gpu_2x_gh200: region "us-east-1," reads as "us-east-1"`) {
		t.Errorf("a look-alike region: %v %v", w, err)
	}

	toml := filepath.Join(dir, "lab.toml")
	write(toml, `schema_version = 1
[[instance]]
provider = "lambda"
type = "GPU_1X_GH200"
gpu = "gh200"
gpu_count = 1
vcpus = 64
memory_gib = 432
source = "hand"
as_of = 2026-11-30
prices = [{ region = "us-east-1", on_demand = 0.1 }]
`)
	_, _, err = LoadWith([]string{toml})
	if err == nil || !strings.Contains(err.Error(), `every instance row has a name the catalog refuses, first: instance type "GPU_1X_GH200" reads as "gpu_1x_gh200"`) {
		t.Errorf("a wholly look-alike overlay: err %v", err)
	}
}

// A future as_of in an overlay is refused (it became the catalog date in
// version, headers and exports); a CSV modified in the future is dated
// today with a warning (re-attack 5, finding 7).
func TestFutureDates(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	toml := filepath.Join(dir, "future.toml")
	os.WriteFile(toml, []byte(`schema_version = 1
[[instance]]
provider = "lambda"
type = "gpu_1x_gh200"
as_of = 2099-12-31
prices = [{ region = "us-east-1", on_demand = 1.49 }]
`), 0o644)
	if _, _, err := LoadWith([]string{toml}); err == nil || !strings.Contains(err.Error(), "date 2099-12-31 is in the future") || strings.Contains(err.Error(), "\n") {
		t.Errorf("future as_of: err %v, want one line refusing 2099-12-31", err)
	}

	csv := filepath.Join(dir, "lambda", "vms.csv")
	os.MkdirAll(filepath.Dir(csv), 0o755)
	os.WriteFile(csv, []byte("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"+
		`gpu_1x_gh200,GH200,1.0,64.0,432.0,1.49,us-east-1,"{'Gpus': [{'Name': 'GH200', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 98304}}], 'TotalGpuMemoryInMiB': 98304}",`+"\n"), 0o644)
	future := time.Date(2099, 12, 31, 12, 0, 0, 0, time.Local)
	if err := os.Chtimes(csv, future, future); err != nil {
		t.Fatal(err)
	}
	c, w, err := LoadWith([]string{csv})
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().Format(time.DateOnly)
	found := false
	for _, m := range w {
		found = found || strings.Contains(m.String(), "modified 2099-12-31, in the future; its prices are dated today ("+today+")")
	}
	if !found {
		t.Errorf("no warning for a future mtime: %v", w)
	}
	for i := range c.Instances {
		in := &c.Instances[i]
		for _, p := range in.Prices {
			if p.Patched().AsOf > today || in.AsOf > today && in.Provider == "lambda" {
				t.Errorf("%s %s dated %q/%q, after today", in.Type, p.Region, in.AsOf, p.Patched().AsOf)
			}
		}
	}
}

// A TOML price under the catalog's precision ($0.000001, what catalog
// update and a CSV read as none) is refused: 1e-300 ranked first
// (re-attack 5, finding 14).
func TestOverlayPriceFloor(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	for _, v := range []string{"on_demand = 1e-300", "on_demand = 1.0, spot = 5e-7"} {
		p := filepath.Join(dir, "tiny.toml")
		os.WriteFile(p, []byte("schema_version = 1\n[[instance]]\nprovider = \"lambda\"\ntype = \"gpu_1x_gh200\"\nas_of = 2026-11-30\nprices = [{ region = \"us-east-1\", "+v+" }]\n"), 0o644)
		_, _, err := LoadWith([]string{p})
		if err == nil || !strings.Contains(err.Error(), `prices "us-east-1": under $0.000001 USD/hour, the catalog's precision`) {
			t.Errorf("%s: err %v", v, err)
		}
	}
}

// A vms.csv above MaxCSVRows data rows is refused in one line before its
// types fill memory (re-attack 5: 2.3 million types took 4.9 GB, 77 s).
func TestCSVRowCap(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	defer func(n int) { MaxCSVRows = n }(MaxCSVRows)
	MaxCSVRows = 3
	p := filepath.Join(dir, "aws", "vms.csv")
	if err := synthcsv.WriteFile(p, 3, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadWith([]string{p}); err != nil {
		t.Errorf("%d rows, at the cap: %v", MaxCSVRows, err)
	}
	if err := synthcsv.WriteFile(p, 4, 1); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadWith([]string{p})
	if err == nil || !strings.Contains(err.Error(), "vms.csv:5: more than 3 data rows; SkyPilot's largest vms.csv (AWS, about 3.7 MB) has a tenth of that") || strings.Contains(err.Error(), "\n") {
		t.Errorf("above the cap: %v", err)
	}
}

// A refused name's error escapes what would print as blank or nothing: a
// Hangul filler (U+3164, U+115F) or a variation selector (U+FE0F), which
// %q prints as they are (re-attack 5, finding 14).
func TestNameErrorsEscapeInvisible(t *testing.T) {
	base, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ typ, want string }{
		{"gpu\u3164x", `instance type "gpu\u3164x": character '\u3164' (U+3164) at byte 3`},
		{"gpu\u115fx", `instance type "gpu\u115fx": character '\u115f' (U+115F) at byte 3`},
		{"gpu\ufe0f", `instance type "gpu\ufe0f": character '\ufe0f' (U+FE0F) at byte 3`},
		{"gpu\u00e9", `instance type "gpué": character 'é' (U+00E9) at byte 3`},
	} {
		in := model.Instance{Provider: "lambda", Type: tc.typ, Prices: []model.RegionPrice{{Region: "us-east-1"}}}
		err := NewNameCheck(base).Check(&in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %s", tc.typ, err, tc.want)
		}
	}
}

// Every region name of the embedded catalog (Vast's "Bács-Kiskun, HU,
// EU" and ", US, NA", Paperspace's "East Coast (NY2)", Cudo's
// "ARIZONA_USA") has the shape NameCheck asks of a region, so the shape
// refuses no real name; punctuation alone and other scripts are refused
// (attack r29: ",", ".", "..", a right-to-left name).
func TestRegionShape(t *testing.T) {
	ok := func(s string) bool {
		j, _ := badRune(s, regionRune)
		return j < 0 && strings.ContainsFunc(s, regionLetter)
	}
	n := 0
	for _, in := range embeddedCatalog.Instances {
		for _, p := range in.Prices {
			n++
			if !ok(p.Region) {
				t.Errorf("%s/%s: embedded region %q refused", in.Provider, in.Type, p.Region)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("%d region prices checked: the embedded catalog did not load", n)
	}
	for _, s := range []string{",", ".", "..", "-", " , ", "()", "\u05d0\u05d6\u05d5\u05e8", "\u0645\u0646\u0637\u0642\u0629", "us-centr\u0430l1", "\u3164"} {
		if ok(s) {
			t.Errorf("region %q accepted", s)
		}
	}
}

// A region holding a list separator (comma, space) its provider's names
// never hold is refused, with the provider's own separators named; Vast's
// "place, CC, continent code" is the one form a comma takes there; a
// provider the embedded catalog does not price keeps the general shape
// (attack r29b F1).
func TestRegionListSeparators(t *testing.T) {
	for _, tc := range []struct{ provider, region, want string }{
		{"lambda", "us-south-1", ""},
		{"lambda", "a,,b", `gpu_x: region "a,,b": ',' at byte 1 separates names, and lambda's region names hold neither a comma nor a space; a region is one name, not a list`},
		{"aws", "us-east-1 us-west-2", `gpu_x: region "us-east-1 us-west-2": ' ' at byte 9 separates names, and aws's region names hold neither a comma nor a space; a region is one name, not a list`},
		{"paperspace", "West Coast (CA1)", ""},
		{"paperspace", "East Coast (NY2), West", `gpu_x: region "East Coast (NY2), West": ',' at byte 16 separates names, and paperspace's region names hold no list separator but ' '; a region is one name, not a list`},
		{"fluidstack", "OHIO_USA", ""},
		{"vast", "Bavaria, DE, EU", ""},
		{"vast", ", US, NA", ""},
		{"vast", "Bavaria, DE", `gpu_x: region "Bavaria, DE" is not in vast's form "place, CC, continent code" (such as "Bavaria, DE, EU"); a comma only separates those three parts`},
		{"vast", "Zzyzx,US,NA", `gpu_x: region "Zzyzx,US,NA" is not in vast's form "place, CC, continent code" (such as "Bavaria, DE, EU"); a comma only separates those three parts`},
		{"vast", "a, b, DE, EU", `gpu_x: region "a, b, DE, EU" is not in vast's form "place, CC, continent code" (such as "Bavaria, DE, EU"); a comma only separates those three parts`},
		{"mycloud", "a, b", ""},
	} {
		in := model.Instance{Provider: tc.provider, Type: "gpu_x", Prices: []model.RegionPrice{{Region: tc.region, OnDemandUSD: 1}}}
		err := NewNameCheck(sharedCatalog()).Check(&in)
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("%s %q: %v\nwant %q", tc.provider, tc.region, err, tc.want)
		}
	}
}

// NameCheck keeps the last provider that passed its checks: a provider
// that reads as another or holds a refused character is refused however
// the rows before and after it are named, and a good provider after a
// refused one passes again.
func TestNameCheckProviderEachRow(t *testing.T) {
	c := NewNameCheck(&embeddedCatalog)
	for i, tc := range []struct{ provider, want string }{
		{"lambda", ""},
		{"1ambda", `provider "1ambda" reads as the catalog's provider "lambda"`},
		{"lambda", ""},
		{"lab$", `provider "lab$": character '$'`},
		{"lab", ""},
		{"lab", ""},
		{"Lambda", `provider "Lambda" reads as the catalog's provider "lambda"`},
		{"lab", ""},
	} {
		in := &model.Instance{Provider: tc.provider, Type: fmt.Sprintf("t%d", i), Prices: []model.RegionPrice{{Region: "us-east-1"}}}
		err := c.Check(in)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("row %d (%s): %v", i, tc.provider, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("row %d (%s): err %v, want %q", i, tc.provider, err, tc.want)
		}
	}
}
