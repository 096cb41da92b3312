package cli

import (
	"strings"
	"testing"
)

// TestChineseWordingRound4 (issue 31 round 4, item 7): the Chinese near
// misses printed "$0.47/h" (elsewhere "/小时") and a half-width colon
// after "按需实例:"; the 5% VRAM margin and the headroom were both 余量
// in one line. Failing before: "/h " and "按需实例:" in the output.
func TestChineseWordingRound4(t *testing.T) {
	_, out, _ := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "lora", "--dataset-tokens", "50M", "--seq-len", "2048",
		"--batch-size", "1", "--budget-job", "1.5", "--lang", "zh-CN")
	if !strings.Contains(out, "/小时  作业费用") || strings.Contains(out, "/h  ") {
		t.Errorf("near misses: want prices per 小时:\n%s", out)
	}
	_, out, _ = runCLI(t, "recommend", "--model", "llama-3.1-70b", "--task", "inference", "--rps", "5", "--prompt-tokens", "1K",
		"--output-tokens", "300", "--tpot-ms", "3", "--lang", "zh-CN")
	if strings.Contains(out, "按需实例:") || !strings.Contains(out, "按需实例：") {
		t.Errorf("serving near misses: want a full-width colon after 按需实例:\n%s", out)
	}
	_, out, _ = runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "lora", "--gpu", "a100-80gb", "--lang", "zh-CN")
	if strings.Contains(out, "% 余量") || !strings.Contains(out, "安全余量") {
		t.Errorf("estimate: want 安全余量 for the margin, 余量 for headroom:\n%s", out)
	}
}
