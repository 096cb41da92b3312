package launch

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// A string a YAML 1.1 reader (PyYAML for SkyPilot, go-yaml v2 under
// sigs.k8s.io/yaml for Kubernetes) would read as a bool, number, null or
// date is written quoted; an ordinary name stays plain (re-attack 6:
// `--name yes` became `name: yes`, a bool to SkyPilot).
func TestYAML11WordsQuoted(t *testing.T) {
	for _, tc := range []struct {
		in     string
		quoted bool
	}{
		{"yes", true}, {"No", true}, {"on", true}, {"OFF", true}, {"y", true}, {"n", true},
		{"0755", true}, {"1:20", true}, {"1_000", true}, {"0x1F", true}, {"2026-12-02", true},
		{"~", true}, {"", true}, {"null", true}, {".inf", true}, {"1.5", true}, {"<<", true}, {"=", true},
		{"gpuplan-llama", false}, {"yesterday", false}, {"nvidia/cuda:12.4.1", false}, {"a100", false},
	} {
		b, err := yaml.Marshal(mapping(kv{"name", str(tc.in)}))
		if err != nil {
			t.Fatal(err)
		}
		out := strings.TrimSpace(strings.TrimPrefix(string(b), "name:"))
		if got := strings.HasPrefix(out, `"`) || strings.HasPrefix(out, `'`); got != tc.quoted {
			t.Errorf("%q written as %s: quoted %v, want %v", tc.in, out, got, tc.quoted)
		}
	}
}
