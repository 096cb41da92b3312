//go:build windows

package tui

import (
	"os"

	tea "charm.land/bubbletea/v2"
)

// stopper: Windows has no job-control stops; the channel stays silent and
// Bubble Tea ignores tea.Suspend there.
type stopper struct{ stops chan os.Signal }

func newStopper() *stopper { return &stopper{stops: make(chan os.Signal, 1)} }

func (s *stopper) arm()                  {}
func (s *stopper) disarm()               {}
func (s *stopper) suspend() tea.Msg      { return tea.SuspendMsg{} }
func (s *stopper) caught(p *tea.Program) {}
