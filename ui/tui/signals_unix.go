//go:build !windows

package tui

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// stopper makes job-control stops leave the terminal usable. Bubble Tea
// suspends (tea.Suspend) by restoring the terminal, sending SIGTSTP to
// the process group and taking the terminal back on SIGCONT. A SIGTSTP
// from outside (kill -TSTP; ctrl+z itself is a key in raw mode) would
// stop the process with the terminal still raw, so it is caught; but once
// a Go program has caught SIGTSTP, the runtime keeps its handler and the
// signal never stops the process again (signal.Stop does not give back
// the default action). So every SIGTSTP is caught: one that Bubble Tea
// sends for a suspend we asked for becomes SIGSTOP, which stops the
// process group as SIGTSTP would (and cannot be caught); one from outside
// asks Bubble Tea to suspend first.
type stopper struct {
	stops chan os.Signal
	ours  atomic.Bool // a suspend we asked for is under way
}

func newStopper() *stopper { return &stopper{stops: make(chan os.Signal, 1)} }

// arm starts catching SIGTSTP (finish, for the program's run).
func (s *stopper) arm() { signal.Notify(s.stops, syscall.SIGTSTP) }

// disarm stops catching (the program ended).
func (s *stopper) disarm() { signal.Stop(s.stops) }

// suspend is the ctrl+z command: a suspend of ours.
func (s *stopper) suspend() tea.Msg {
	s.ours.Store(true)
	return tea.SuspendMsg{}
}

// caught handles one SIGTSTP for program p.
func (s *stopper) caught(p *tea.Program) {
	if s.ours.CompareAndSwap(true, false) {
		_ = syscall.Kill(0, syscall.SIGSTOP) // the terminal is restored: stop here until fg (SIGCONT)
		return
	}
	s.ours.Store(true)
	go p.Send(tea.SuspendMsg{}) // from outside: restore the terminal first
}
