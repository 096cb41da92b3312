package startup

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The runtime's monitor thread (sysmon, runtime/proc.go) runs without a P
// and, while any goroutine runs, wakes every 20 µs (its sleep doubles only
// after 50 rounds with nothing to retake, to 10 ms at most). A ranking
// command keeps both cores of a small machine busy with its goroutines
// (the split scan, the savings, the JSON blocks), and there each of those
// wakes preempts one of them: recommend --json on the 2-core VM this was
// measured on made ≈ 90 nanosleeps and ≈ 145 context switches a run, and
// ran ≈ 25% more CPU than under SCHED_FIFO, where an equal-priority wake
// waits its turn (docs/speed.md, perf45). At nice 19 the monitor takes a
// core when one is free, or its small share of a busy one (CFS weights,
// kernel/sched/core.c sched_prio_to_weight: 15 against 1024), and does
// the same work: a command this short has no syscall to retake a P from
// for long, nothing running 10 ms to preempt, and no forced collection
// due. On Linux a thread's nice is its own (setpriority(2), NOTES: "the
// nice value is a per-thread attribute"), so setpriority(PRIO_PROCESS,
// tid) lowers the monitor alone; a thread it starts later inherits it
// (none did in 200 runs of recommend --json: the runtime reuses idle
// threads). Without privileges a nice can be raised, never lowered back,
// hence only for a command that ends in milliseconds, never the
// configurator.

// calmSysmon lowers the runtime's monitor thread to nice 19 when it can
// tell which thread that is (sysmonTID); otherwise it does nothing.
func calmSysmon() {
	if tid := sysmonTID(); tid > 0 {
		_ = unix.Setpriority(unix.PRIO_PROCESS, tid, 19)
	}
}

// sysmonTID returns the monitor's thread ID, or 0 when it cannot tell.
func sysmonTID() int {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return 0
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return 0
	}
	tids := make([]int, 0, len(names))
	for _, n := range names {
		if t, err := strconv.Atoi(n); err == nil {
			tids = append(tids, t)
		}
	}
	tid := firstStarted(os.Getpid(), tids)
	if tid == 0 {
		return 0
	}
	// Asleep between checks nearly all the time (a wake is ≈ 1 µs of 20):
	// a few reads find it there unless the thread is not the monitor.
	for range 4 {
		b, err := os.ReadFile("/proc/self/task/" + strconv.Itoa(tid) + "/syscall")
		if err != nil {
			return 0
		}
		if inNanosleep(string(b)) {
			return tid
		}
	}
	return 0
}

// firstStarted returns the thread the runtime started first after the
// main thread (pid): runtime.main starts the monitor (newm(sysmon, …))
// before the runtime's own goroutines and before any package initialises,
// and Linux hands out IDs in increasing order, so it is the lowest ID
// above pid. When some ID is below pid the IDs wrapped past pid_max
// (proc(5), /proc/sys/kernel/pid_max) and the order says nothing: 0.
func firstStarted(pid int, tids []int) int {
	first := 0
	for _, t := range tids {
		switch {
		case t < pid:
			return 0
		case t > pid && (first == 0 || t < first):
			first = t
		}
	}
	return first
}

// inNanosleep reports whether a /proc/PID/task/TID/syscall line (proc(5):
// the number of the system call the thread is blocked in, then its
// arguments; "running" or -1 otherwise) is nanosleep, which the runtime's
// usleep calls (runtime/sys_linux_amd64.s, sys_linux_arm64.s).
func inNanosleep(line string) bool {
	n, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	return n == strconv.Itoa(unix.SYS_NANOSLEEP)
}
