package cli

import (
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model/config"
)

// Every keyed row of the flag table sets the request field its key names:
// the flag merged over a file's request is written under that key by the
// config encoder, and reads back as the same request.
func TestWorkloadTableKeys(t *testing.T) {
	samples := map[string]string{ // the first valid value by the flag's type, where that is not enough
		"bool": "true", "int": "3", "tokens": "3", "float": "0.5", "count": "3", "stringSlice": "q,v", "count|auto": "2", "ms|none": "none",
	}
	enums := map[string]string{"framework": "jax", "task": "lora", "precision": "fp32", "optimizer": "sgd", "strategy": "zero3",
		"recipe": "pure16", "loss": "chunked", "quant-type": "fp4", "weight-format": "fp8", "kv-cache-dtype": "fp8", "rope-scaling": "yarn:4",
		"torch": "1.13", "trainer": "litgpt", "zero-grad": "before-backward", "outputs": "kept",
		"network-gbps": "25"} // a node network is at least 1 Gbps, above the float sample 0.5
	base := config.WorkloadAnswers{Model: "gpt2"}
	for _, r := range workloadTable {
		if r.key == "" {
			continue
		}
		t.Run(r.name, func(t *testing.T) {
			var wf workloadFlags
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			wf.register(fs)
			v, ok := enums[r.name]
			if !ok {
				v = samples[fs.Lookup(r.name).Value.Type()]
			}
			if err := fs.Set(r.name, v); err != nil {
				t.Fatalf("--%s %s: %v", r.name, v, err)
			}
			req, _, err := wf.request(fs, nil, base)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.DeepEqual(req, base) {
				t.Fatalf("--%s %s left the request unchanged", r.name, v)
			}
			b, err := config.Encode(&config.Config{Workload: req})
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]map[string]any
			if _, err := toml.Decode(string(b), &doc); err != nil {
				t.Fatal(err)
			}
			table, key, _ := strings.Cut(r.key, ".")
			if _, ok := doc[table][key]; !ok {
				t.Errorf("--%s %s: the file has no %s:\n%s", r.name, v, r.key, b)
			}
			back, err := config.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back.Workload, req) {
				t.Errorf("--%s: read back %+v, want %+v", r.name, back.Workload, req)
			}
		})
	}
}
