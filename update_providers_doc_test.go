package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data/update"
)

// TestUpdateProvidersDocumented: docs/data.md and catalog update's help
// name the providers update fetches by default and on request, as
// update.DefaultProviders and update.KnownProviders have them (walk49:
// both said "aws, gcp, lambda and nebius" plus Azure and OCI while the
// default list had 13 providers).
func TestUpdateProvidersDocumented(t *testing.T) {
	var also []string
	for _, p := range update.KnownProviders() {
		if !slices.Contains(update.DefaultProviders, p) {
			also = append(also, p)
		}
	}
	b, err := os.ReadFile("docs/data.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, _ := strings.Cut(string(b), "## Refreshing prices")
	list := func(re string) []string {
		m := regexp.MustCompile(re).FindStringSubmatch(sec)
		if m == nil {
			t.Fatalf("docs/data.md's Refreshing prices has no %s", re)
		}
		return strings.Split(m[1], ", ")
	}
	if got := list(`default providers — ([a-z, ]+) —`); !slices.Equal(got, update.DefaultProviders) {
		t.Errorf("docs/data.md's default providers %v, the code's %v", got, update.DefaultProviders)
	}
	if got := list(`those above, and ([a-z, ]+) on request`); !slices.Equal(got, also) {
		t.Errorf("docs/data.md's providers on request %v, the code's %v", got, also)
	}
	code, out, errs := runArgs(t, "catalog", "update", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// "Default" is what update fetches, said so: runpod and yotta are
	// ranked by default from the embedded catalog, and a new user's walk
	// read "default: …; also runpod, yotta" as not ranked by default.
	if want := "(fetched by default: " + strings.Join(update.DefaultProviders, ", ") + "; fetched only when named: " + strings.Join(also, ", ") + ", whose prices an update without them leaves as they are)"; !strings.Contains(out, want) {
		t.Errorf("catalog update --help lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "aws, gcp, lambda and nebius") {
		t.Errorf("catalog update --help names a short list of its providers:\n%s", out)
	}
}
