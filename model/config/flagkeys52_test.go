package config

import (
	"strings"
	"testing"
)

// TestUnknownKeySuggestsItsFlagsKey (walk52): a key written as its flag's
// name is told the key, not the nearest spelling: "serve.tp" (--tp) was
// `did you mean "tpot_ms"?`; it is tensor_parallel_size. A bare answer
// pp (a [workload] key) is told the [serve] key.
func TestUnknownKeySuggestsItsFlagsKey(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{"[serve]\ntp = 3", `serve.tp: unknown key "tp"; did you mean "tensor_parallel_size"?`},
		{"[serve]\npp = 2", `serve.pp: unknown key "pp"; did you mean "pipeline_parallel_size"?`},
		{"[serve]\nrps = 2", `serve.rps: unknown key "rps"; did you mean "requests_per_sec"?`},
		{"[serve]\ntpot = 50", `did you mean "tpot_ms"?`},
		{"pp = 2", `workload.pp: unknown key "pp" in [workload]; did you mean the [serve] key "pipeline_parallel_size" (serve.pipeline_parallel_size in a plan's answers)?`},
	} {
		body := "schema_version = 1\n[workload]\nmodel = \"qwen3-8b\"\ntask = \"inference\"\n"
		if strings.HasPrefix(tt.body, "[") {
			body += tt.body + "\n"
		} else {
			body = "schema_version = 1\n[workload]\nmodel = \"qwen3-8b\"\ntask = \"inference\"\n" + tt.body + "\n"
		}
		_, err := Decode([]byte(body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.body, err, tt.want)
		}
	}
}
