package launch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// The DeepSpeed config a launch file writes replaces a symlink planted
// under its name, never the link's target (attack round 9: cat > followed
// gpuplan-deepspeed.json -> victim and overwrote the victim).
func TestHeredocDoesNotWriteThroughSymlink(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("victim", filepath.Join(dir, DeepSpeedFile)); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(sh, "-c", heredoc(DeepSpeedFile, "{\"zero_optimization\": {}}\n"))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
		t.Errorf("victim = %q: written through the link", b)
	}
	fi, err := os.Lstat(filepath.Join(dir, DeepSpeedFile))
	if err != nil || !fi.Mode().IsRegular() {
		t.Errorf("%s is %v (%v), want a regular file", DeepSpeedFile, fi, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, DeepSpeedFile)); string(b) != "{\"zero_optimization\": {}}\n" {
		t.Errorf("%s = %q", DeepSpeedFile, b)
	}
}

// The note on a ZeRO plan says what the file does with the DeepSpeed
// config: it removes it unconditionally (heredoc's rm -f) and writes it
// afresh, so the note may not promise to replace "only an older copy"
// (attack round 11).
func TestDeepSpeedNoteSaysRewritten(t *testing.T) {
	p := &Plan{Strategy: model.ZeRO3}
	if p.ZeRO() == 0 {
		t.Fatal("ZeRO-3 plan has no ZeRO stage")
	}
	var note string
	for _, m := range p.NoteMessages() {
		if strings.Contains(m.String(), DeepSpeedFile) {
			note = m.String()
		}
	}
	if !strings.Contains(note, "removed and written afresh on every run") || strings.Contains(note, "only an older copy") {
		t.Errorf("note %q does not say the file is rewritten on every run", note)
	}
	if h := heredoc(DeepSpeedFile, "{}\n"); !strings.HasPrefix(h, "rm -f "+DeepSpeedFile+"\n") {
		t.Errorf("heredoc %q does not remove the file first; the note says it does", h)
	}
}
