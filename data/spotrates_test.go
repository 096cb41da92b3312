package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func TestSpotRates(t *testing.T) {
	fixture, err := os.ReadFile("testdata/spotadvisor/spot-advisor-data.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		feed     []byte // nil: no file
		provider string
		region   string
		typ      string
		bucket   string
		assumed  bool
		warn     string
	}{
		{"no feed: AWS's global rate, assumed", nil, "aws", "us-east-1", "g5.xlarge", "<10%", true, ""},
		{"no feed: other providers take the fallback", nil, "gcp", "us-central1", "a2-highgpu-1g", ">20%", true, ""},
		{"feed lists the type: its bucket, not assumed", fixture, "aws", "us-east-1", "p4d.24xlarge", "10-15%", false, ""},
		{"feed lacks the type: AWS default", fixture, "aws", "us-east-1", "x9.nothing", "<10%", true, ""},
		// Attack r29: the line said "run gpuplan catalog update", which never
		// fetches the feed; it names the file's way out. Attack r29b F6: it
		// said deleting the file would end the assumptions, which only a
		// valid feed does.
		{"broken feed: defaults and a warning", []byte(`{"ranges": []}`), "aws", "us-east-1", "g5.xlarge", "<10%", true,
			"gpuplan/catalog.d/spot-advisor-data.json: spot advisor: missing \"ranges\" or \"spot_advisor\": is this spot-advisor-data.json?; spot interruption rates are assumptions until the file holds AWS's feed (save https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json over it); deleting the file only ends this warning, and gpuplan catalog update does not fetch it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("XDG_DATA_HOME", home)
			if tt.feed != nil {
				dir := filepath.Join(home, "gpuplan", "catalog.d")
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, SpotAdvisorFile), tt.feed, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rate, warnings, err := SpotRates()
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(model.Strings(warnings), "\n"); tt.warn == "" && got != "" || !strings.Contains(got, tt.warn) {
				t.Errorf("warnings = %q, want one naming %q", got, tt.warn)
			}
			r := rate(tt.provider, tt.region, tt.typ)
			if r.Assumption != tt.assumed || tt.bucket != "" && r.Bucket != tt.bucket {
				t.Errorf("rate = %+v, want bucket %q, assumption %v", r, tt.bucket, tt.assumed)
			}
			if !tt.assumed && !strings.Contains(r.Source, "Spot Instance Advisor") {
				t.Errorf("source = %q, want the advisor feed", r.Source)
			}
		})
	}
}
