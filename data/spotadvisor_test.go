package data

import (
	"math"
	"os"
	"strings"
	"testing"
)

func TestParseSpotAdvisorFixture(t *testing.T) {
	f, err := os.Open("testdata/spotadvisor/spot-advisor-data.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := ParseSpotAdvisor(f)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		region, typ    string
		ok             bool
		bucket         string
		perMonth, high float64
	}{
		{"us-east-1", "p5.48xlarge", true, ">20%", 0.20, 0},        // r = 4
		{"us-east-1", "p4d.24xlarge", true, "10-15%", 0.125, 0.15}, // r = 2
		{"us-east-1", "g6e.xlarge", true, "5-10%", 0.075, 0.10},    // r = 1
		{"eu-west-1", "g5.xlarge", true, "<5%", 0.025, 0.05},       // r = 0 (Linux; Windows is not read)
		{"eu-west-1", "p5.48xlarge", false, "", 0, 0},
		{"ap-south-1", "g5.xlarge", false, "", 0, 0},
	}
	for _, tt := range tests {
		r, ok := a.Rate(tt.region, tt.typ)
		if ok != tt.ok || r.Bucket != tt.bucket || math.Abs(r.PerMonth-tt.perMonth) > 1e-12 || r.HighPerMonth != tt.high || ok && r.Assumption {
			t.Errorf("Rate(%s, %s) = %+v, %v; want bucket %q at %g (high %g), %v, not an assumption", tt.region, tt.typ, r, ok, tt.bucket, tt.perMonth, tt.high, tt.ok)
		}
	}
	if a.GlobalRate != "<10%" {
		t.Errorf("GlobalRate = %q, want <10%%", a.GlobalRate)
	}
}

func TestParseSpotAdvisorErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", "<html>", "not the advisor's JSON"},
		{"other JSON", `{"a": 1}`, `missing "ranges" or "spot_advisor"`},
		{"bad label", `{"ranges":[{"index":0,"label":"low"}],"spot_advisor":{}}`, `range 0: invalid spot estimate input: interruption bucket "low"`},
		{"r out of range", `{"ranges":[{"index":0,"label":"<5%"}],"spot_advisor":{"us-east-1":{"Linux":{"g5.xlarge":{"s":1,"r":7}}}}}`, `us-east-1 g5.xlarge: "r" = 7 names no range`},
		{"no r", `{"ranges":[{"index":0,"label":"<5%"}],"spot_advisor":{"us-east-1":{"Linux":{"g5.xlarge":{"s":1}}}}}`, `us-east-1 g5.xlarge: missing "r"`},
	}
	for _, tt := range tests {
		_, err := ParseSpotAdvisor(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error = %v, want one line containing %q", tt.name, err, tt.want)
		}
	}
}

func TestSpotRate(t *testing.T) {
	d, err := LoadSpotDefaults()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open("testdata/spotadvisor/spot-advisor-data.json")
	defer f.Close()
	adv, err := ParseSpotAdvisor(f)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name                  string
		adv                   *SpotAdvisor
		provider, region, typ string
		perMonth              float64
		assumption            bool
	}{
		{"aws listed: the advisor's 10-15% bucket", adv, "aws", "us-east-1", "p4d.24xlarge", 0.125, false},
		{"aws not listed: global_rate <10%, upper bound", adv, "aws", "us-west-2", "p4d.24xlarge", 0.10, true},
		{"aws with no feed downloaded", nil, "aws", "us-east-1", "p4d.24xlarge", 0.10, true},
		{"gcp: no published rate, the >20% fallback", adv, "gcp", "us-central1", "a2-highgpu-1g", 0.20, true},
	}
	for _, tt := range tests {
		r := d.SpotRate(tt.adv, tt.provider, tt.region, tt.typ)
		if math.Abs(r.PerMonth-tt.perMonth) > 1e-12 || r.Assumption != tt.assumption || r.Source == "" {
			t.Errorf("%s: SpotRate = %+v, want %g a month, assumption %v, with a source", tt.name, r, tt.perMonth, tt.assumption)
		}
	}
}

func TestParseSpotDefaultsErrors(t *testing.T) {
	ok := "schema_version = 1\n[fallback]\nbucket = \">20%\"\nsource = \"s\"\nas_of = 2026-12-01\n"
	tests := []struct{ name, in, want string }{
		{"typo", ok + "[[provider]]\nprovider = \"aws\"\nbukket = \"<5%\"\n", "unknown keys"},
		{"no fallback", "schema_version = 1\n", "missing [fallback]"},
		{"no source", "schema_version = 1\n[fallback]\nbucket = \">20%\"\nas_of = 2026-12-01\n", "source and as_of are required"},
		{"bad per_month", ok + "[[provider]]\nprovider = \"aws\"\nbucket = \"<5%\"\nper_month = 2.0\nsource = \"s\"\nas_of = 2026-12-01\n", "per_month must be in [0, 1)"},
		{"schema", "schema_version = 9\n", "schema_version 9"},
	}
	for _, tt := range tests {
		if _, err := parseSpotDefaults([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error = %v, want %q", tt.name, err, tt.want)
		}
	}
}

// FuzzParseSpotAdvisor: the feed is downloaded, so hostile input must give
// an error, never a panic or hang; what parses gives rates in [0, 1].
func FuzzParseSpotAdvisor(f *testing.F) {
	b, err := os.ReadFile("testdata/spotadvisor/spot-advisor-data.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add(`{"ranges":[{"index":0,"label":">20%"}],"spot_advisor":{"r":{"Linux":{"t":{"r":0}}}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		a, err := ParseSpotAdvisor(strings.NewReader(in))
		if err != nil {
			return
		}
		for region, types := range a.rates {
			for typ, r := range types {
				if !(r.PerMonth >= 0 && r.PerMonth <= 1) || r.HighPerMonth < 0 || r.HighPerMonth > 1 {
					t.Errorf("%s %s: rate %+v out of [0, 1]", region, typ, r)
				}
			}
		}
	})
}
