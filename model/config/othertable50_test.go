package config

import (
	"strings"
	"testing"
)

// TestUnknownKeyOfAnotherTable: a [serve] or [search] key written in
// [workload] (or bare in a plan's [phase.answers], which read as
// [workload]) names the table it belongs to, where the error listed the
// [workload] keys only and left the user to guess serve.concurrency
// (walk50). A typo of a [workload] key keeps its did-you-mean.
func TestUnknownKeyOfAnotherTable(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"concurrency = 16", `unknown key "concurrency" in [workload]; it is a [serve] key (serve.concurrency in a plan's answers)`},
		{"prompt_tokens = 100", `unknown key "prompt_tokens" in [workload]; it is a [serve] key (serve.prompt_tokens in a plan's answers)`},
		{`pricing = "spot"`, `unknown key "pricing" in [workload]; it is a [search] key (search.pricing in a plan's answers)`},
		{"batch_sise = 4", `did you mean "batch_size"?`},
	} {
		_, err := Decode([]byte("schema_version = 1\n[workload]\nmodel = \"qwen3-8b\"\n" + tc.key + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Decode() = %v, want %q", tc.key, err, tc.want)
		}
	}
}
