package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// TestFlagKeysListTheFlags: every workload or serving flag whose name is
// not its configuration key's is in config.FlagKeys, so an unknown key
// written as the flag is told its key (walk52: "serve.tp" was told
// "tpot_ms"; --rps is requests_per_sec, --pp pipeline_parallel_size).
func TestFlagKeysListTheFlags(t *testing.T) {
	for _, r := range workloadTable {
		table, key, ok := strings.Cut(r.key, ".")
		if !ok {
			continue
		}
		name := strings.ReplaceAll(r.name, "-", "_")
		if name == key {
			continue
		}
		if got := config.FlagKeys[table][name]; got != key {
			t.Errorf("--%s (%s): config.FlagKeys[%q][%q] = %q, want %q", r.name, r.key, table, name, got, key)
		}
	}
	for _, kv := range searchFlagKeys {
		table, key, _ := strings.Cut(kv[1], ".")
		if name := strings.ReplaceAll(kv[0], "-", "_"); name != key && config.FlagKeys[table][name] != key {
			t.Errorf("--%s (%s) is not in config.FlagKeys", kv[0], kv[1])
		}
	}
}
