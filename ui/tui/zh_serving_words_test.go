package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestChineseServingPanelWords: the serving panel in Chinese puts the
// price after its unit ("每百万输出 token $0.56", not "$0.56 每百万输出
// token"), translates the offers' $/Mtok column, and leaves no space
// after a full-width colon.
func TestChineseServingPanelWords(t *testing.T) {
	for _, sc := range zhScreens() {
		if sc.name != "serving" && sc.name != "serving-offers" {
			continue
		}
		text := ansi.Strip(zhApp(t, zhOptions(), sc, 120, 40).View().Content)
		if sc.name == "serving" && !strings.Contains(text, "每百万输出 token $") {
			t.Errorf("%s: no \"每百万输出 token $…\":\n%s", sc.name, text)
		}
		if strings.Contains(text, "$/Mtok") {
			t.Errorf("%s: $/Mtok untranslated:\n%s", sc.name, text)
		}
		if strings.Contains(text, "： ") {
			t.Errorf("%s: a space after a full-width colon:\n%s", sc.name, text)
		}
	}
}
