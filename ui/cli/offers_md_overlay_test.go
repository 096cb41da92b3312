package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOffersMarkdownOverlay: re-attack F2. gpuplan offers -o markdown
// marked no overlay price: "| lab | h1 | 1× h100-sxm | … | $1.5 |" read as
// a catalog price, and a held $0.05 carried only "(held: looks fake)".
// Now the price carries "*" and the overlay is named under the table, as
// in the table output, escaped for Markdown. The Markdown is English in
// zh-CN too (its header is: it is for pasting, as CSV), so both languages
// print the same bytes.
func TestOffersMarkdownOverlay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab_deal.toml")
	overlay := `schema_version = 1
[[instance]]
provider = "lab"
type = "h1"
gpu = "h100-sxm"
gpu_count = 1
vcpus = 16
memory_gib = 128
source = "[verified](http://evil.example/x) <img src=x> | col"
as_of = 2026-11-30
prices = [{ region = "r1", on_demand = 1.5 }]
[[instance]]
provider = "lambda"
type = "gpu_1x_gh200"
source = "a *fake* price"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 0.05 }]
`
	if err := os.WriteFile(path, []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	mdPath := strings.ReplaceAll(path, "_", `\_`)
	head := "| provider | instance | GPUs | VRAM GiB | $/h | $/GPU-h | spot $/h | vCPUs/GPU | RAM GiB/GPU | interconnect | region | as of |\n" +
		"|---|---|---|--:|--:|--:|--:|--:|--:|---|---|---|\n"
	held := head +
		"| lambda | gpu_1x_gh200 (held: looks fake) | 1× gh200 | 96 (96) | $0.05* | $0.05 | — | 64 | 432 | — | us-east-1 (US) | 2026-12-01 |\n" +
		"\n\\* price from overlay " + mdPath + " (a \\*fake\\* price, as of 2026-12-01)\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"offers", "--providers", "lab"}, head +
			"| lab | h1 | 1× h100-sxm | 80 (80) | $1.5* | $1.5 | — | 16 | 128 | — | r1 | 2026-11-30 |\n" +
			"\n\\* price from overlay " + mdPath + ` (\[verified\](http://evil.example/x) \<img src=x\> \| col, as of 2026-11-30)` + "\n"},
		{[]string{"offers", "GH200", "--providers", "lambda", "--max-price", "0.1", "--all"}, held},
		// Trusted, it ranks: not "held" (verification walk, 2026-12-06).
		{[]string{"catalog", "instances", "GH200", "--providers", "lambda", "--max-price", "0.1", "--trust-overlay"}, strings.Replace(held, "(held: looks fake)", "(looks fake; trusted)", 1)},
	} {
		for _, lang := range []string{"C", zhLocale} {
			args := append(append([]string{"--catalog", path}, tc.args...), "-o", "markdown")
			code, out, errs := runLang(t, lang, args...)
			if code != 0 || out != tc.want {
				t.Errorf("LANG=%s %s: exit %d, stdout\n%s\nwant\n%s\nstderr %s", lang, strings.Join(tc.args, " "), code, out, tc.want, errs)
			}
		}
	}
}
