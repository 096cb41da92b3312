package update

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// Attack round 10, M3: a mirror's row with 99,999,999 GiB of host RAM was
// written ("RAM GiB/GPU 99999999") and fed the offload fit checks. Rows
// with more vCPUs or host memory than data.MaxVCPUs / MaxHostMemoryGiB
// (twice the largest instance any cloud sells) are skipped with a line;
// one at the embedded catalog's largest GPU host (4,096 GiB) is written.
func TestHostileHostSize(t *testing.T) {
	for _, tc := range []struct {
		name, vcpus, mem string
		written          bool
	}{
		{"absurd memory", "208.0", "99999999.0", false},
		{"absurd vcpus", "99999.0", "1800.0", false},
		{"largest GPU host", "208.0", "4096.0", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := lambdaWith(t, "gpu_8x_h100_host,H100,8.0,"+tc.vcpus+","+tc.mem+",23.92,us-east-1,"+h100Info+",\n")
			s := server(t, map[string]http.HandlerFunc{"/host/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }})
			dir := t.TempDir()
			sum, err, got := hostileRun(t, Options{Dir: dir, Sources: []string{s.URL + "/host"}, Providers: []string{"lambda"}})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(got, "gpu_8x_h100_host") != tc.written {
				t.Fatalf("written = %v, want %v:\n%.2000s", !tc.written, tc.written, got)
			}
			if !tc.written && !strings.Contains(sum.Text(), "host larger than any instance sold skipped") {
				t.Errorf("summary does not say the row was skipped:\n%s", sum.Text())
			}
			c := loadOverlay(t, filepath.Join(dir, "skypilot-lambda.toml"))
			if in := findInst(c, "lambda", "gpu_8x_h100_host"); (in != nil) != tc.written {
				t.Errorf("in the catalog: %v, want %v", in != nil, tc.written)
			}
		})
	}
}
