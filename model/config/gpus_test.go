package config

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSearchGPUsRoundTrip: the GPU the browse screen picked survives an
// export and a reload, and reaches Recommend's query.
func TestSearchGPUsRoundTrip(t *testing.T) {
	c := Config{Workload: WorkloadAnswers{Model: "llama"}, Search: SearchAnswers{GPUs: []string{"l40s"}, Providers: []string{"aws"}}}
	b, err := Encode(&c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `gpus = ["l40s"]`) {
		t.Errorf("[search] lacks gpus = [\"l40s\"]:\n%s", b)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, b)
	}
	if !reflect.DeepEqual(got.Search, c.Search) {
		t.Errorf("search = %+v, want %+v", got.Search, c.Search)
	}
	if q := got.Search.Query(false); !slices.Equal(q.GPUs, []string{"l40s"}) {
		t.Errorf("Query().GPUs = %v, want [l40s]", q.GPUs)
	}
	// No GPU limit: the key is left out, as before.
	c.Search.GPUs = nil
	if b, _ = Encode(&c); strings.Contains(string(b), "\ngpus = [") {
		t.Errorf("an empty GPU limit is written:\n%s", b)
	}
}
