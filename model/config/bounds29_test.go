package config

import (
	"reflect"
	"strings"
	"testing"
)

// Issue 29, item 4: every number the configuration decoder reads is
// bounded. Each numeric key of every table ([workload], [workload.custom],
// [search], [estimate], [estimate.model], [selection], [serve]), found by
// reflection so a key added later is covered, is set to NaN, ±Inf, -1 and
// 1e300 (floats) or -1 and 2^63-1 (integers): each is refused with an
// error naming the key. Before, [estimate]'s figures took 1e300,
// [estimate.model]'s counts and params -1, and [serve]'s deployment keys
// (usd_per_hour, gpus_per_node, nodes, replicas_per_node, port) -1 and
// 1e300.
func TestDecodeBoundsEveryNumber(t *testing.T) {
	tables := []struct {
		name string
		raw  any
	}{{"workload", rawWorkload{}}, {"workload.custom", rawCustom{}}, {"search", rawSearch{}}, {"estimate", rawEstimate{}},
		{"estimate.model", rawArch{}}, {"selection", rawSelection{}}, {"serve", rawServe{}}}
	base := map[string]string{
		"workload":  "task = \"inference\"\nmodel = \"llama-3.1-8b\"\n",
		"selection": "provider = \"aws\"\ninstance_type = \"g6.xlarge\"\nregion = \"us-east-1\"\ngpus = 1\ninstances = 1\n",
	}
	file := func(tbl, key, val string) string {
		top := strings.Split(tbl, ".")[0]
		body := "schema_version = 1\n"
		for _, k := range []string{"workload", "selection"} {
			if k != top {
				body += "[" + k + "]\n" + base[k]
			}
		}
		if tbl == "workload.custom" {
			body += "[workload]\ntask = \"inference\"\n" // the custom table is the model
		} else {
			body += "[" + top + "]\n" + base[top]
		}
		if tbl != top {
			body += "[" + tbl + "]\n"
		}
		return body + key + " = " + val + "\n"
	}
	if _, err := Decode([]byte(file("serve", "port", "8000"))); err != nil {
		t.Fatalf("the base file with port = 8000: %v", err)
	}
	n := 0
	for _, tb := range tables {
		ty := reflect.TypeOf(tb.raw)
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			key := strings.Split(f.Tag.Get("toml"), ",")[0]
			var vals []string
			switch f.Type.Name() {
			case "tFloat":
				vals = []string{"nan", "inf", "-inf", "-1.0", "1e300"}
			case "tInt":
				vals = []string{"-1", "9223372036854775807"}
			default:
				continue
			}
			for _, v := range vals {
				n++
				_, err := Decode([]byte(file(tb.name, key, v)))
				if err == nil || !strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s.%s = %s: err %v, want one line naming the key", tb.name, key, v, err)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d cases: the reflection found too few keys", n)
	}
}

// The bounds of the informational keys let real figures through: an
// export's [serve] deployment and a 405B model's [estimate].
func TestDecodeBoundsRealFigures(t *testing.T) {
	for _, body := range []string{
		"schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"llama-3.1-8b\"\n[serve]\nprovider = \"aws\"\ninstance_type = \"g6.xlarge\"\nregion = \"us-east-1\"\nusd_per_hour = 0.8048\ngpus_per_node = 1\nnodes = 1\nreplicas_per_node = 1\nport = 8000\n",
		"schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\n[estimate]\ngpu = \"h100-sxm\"\ntotal_gib = 6480.5\ntotal_flops = 3.8e25\nhours = 30840000\ngpu_hours = 3.08e7\n[estimate.model]\nparams = 405e9\nlayers = 126\nhidden = 16384\nvocab = 128256\nmax_positions = 131072\n",
	} {
		if _, err := Decode([]byte(body)); err != nil {
			t.Errorf("refused: %v\n%s", err, body)
		}
	}
}
