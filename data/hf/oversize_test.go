package hf

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sparse writes a file of size bytes with nothing stored (a hole), so a
// 1 TiB file costs no disk: read through, it would take hours.
func sparse(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
}

// Issue 29, item 3: every file the importer reads is refused by its size
// before it is read (a stat, then a LimitReader): an index or config.json
// one byte over its cap, and one of 1 TiB, which a read would not finish,
// are refused in one line naming the cap. Before, the index's cap was
// 64 MiB, and a 31 MB index of 999,950 tensors was parsed.
func TestImporterRefusesOversizeFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int64
		read func(string) error
		want string
	}{
		{IndexFile, 16<<20 + 1, func(p string) error { _, err := ReadSafetensors(p); return err }, "above the 16 MiB limit for a safetensors index"},
		{IndexFile, 1 << 40, func(p string) error { _, err := ReadSafetensors(p); return err }, "above the 16 MiB limit for a safetensors index"},
		{"config.json", MaxConfigBytes + 1, func(p string) error { _, err := ReadConfig(p); return err }, "above the 4 MiB limit for a config.json"},
		{"config.json", 1 << 40, func(p string) error { _, err := ReadConfig(p); return err }, "above the 4 MiB limit for a config.json"},
	} {
		p := filepath.Join(t.TempDir(), tc.name)
		sparse(t, p, tc.size)
		err := tc.read(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s of %d bytes: err = %v, want one line with %q", tc.name, tc.size, err, tc.want)
		}
	}
	if maxIndexBytes != 16<<20 {
		t.Errorf("maxIndexBytes = %d, want 16 MiB (DeepSeek-V3's index is 8.9 MB, Kimi-K2's 12.5 MB)", maxIndexBytes)
	}
}

// The shards' stated header lengths are summed before any header is
// parsed: the first shard's header is not JSON, yet the sum over the
// cap is what is reported (before, the first shard was parsed, and with
// a valid header each shard under the cap cost its parse).
func TestIndexHeaderSumBeforeParse(t *testing.T) {
	dir := t.TempDir()
	old := maxTotalHeaderBytes
	maxTotalHeaderBytes = 1000
	t.Cleanup(func() { maxTotalHeaderBytes = old })
	for _, name := range []string{"a.safetensors", "b.safetensors"} {
		var b [8 + 600]byte
		binary.LittleEndian.PutUint64(b[:8], 600)
		copy(b[8:], "not json")
		if err := os.WriteFile(filepath.Join(dir, name), b[:], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, IndexFile), []byte(`{"weight_map": {"x": "a.safetensors", "y": "b.safetensors"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadSafetensors(dir)
	want := filepath.Join(dir, "b.safetensors") + ": the shards' headers up to this one are 1200 bytes, above gpuplan's limit of 1000 bytes in all"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}
