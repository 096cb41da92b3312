package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"golang.org/x/sys/unix"
)

// openPTY returns a pseudo-terminal's controller and terminal ends.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(ctl.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ctl.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 30, Col: 100}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctl.Close(); tty.Close() })
	return ctl, tty
}

// waitRaw polls the terminal until the program has put it in raw mode
// (no ICANON); false when that does not happen within 10 s.
func waitRaw(tty *os.File) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if t, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS); err == nil && t.Lflag&unix.ICANON == 0 {
			return true
		}
	}
	return false
}

// Trap: a panic leaving the terminal in raw mode. On a real (pseudo)
// terminal, a panic inside Update ends the program with the terminal's
// modes as they were before it started, and the report on stderr.
func TestPanicRestoresTerminal(t *testing.T) {
	ctl, tty := openPTY(t)
	go io.Copy(io.Discard, ctl) // the screen's output must be read or writes block
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestApp(t, testCatalog(t), Options{})
	m.screen = screenOffers
	p := newProgram(context.Background(), m, tty, tty, colorprofile.ANSI256)
	raw := make(chan bool, 1)
	go func() {
		raw <- waitRaw(tty)
		p.Send(brokenResult(m.seq))
	}()
	var errb bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- finish(context.Background(), m, p, &errb) }()
	select {
	case err = <-done:
	case <-time.After(15 * time.Second):
		p.Kill()
		t.Fatal("the program did not end after the panic")
	}
	if !<-raw {
		t.Error("the program never put the terminal in raw mode: the test proves nothing")
	}
	if err == nil || !strings.Contains(err.Error(), IssuesURL) {
		t.Errorf("error = %v, want one saying where to report", err)
	}
	after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Errorf("terminal modes changed: lflag %#x → %#x, iflag %#x → %#x (left in raw mode?)", before.Lflag, after.Lflag, before.Iflag, after.Iflag)
	}
	if after.Lflag&unix.ICANON == 0 || after.Lflag&unix.ECHO == 0 {
		t.Error("the terminal is in raw mode after the panic")
	}
}

// TestCtrlCRestoresTerminal: ctrl+c on a real (pseudo) terminal ends the
// program from any screen — asked once more when answers are unexported —
// and leaves the terminal's modes as they were.
func TestCtrlCRestoresTerminal(t *testing.T) {
	for _, sc := range []struct {
		name  string
		setup func(m *app)
	}{
		{"questions", func(m *app) {}},
		{"offers", func(m *app) { m.screen = screenOffers }},
		{"changed answers", func(m *app) { m.a.Task = "inference" }},
	} {
		t.Run(sc.name, func(t *testing.T) {
			ctl, tty := openPTY(t)
			go io.Copy(io.Discard, ctl)
			before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			m := newTestApp(t, testCatalog(t), Options{})
			sc.setup(&m)
			p := newProgram(context.Background(), m, tty, tty, colorprofile.ANSI256)
			go func() {
				waitRaw(tty)
				ctl.Write([]byte{3, 3}) // ctrl+c, and again when it asks first
			}()
			done := make(chan error, 1)
			var errb bytes.Buffer
			go func() { done <- finish(context.Background(), m, p, &errb) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				p.Kill()
				t.Fatal("ctrl+c did not end the program")
			}
			after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
				t.Errorf("terminal modes changed after ctrl+c: lflag %#x → %#x", before.Lflag, after.Lflag)
			}
		})
	}
}

// Trap: signals leaving the terminal in raw mode or ending silently.
// SIGINT, SIGTERM and SIGHUP end the program with the terminal's modes
// as they were, and an error for each: ErrInterrupted (exit 130) or a
// *SignalError (exit 128 + the signal).
//
// SIGTERM and SIGHUP are sent to the test process, through finish's own
// signal.Notify. SIGINT is handed to finishOn instead: every teatest
// model of the other tests leaves a SIGINT handler behind that logs to
// its finished test, which panics (go test -count=2); that finish
// listens for SIGINT is checked on stopSignals.
func TestSignalsRestoreTerminal(t *testing.T) {
	if !slices.Contains(stopSignals, os.Signal(syscall.SIGINT)) {
		t.Errorf("finish does not listen for SIGINT: stopSignals = %v", stopSignals)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sigName(sig), func(t *testing.T) {
			ctl, tty := openPTY(t)
			go io.Copy(io.Discard, ctl)
			before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			m := newTestApp(t, testCatalog(t), Options{})
			p := newProgram(context.Background(), m, tty, tty, colorprofile.ANSI256)
			raw := make(chan bool, 1)
			sigs := make(chan os.Signal, 1) // SIGINT's way in
			go func() {
				raw <- waitRaw(tty) // in raw mode, with finish's handler installed
				if sig == syscall.SIGINT {
					sigs <- sig
					return
				}
				syscall.Kill(os.Getpid(), sig)
			}()
			done := make(chan error, 1)
			var errb bytes.Buffer
			go func() {
				if sig == syscall.SIGINT {
					done <- finishOn(context.Background(), m, p, &errb, sigs)
					return
				}
				done <- finish(context.Background(), m, p, &errb)
			}()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				p.Kill()
				t.Fatalf("%s did not end the program", sigName(sig))
			}
			if !<-raw {
				t.Error("the program never put the terminal in raw mode: the test proves nothing")
			}
			after, terr := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if terr != nil {
				t.Fatal(terr)
			}
			if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
				t.Errorf("terminal modes changed after %s: lflag %#x → %#x, oflag %#x → %#x", sigName(sig), before.Lflag, after.Lflag, before.Oflag, after.Oflag)
			}
			var se *SignalError
			switch {
			case sig == syscall.SIGINT:
				if !errors.Is(err, ErrInterrupted) || !errors.Is(err, tea.ErrInterrupted) {
					t.Errorf("SIGINT: error %v, want ErrInterrupted wrapping tea.ErrInterrupted", err)
				}
			case !errors.As(err, &se) || se.ExitCode() != 128+int(sig) || strings.Contains(err.Error(), "\n"):
				t.Errorf("%s: error %v, want a one-line *SignalError with exit code %d", sigName(sig), err, 128+int(sig))
			}
		})
	}
}
