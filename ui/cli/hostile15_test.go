package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Attack round 15: values the command line took and the configuration
// file refuses, or that overflowed, panicked or timed a job at +Inf. Each
// is refused in one line naming the flag, exit 2.
func TestHostile15Refusals(t *testing.T) {
	serve := []string{"estimate", "--model", "llama-3.1-8b", "--task", "inference", "--gpu", "h100"}
	qlora := []string{"--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "50M"}
	exp := with(append([]string{"export"}, qlora...), "--instance", "aws/g5.xlarge", "--format", "toml")
	rec := with(append([]string{"recommend"}, qlora...), "--limit", "1")
	c1 := "a\u009b31mRED" // U+009B, the C1 CSI
	for _, tt := range []struct {
		args []string
		want string
	}{
		// 04: integer divide by zero in serve.tpChoices; 2^32 accepted.
		{with(serve, "--gpus", "4611686018427387904"), "--gpus: must be 1–131072"},
		{with(serve, "--gpus", "4294967296"), "--gpus: must be 1–131072"},
		// 07: replicas overflowed the GPU count to -2^63.
		{with(serve, "--replicas", "4611686018427387904"), "--replicas: must be 1–131072"},
		{with(serve, "--replicas", "100000", "--tp", "2"), "--replicas: replicas × tp × pp must be at most 131072 GPUs, got 200000"},
		{with(serve, "--pp", "4294967296"), "--pp: must be 1–131072"},
		{with(serve, "--tp", "4294967296"), "--tp: must be 1–131072"},
		// 01, 09: +Inf years, or JSON's "not a finite number", exit 1.
		{with(rec, "--pricing", "spot", "--restart-minutes", "1e308", "--json"), "--restart-minutes must be 0 or 0.1–10080"},
		{with(rec, "--pricing", "spot", "--checkpoint-write-gbps", "1e300", "--json"), "--checkpoint-write-gbps must be 0.001–10000 (GB/s per node), got 1e+300"},
		// Attack r29: the lower ends, 1e-300, were accepted.
		{with(rec, "--pricing", "spot", "--checkpoint-write-gbps", "1e-300", "--json"), "--checkpoint-write-gbps must be 0.001–10000 (GB/s per node), got 1e-300"},
		{with(serve, "--rps", "1e-300"), "--rps: must be at least one request an hour (0.000278 per second), got 1e-300; for less, give concurrency = 1"},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--network-gbps", "1e-300", "--gpus", "64", "--gpu", "h100", "--dataset-tokens", "1T", "--json"}, "--network-gbps must be 1–100000"},
		// 05: export wrote a file its own decoder refused, exit 1.
		{with(exp, "--max-price-hour", "4294967296"), "--max-price-hour: must be > 0 and ≤ 1e+07"},
		{with(exp, "--budget-month", "1e11"), "--budget-month: must be > 0 and ≤ 1e+10"},
		{with(exp, "--image-size", "1e6"), "--image-size"},
		{with(exp, "--image-size", "1000000"), "--image-size: must be 1–16384"},
		{with(rec, "--max-price-hour", "4294967296"), "--max-price-hour: must be > 0 and ≤ 1e+07"},
		{[]string{"export", "--model", "llama-3.1-8b", "--task", "inference", "--instance", "aws/g5.xlarge", "--format", "toml", "--context-len", "4294967296"}, "--context-len: must be 1–"},
		// 02: the TOML launch wrote U+009B raw; every other format refused.
		{with(exp, "--dataset", c1), "has control characters"},
		{with(exp, "--model-id", c1), "has control characters"},
		{with(exp, "--script-args", c1), "has control characters"},
		{with(exp, "--image", c1), "has control characters"},
		{with(exp, "--script", c1), "has control characters"},
		// 11: Go's CSV reader's words.
		{[]string{"offers", "--providers", `a"b`}, `--providers "a\"b": a stray double quote`},
		{[]string{"offers", "--country", `"`}, `--country "\"": a stray double quote`},
		// walk (2026-12-06): pflag's lists read "eu\nrope" as "eu", exit 0.
		{[]string{"offers", "--regions", "eu\nrope"}, `--regions "eu\nrope": a control or invisible character (U+000A) in the list`},
		{[]string{"offers", "--providers", "aws\r\nbogus"}, `--providers "aws\r\nbogus": a control or invisible character (U+000D)`},
		{with(rec, "--country", "de\nzz"), `--country "de\nzz": a control or invisible character (U+000A)`},
		{with(rec, "--providers", "aws\nbogus"), `--providers "aws\nbogus": a control or invisible character`},
		{[]string{"offers", "--providers", "aws\u2028"}, `--providers "aws\u2028": a control or invisible character (U+2028)`},
		{[]string{"offers", "--country", "\u200bde"}, `--country "\u200bde": a control or invisible character (U+200B)`},
		{[]string{"catalog", "update", "--providers", "lambda\naws"}, `--providers "lambda\naws": a control or invisible character`},
		// 12: a date passed answered "no offer finishes within —".
		{with(rec, "--finish-by", "2017-01-01"), `--finish-by "2017-01-01" is not in the future`},
	} {
		code, out, errOut := runCLI(t, tt.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "goroutine") {
			t.Errorf("%v:\nexit %d, stdout %.200q, stderr %q;\nwant exit 2 and one line with %q", tt.args[len(tt.args)-2:], code, out, errOut, tt.want)
		}
	}
}

// The bounds leave the ordinary values alone.
func TestHostile15Accepted(t *testing.T) {
	for _, args := range [][]string{
		{"estimate", "--model", "llama-3.1-8b", "--task", "inference", "--gpu", "h100", "--replicas", "2", "--tp", "2"},
		{"estimate", "--model", "llama-3.1-8b", "--network-gbps", "1", "--gpus", "16", "--gpu", "h100", "--dataset-tokens", "1B"},
		{"offers", "--country", `"united states",de`},
		{"offers", "--country", `"korea, republic of"`, "--country", "jp"},
		{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "aws", "--providers", "gcp,lambda", "--regions", "us-", "--limit", "1"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
}

// Every number-taking flag of estimate at 1e300 and 1e-300: refused (exit
// 2, one line) or answered with finite figures, never exit 1, a panic or
// +Inf/NaN (attack round 15 found --network-gbps, --restart-minutes and
// --checkpoint-write-gbps; this checks the rest of the class).
func TestHugeAndTinyFloatFlags(t *testing.T) {
	root := newRoot(&Env{Args: []string{"help"}, Getenv: func(string) string { return "" }})
	estimate := []string{"estimate", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "16", "--json"}
	n := 0
	for _, base := range [][]string{
		with(estimate, "--dataset-tokens", "1B"),
		with(estimate, "--task", "inference"),
		{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "50M", "--pricing", "spot", "--limit", "1", "--json"},
	} {
		cmd, _, err := root.Find(base[:1])
		if err != nil {
			t.Fatal(err)
		}
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			switch f.Value.Type() {
			case "float", "count", "tokens", "ms|none":
			default:
				return
			}
			if base[0] == "recommend" && estimateHas(root, f.Name) {
				return // tried on estimate
			}
			for _, v := range []string{"1e300", "1e-300"} {
				args := with(base, "--"+f.Name, v)
				if f.Name == "dataset-tokens" || f.Name == "dataset-samples" {
					args = with(estimate, "--"+f.Name, v)
				}
				n++
				code, out, errOut := runCLI(t, args...)
				switch {
				case code == 2 && strings.Count(errOut, "\n") == 1:
				case code == 0 && !strings.Contains(out, "Inf") && !strings.Contains(out, "NaN"):
				default:
					t.Errorf("%s --%s %s: exit %d, stdout %.200q, stderr %.300q", base[0], f.Name, v, code, out, errOut)
				}
			}
		})
	}
	if n < 40 {
		t.Errorf("only %d flag values tried", n)
	}
}

// estimateHas reports whether estimate has the flag name.
func estimateHas(root *cobra.Command, name string) bool {
	cmd, _, err := root.Find([]string{"estimate"})
	return err == nil && cmd.Flags().Lookup(name) != nil
}

// A date or time already passed is refused, a future one is hours away.
func TestParseFinishByPast(t *testing.T) {
	now := time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{"2017-01-01", "2027-01-01", "2027-01-01T12:00:00Z", "2026-12-31T23:00:00-01:00"} {
		if h, err := ParseFinishBy(s, now); err == nil || !strings.Contains(err.Error(), "not in the future") {
			t.Errorf("ParseFinishBy(%q) = %v, %v; want refused as not in the future", s, h, err)
		}
	}
}

// with is base and more in a new slice: the table's rows share no array.
func with(base []string, more ...string) []string {
	return append(append([]string(nil), base...), more...)
}
