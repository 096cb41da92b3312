package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestServeRecommendBest: recommend for serving ends, as training's does,
// with the answer on a "best:" line (the README: "the line after best:
// is the answer"): the first row's offer, its price per hour and per
// month of --hours-per-month hours (every hour of the month on a
// reserved term), its pricing mode, in English and in Chinese. Before, the serving ranking printed no best line.
func TestServeRecommendBest(t *testing.T) {
	code, out, errOut := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "inference", "--concurrency", "4", "--limit", "1", "--hours-per-month", "200")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := regexp.MustCompile(`(?m)^best: (\S+) (\S+) in (\S+): \$([0-9.,]+) per hour, \$([0-9.,]+) per month \(on-demand\)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no best: line:\n%s", out)
	}
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, m[1]+" ") {
			row = l
			break
		}
	}
	if !strings.Contains(row, m[2]) || !strings.Contains(row, m[3]) {
		t.Errorf("best: %s %s in %s is not the first row %q", m[1], m[2], m[3], row)
	}
	hour, _ := strconv.ParseFloat(strings.ReplaceAll(m[4], ",", ""), 64)
	month, _ := strconv.ParseFloat(strings.ReplaceAll(m[5], ",", ""), 64)
	// $/h prints to the cent: 200 h of it within 200 × half a cent.
	if hour <= 0 || month < 200*(hour-0.005) || month > 200*(hour+0.005) {
		t.Errorf("$%.2f per hour but $%.2f per month of 200 h", hour, month)
	}
	// On a reserved term the month is every hour of it, 730, whatever
	// --hours-per-month says (model.MonthlyUSD): a commitment bills every
	// month in full.
	code, out, errOut = runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "inference", "--concurrency", "4", "--limit", "1", "--hours-per-month", "200",
		"--pricing", "reserved-1y", "--providers", "gcp")
	if code != 0 {
		t.Fatalf("reserved-1y: exit %d: %s", code, errOut)
	}
	if m = regexp.MustCompile(`(?m)^best: .*: \$([0-9.,]+) per hour, \$([0-9.,]+) per month \(reserved-1y\)$`).FindStringSubmatch(out); m == nil {
		t.Fatalf("reserved-1y: no best: line:\n%s", out)
	}
	hour, _ = strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	month, _ = strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
	if hour <= 0 || month < 730*(hour-0.005) || month > 730*(hour+0.005) {
		t.Errorf("reserved-1y: $%.2f per hour but $%.2f per month, want 730 h of it", hour, month)
	}
	code, out, errOut = runCLI(t, "--lang", "zh-CN", "recommend", "--model", "llama-3.1-8b", "--task", "inference", "--concurrency", "4", "--limit", "1")
	if code != 0 {
		t.Fatalf("zh-CN: exit %d: %s", code, errOut)
	}
	if !regexp.MustCompile(`(?m)^最佳：\S+ \S+（\S+）：每小时 \$[0-9.,]+，每月 \$[0-9.,]+（按需实例）$`).MatchString(out) {
		t.Errorf("zh-CN: no 最佳 line:\n%s", out)
	}
}
