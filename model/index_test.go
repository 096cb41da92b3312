package model

import (
	"reflect"
	"sync"
	"testing"
)

// EnsureIndex leaves the tables of an indexed catalog in place: the
// configurator calls it on a catalog other goroutines may be reading (CI
// failed once with a concurrent map read and write when every new
// configurator rebuilt the shared catalog's tables).
func TestEnsureIndexKeepsTables(t *testing.T) {
	c := &Catalog{
		GPUs:   []GPU{{Key: "h100-sxm", Name: "H100 SXM", Aliases: []string{"H100"}}},
		Models: []Architecture{{Key: "llama-3.1-8b", Name: "Llama 3.1 8B", Aliases: []string{"meta-llama/Llama-3.1-8B"}}},
	}
	c.EnsureIndex()
	if c.models == nil || c.gpus == nil || c.gpuByKey == nil || c.geo == nil {
		t.Fatal("EnsureIndex on a new catalog built no tables")
	}
	models, gpus := reflect.ValueOf(c.models).Pointer(), reflect.ValueOf(c.gpus).Pointer()

	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { // readers, as the configurator's command goroutines (go test -race)
			defer wg.Done()
			for range 100 {
				if _, err := c.Model("Llama-3.1-8B"); err != nil {
					t.Error(err)
					return
				}
				if _, err := c.GPU("h100"); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for range 10 {
		c.EnsureIndex()
	}
	wg.Wait()
	if reflect.ValueOf(c.models).Pointer() != models || reflect.ValueOf(c.gpus).Pointer() != gpus {
		t.Error("EnsureIndex rebuilt the tables of an indexed catalog")
	}
}
