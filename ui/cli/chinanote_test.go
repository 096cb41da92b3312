package cli

import (
	"strings"
	"testing"
)

// TestChinaNote (a new user's walk): --country CN found nothing and said
// nothing about where China's clouds are. offers lists nothing and says it
// on stderr; recommend's refusal says it in its one line.
func TestChinaNote(t *testing.T) {
	const where = "Alibaba Cloud, Tencent Cloud and AutoDL come as example overlays"
	code, _, errs := runCLI(t, "offers", "--country", "CN")
	if code != 0 || !strings.Contains(errs, where) {
		t.Errorf("offers --country CN: exit %d, stderr %q; want 0 and %q", code, errs, where)
	}
	code, out, errs := runCLI(t, "recommend", "--model", "qwen3-8b", "--task", "qlora", "--country", "china")
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, where) {
		t.Errorf("recommend --country china: exit %d, stdout %q, stderr %q; want 2 and one line with %q", code, out, errs, where)
	}
	if _, _, errs := runCLI(t, "offers", "--country", "DE"); strings.Contains(errs, where) {
		t.Errorf("offers --country DE talks of China: %q", errs)
	}
}
