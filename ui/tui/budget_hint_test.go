package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestPanelJobBudgetSaysWhatBlocks (issue 31 round 4, item 3): LoRA on
// Llama 3.1 8B over 50M tokens with a $1.50 job budget ranks no offer
// because every job costs more, not for memory; the panel offered "What
// would fit AMD Instinct MI355X: turn on activation checkpointing" (a
// GPU that fits already). It now says what recommend says: without the
// job budget the cheapest job, in cents. Failing before: no "without
// --budget-job" in the panel.
func TestPanelJobBudgetSaysWhatBlocks(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m.a.Task, m.a.Model = model.TaskLoRA, "llama-3.1-8b"
	m.a.Dataset, m.a.DatasetUnit, m.a.Epochs = "50M", "tokens", "1"
	m.a.Length, m.a.Batch, m.a.BudgetJob = "2048", "1", "1.5"
	m.recompute()
	text := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ").Replace(screenText(m))), " ")
	if !strings.Contains(text, "with Job budget (USD) empty:") || strings.Contains(text, "--budget-job") { // the question, not the CLI's flag

		t.Errorf("the panel does not say that the job budget blocks:\n%s", screenText(m))
	}
	if strings.Contains(text, "What would fit") {
		t.Errorf("memory advice on a GPU that fits:\n%s", screenText(m))
	}
	if !strings.Contains(text, "job budget") || !strings.Contains(text, "$1.50") {
		t.Errorf("want the budget in cents ($1.50):\n%s", screenText(m))
	}
}

// The same in Chinese: the question's label, no flag.
func TestPanelJobBudgetHintNamesQuestionZh(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), zhOptions()), size(120, 40))
	m.a.Task, m.a.Model = model.TaskLoRA, "llama-3.1-8b"
	m.a.Dataset, m.a.DatasetUnit, m.a.Epochs = "50M", "tokens", "1"
	m.a.Length, m.a.Batch, m.a.BudgetJob = "2048", "1", "1.5"
	m.recompute()
	text := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ").Replace(screenText(m))), " ")
	if !strings.Contains(text, "作业预算（USD） 留空") || strings.Contains(text, "--budget-job") {
		t.Errorf("the hint does not name the question:\n%s", screenText(m))
	}
}
