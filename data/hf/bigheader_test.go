package hf

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigHeader returns a length-prefixed safetensors header of n one-element
// BF16 tensors with realistic names (~110 bytes an entry, as in a
// DeepSeek-V3 shard), and the size of the data section.
func bigHeader(n int) ([]byte, int64) {
	var b bytes.Buffer
	b.WriteString(`{"__metadata__":{"format":"pt"}`)
	for i := range n {
		fmt.Fprintf(&b, `,"model.layers.%d.mlp.experts.%d.down_proj.weight":{"dtype":"BF16","shape":[1],"data_offsets":[%d,%d]}`,
			i/256, i%256, 2*i, 2*i+2)
	}
	b.WriteByte('}')
	return append(binary.LittleEndian.AppendUint64(nil, uint64(b.Len())), b.Bytes()...), int64(2 * n)
}

// BenchmarkParseSafetensorsHeader parses a header of 50,000 tensors (~5 MB).
func BenchmarkParseSafetensorsHeader(b *testing.B) {
	head, n := bigHeader(50_000)
	data := append(head, make([]byte, n)...)
	b.SetBytes(int64(len(head)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseSafetensorsHeader(bytes.NewReader(data), int64(len(data))); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSafetensorsHeaderCap builds a real header just over
// MaxShardHeaderBytes (a crafted checkpoint of ~160,000 tensors) and checks
// that it is refused, naming the file and the limit, before it is parsed;
// a header under the cap is counted.
func TestSafetensorsHeaderCap(t *testing.T) {
	dir := t.TempDir()
	n := MaxShardHeaderBytes/100 + 1 // entries are over 100 bytes
	head, data := bigHeader(n)
	if len(head)-8 <= MaxShardHeaderBytes {
		t.Fatalf("crafted header is %d bytes, want over %d", len(head)-8, MaxShardHeaderBytes)
	}
	big := filepath.Join(dir, "big.safetensors")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(head); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(len(head)) + data); err != nil { // sparse data section
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadSafetensors(big)
	want := big + ": invalid safetensors: header length " + fmt.Sprint(len(head)-8) + " bytes is above gpuplan's 16 MiB limit per file"
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error = %v\nwant one line starting %q", err, want)
	}

	small := filepath.Join(dir, "small.safetensors")
	head, data = bigHeader(1000)
	if err := os.WriteFile(small, append(head, make([]byte, data)...), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := ReadSafetensors(small); err != nil || c.Tensors != 1000 || c.Params != 1000 {
		t.Errorf("ReadSafetensors(1000 tensors) = %+v, %v; want 1000 tensors of 1 element", c, err)
	}
}

// TestReadSafetensorsIndexLimits checks each limit over an index's shards,
// lowered so that small files reach it, and the refusal of one file named
// as two shards.
func TestReadSafetensorsIndexLimits(t *testing.T) {
	// four shards of two tensors each; each header is ~200 bytes
	setup := func(t *testing.T) string {
		dir := t.TempDir()
		wm := map[string]string{}
		for i := range 4 {
			shard := fmt.Sprintf("model-%05d-of-00004.safetensors", i+1)
			a, b := fmt.Sprintf("l.%d.a", i), fmt.Sprintf("l.%d.b", i)
			writeST(t, filepath.Join(dir, shard), []st{{a, "BF16", []int64{4}}, {b, "BF16", []int64{4}}})
			wm[a], wm[b] = shard, shard
		}
		js, _ := json.Marshal(map[string]any{"weight_map": wm})
		if err := os.WriteFile(filepath.Join(dir, IndexFile), js, 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	lower := func(t *testing.T, p *int, v int) {
		old := *p
		*p = v
		t.Cleanup(func() { *p = old })
	}
	t.Run("within the limits", func(t *testing.T) {
		if c, err := ReadSafetensors(setup(t)); err != nil || c.Tensors != 8 || c.Files != 4 {
			t.Errorf("got %+v, %v; want 8 tensors from 4 files", c, err)
		}
	})
	t.Run("shards", func(t *testing.T) {
		lower(t, &maxShards, 3)
		dir := setup(t)
		_, err := ReadSafetensors(dir)
		want := filepath.Join(dir, IndexFile) + ": names 4 shard files, above gpuplan's limit of 3"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error = %v, want %q", err, want)
		}
	})
	t.Run("tensors", func(t *testing.T) {
		lower(t, &maxTensors, 5)
		_, err := ReadSafetensors(setup(t))
		// Issue 29: the index's own count is refused before a shard is read.
		if err == nil || !strings.Contains(err.Error(), "the weight_map names 8 tensors, above gpuplan's limit of 5") {
			t.Errorf("error = %v, want the tensor limit named from the index", err)
		}
	})
	t.Run("header bytes", func(t *testing.T) {
		old := maxTotalHeaderBytes
		maxTotalHeaderBytes = 200
		t.Cleanup(func() { maxTotalHeaderBytes = old })
		dir := setup(t)
		_, err := ReadSafetensors(dir)
		want := filepath.Join(dir, "model-00002-of-00004.safetensors") + ": the shards' headers up to this one are "
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "limit of 200 bytes") {
			t.Errorf("error = %v, want %q… limit of 200 bytes", err, want)
		}
	})
	for _, link := range []struct {
		name string
		make func(old, new string) error
	}{{"symlink", os.Symlink}, {"hard link", os.Link}} {
		t.Run(link.name, func(t *testing.T) {
			dir := setup(t)
			s3 := filepath.Join(dir, "model-00003-of-00004.safetensors")
			if err := os.Remove(s3); err != nil {
				t.Fatal(err)
			}
			if err := link.make(filepath.Join(dir, "model-00001-of-00004.safetensors"), s3); err != nil {
				t.Skip(err)
			}
			_, err := ReadSafetensors(dir)
			want := s3 + ": is the same file as shard model-00001-of-00004.safetensors (a link)"
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error = %v, want %q", err, want)
			}
		})
	}
}
