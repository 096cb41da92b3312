package tui

import (
	"fmt"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

func TestZZScratch(t *testing.T) {
	cat := embeddedCatalog(t)
	c, err := config.Decode([]byte("schema_version = 1\n[workload]\nmodel = \"llama-3.1-70b\"\ntask = \"finetune\"\nepochs = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := start(t, newTestApp(t, cat, Options{Config: &c}), size(140, 45))
	fmt.Println(screenText(m))
	m2 := start(t, newTestApp(t, cat, Options{}), size(140, 45))
	fmt.Println(screenText(m2))
}
