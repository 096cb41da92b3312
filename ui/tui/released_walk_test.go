package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestReleasedFormatThroughThePages walks the pages as a person does:
// serving, gpt-oss-120b picked by search, Enter on the Precision page. The
// page was built (cursor on bf16) before the model answer refilled the
// precision, so Enter wrote bf16 and the panel priced bf16 weights on
// 4×A100 (walk w16); the select now follows the refilled value.
func TestReleasedFormatThroughThePages(t *testing.T) {
	cat := embeddedCatalog(t)
	tm := teatest.NewTestModel(t, newTestApp(t, cat, Options{}), teatest.WithInitialTermSize(120, 40))
	sc := newScreen(tm, 120, 40)
	await(t, sc, "page 1 of 13")
	keys(tm, enter)
	await(t, sc, "┃ Task")
	keys(tm, down, enter) // inference (serving)
	await(t, sc, ": Model")
	keys(tm, runes("/"))
	tm.Type("gpt-oss 120")
	keys(tm, enter)
	await(t, sc, ": Precision")
	keys(tm, enter)
	await(t, sc, "Batch and length")
	await(t, sc, "mxfp4 (as released) weights")
}
