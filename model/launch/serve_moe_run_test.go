//go:build unix

package launch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stubServer stands in for vllm serve and docker run in
// TestServeMoEScriptRuns: it logs its pid and --port, then the server on
// $STUB_FAIL_PORT exits with $STUB_STATUS after a second and the others
// sleep (exec, so the pid logged is the one the script signals).
const stubServer = `#!/bin/sh
port=
while [ $# -gt 0 ]; do
  [ "$1" = --port ] && port=$2
  shift
done
echo "$$ $port" >>"$STUB_LOG"
if [ "$port" = "$STUB_FAIL_PORT" ]; then
  sleep 1
  exit "$STUB_STATUS"
fi
exec sleep 120
`

// A TERM while the servers start (as soon as the first one runs) is not
// a case here: dash forks a background job with the parent's TERM trap
// still set until the child clears it, so a TERM the EXIT trap sends in
// those microseconds is caught and dropped and that server runs on
// (4 of 32 runs under load hung). The script records each PID before
// acting on a signal (replicaTraps), which closed the wider window
// between a server's start and its PID's line that TERM below hit.
//
// TestServeMoEScriptRuns runs the MoE script and docker script (three
// replicas, one server each) under /bin/sh, and bash when there is one,
// with stubServer as vllm and docker on PATH: one server exiting 3 ends
// the script within seconds with status 3, one exiting 0 with status 1,
// TERM to the script with 143 and Ctrl-C (INT to its process group) with
// 130, and every time no server is left running.
func TestServeMoEScriptRuns(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	shells := []string{"/bin/sh"}
	if bash, err := exec.LookPath("bash"); err == nil {
		shells = append(shells, bash)
	}
	s := moeServe(true, 3, 2)
	for _, f := range []Format{FormatTorchrun, FormatDocker} {
		script, err := s.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, shell := range shells {
			for _, tc := range []struct {
				name         string
				fail, status string         // the stub on port fail exits with status
				signal       syscall.Signal // sent once the servers run; INT goes to the process group
				want         int
			}{
				{name: "one-exits-3", fail: "8001", status: "3", want: 3},
				{name: "one-exits-0", fail: "8002", status: "0", want: 1},
				{name: "TERM", signal: syscall.SIGTERM, want: 143},
				{name: "Ctrl-C", signal: syscall.SIGINT, want: 130},
			} {
				t.Run(fmt.Sprintf("%s/%s/%s", f, filepath.Base(shell), tc.name), func(t *testing.T) {
					t.Parallel()
					runStubbedScript(t, shell, script, tc.fail, tc.status, tc.signal, tc.want)
				})
			}
		}
	}
}

func runStubbedScript(t *testing.T, shell string, script []byte, fail, status string, sig syscall.Signal, want int) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"vllm", "docker"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(stubServer), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path, log := filepath.Join(dir, "serve.sh"), filepath.Join(dir, "stub.log")
	if err := os.WriteFile(path, script, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(shell, path)
	cmd.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + dir,
		"STUB_LOG=" + log, "STUB_FAIL_PORT=" + fail, "STUB_STATUS=" + status}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group: Ctrl-C's, and the cleanup's
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	servers := func() []int {
		b, _ := os.ReadFile(log)
		var pids []int
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if pid, err := strconv.Atoi(strings.Fields(l + " x")[0]); err == nil {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	if sig != 0 {
		for len(servers()) < 3 {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%d of 3 servers started in 10 s; stderr:\n%s", len(servers()), stderr.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		target := pgid
		if sig == syscall.SIGINT {
			target = -pgid // a terminal's Ctrl-C signals the foreground process group
		}
		if err := syscall.Kill(target, sig); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("the script still runs after 20 s; stderr:\n%s", stderr.String())
	}
	took := time.Since(start)
	code := cmd.ProcessState.ExitCode()
	if code != want {
		t.Errorf("exit status %d (%v), want %d; stderr:\n%s", code, err, want, stderr.String())
	}
	if took > 10*time.Second {
		t.Errorf("the script took %v to end", took)
	}
	pids := servers()
	if len(pids) != 3 {
		t.Errorf("%d servers started, want 3", len(pids))
	}
	for _, pid := range pids {
		if stubAlive(pid) {
			t.Errorf("server %d still runs after the script ended", pid)
		}
	}
	if fail != "" && !strings.Contains(stderr.String(), "exited with status "+status+"; stopping the others") {
		t.Errorf("stderr does not say which server ended:\n%s", stderr.String())
	}
}

// stubAlive reports whether pid runs: signal 0 reaches it and it is no
// zombie (a zombie is dead, waiting for its parent to reap it).
func stubAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: trust signal 0
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}
