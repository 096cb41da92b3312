package tui

// Messages of the configurator: one small typed struct per event.

// resultMsg carries a recompute of the answers; seq drops stale ones.
type resultMsg struct{ res *result }

// exportedMsg says the configuration was written to path (absolute).
type exportedMsg struct{ path string }

// fileExistsMsg says path exists: the export dialog asks before overwriting.
type fileExistsMsg struct{ path string }

// exportErrMsg says the export failed; the dialog shows err, answers stay.
type exportErrMsg struct{ err error }

// crashMsg carries a panic caught in a command, so the program can quit
// cleanly (terminal restored) and say where to report it.
type crashMsg struct{ info *crashInfo }

// refreshMsg makes the form's fields re-read their bound options (the
// regions after the providers changed); it carries nothing.
type refreshMsg struct{}
