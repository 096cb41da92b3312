//go:build !linux

package startup

// calmSysmon is Linux's (a thread's own nice); elsewhere the runtime's
// monitor keeps its priority.
func calmSysmon() {}
