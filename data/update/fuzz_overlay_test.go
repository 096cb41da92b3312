package update

import (
	"bytes"
	"os"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// checkWritable runs what runProvider does with a fetcher's instances —
// the guards, the overlay writer — and fails unless the overlay, when
// within the reader's size cap (install refuses a larger one), reads back
// through data.CheckOverlay with no held price in it: whatever a server
// sends and a fetcher accepts, update never installs a file that stops
// every later command, nor a price a guard flagged.
func checkWritable(t *testing.T, dir string, base *model.Catalog, provider string, insts []model.Instance) {
	t.Helper()
	var ps ProviderSummary
	kept := ps.guard(base, nil, insts)
	current := map[string]*model.Instance{}
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Provider == provider && in.Retired == "" {
			current[in.Type] = in
		}
	}
	held := map[[2]string]bool{}
	for _, g := range ps.Held {
		held[[2]string{g.Type, g.Region}] = true
	}
	for _, in := range kept {
		for _, p := range in.Prices {
			if held[[2]string{in.Type, p.Region}] {
				t.Fatalf("held price %s %s written", in.Type, p.Region)
			}
		}
	}
	if len(kept) == 0 {
		return // runProvider refuses it (ErrAllHeld)
	}
	var b bytes.Buffer
	if err := writeOverlay(&b, provider, "https://mirror.test/v8/"+provider+"/vms.csv", "Data: test.", fixedNow(), kept, current, nil); err != nil {
		if int64(b.Len()) <= safeio.Overlay.MaxBytes {
			t.Fatalf("writeOverlay refused %d bytes: %v", b.Len(), err)
		}
		return
	}
	f, err := os.CreateTemp(dir, "overlay-*.toml")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	f.Write(b.Bytes())
	f.Close()
	if err := data.CheckOverlay(f.Name()); err != nil {
		t.Fatalf("the overlay of accepted instances does not read back: %v\n%.2000s", err, b.String())
	}
}

// FuzzSkyPilotImport: any vms.csv a mirror serves is refused by update's
// import (truncation, currency, the importer) or becomes instances whose
// overlay reads back. Seeds: testdata/fuzz/FuzzSkyPilotImport (the lambda
// fixture, a fake cheap row, a non-USD column, a truncated file).
func FuzzSkyPilotImport(f *testing.F) {
	base, err := data.Load()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body []byte) {
		insts, _, err := importCSV(body, "https://mirror.test/v8/lambda/vms.csv", "lambda", base)
		if err != nil {
			return
		}
		checkWritable(t, dir, base, "lambda", insts)
	})
}

// FuzzAzureOverlay: pages the parser accepts become instances whose
// overlay reads back. Seeds: testdata/fuzz/FuzzAzureOverlay (FuzzAzurePage's,
// and a page of fake cheap meters).
func FuzzAzureOverlay(f *testing.F) {
	base, err := data.Load()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body []byte) {
		prices, skipped := azurePrices{}, map[string]bool{}
		if _, _, err := parseAzurePage(body, prices, skipped); err != nil {
			return
		}
		checkWritable(t, dir, base, "azure", azureInstances(base, prices, skipped).insts)
	})
}
