package tui

import (
	"reflect"
	"runtime"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// settle applies now the focus moves among a form's commands (cmd, from
// its update on a key): huh moves the focus by a command (huh.NextField
// on tab or enter, nextGroup past a page's last field), whose message
// the program handles after every key already read, so a key typed or
// pasted right after tab went to the field tab left. Each move found is
// passed to update at once, in order, and the commands it returns are
// settled in turn; the other commands are returned, to run as before.
//
// A tea.Cmd is opaque: huh's moves are known by their functions (public
// in every build, as the test drivers know the cursor's blink timer),
// and tea.Batch's command, which only returns its list, is opened to
// find them. A tea.Sequence is left whole (its order is its meaning).
// TestFocusMovesKnown keeps the names honest across upgrades.
func settle(cmd tea.Cmd, update func(tea.Msg) tea.Cmd) tea.Cmd {
	return settleDepth(cmd, update, 0)
}

// maxSettle bounds the moves one key makes (a page of fields, then the
// next page's): a loop in huh would otherwise hang the configurator.
const maxSettle = 64

func settleDepth(cmd tea.Cmd, update func(tea.Msg) tea.Cmd, depth int) tea.Cmd {
	if cmd == nil || depth > maxSettle {
		return cmd
	}
	name := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name()
	switch {
	case focusMoves[name]:
		return settleDepth(update(cmd()), update, depth+1)
	case strings.Contains(name, batchFunc):
		batch, ok := cmd().(tea.BatchMsg)
		if !ok {
			return cmd // a tea.Sequence
		}
		var out []tea.Cmd
		for _, c := range batch {
			out = append(out, settleDepth(c, update, depth+1))
		}
		return tea.Batch(out...)
	}
	return cmd
}

// focusMoves are the functions of huh's focus commands: each only
// returns its message.
var focusMoves = map[string]bool{
	funcName(huh.NextField):       true,
	funcName(huh.PrevField):       true,
	"charm.land/huh/v2.nextGroup": true,
	"charm.land/huh/v2.prevGroup": true,
}

// batchFunc is in the name of the command tea.Batch (and tea.Sequence)
// returns for two commands or more, which only returns them as a
// message; inlined, the name starts with the caller's
// (huh.(*Form).Init.Sequence.compactCmds[...].func2).
const batchFunc = ".compactCmds[...].func"

func funcName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }
