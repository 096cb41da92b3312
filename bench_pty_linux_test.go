package main

import (
	"bytes"
	"os"
	"sync"
	"testing"
	"time"
)

// answeringTerminal is a terminal emulator's side of a pty reduced to what
// matters for a first frame: it answers the configurator's queries at
// once (background colour, cursor position, device attributes, as a
// local xterm does) and notes when the screen first shows token.
type answeringTerminal struct {
	mu    sync.Mutex
	out   bytes.Buffer
	token []byte
	shown chan struct{} // closed when token first appears
}

func (a *answeringTerminal) run(ctl *os.File) {
	buf := make([]byte, 32<<10)
	answered := map[string]bool{}
	for {
		n, err := ctl.Read(buf)
		a.mu.Lock()
		a.out.Write(buf[:n])
		seen := a.out.Bytes()
		for q, reply := range map[string]string{
			"\x1b]11;?": "\x1b]11;rgb:0000/0000/0000\x1b\\",
			"\x1b[6n":   "\x1b[1;1R",
			"\x1b[c":    "\x1b[?62;22c",
		} {
			if !answered[q] && bytes.Contains(seen, []byte(q)) {
				answered[q] = true
				ctl.Write([]byte(reply))
			}
		}
		if a.shown != nil && bytes.Contains(seen, a.token) {
			close(a.shown)
			a.shown = nil
		}
		a.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// BenchmarkProcessFirstFrame is issue 15's last row: from exec to the
// configurator's first frame on a 120×40 pty whose terminal answers at
// once, against hello-world run in turn. Reports ms (median wall to the
// first frame) and x-hello.
func BenchmarkProcessFirstFrame(b *testing.B) {
	gpuplan, hello := buildFor(b, b.TempDir(), false)
	home := b.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home)
	var walls, ratios []float64
	for range b.N {
		ctl, tty := ptyPair(b, 120, 40)
		term := &answeringTerminal{token: []byte("question page 1 of"), shown: make(chan struct{})}
		shown := term.shown
		go term.run(ctl)
		start := time.Now()
		cmd := startOnPTY(b, gpuplan, tty, []string{"TERM=xterm-256color", "LANG=C.UTF-8", "HOME=" + home})
		select {
		case <-shown:
		case <-time.After(10 * time.Second):
			b.Fatalf("no first frame in 10 s; the terminal got %q", tail(term.out.String()))
		}
		d := time.Since(start)
		ctl.Write([]byte("q"))
		cmd.Wait()
		h, _ := runOnce(b, env, hello)
		walls = append(walls, float64(d)/1e6)
		ratios = append(ratios, float64(d)/float64(h))
	}
	b.ReportMetric(median(walls), "ms")
	b.ReportMetric(median(ratios), "x-hello")
	b.ReportMetric(0, "ns/op")
}
