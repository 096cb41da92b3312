package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// providerNames are the providers as the README's introduction names
// them, by catalog key.
var providerNames = map[string]string{
	"aws": "AWS", "gcp": "GCP", "azure": "Azure", "lambda": "Lambda", "oci": "OCI", "nebius": "Nebius",
	"paperspace": "Paperspace", "fluidstack": "Fluidstack", "do": "DigitalOcean", "vast": "Vast", "cudo": "Cudo",
	"runpod": "RunPod", "verda": "Verda", "hyperstack": "Hyperstack", "primeintellect": "Prime Intellect",
	"shadeform": "Shadeform", "jarvislabs": "JarvisLabs", "seeweb": "Seeweb", "yotta": "Yotta", "daytona": "Daytona",
	"lium": "Lium", "hyperbolic": "Hyperbolic", "simplepod": "SimplePod",
}

// TestREADMEIntroProviders (issue 31 item 10: the introduction listed
// Cudo, shut down on 2026-03-31): the README's introduction names every
// provider with an offered instance type in the embedded catalog, and no
// provider whose types are all retired.
// docs/zh-CN.md's introduction is held to the same rule (a new-user walk
// found it still naming round 2's nine providers).
func TestREADMEIntroProviders(t *testing.T) {
	for _, file := range []string{"README.md", "docs/zh-CN.md"} {
		t.Run(file, func(t *testing.T) { checkIntroProviders(t, file) })
	}
}

func checkIntroProviders(t *testing.T, file string) {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	intro, _, _ := strings.Cut(string(b), "\n## ")
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	offered := map[string]bool{}
	for _, p := range cat.OfferedProviders() {
		offered[p] = true
	}
	seen := map[string]bool{}
	for i := range cat.Instances {
		p := cat.Instances[i].Provider
		if seen[p] {
			continue
		}
		seen[p] = true
		name, ok := providerNames[p]
		if !ok {
			t.Errorf("provider %q has no README name in providerNames", p)
			continue
		}
		named := regexp.MustCompile(`\b` + name + `\b`).MatchString(intro)
		switch {
		case offered[p] && !named:
			t.Errorf("%s's introduction does not name %s, which the catalog offers", file, name)
		case !offered[p] && named:
			t.Errorf("%s's introduction names %s, whose instance types are all retired", file, name)
		}
	}
}
