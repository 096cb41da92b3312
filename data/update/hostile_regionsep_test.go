package update

import (
	"net/http"
	"os"
	"strings"
	"testing"
)

// A region name holding a separator its provider's names never hold reads
// as a list and is refused with one line naming the type and region
// (attack r29b F1: lambda "a,,b" shown as "a, b" and exported as the
// default region, "us-south-1,us-west-1" as two regions). Vast.ai's names
// are "place, CC, continent code": a comma is accepted there, and only
// in that form.
func TestHostileRegionSeparators(t *testing.T) {
	const rtx = ",RTX6000,1.0,14.0,46.0,0.69,"
	const rtxInfo = `,"{'Gpus': [{'Name': 'RTX6000', 'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 24576}}], 'TotalGpuMemoryInMiB': 24576}",` + "\n"
	const vastInfo = `,H200,2,32,64.0,"{'Gpus': [{'Name': 'H200', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 287542}}], 'TotalGpuMemoryInMiB': 287542}",5.18,0.00,`
	lambda := func(region string) string { return lambdaWith(t, "gpu_1x_rtx6000"+rtx+region+rtxInfo) }
	b, err := os.ReadFile("testdata/v8/vast/vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	vast := func(region string) string { return string(b) + "2x-H200-32-65536" + vastInfo + region + "\n" }
	for _, tc := range []struct {
		name, provider, body, want string
	}{
		{"two commas", "lambda", lambda(`"a,,b"`),
			`gpu_1x_rtx6000: region "a,,b": ',' at byte 1 separates names, and lambda's region names hold neither a comma nor a space; a region is one name, not a list`},
		{"two regions", "lambda", lambda(`"us-south-1,us-west-1"`),
			`gpu_1x_rtx6000: region "us-south-1,us-west-1": ',' at byte 10 separates names, and lambda's region names hold neither a comma nor a space; a region is one name, not a list`},
		{"a space", "lambda", lambda(`us-south-1 us-west-1`),
			`gpu_1x_rtx6000: region "us-south-1 us-west-1": ' ' at byte 10 separates names, and lambda's region names hold neither a comma nor a space; a region is one name, not a list`},
		{"vast, two places", "vast", vast(`"Texas, US, NA, Ohio, US, NA"`),
			`2x-H200-32-65536: region "Texas, US, NA, Ohio, US, NA" is not in vast's form "place, CC, continent code" (such as "Bavaria, DE, EU"); a comma only separates those three parts`},
		{"vast, empty parts", "vast", vast(`"a,,b"`),
			`2x-H200-32-65536: region "a,,b" is not in vast's form "place, CC, continent code" (such as "Bavaria, DE, EU"); a comma only separates those three parts`},
		{"vast, no codes", "vast", vast(`"Texas, USA, North America"`),
			`2x-H200-32-65536: region "Texas, USA, North America" is not in vast's form "place, CC, continent code" (such as "Bavaria, DE, EU"); a comma only separates those three parts`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := server(t, map[string]http.HandlerFunc{"/r/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(tc.body)) }})
			_, err, got := hostileRun(t, Options{Sources: []string{s.URL + "/r"}, Providers: []string{tc.provider}, Force: true})
			if err == nil || !strings.Contains(err.Error(), ": "+tc.want+" (previous overlay kept") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v\nwant one line with\n%s", err, tc.want)
			}
			if got != previous {
				t.Errorf("previous overlay replaced:\n%.300s", got)
			}
		})
	}
	// Vast's own form passes, the place empty as SkyPilot writes it.
	for _, region := range []string{`"Texas, US, NA"`, `", US, NA"`, `"Bács-Kiskun, HU, EU"`} {
		s := server(t, map[string]http.HandlerFunc{"/v/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(vast(region))) }})
		if _, err, _ := hostileRun(t, Options{Sources: []string{s.URL + "/v"}, Providers: []string{"vast"}, Force: true}); err != nil {
			t.Errorf("vast region %s: %v", region, err)
		}
	}
}
