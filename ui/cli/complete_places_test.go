package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestCompletePlaces pins the completion of --regions and --country (walk
// fix50c): every candidate must be a value the flag accepts as one item of
// its comma-separated list, the continents the docs lead with
// (`--regions europe`, docs/data.md "Region geography") are offered, and
// --country offers the ISO codes of the countries the chosen providers
// have regions in (`--country de,fr`, offers --help).
func TestCompletePlaces(t *testing.T) {
	t.Run("regions: no candidate holds a comma", func(t *testing.T) {
		// Vast names its regions "place, CC, continent" (data/catalog/regions.toml):
		// offered whole, the list flag splits them into words it refuses.
		vals, _ := complete(t, "offers", "--providers", "vast", "--regions", "")
		if len(vals) == 0 {
			t.Fatal("no candidates")
		}
		for _, v := range vals {
			if strings.Contains(v, ",") {
				t.Errorf("candidate %q holds a comma: --regions splits it", v)
			}
		}
	})
	t.Run("regions: continents of the chosen providers", func(t *testing.T) {
		vals, _ := complete(t, "offers", "--regions", "eur")
		if !slices.Contains(vals, "europe") {
			t.Errorf("--regions eur: candidates lack the continent europe: %v", vals)
		}
		vals, _ = complete(t, "recommend", "--providers", "lambda", "--regions", "")
		for _, want := range []string{"asia", "europe", "north-america", "us-east-1"} {
			if !slices.Contains(vals, want) {
				t.Errorf("lambda --regions: candidates lack %q: %v", want, vals)
			}
		}
		if slices.Contains(vals, "africa") {
			t.Errorf("lambda --regions: africa offered, lambda has no region there: %v", vals)
		}
	})
	t.Run("regions: placeholders that name no place are not offered", func(t *testing.T) {
		vals, _ := complete(t, "offers", "--providers", "daytona,hyperbolic", "--regions", "")
		for _, v := range vals {
			if v == "earth" || v == "default" {
				t.Errorf("candidate %q names no place (model.RegionUnstated)", v)
			}
		}
	})
	t.Run("country: ISO codes of the chosen providers' regions", func(t *testing.T) {
		vals, _ := complete(t, "offers", "--country", "")
		for _, want := range []string{"de", "fr", "us", "jp"} {
			if !slices.Contains(vals, want) {
				t.Errorf("--country: candidates lack %q: %v", want, vals)
			}
		}
		vals, _ = complete(t, "offers", "--providers", "azure", "--country", "")
		if !slices.Contains(vals, "us") || slices.Contains(vals, "de") {
			t.Errorf("azure --country: want us and not de (Azure covers US regions only): %v", vals)
		}
		vals, _ = complete(t, "recommend", "--country", "de,f")
		if !slices.Contains(vals, "de,fr") || slices.Contains(vals, "de,de") {
			t.Errorf("--country de,f: want de,fr, not de,de: %v", vals)
		}
	})
}

// TestCompleteModelHFIDs: --model takes a model's Hugging Face id
// (docs/cli.md: "meta-llama/Llama-3.1-8B work"), and an ML engineer types
// the id; once the word holds a "/", completion offers the ids among the
// catalog's aliases.
func TestCompleteModelHFIDs(t *testing.T) {
	vals, _ := complete(t, "estimate", "--model", "Qwen/Qwen3-30")
	if !slices.Contains(vals, "Qwen/Qwen3-30B-A3B") {
		t.Errorf("--model Qwen/Qwen3-30: candidates lack Qwen/Qwen3-30B-A3B: %v", vals)
	}
	vals, _ = complete(t, "estimate", "--model", "meta-llama/")
	if !slices.Contains(vals, "meta-llama/Llama-3.1-8B") {
		t.Errorf("--model meta-llama/: candidates lack meta-llama/Llama-3.1-8B: %v", vals)
	}
	vals, _ = complete(t, "estimate", "--model", "")
	for _, v := range vals {
		if strings.Contains(v, "/") {
			t.Errorf("--model with nothing typed offers the id %q: keys only until a / is typed", v)
			break
		}
	}
}
