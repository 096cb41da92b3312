package cli

import (
	"strings"
	"testing"
)

// An overlay region the catalog warns about as a typo (lambda has no
// "aa-south-9") is never export's default region nor a failover
// candidate, even at the same or a lower price, and is exported only when
// --region names it (attack r29b F1: a mirror's "a,,b" was the first of
// resources.ordered). An overlay whose one row has a region with a comma is refused at load
// (every row refused: the file is, exit 2).
func TestExportSkipsWarnedRegion(t *testing.T) {
	base := []string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "lambda/gpu_1x_rtx6000", "--format", "skypilot"}
	for _, tc := range []struct {
		name, price string
	}{{"same price", "0.69"}, {"cheaper", "0.65"}} {
		t.Run(tc.name, func(t *testing.T) {
			overlay := "schema_version = 1\n[[instance]]\nprovider = \"lambda\"\ntype = \"gpu_1x_rtx6000\"\nprices = [{ region = \"aa-south-9\", on_demand = " + tc.price + " }]\n"
			code, out, errs, _ := runWithCatalogD(t, overlay, base...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(errs, "aa-south-9: region not offered by lambda in the catalog (typo?)") {
				t.Errorf("no typo warning:\n%s", errs)
			}
			if strings.Contains(out, "aa-south-9") {
				t.Errorf("the warned region is in the file:\n%s", out)
			}
			// Lambda's regions are price regions (model.RegionsUnconfirmed):
			// the file names none, not the first of them (walk49).
			if strings.Contains(out, "region: asia-northeast-1") || !strings.Contains(out, "any of 1") {
				t.Errorf("want no region, \"any of N regions\":\n%s", out)
			}
			code, out, errs, _ = runWithCatalogD(t, overlay, append(base, "--region", "aa-south-9")...)
			if code != 0 || !strings.Contains(out, "region: aa-south-9") {
				t.Errorf("--region aa-south-9: exit %d\n%s%s", code, out, errs)
			}
		})
	}
	overlay := "schema_version = 1\n[[instance]]\nprovider = \"lambda\"\ntype = \"gpu_1x_rtx6000\"\nprices = [{ region = \"a,,b\", on_demand = 0.69 }]\n"
	code, out, errs, _ := runWithCatalogD(t, overlay, base...)
	want := `gpu_1x_rtx6000: region "a,,b": ',' at byte 1 separates names, and lambda's region names hold neither a comma nor a space; a region is one name, not a list`
	if code != 2 || out != "" || !strings.Contains(errs, want) {
		t.Errorf("exit %d, want 2 and the file refused with %q:\n%s%s", code, want, out, errs)
	}
}
