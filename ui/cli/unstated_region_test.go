package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// Daytona's rows have the placeholder region "earth", which views write
// "location not stated" (model.RegionUnstated); sentences that place an
// offer "in REGION" said "best: daytona 1x-RTX4090 in location not
// stated" and "wrote toml for daytona/… in location not stated" (walk52).
// They now say "(location not stated)", and in Chinese （未说明地点）.
func TestUnstatedRegionReadsNaturally(t *testing.T) {
	for _, lang := range []string{"en", "zh-CN"} {
		want, bad := "(location not stated", " in location not stated"
		if lang == "zh-CN" {
			want, bad = "（未说明地点", "在 未说明地点"
		}
		for _, tt := range []struct {
			name string
			args []string
			line string // the line that places the offer
		}{
			{"recommend", []string{"recommend", "--model", "qwen3-0.6b", "--task", "lora", "--providers", "daytona", "--limit", "1"}, "best"},
			{"recommend serve", []string{"recommend", "--model", "qwen3-0.6b", "--task", "inference", "--providers", "daytona", "--limit", "1"}, "best"},
			{"export", []string{"export", "--model", "qwen3-0.6b", "--task", "lora", "--instance", "daytona/1x-RTX5090", "--format", "toml"}, "gpuplan"},
			{"export serve", []string{"export", "--model", "qwen3-0.6b", "--task", "inference", "--instance", "daytona/1x-RTX5090", "--format", "toml"}, "gpuplan"},
		} {
			t.Run(lang+" "+tt.name, func(t *testing.T) {
				args := append([]string{"--lang", lang}, tt.args...)
				if tt.args[0] == "export" {
					args = append(args, "-o", filepath.Join(t.TempDir(), "x.toml"))
				}
				code, out, stderr := runCLI(t, args...)
				if code != 0 {
					t.Fatalf("exit %d:\n%s", code, stderr)
				}
				line := tt.line
				if lang == "zh-CN" && line == "best" {
					line = "最佳"
				}
				found := false
				for l := range strings.SplitSeq(out+stderr, "\n") {
					if strings.Contains(l, bad) {
						t.Errorf("%q", l)
					}
					if strings.Contains(l, "daytona") && strings.HasPrefix(strings.TrimSpace(l), line) && strings.Contains(l, want) {
						found = true
					}
				}
				if !found {
					t.Errorf("no %s line says %q:\n%s%s", line, want, out, stderr)
				}
			})
		}
	}
}
