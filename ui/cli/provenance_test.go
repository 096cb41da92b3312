package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// negotiated is a price patch in the user's catalog.d without source or
// as_of, cheap enough to top a QLoRA ranking and a serving one.
const negotiated = `schema_version = 1
[[instance]]
provider = "nebius"
type = "gpu-h100-sxm_1gpu-16vcpu-200gb"
prices = [{ region = "eu-north1", on_demand = 0.05, spot = 0.04 }]
`

// runWithCatalogD runs the command line with overlay (dated 2021-05-17
// at noon UTC) as the only file of the user's catalog.d and
// --trust-overlay (the negotiated $0.05 is far below any H100's floor: the
// guards hold it otherwise, TestOverlayHeldUnlessTrusted); it returns the
// exit status, stdout, stderr and the overlay's path.
func runWithCatalogD(t *testing.T, overlay string, args ...string) (int, string, string, string) {
	t.Helper()
	return runWithCatalogDTrust(t, overlay, append(args, "--trust-overlay")...)
}

func runWithCatalogDTrust(t *testing.T, overlay string, args ...string) (int, string, string, string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("HOME", dir)
	path := filepath.Join(dir, "config", "gpuplan", "catalog.d", "negotiated.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2021, 5, 17, 12, 0, 0, 0, time.UTC) // past: a later mtime is dated today
	if err := os.Chtimes(path, day, day); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Run(Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith,
		RunTUI: func(context.Context, *model.Catalog, tui.Options) error {
			t.Error("RunTUI called without a terminal")
			return nil
		}})
	return code, out.String(), errb.String(), path
}

// TestOverlayPriceOnTheRow: a price from catalog.d that becomes the top
// offer says where it came from on the row — the table marks it and
// names the file and date under it, the JSON gives the overlay's origin,
// source and as_of, and an export records them in the selection and the
// launch file's notes (issue 31 item 7: the row said "embedded" with the
// snapshot's source and date, and no table marked it).
func TestOverlayPriceOnTheRow(t *testing.T) {
	const day = "2021-05-17"
	legend := func(path string) string { return "* price from overlay " + path + " (as of " + day + ")" }
	t.Run("recommend", func(t *testing.T) {
		code, out, errs, path := runWithCatalogD(t, negotiated, "recommend", "--model", "llama-3.1-8b", "--task", "qlora")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		lines := strings.Split(out, "\n")
		top := ""
		for i, l := range lines {
			if strings.HasPrefix(l, "provider ") && i+1 < len(lines) {
				top = lines[i+1]
				break
			}
		}
		if !strings.Contains(top, "gpu-h100-sxm_1gpu-16vcpu-200gb") || !strings.Contains(top, "$0.05*") {
			t.Errorf("top row %q: want the overlay's offer with its price marked $0.05*\n%s", top, out)
		}
		if !strings.Contains(out, legend(path)+"\n") {
			t.Errorf("no legend %q under the table:\n%s", legend(path), out)
		}
		code, out, errs, path = runWithCatalogD(t, negotiated, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--json")
		var rec struct{ Offers []offerFrom }
		if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 || len(rec.Offers) == 0 {
			t.Fatalf("exit %d, %v: %s", code, err, errs)
		}
		o := rec.Offers[0]
		if o.InstanceType != "gpu-h100-sxm_1gpu-16vcpu-200gb" || o.Origin != path || o.Source != path || o.AsOf != day {
			t.Errorf("top offer %+v: want the overlay's origin, source and as_of (%s, %s)", o, path, day)
		}
	})
	t.Run("serving", func(t *testing.T) {
		args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--concurrency", "8"}
		code, out, errs, path := runWithCatalogD(t, negotiated, args...)
		if code != 0 || !strings.Contains(out, "$0.05*") || !strings.Contains(out, legend(path)+"\n") {
			t.Errorf("exit %d: want the overlay's price marked and named:\n%s%s", code, out, errs)
		}
		code, out, errs, path = runWithCatalogD(t, negotiated, append(args, "--json")...)
		var rec struct{ Offers []offerFrom }
		if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 || len(rec.Offers) == 0 {
			t.Fatalf("exit %d, %v: %s", code, err, errs)
		}
		found := false
		for _, o := range rec.Offers {
			if o.InstanceType == "gpu-h100-sxm_1gpu-16vcpu-200gb" {
				found = true
				if o.Origin != path || o.Source != path || o.AsOf != day {
					t.Errorf("serving offer %+v: want the overlay's origin, source and as_of", o)
				}
			} else if o.Origin != "embedded" || o.AsOf == "" || o.Source == "" {
				t.Errorf("serving offer %+v: want the catalog's provenance", o)
				break
			}
		}
		if !found {
			t.Errorf("the overlay's offer is not in the serving ranking")
		}
	})
	t.Run("offers", func(t *testing.T) {
		code, out, errs, path := runWithCatalogD(t, negotiated, "offers", "h100-sxm:1")
		if code != 0 || !strings.Contains(out, "$0.0500*") || !strings.Contains(out, legend(path)+"\n") {
			t.Errorf("exit %d: want the overlay's price marked and named:\n%s%s", code, out, errs)
		}
	})
	t.Run("export", func(t *testing.T) {
		export := []string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "nebius/gpu-h100-sxm_1gpu-16vcpu-200gb", "-o", "-"}
		code, out, errs, path := runWithCatalogD(t, negotiated, export...)
		for _, want := range []string{"price_origin = " + quoteTOML(path), "price_source = " + quoteTOML(path), `price_as_of = "` + day + `"`} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("exit %d: the exported selection lacks %s:\n%s%s", code, want, out, errs)
			}
		}
		code, out, errs, path = runWithCatalogD(t, negotiated, append(export, "--format", "skypilot")...)
		if want := "# note: the price is from overlay " + path + " (" + path + ", as of " + day + ")\n"; code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d: the SkyPilot file lacks %q:\n%s%s", code, want, out, errs)
		}
	})
}

// offerFrom is the part of an offer's JSON that says where its price
// came from.
type offerFrom struct {
	InstanceType string `json:"instance_type"`
	Source       string `json:"source"`
	AsOf         string `json:"as_of"`
	Origin       string `json:"origin"`
}

// quoteTOML quotes s as a TOML basic string (the test paths have no
// quotes or backslashes).
func quoteTOML(s string) string { return `"` + s + `"` }

// TestOverlayHeldUnlessTrusted: a hand-written price the guards flag (the
// negotiated H100 at $0.05/h, under half of any H100's floor) is kept out
// of the ranking with one line on stderr saying how many and how to rank
// them, and ranked with --trust-overlay (round 3, LOW: overlays were not
// guarded at load).
func TestOverlayHeldUnlessTrusted(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "h100-sxm", "--json"}
	top := func(out string) string {
		var rec struct{ Offers []offerFrom }
		if err := json.Unmarshal([]byte(out), &rec); err != nil || len(rec.Offers) == 0 {
			t.Fatalf("%v: %s", err, out)
		}
		return rec.Offers[0].InstanceType
	}
	code, out, errs, path := runWithCatalogDTrust(t, negotiated, args...)
	// The catalog prices the type in that region: its price stands in
	// for the held one (walk: a held price hid the catalog's row).
	want := "gpuplan: warning: catalog " + path + ": 1 region price looks fake or mistyped (the lines below say why): the embedded catalog's price for that type and region is used instead; pass --trust-overlay to rank the file's\n"
	if code != 0 || !strings.Contains(errs, want) || !strings.Contains(errs, "nebius/gpu-h100-sxm_1gpu-16vcpu-200gb eu-north1: on-demand $0.0500 per GPU-hour is below half the lowest on-demand price the catalog lists for h100-sxm ($1.29 per GPU-hour, any provider): a fake or mistyped price?\n") {
		t.Errorf("exit %d, stderr lacks %q and the floor finding:\n%s", code, want, errs)
	}
	if got := top(out); got == "gpu-h100-sxm_1gpu-16vcpu-200gb" {
		t.Errorf("the held price ranked first without --trust-overlay")
	}
	code, out, errs, _ = runWithCatalogDTrust(t, negotiated, append(args, "--trust-overlay")...)
	if got := top(out); code != 0 || got != "gpu-h100-sxm_1gpu-16vcpu-200gb" {
		t.Errorf("exit %d, top %s with --trust-overlay, want the overlay's offer: %s", code, got, errs)
	}
}

// TestCNYOverlayGuardedConverted: a CNY overlay row is judged on its USD
// price once converted (attack 7, S3: 8×H100 at ¥1/h ranked first at
// $0.14/h with --usd-cny 7.1): recommend and offers leave it out with one
// line saying why, and rank it with --trust-overlay.
func TestCNYOverlayGuardedConverted(t *testing.T) {
	const cny = `schema_version = 1
[[instance]]
provider = "acme"
type = "box-1"
gpu = "h100-sxm"
gpu_count = 8
vcpus = 64
memory_gib = 512
source = "x"
currency = "CNY"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 1 }]
`
	for _, args := range [][]string{
		{"recommend", "--model", "llama-3.1-70b", "--task", "qlora", "--usd-cny", "7.1"},
		{"offers", "--providers", "acme", "--usd-cny", "7.1"}, // a note under the table's notes
	} {
		kind := map[string]string{"recommend": "warning", "offers": "note"}[args[0]]
		code, out, errs, path := runWithCatalogDTrust(t, cny, args...)
		// ¥1 / 7.1 / 8 GPUs = $0.0176 per GPU-hour; the H100's floor is half
		// its lowest on-demand $1.29.
		want := "gpuplan: " + kind + ": 1 CNY-priced region price converted below the price guards' floor, not ranked (the first: acme/box-1 us-east-1 from " + path + ", $0.0176 per GPU-hour where the floor for h100-sxm is $0.6450: a fake or mistyped price?); pass --trust-overlay to rank them\n"
		if !strings.Contains(errs, want) || strings.Contains(out, "box-1") {
			t.Errorf("%s: exit %d, stderr lacks %q or the row is listed:\n%s%s", args[0], code, want, out, errs)
		}
		code, out, errs, _ = runWithCatalogDTrust(t, cny, append(args, "--trust-overlay")...)
		if code != 0 || !strings.Contains(out, "box-1") || strings.Contains(errs, "floor") {
			t.Errorf("%s --trust-overlay: exit %d, the row not ranked or still warned:\n%s%s", args[0], code, out, errs)
		}
	}
}

// TestOverlayFooterEscapesName: an overlay file name with an escape
// sequence (attack 7, L1: `e ESC]0;T BEL ESC[2J.toml`) is escaped in the
// table's footer as every error line escapes it (termsafe), not stripped.
func TestOverlayFooterEscapesName(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("HOME", dir)
	path := filepath.Join(dir, "e\x1b]0;T\x07\x1b[2J.toml")
	if err := os.WriteFile(path, []byte(strings.Replace(negotiated, "on_demand = 0.05, spot = 0.04", "on_demand = 2.50", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Run(Env{Args: []string{"offers", "--providers", "nebius", "--catalog", path}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith})
	safe := filepath.Join(dir, `e\x1b]0;T\a\x1b[2J.toml`)
	for _, want := range []string{"* price from overlay " + safe + " (as of ", "overlay " + safe + " (1 type)"} {
		if code != 0 || !strings.Contains(out.String(), want) {
			t.Errorf("exit %d: stdout lacks %q:\n%q%s", code, want, out.String(), errb.String())
		}
	}
	if strings.ContainsAny(out.String(), "\x1b\x07") {
		t.Errorf("a control character reached stdout:\n%q", out.String())
	}
}
