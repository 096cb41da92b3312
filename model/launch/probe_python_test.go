package launch_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The probe tests run the generated script with a Python 3 that has
// Debian's CPU PyTorch (python3-torch, torch 1.13) and torchvision; .ci/run
// installs them and sets GPUPLAN_REQUIRE_PROBE_PYTHON=1, so there a missing
// interpreter fails the tests instead of skipping them.

var pythons struct {
	sync.Mutex
	found map[string]string // modules wanted → interpreter ("" none)
}

// pythonWith returns a python3 that imports every module, preferring
// $GPUPLAN_TEST_PYTHON, then python3 on PATH, then /usr/bin/python3
// (Debian's, where apt installs python3-torch), or "" when none does.
func pythonWith(modules ...string) string {
	key := strings.Join(modules, ",")
	pythons.Lock()
	defer pythons.Unlock()
	if py, ok := pythons.found[key]; ok {
		return py
	}
	if pythons.found == nil {
		pythons.found = map[string]string{}
	}
	var candidates []string
	if p := os.Getenv("GPUPLAN_TEST_PYTHON"); p != "" {
		candidates = append(candidates, p)
	}
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, p)
	}
	candidates = append(candidates, "/usr/bin/python3")
	code := "import sys"
	for _, m := range modules {
		code += "; import " + m
	}
	for _, py := range candidates {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		err := exec.CommandContext(ctx, py, "-c", code).Run()
		cancel()
		if err == nil {
			pythons.found[key] = py
			return py
		}
	}
	pythons.found[key] = ""
	return ""
}

// needPython is pythonWith that skips the test, saying what is missing,
// unless GPUPLAN_REQUIRE_PROBE_PYTHON is set (CI), where it fails.
func needPython(t *testing.T, modules ...string) string {
	t.Helper()
	py := pythonWith(modules...)
	if py != "" {
		return py
	}
	msg := "no python3 with " + strings.Join(append([]string{"python3"}, modules...), ", ") +
		" (Debian: apt-get install python3-torch python3-torchvision; .ci/run installs them)"
	if os.Getenv("GPUPLAN_REQUIRE_PROBE_PYTHON") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// runProbe runs script in a fresh working directory with a fresh HOME and
// the given extra environment; it returns stdout, stderr, the exit code and
// the working directory.
func runProbe(t *testing.T, py string, script []byte, env []string, args ...string) (stdout, stderr string, code int, dir, home string) {
	t.Helper()
	dir, home = t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "gpuplan-probe.py")
	if err := os.WriteFile(path, script, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, append([]string{path}, args...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1",
		"OMP_NUM_THREADS=1", "MKL_NUM_THREADS=1"}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running the probe: %v", err)
	}
	return out.String(), errb.String(), code, dir, home
}

// emptyDir fails when dir has anything in it: the probe wrote outside its
// working directory.
func emptyDir(t *testing.T, dir string) {
	t.Helper()
	var found []string
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && p != dir {
			found = append(found, p)
		}
		return nil
	})
	if len(found) > 0 {
		t.Errorf("the probe wrote outside its working directory: %q", found)
	}
}
