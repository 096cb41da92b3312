package tui

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"

	"github.com/gpuplan/gpuplan/model"
)

// screenLog collects what the program draws, for polling.
type screenLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screenLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screenLog) has(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Contains(ansi.Strip(s.buf.String()), text)
}

// waitFor polls the screen for text for up to 10 s.
func (s *screenLog) waitFor(text string) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s.has(text) {
			return true
		}
	}
	return false
}

// Trap (issue 11): a config.json path naming a FIFO froze the whole
// configurator — its validation read the file on the update path, so
// keys, ctrl+c and redraws waited on a writer that never came. Here the
// reader blocks as a slow file would (safeio refuses FIFOs, so the real
// one does not; this one opens the FIFO and waits): enter waits for the
// read a bounded time, then stays on the question and says the file is
// still being read (trial M2: it must not pass a path it has not read),
// and ctrl+c ends the program with the terminal restored.
func TestFIFOConfigDoesNotFreeze(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "config.json")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() { // release the readers still waiting on the FIFO
		// A writer's open wakes every reader blocked in open, closed at
		// once or not; they then read EOF.
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
	reading := make(chan struct{}, 1) // a read of the path has started
	read := func(path string, _ model.Task) (model.Architecture, model.Precision, []model.Message, error) {
		select {
		case reading <- struct{}{}:
		default:
		}
		_, err := os.ReadFile(path) // blocks on a FIFO until a writer opens it
		if err == nil {
			err = os.ErrInvalid
		}
		return model.Architecture{}, "", nil, err
	}
	ctl, tty := openPTY(t)
	var screen screenLog
	go io.Copy(&screen, ctl)
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	m := pickModel(t, newTestApp(t, testCatalog(t), Options{ReadHFConfig: read}), "hugging")
	if focusedTitle(m) != "Hugging Face config.json" {
		t.Fatalf("not on the config.json page but %q", focusedTitle(m))
	}
	m.async = true
	m.hf.wait = 300 * time.Millisecond
	p := newProgram(context.Background(), m, tty, tty, colorprofile.ANSI256)
	done := make(chan error, 1)
	var errb bytes.Buffer
	sigs := make(chan os.Signal, 1) // not the process's SIGINT: other tests' teatest handlers would take it
	go func() { done <- finishOn(context.Background(), m, p, &errb, sigs) }()
	if !waitRaw(tty) {
		t.Fatal("the program never put the terminal in raw mode: the test proves nothing")
	}
	ctl.Write([]byte(fifo))
	select { // the reads of the path start in commands
	case <-reading:
	case <-time.After(10 * time.Second):
		t.Fatal("typing a config.json path never started a read of it")
	}
	ctl.Write([]byte("\r")) // enter: validation waits for the read, up to m.hf.wait
	if !screen.waitFor("still reading it after 300ms") {
		t.Error("enter on a config.json path naming a FIFO did not say it is still being read: the screen froze")
	}
	ctl.Write([]byte{3}) // ctrl+c: the answers changed, so it asks first
	if !screen.waitFor("Quit without exporting?") {
		t.Error("ctrl+c did not ask before quitting")
	}
	ctl.Write([]byte{3}) // and again
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		p.Kill()
		sigs <- syscall.SIGINT // finishOn quits on it
		t.Fatal("ctrl+c did not end the program while a config.json read was blocked")
	}
	after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Errorf("terminal modes changed: lflag %#x → %#x (left in raw mode?)", before.Lflag, after.Lflag)
	}
}
