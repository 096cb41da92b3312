//go:build !linux

package startup

// calmSysmon is Linux's (a thread's own scheduling policy); elsewhere the
// runtime's monitor keeps its policy.
func calmSysmon() {}
