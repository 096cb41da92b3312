package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data/update"
	"github.com/gpuplan/gpuplan/model"
)

// runUpdateWith runs gpuplan catalog update with a fake updater that
// reports progress prog and returns runErr; stderr is not a terminal.
func runUpdateWith(t *testing.T, prog []update.Progress, runErr error) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(Env{
		Args:   []string{"catalog", "update", "--source", "https://m1.example", "--source", "https://m2.example"},
		Stdout: &out, Stderr: &errb,
		Getenv:  func(string) string { return "" },
		Version: "test",
		UpdateCatalog: func(_ context.Context, o CatalogUpdate) ([]model.Message, error) {
			for _, p := range prog {
				o.Progress(p)
			}
			return nil, runErr
		},
	})
	return code, errb.String()
}

// TestUpdateErrorsOneLineEach: the joined errors of several providers
// were one line cut at 600 characters ("…"), losing the last providers'
// reasons; each provider's error is now a line of its own (issue 29).
func TestUpdateErrorsOneLineEach(t *testing.T) {
	long := strings.Repeat("x", 300)
	var errs []error
	for _, p := range []string{"aws", "gcp", "lambda"} {
		errs = append(errs, model.Msg("%s: https://m1.example/v8/%s/vms.csv: HTTP 404 Not Found %s (previous overlay kept)", p, p, long))
	}
	code, stderr := runUpdateWith(t, nil, errors.Join(errs...))
	if code != ExitError {
		t.Errorf("exit %d, want %d", code, ExitError)
	}
	var want strings.Builder
	for _, p := range []string{"aws", "gcp", "lambda"} {
		want.WriteString("gpuplan: catalog update: " + p + ": https://m1.example/v8/" + p + "/vms.csv: HTTP 404 Not Found " + long + " (previous overlay kept)\n")
	}
	want.WriteString("gpuplan: catalog update: 3 providers failed (a line each above)\n")
	if stderr != want.String() {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want.String())
	}
}

// TestUpdateSaysSourceRefused: the first --source refused for invalid
// data and the second used is said on stderr, one line naming the
// first source (as Run redacted it) and why (issue 29).
func TestUpdateSaysSourceRefused(t *testing.T) {
	prog := []update.Progress{
		{Provider: "lambda", Total: 1},
		{Provider: "lambda", Total: 1, Bytes: 2048, Done: true,
			Refused: []model.Message{model.Msg("%s: %v", "https://xxxxx@m1.example/v8/lambda/vms.csv", model.Msg("truncated file: the last line has no newline"))}},
	}
	code, stderr := runUpdateWith(t, prog, nil)
	want := "gpuplan: catalog update: lambda: source not used, the next one was: https://xxxxx@m1.example/v8/lambda/vms.csv: truncated file: the last line has no newline\n" +
		"gpuplan: catalog update: lambda done (2.0 kB in 0s)\n"
	if code != 0 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
}

// TestUpdateSkippedIsNotFailed: a provider not asked (update.ErrSkipped:
// its sources did not answer for an earlier one) is "skipped" in its
// progress line and in the closing count, as the summary says it (walk49:
// offline, progress said "lambda failed", the summary "lambda: skipped").
func TestUpdateSkippedIsNotFailed(t *testing.T) {
	failed := model.Msg("aws: no such host (no previous overlay)")
	skipped := model.Errorf(update.ErrSkipped, "lambda: not asked: it did not answer for aws")
	skipped2 := model.Errorf(update.ErrSkipped, "gcp: not asked: it did not answer for aws")
	tests := []struct {
		name      string
		errs      []error
		progress  []string // each provider's state
		wantFinal string
	}{
		{"one failed, one skipped", []error{failed, skipped}, []string{"aws failed", "lambda skipped"},
			"gpuplan: catalog update: 1 provider failed and 1 skipped (a line each above)\n"},
		{"all skipped", []error{skipped, skipped2}, []string{"lambda skipped", "gcp skipped"},
			"gpuplan: catalog update: 2 providers skipped (a line each above)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var prog []update.Progress
			for i, e := range tt.errs {
				p, _, _ := strings.Cut(tt.progress[i], " ")
				prog = append(prog, update.Progress{Provider: p, Index: i, Total: len(tt.errs), Done: true, Err: e})
			}
			_, stderr := runUpdateWith(t, prog, errors.Join(tt.errs...))
			for _, s := range tt.progress {
				if want := "gpuplan: catalog update: " + s + " (0 B in 0s)\n"; !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if !strings.HasSuffix(stderr, tt.wantFinal) {
				t.Errorf("stderr ends\n%s\nwant %q", stderr, tt.wantFinal)
			}
		})
	}
}
