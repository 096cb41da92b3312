package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/model"
)

// Trap: piped or terminal-less runs dying with "open /dev/tty". Given
// plain streams, the program reads keys from them and never opens the
// terminal itself (the command line refuses to start without one; see
// ui/cli TestConfiguratorNeedsTerminal).
func TestRunWithoutTerminal(t *testing.T) {
	var out, errb bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), testCatalog(t), Options{In: strings.NewReader("q"), Out: &out, Err: &errb,
			Getenv: func(string) string { return "" }})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after q")
	}
	if out.Len() != 0 {
		t.Errorf("stdout got %q; the screen belongs on stderr", out.String())
	}
	if strings.Contains(errb.String(), "/dev/tty") {
		t.Errorf("stderr mentions /dev/tty: %q", errb.String())
	}
	measureLikeLipgloss()
}

// brokenResult makes Update panic: an offer without an instance.
func brokenResult(seq int) resultMsg {
	return resultMsg{&result{seq: seq, est: &model.Estimate{}, rec: model.Recommendation{Offers: []model.Offer{{}}}}}
}

// Trap: a panic leaving the terminal in raw mode. A panic in Update is
// caught, the program quits normally (which restores the terminal) and
// the error says where to report it; the details go to stderr.
func TestPanicInUpdateIsReported(t *testing.T) {
	m := newTestApp(t, testCatalog(t), Options{})
	m.screen = screenOffers
	var errb bytes.Buffer
	p := tea.NewProgram(m, tea.WithInput(&bytes.Buffer{}), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	go p.Send(brokenResult(m.seq))
	err := finish(context.Background(), m, p, &errb)
	if err == nil || !strings.Contains(err.Error(), IssuesURL) || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("finish() error = %v, want an internal error pointing to %s", err, IssuesURL)
	}
	if !strings.Contains(errb.String(), "goroutine") || !strings.Contains(errb.String(), "gpuplan: internal error") {
		t.Errorf("stderr lacks the stack trace:\n%s", errb.String())
	}
}

// A panic in a command goroutine (the recompute) is reported the same way.
func TestPanicInCommandIsReported(t *testing.T) {
	calls := 0
	opts := Options{ReadHFConfig: func(string, model.Task) (model.Architecture, model.Precision, []model.Message, error) {
		calls++
		panic("reader bug")
	}}
	m := newApp(testCatalog(t), opts, testStyles(), newTheme())
	m.a.Model, m.a.HFPath = modelHF, "x/config.json"
	cmd := m.recompute()
	msg := cmd()
	if _, ok := msg.(crashMsg); !ok {
		t.Fatalf("recompute of a panicking reader gave %T, want crashMsg", msg)
	}
	next, quit := m.Update(msg)
	if quit == nil || next.(app).crash.info == nil || calls != 1 {
		t.Errorf("Update(crashMsg) did not quit with the crash recorded")
	}
}
