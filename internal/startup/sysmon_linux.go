package startup

import (
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The runtime's monitor thread (sysmon, runtime/proc.go) runs without a P
// and, while any goroutine runs, wakes every 20 µs (its sleep doubles only
// after 50 rounds with nothing to retake, to 10 ms at most). A ranking
// command keeps both cores of a small machine busy with its goroutines
// (the split scan, the savings beside the decisions), and there each of those
// wakes preempts one of them: recommend --json on the 2-core VM this was
// measured on made ≈ 80 nanosleeps and ≈ 130 context switches a run
// against version's ≈ 30 and ≈ 40, and ran ≈ 25% more CPU than under
// SCHED_FIFO, where an equal-priority wake waits its turn (docs/speed.md,
// perf45). Under SCHED_BATCH a woken thread does not preempt the one
// running (Linux commit 91c234b4e341, "sched: do not wakeup-preempt with
// SCHED_BATCH tasks"; kernel/sched/fair.c, check_preempt_wakeup_fair:
// "Batch and idle tasks do not preempt non-idle tasks (their preemption
// is driven by the tick)"; sched(7)): the monitor then runs on a free
// core at once, or on a busy one at the next tick or when its thread
// blocks, with its nice and its share of the CPU unchanged. Its work is
// the same: a command this short has no syscall to retake a P from for
// long, nothing running 10 ms to preempt, and no forced collection due.
// (Nice 19 instead, perf45, starved it when other processes kept both
// cores busy: 10% slower there.) A thread's policy is its own
// (sched_setscheduler(2) with a thread ID), so the monitor alone changes;
// a thread it starts later inherits it (clone(2)), which costs such a
// thread wake-up preemption only. Only for a command that ends in
// milliseconds, never the configurator, whose collections need the
// monitor's preemption on time.

// calmSysmon puts the runtime's monitor thread under SCHED_BATCH when it
// can tell which thread that is (sysmonTID); otherwise, or when the
// kernel refuses, it does nothing.
func calmSysmon() {
	if tid := sysmonTID(); tid > 0 {
		_ = setBatch(tid)
	}
}

// setBatch moves thread tid to SCHED_BATCH, its nice unchanged
// (sched_setscheduler(2): a fair policy's sched_priority is 0, and the
// call leaves the nice as it was; no privilege is needed to move between
// SCHED_OTHER and SCHED_BATCH).
func setBatch(tid int) error {
	var param struct{ priority int32 } // struct sched_param
	if _, _, e := unix.RawSyscall(unix.SYS_SCHED_SETSCHEDULER, uintptr(tid), unix.SCHED_BATCH, uintptr(unsafe.Pointer(&param))); e != 0 {
		return e
	}
	return nil
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
