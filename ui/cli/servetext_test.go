package cli

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/serve"
)

// New-user walk (walk51): a plan's "serve.replicas" = "auto" and
// "serve.tpot_ms" = "none" were refused ("want a whole number such as 8")
// where --replicas auto and --tpot-ms none work, as was the same string
// in a configuration's [serve]. Every [serve] key now reads a string with
// its flag's parser: each value the flag takes, the answer and the
// [serve] key take, to the same request, and a value the flag refuses
// they refuse in the flag's words.
func TestServeKeysReadAsTheirFlags(t *testing.T) {
	good := map[string][]string{ // by flag: values the flag takes
		"weight-format":          {"awq", "int4", "FP8", " bf16"},
		"kv-cache-dtype":         {"fp8", "auto"},
		"max-model-len":          {"8192", "8K", "8k", "1e4", "4,096", "2_048"},
		"rope-scaling":           {"yarn:4", "YaRN:2:32K", "none"},
		"prompt-tokens":          {"1000", "1K", "1.5k"},
		"output-tokens":          {"256", "1K"},
		"shared-prefix-tokens":   {"512", "2k"},
		"concurrency":            {"8", "2k", "1e2"},
		"rps":                    {"2.5", "2.5e-1", "3"},
		"ttft-ms":                {"200", "1.5e3", "0.5"},
		"tpot-ms":                {"50", "none", "NONE", " None ", "0.5"},
		"pp":                     {"2", "1e0"},
		"replicas":               {"auto", "AUTO", "3", " 2 "},
		"gpu-memory-utilization": {"0.8", "9e-1", "1"},
		"max-num-batched-tokens": {"8K", "4096"},
		"max-num-seqs":           {"64", "1k"},
		"tp":                     {"2", "4", "1e0"}, // the workload's, read as serve.tensor_parallel_size
	}
	bad := []string{"x", "-", "1.5.2", "0x10", "1_0e", "NaN", "Inf"}
	keyOf := map[string]string{"tp": "serve.tensor_parallel_size"}
	for _, r := range workloadTable {
		if strings.HasPrefix(r.key, "serve.") {
			keyOf[r.name] = r.key
		}
	}
	for name := range keyOf {
		if _, ok := good[name]; !ok {
			t.Errorf("--%s sets %s: give it values here", name, keyOf[name])
		}
	}
	base := map[string]string{"model": "llama-3.1-8b", "task": "inference"}
	for name, key := range keyOf {
		for _, v := range good[name] {
			t.Run(name+"="+v, func(t *testing.T) {
				want, err := flagServing(name, v)
				if err != nil {
					t.Fatalf("--%s %q: %v", name, v, err)
				}
				for form, got := range fileServings(t, base, key, v) {
					if got.err != nil {
						t.Errorf("%s: --%s takes %q, the file refuses it: %v", form, name, v, got.err)
					} else if !reflect.DeepEqual(got.s, want) {
						t.Errorf("%s: %s = %q reads\n %+v\nwhere --%s %q gives\n %+v", form, key, v, got.s, name, v, want)
					}
				}
			})
		}
		if name == "weight-format" || name == "kv-cache-dtype" || name == "rope-scaling" {
			continue // enums (and serve.ParseRopeScaling): the model's one parser on both sides, its words naming the value
		}
		for _, v := range bad {
			t.Run(name+"!="+v, func(t *testing.T) {
				_, err := flagServing(name, v)
				var m model.Message
				if !errors.As(err, &m) {
					t.Fatalf("--%s %q: want a refusal, got %v", name, v, err)
				}
				want := fmt.Sprintf("%q: %s", v, m)
				for form, got := range fileServings(t, base, key, v) {
					var ce *config.Error
					if !errors.As(got.err, &ce) || ce.Msg.String() != want {
						t.Errorf("%s: %s = %q: got %v, want the flag's words %q", form, key, v, got.err, want)
					}
				}
			})
		}
	}
}

// flagServing is the request --name v makes (the serving request, with
// --tp's degree as its TP).
func flagServing(name, v string) (serve.Serving, error) {
	var wf workloadFlags
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	wf.register(fs)
	if err := fs.Parse([]string{"--" + name + "=" + v}); err != nil {
		return serve.Serving{}, err
	}
	var w config.WorkloadAnswers
	if err := wf.merge(fs, &w); err != nil {
		return serve.Serving{}, err
	}
	s := w.Serve
	if name == "tp" {
		s.TP = w.TP
	}
	return s, nil
}

type servingOrErr struct {
	s   serve.Serving
	err error
}

// fileServings reads key = v as a plan phase's answer and as a string in
// a configuration's [serve].
func fileServings(t *testing.T, base map[string]string, key, v string) map[string]servingOrErr {
	t.Helper()
	out := map[string]servingOrErr{}
	ans := map[string]string{key: v}
	for k, x := range base {
		ans[k] = x
	}
	b, err := config.AnswersTOML(ans)
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Decode(b)
	out["answers"] = servingOrErr{c.Workload.Serve, err}
	_, k, _ := strings.Cut(key, ".")
	file := fmt.Sprintf("schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n[serve]\n%s = %q\n", k, v)
	c, err = config.Decode([]byte(file))
	out["[serve]"] = servingOrErr{c.Workload.Serve, err}
	return out
}
