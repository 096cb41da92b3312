package startup

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestFirstStarted(t *testing.T) {
	for _, c := range []struct {
		name string
		pid  int
		tids []int
		want int
	}{
		{"the lowest after the main thread", 100, []int{100, 103, 101, 105}, 101},
		{"listed in any order", 100, []int{107, 102, 100, 104}, 102},
		{"the main thread alone", 100, []int{100}, 0},
		{"IDs wrapped past pid_max", 4194300, []int{4194300, 4194302, 17}, 0},
		{"nothing listed", 100, nil, 0},
	} {
		if got := firstStarted(c.pid, c.tids); got != c.want {
			t.Errorf("%s: firstStarted(%d, %v) = %d, want %d", c.name, c.pid, c.tids, got, c.want)
		}
	}
}

func TestInNanosleep(t *testing.T) {
	nano := strconv.Itoa(unix.SYS_NANOSLEEP)
	for _, c := range []struct {
		line string
		want bool
	}{
		{nano + " 0x7ffd5a1c3f10 0x0 0x0 0x0 0x0 0x0 0x7ffd5a1c3ef8 0x46e1a3\n", true},
		{"202 0xc000100148 0x80 0x0 0x0 0x0 0x0 0x7f0e3fffed08 0x46e6e3\n", false}, // futex
		{"running\n", false},
		{"-1 0x7ffd5a1c3ef8 0x46e1a3\n", false},
		{"", false},
		{nano + "5 0x0\n", false}, // another number that starts alike
	} {
		if got := inNanosleep(c.line); got != c.want {
			t.Errorf("inNanosleep(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// policies returns each thread's scheduling policy by thread ID (proc(5):
// stat field 41, 0 SCHED_OTHER, 3 SCHED_BATCH) and its nice (field 19).
func policies(t *testing.T) (policy, nice map[int]int) {
	t.Helper()
	d, err := os.Open("/proc/self/task")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	policy, nice = map[int]int{}, map[int]int{}
	for _, n := range names {
		b, err := os.ReadFile("/proc/self/task/" + n + "/stat")
		if err != nil {
			continue // the thread exited
		}
		s := string(b)
		// Fields after the command name, which ends at the last ')': the
		// state is field 3, so field k is fields[k-3].
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		tid, _ := strconv.Atoi(n)
		nice[tid], _ = strconv.Atoi(fields[19-3])
		policy[tid], _ = strconv.Atoi(fields[41-3])
	}
	return policy, nice
}

// TestCalmSysmon moves the test process's own monitor: the thread found
// is none that runs a goroutine, it alone is under SCHED_BATCH, its nice
// unchanged, and threads the runtime starts afterwards for goroutines
// keep SCHED_OTHER.
func TestCalmSysmon(t *testing.T) {
	// Threads that run goroutines, held so the runtime cannot reuse them.
	const held = 3
	var ready, release sync.WaitGroup
	var mu sync.Mutex
	running := map[int]bool{}
	hold := func() {
		ready.Add(held)
		release.Add(1)
		for range held {
			go func() {
				runtime.LockOSThread()
				mu.Lock()
				running[unix.Gettid()] = true
				mu.Unlock()
				ready.Done()
				release.Wait()
			}()
		}
		ready.Wait()
	}
	hold()
	policy, nice := policies(t)
	if p := policy[unix.Gettid()]; p != unix.SCHED_NORMAL {
		t.Skipf("the test runs under scheduling policy %d", p)
	}
	tid := 0
	// Between tests the monitor may sleep on a note (all Ps idle), not
	// in nanosleep; a system call wakes it (entersyscall_sysmon), and the
	// reads of /proc are system calls, so tries go on a while.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		if tid = sysmonTID(); tid > 0 {
			break
		}
	}
	if tid == 0 {
		t.Fatal("sysmonTID found no thread asleep in nanosleep above the main thread")
	}
	if running[tid] || tid == unix.Gettid() {
		t.Fatalf("sysmonTID = %d, a thread that runs a goroutine", tid)
	}
	niceBefore := nice[tid]
	calmSysmon()
	hold() // three more threads, started now (an earlier -count run may have moved the monitor already)
	release.Done()
	policy, nice = policies(t)
	for id, p := range policy {
		switch {
		case id == tid && p != unix.SCHED_BATCH:
			t.Errorf("the monitor (thread %d) is under policy %d, want SCHED_BATCH (%d)", id, p, unix.SCHED_BATCH)
		case id == tid && nice[id] != niceBefore:
			t.Errorf("the monitor (thread %d) is at nice %d, want %d as before", id, nice[id], niceBefore)
		case id != tid && p != unix.SCHED_NORMAL:
			t.Errorf("thread %d is under policy %d, want SCHED_OTHER (only the monitor moves)", id, p)
		}
	}
}

// TestSetBatchRefused: a thread ID that is not this process's, or none,
// is refused by the kernel and reported, not ignored silently here.
func TestSetBatchRefused(t *testing.T) {
	if err := setBatch(-1); err == nil {
		t.Error("setBatch(-1) = nil, want the kernel's EINVAL")
	}
}
