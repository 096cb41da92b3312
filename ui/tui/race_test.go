package tui

import (
	"sync"
	"testing"
)

// Recomputes run in command goroutines, several at once when answers
// change quickly: they only read the catalog.
func TestConcurrentRecomputes(t *testing.T) {
	m := newTestApp(t, embeddedCatalog(t), Options{})
	cfg, err := m.a.config()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := cfg
			c.Workload.MicroBatch = i + 1
			if r := compute(m.cat, c, nil, m.hf, i); !r.ok() {
				t.Error(r.err)
			}
		}()
	}
	wg.Wait()
}
