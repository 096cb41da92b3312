package cli

import (
	"strings"
	"testing"
)

// TestZhRecommendVRAMHeader: line 3 of recommend read "显存每卡 254.49
// GiB", a space between two Chinese words.
func TestZhRecommendVRAMHeader(t *testing.T) {
	code, out, errs := runCLI(t, "--lang", "zh-CN", "recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--dataset-tokens", "100M")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "显存每卡 ") || strings.Contains(out, "显存 每卡") {
		t.Errorf("want 显存每卡, no space between the two words, in:\n%s", out)
	}
}

// TestZhPlanHoursPerMonth: the plan's duration cell read "6 个月 × 300 h",
// its h untranslated where the job row says "作业 10.0 小时"; and the
// did-you-mean list of an instance the catalog lacks was joined with an
// ASCII comma ("gcp g2-standard-4, gcp g2-standard-48 或 …").
func TestZhPlanHoursPerMonthAndDidYouMean(t *testing.T) {
	path := writeFile(t, "p1.toml", walkOffCatalog)
	_, out, errs := runCLI(t, "--lang", "zh-CN", "plan", path)
	if !strings.Contains(out, "6 个月 × 300 小时") || strings.Contains(out, "300 h") {
		t.Errorf("want 6 个月 × 300 小时 in:\n%s", out)
	}
	if w := "gcp g2-standard-4、gcp g2-standard-48 或 gcp g2-standard-24"; !strings.Contains(errs, w) {
		t.Errorf("want %q in:\n%s", w, errs)
	}
	_, _, errs = runCLI(t, "plan", path)
	if w := "did you mean gcp g2-standard-4, gcp g2-standard-48 or gcp g2-standard-24?"; !strings.Contains(errs, w) {
		t.Errorf("English: want %q in:\n%s", w, errs)
	}
}

// TestZhEnumNamesAndReservationModes (a new user's walk): a rope scaling
// type not known read `rope scaling type "linear"：应为 yarn`, its name
// English in a Chinese line, where the factor's error was translated; and
// offers --pricing capacity-block wrote "capacity-block每小时价格", the
// mode untranslated and run into the Chinese. Names the user types as
// written (task, precision) stay as they are. The other GPU variants'
// counts took ASCII brackets and commas.
func TestZhEnumNamesAndReservationModes(t *testing.T) {
	_, _, errs := runCLI(t, "--lang", "zh-CN", "recommend", "--model", "qwen3-8b", "--task", "inference", "--rope-scaling", "linear:2")
	if w := `RoPE 缩放类型 "linear"：应为 yarn`; !strings.Contains(errs, w) {
		t.Errorf("want %q in:\n%s", w, errs)
	}
	_, _, errs = runCLI(t, "recommend", "--model", "qwen3-8b", "--task", "inference", "--rope-scaling", "linear:2")
	if w := `rope scaling type "linear": want yarn`; !strings.Contains(errs, w) {
		t.Errorf("English: want %q in:\n%s", w, errs)
	}
	_, _, errs = runCLI(t, "--lang", "zh-CN", "offers", "H100:8")
	if !strings.Contains(errs, "（") || !strings.Contains(errs, "个报价）、") {
		t.Errorf("the other variants want full-width brackets and 、 in:\n%s", errs)
	}
	for _, mode := range []string{"capacity-block", "flex-start"} {
		_, out, errs := runCLI(t, "--lang", "zh-CN", "offers", "--pricing", mode)
		if strings.Contains(out, mode+"每小时") || !strings.Contains(out, "）每小时价格") {
			t.Errorf("%s: want the mode's Chinese name before 每小时价格 in:\n%s%s", mode, out, errs)
		}
	}
}
