package hf

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

// st is a tensor to write into a test safetensors header.
type st struct {
	name  string
	dtype string
	shape []int64
}

var stBytes = map[string]int64{"F32": 4, "BF16": 2, "F16": 2, "I64": 8, "U8": 1, "F8_E4M3": 1, "BOOL": 1, "I32": 4}

// header builds a safetensors header for tensors laid out contiguously, with
// __metadata__, padded with spaces to pad bytes when pad > 0; it returns the
// length-prefixed header and the size of the data section.
func header(tb testing.TB, tensors []st, pad int) ([]byte, int64) {
	tb.Helper()
	h := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var off int64
	for _, t := range tensors {
		n := stBytes[t.dtype]
		for _, d := range t.shape {
			n *= d
		}
		h[t.name] = map[string]any{"dtype": t.dtype, "shape": t.shape, "data_offsets": []int64{off, off + n}}
		off += n
	}
	js, err := json.Marshal(h)
	if err != nil {
		tb.Fatal(err)
	}
	if pad > 0 {
		if len(js) > pad {
			tb.Fatalf("header is %d bytes, more than the padding %d", len(js), pad)
		}
		js = append(js, bytes.Repeat([]byte(" "), pad-len(js))...)
	}
	return prefixed(js), off
}

// prefixed returns the 8-byte little-endian length followed by js.
func prefixed(js []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
	return append(out, js...)
}

// writeST writes a safetensors file of tensors with zeroed data.
func writeST(tb testing.TB, path string, tensors []st) int64 {
	tb.Helper()
	head, n := header(tb, tensors, 0)
	if err := os.WriteFile(path, append(head, make([]byte, n)...), 0o644); err != nil {
		tb.Fatal(err)
	}
	return n
}

var gpt2Block = []st{
	{"h.0.attn.c_attn.weight", "F32", []int64{768, 2304}},
	{"h.0.attn.c_attn.bias", "F32", []int64{2304}},
	{"h.0.attn.bias", "F32", []int64{1, 1, 1024, 1024}}, // causal mask buffer
	{"h.0.attn.masked_bias", "F32", []int64{}},          // scalar buffer
	{"h.0.ln_1.weight", "F32", []int64{768}},
}

func TestParseSafetensorsHeader(t *testing.T) {
	tests := []struct {
		name    string
		tensors []st
		want    TensorCounts
	}{
		{"gpt2 block: causal masks are buffers", gpt2Block, TensorCounts{
			Params: 768*2304 + 2304 + 768, ByDType: map[string]int64{"F32": 768*2304 + 2304 + 768},
			Buffers: 1024*1024 + 1, Tensors: 5, BufferTensors: 2, Bytes: 4 * (768*2304 + 2304 + 768 + 1024*1024 + 1), Files: 1,
		}},
		{"mixed dtypes and other buffers", []st{
			{"model.embed_tokens.weight", "BF16", []int64{32000, 64}},
			{"model.layers.0.self_attn.rotary_emb.inv_freq", "F32", []int64{32}},
			{"model.layers.0.mlp.down_proj.weight", "F8_E4M3", []int64{64, 128}},
			{"model.layers.0.mlp.down_proj.weight_scale_inv", "F32", []int64{1, 1}},
			{"roberta.embeddings.position_ids", "I64", []int64{1, 514}},
			{"bert.embeddings.token_type_ids", "I64", []int64{1, 512}},
			{"odd.position_ids", "F32", []int64{4}}, // not an integer table: a parameter
			{"gptneox.layers.0.attention.bias", "BOOL", []int64{1, 1, 8, 8}},
			{"transformer.h.0.attn.bias", "F32", []int64{8}}, // not a mask shape: a parameter
			{"empty", "F16", []int64{0, 7}},
		}, TensorCounts{
			Params:  32000*64 + 64*128 + 4 + 8,
			ByDType: map[string]int64{"BF16": 32000 * 64, "F8_E4M3": 64 * 128, "F32": 12, "F16": 0},
			Buffers: 32 + 1 + 514 + 512 + 64, Tensors: 10, BufferTensors: 5, Files: 1,
			Bytes: 2*32000*64 + 4*32 + 64*128 + 4 + 8*514 + 8*512 + 16 + 64 + 32,
		}},
		{"empty header", nil, TensorCounts{Files: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, n := header(t, tt.tensors, 0)
			file := append(head, make([]byte, n)...)
			for _, size := range []int64{int64(len(file)), -1} {
				got, err := ParseSafetensorsHeader(bytes.NewReader(file), size)
				if err != nil {
					t.Fatalf("fileSize %d: %v", size, err)
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.want) {
					t.Errorf("fileSize %d:\n got %+v\nwant %+v", size, got, tt.want)
				}
			}
		})
	}
}

func TestParseSafetensorsHeaderPadding(t *testing.T) {
	head, n := header(t, gpt2Block, 4096) // trailing spaces, as writers pad for alignment
	got, err := ParseSafetensorsHeader(bytes.NewReader(head), int64(len(head))+n)
	if err != nil {
		t.Fatal(err)
	}
	if got.Params != 768*2304+2304+768 || len(got.Warnings) != 0 {
		t.Errorf("got %+v", got)
	}
}

func TestParseSafetensorsHeaderGap(t *testing.T) {
	head, n := header(t, gpt2Block, 0)
	got, err := ParseSafetensorsHeader(bytes.NewReader(head), int64(len(head))+n+100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 1 || got.Warnings[0].String() != "100 data bytes are not covered by any tensor" {
		t.Errorf("Warnings = %q", got.Warnings)
	}
}

func TestParseSafetensorsHeaderErrors(t *testing.T) {
	obj := func(s string) []byte { return prefixed([]byte(s)) }
	member := func(e string) []byte { return obj(`{"w": ` + e + `}`) }
	huge := binary.LittleEndian.AppendUint64(nil, 1<<63) // absurd header length
	tests := []struct {
		name     string
		file     []byte
		fileSize int64 // 0: len(file)
		want     string
	}{
		{"empty file", nil, 0, "shorter than the 8-byte header length"},
		{"short prefix", []byte{1, 2, 3}, 0, "shorter than the 8-byte header length"},
		{"absurd length", huge, 0, "header length 9223372036854775808 bytes is above the 100 MB limit of the safetensors format"},
		{"absurd length, size unknown", huge, -1, "above the 100 MB limit of the safetensors format"},
		{"just over the limit", binary.LittleEndian.AppendUint64(nil, MaxHeaderBytes+1), -1, "above the 100 MB limit of the safetensors format"},
		{"just over gpuplan's limit", binary.LittleEndian.AppendUint64(nil, MaxShardHeaderBytes+1), -1, "above gpuplan's 16 MiB limit per file"},
		{"length past the file", append(binary.LittleEndian.AppendUint64(nil, 1000), `{}`...), 0,
			"header length 1000 bytes is past the end of the 10-byte file"},
		{"truncated header, size unknown", append(binary.LittleEndian.AppendUint64(nil, 10<<20), `{"a":`...), -1,
			"header truncated: 5 of 10485760 bytes"},
		{"zero length", binary.LittleEndian.AppendUint64(nil, 0), 0, "too short for a JSON object"},
		{"not JSON", obj(`{not json}`), 0, "header JSON: invalid character"},
		{"not an object", obj(`[1,2,3]`), 0, `header must be a JSON object, starts with "[1,2,3]"`},
		{"trailing garbage", obj(`{} x`), 0, "header JSON: unexpected x after the object"},
		{"second object", obj(`{} {}`), 0, "header JSON: unexpected {} after the object"},
		{"duplicate name", obj(`{"a": {"dtype": "U8", "shape": [0], "data_offsets": [0, 0]}, "a": {"dtype": "U8", "shape": [0], "data_offsets": [0, 0]}}`), -1,
			`tensor "a" appears twice`},
		// Attack test 4, N5: keys are matched exactly, as serde does.
		{"dtype in capitals", obj(`{"a": {"DTYPE": "U8", "shape": [0], "data_offsets": [0, 0]}}`), -1, `tensor "a": dtype: want a string such as "BF16", got nothing`},
		{"shape by another case", obj(`{"a": {"dtype": "U8", "Shape": [0], "data_offsets": [0, 0]}}`), -1, `tensor "a": shape: want a list`},
		{"truncated JSON", obj(`{"a": {"dtype": "U8"`), 0, "header JSON: unexpected EOF"},
		{"key not a string", obj(`{1: 2}`), 0, "header JSON: invalid character '1'"},
		{"not UTF-8", obj("{\"\xff\": 1}"), 0, "not UTF-8"},
		{"entry not an object", member(`[1]`), 0, `tensor "w": want an object with dtype, shape and data_offsets, got array`},
		{"entry null", member(`null`), 0, `tensor "w": want an object`},
		{"entry empty", member(`{}`), 0, `tensor "w": want an object with dtype, shape and data_offsets, got none of them`},
		{"entry a string", member(`"F32"`), 0, `tensor "w": want an object with dtype, shape and data_offsets, got string`},
		{"missing dtype", member(`{"shape": [1], "data_offsets": [0, 4]}`), 0, "dtype: want a string such as \"BF16\", got nothing"},
		{"dtype of wrong type", member(`{"dtype": 32, "shape": [1], "data_offsets": [0, 4]}`), 0, "dtype: want a string"},
		{"unknown dtype", member(`{"dtype": "Q4_K", "shape": [1], "data_offsets": [0, 4]}`), 0, `unknown dtype "Q4_K" (want one of BF16, BOOL, C64`},
		{"missing shape", member(`{"dtype": "F32", "data_offsets": [0, 4]}`), 0, "shape: want a list of whole numbers ≥ 0, got nothing"},
		{"null shape", member(`{"dtype": "F32", "shape": null, "data_offsets": [0, 4]}`), 0, "shape: want a list"},
		{"negative dim", member(`{"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}`), 0, "shape: want a list of whole numbers ≥ 0, got [-1]"},
		{"fractional dim", member(`{"dtype": "F32", "shape": [1.5], "data_offsets": [0, 4]}`), 0, "shape: want a list"},
		{"string dim", member(`{"dtype": "F32", "shape": ["4"], "data_offsets": [0, 16]}`), 0, "shape: want a list"},
		{"dim above 2^64", member(`{"dtype": "F32", "shape": [18446744073709551616], "data_offsets": [0, 4]}`), 0, "shape: want a list"},
		{"overflowing shape", member(`{"dtype": "F32", "shape": [4294967296, 4294967296], "data_offsets": [0, 4]}`), 0, "too many elements"},
		{"shape above 1 EiB", member(`{"dtype": "F64", "shape": [1152921504606846976], "data_offsets": [0, 4]}`), 0, "larger than 1 EiB"},
		{"sub-byte remainder", member(`{"dtype": "F4", "shape": [3], "data_offsets": [0, 2]}`), 0, "not a whole number of bytes"},
		{"missing offsets", member(`{"dtype": "F32", "shape": [1]}`), 0, "data_offsets: want [begin, end] in bytes, got nothing"},
		{"three offsets", member(`{"dtype": "F32", "shape": [1], "data_offsets": [0, 4, 8]}`), 0, "data_offsets: want [begin, end]"},
		{"negative offset", member(`{"dtype": "F32", "shape": [1], "data_offsets": [-4, 0]}`), 0, "data_offsets: want [begin, end]"},
		{"begin after end", member(`{"dtype": "F32", "shape": [1], "data_offsets": [8, 4]}`), 0, "begin is after end"},
		{"size mismatch", member(`{"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 4]}`), -1,
			"data_offsets [0, 4] hold 4 bytes, but F32 [2, 3] needs 24"},
		{"past the file", member(`{"dtype": "F32", "shape": [1000], "data_offsets": [0, 4000]}`), 0,
			"data_offsets [0, 4000] end past the 0 data bytes of the file (truncated?)"},
		{"past 1 EiB", member(`{"dtype": "U8", "shape": [1], "data_offsets": [1152921504606846976, 1152921504606846977]}`), -1,
			"end past 1 EiB"},
		{"overlap", obj(`{"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}, "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}`), -1,
			`tensors "a" and "b" overlap at data bytes 4–8`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			size := tt.fileSize
			if size == 0 {
				size = int64(len(tt.file))
			}
			got, err := ParseSafetensorsHeader(bytes.NewReader(tt.file), size)
			if err == nil {
				t.Fatalf("ParseSafetensorsHeader() = %+v, want an error", got)
			}
			if !errors.Is(err, ErrSafetensors) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want ErrSafetensors containing %q", err, tt.want)
			}
		})
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestParseSafetensorsHeaderReadsOnlyTheHeader(t *testing.T) {
	head, n := header(t, gpt2Block, 0)
	r := &countingReader{r: io.MultiReader(bytes.NewReader(head), bytes.NewReader(make([]byte, n)))}
	if _, err := ParseSafetensorsHeader(r, int64(len(head))+n); err != nil {
		t.Fatal(err)
	}
	if r.n != int64(len(head)) {
		t.Errorf("read %d bytes, want only the %d of the header", r.n, len(head))
	}
}

// TestSparse20GB counts a 20 GB checkpoint whose data is a hole: only the
// header is read, so it takes milliseconds.
func TestSparse20GB(t *testing.T) {
	const size = 20e9
	const pad = 8192 // header bytes, padded with spaces
	data := int64(size) - 8 - pad
	// 50 BF16 layers of [rows, 4096] and a U8 remainder fill the data exactly.
	const layers, cols = 50, 4096
	rows := data / layers / (2 * cols)
	tensors := []st{{"model.layers.0.self_attn.rotary_emb.inv_freq", "F32", []int64{64}}}
	used := int64(4 * 64)
	for i := range layers {
		tensors = append(tensors, st{fmt.Sprintf("model.layers.%d.mlp.weight", i), "BF16", []int64{rows, cols}})
		used += rows * cols * 2
	}
	tensors = append(tensors, st{"tail", "U8", []int64{data - used}})
	head, n := header(t, tensors, pad)
	if n != data {
		t.Fatalf("tensors cover %d bytes, want %d", n, data)
	}
	path := filepath.Join(t.TempDir(), "model.safetensors")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(head); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	got, err := ReadSafetensors(path)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	wantParams := layers*rows*cols + (data - used)
	if got.Params != wantParams || got.Buffers != 64 || got.Bytes != data || len(got.Warnings) != 0 {
		t.Errorf("got %+v, want %d params, 64 buffer elements, %d bytes", got, wantParams, data)
	}
	if got.DType() != "BF16" {
		t.Errorf("DType() = %q, want BF16", got.DType())
	}
	if elapsed > 200*time.Millisecond {
		t.Errorf("counting a 20 GB file took %v, want < 200ms", elapsed)
	}
	t.Logf("counted %d parameters of a 20 GB file in %v", got.Params, elapsed)
}

func TestReadSafetensorsIndex(t *testing.T) {
	dir := t.TempDir()
	s1 := []st{{"model.embed_tokens.weight", "BF16", []int64{100, 16}}, {"model.layers.0.mlp.weight", "BF16", []int64{16, 16}}}
	s2 := []st{{"lm_head.weight", "BF16", []int64{100, 16}}, {"model.norm.weight", "F32", []int64{16}},
		{"model.layers.0.self_attn.rotary_emb.inv_freq", "F32", []int64{8}}}
	b1 := writeST(t, filepath.Join(dir, "model-00001-of-00002.safetensors"), s1)
	b2 := writeST(t, filepath.Join(dir, "model-00002-of-00002.safetensors"), s2)
	index := func(total int64, extra string) {
		t.Helper()
		wm := map[string]string{}
		for _, x := range s1 {
			wm[x.name] = "model-00001-of-00002.safetensors"
		}
		for _, x := range s2 {
			wm[x.name] = "model-00002-of-00002.safetensors"
		}
		if extra != "" {
			wm[extra] = "model-00001-of-00002.safetensors"
		}
		js, err := json.Marshal(map[string]any{"metadata": map[string]any{"total_size": total}, "weight_map": wm})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, IndexFile), js, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := TensorCounts{
		Params: 2*100*16 + 16*16 + 16, ByDType: map[string]int64{"BF16": 2*100*16 + 16*16, "F32": 16},
		Buffers: 8, Tensors: 5, BufferTensors: 1, Bytes: b1 + b2, Files: 2,
	}

	index(b1+b2, "")
	for _, path := range []string{dir, filepath.Join(dir, IndexFile)} {
		got, err := ReadSafetensors(path)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("ReadSafetensors(%s):\n got %+v\nwant %+v", path, got, want)
		}
	}

	// A wrong total_size and a tensor missing from its shard are warnings.
	index(b1+b2+2, "model.layers.1.mlp.weight")
	got, err := ReadSafetensors(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Params != want.Params || len(got.Warnings) != 2 ||
		!strings.Contains(got.Warnings[0].String(), "1 tensors of the index's weight_map are missing") ||
		!strings.Contains(got.Warnings[1].String(), fmt.Sprintf("total_size is %d bytes, but the shard headers hold %d", b1+b2+2, b1+b2)) {
		t.Errorf("got %+v, want the same counts and two warnings", got)
	}
}

func TestReadSafetensorsIndexErrors(t *testing.T) {
	tests := []struct {
		name, index, want string
	}{
		{"malformed", `{"weight_map": `, "malformed JSON"},
		{"no weight_map", `{"metadata": {}}`, `missing "weight_map"`},
		{"empty weight_map", `{"weight_map": {}}`, "weight_map is empty"},
		{"weight_map of wrong type", `{"weight_map": {"a": 1}}`, "weight_map: want an object of tensor name to shard file"},
		{"path traversal", `{"weight_map": {"a": "../secret.safetensors"}}`, `shard "../secret.safetensors" must be a file name`},
		{"absolute shard", `{"weight_map": {"a": "/etc/passwd"}}`, "must be a file name"},
		{"bad total_size", `{"metadata": {"total_size": "big"}, "weight_map": {"a": "x.safetensors"}}`,
			`metadata.total_size: want a whole number of bytes, got "big"`},
		{"negative total_size", `{"metadata": {"total_size": -1}, "weight_map": {"a": "x.safetensors"}}`, "metadata.total_size"},
		{"missing shard", `{"weight_map": {"a": "x.safetensors"}}`, "x.safetensors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, IndexFile)
			if err := os.WriteFile(path, []byte(tt.index), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadSafetensors(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestReadSafetensorsShardError(t *testing.T) {
	dir := t.TempDir()
	shard := filepath.Join(dir, "a.safetensors")
	if err := os.WriteFile(shard, []byte("not a safetensors file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, IndexFile), []byte(`{"weight_map": {"w": "a.safetensors"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadSafetensors(dir)
	if err == nil || !strings.HasPrefix(err.Error(), shard+": ") || !errors.Is(err, ErrSafetensors) {
		t.Errorf("error = %v, want it to start with the shard path and wrap ErrSafetensors", err)
	}
}

func TestReadSafetensorsDir(t *testing.T) {
	// One model.safetensors, one other file, several files, none.
	dir := t.TempDir()
	writeST(t, filepath.Join(dir, "model.safetensors"), gpt2Block)
	writeST(t, filepath.Join(dir, "consolidated.safetensors"), gpt2Block[:1])
	if got, err := ReadSafetensors(dir); err != nil || got.Tensors != 5 {
		t.Errorf("dir with model.safetensors: %+v, %v", got, err)
	}

	one := t.TempDir()
	writeST(t, filepath.Join(one, "adapter_model.safetensors"), gpt2Block[:2])
	if got, err := ReadSafetensors(one); err != nil || got.Tensors != 2 {
		t.Errorf("dir with one file: %+v, %v", got, err)
	}

	two := t.TempDir()
	writeST(t, filepath.Join(two, "a.safetensors"), gpt2Block[:1])
	writeST(t, filepath.Join(two, "b.safetensors"), gpt2Block[:1])
	if _, err := ReadSafetensors(two); err == nil || !strings.Contains(err.Error(), "a.safetensors, b.safetensors and no") {
		t.Errorf("dir with two files: error %v", err)
	}

	none := t.TempDir()
	if _, err := ReadSafetensors(none); err == nil || !strings.Contains(err.Error(), "no model.safetensors.index.json") {
		t.Errorf("empty dir: error %v", err)
	}
	if _, err := ReadSafetensors(filepath.Join(none, "missing.safetensors")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error %v, want os.ErrNotExist", err)
	}
}

func TestWithCounts(t *testing.T) {
	// bert-base's published model.safetensors also holds the MLM and NSP
	// heads: 110,106,428 parameters ([H]).
	c := mustRead(t, "bert-base-uncased")
	a, warn := c.WithCounts(TensorCounts{Params: 110_106_428})
	if a.ParamCount() != 110_106_428 || warn.Key != "" {
		t.Errorf("bert: ParamCount() = %.0f, warn %q; want 110106428 and no warning (0.6%% apart)", a.ParamCount(), warn)
	}
	// Falcon-7B's .bin checkpoint stores the tied head twice: +4.3%.
	c = mustRead(t, "falcon-7b")
	a, warn = c.WithCounts(TensorCounts{Params: 7_217_189_760})
	if a.ParamCount() != 7_217_189_760 || !strings.Contains(warn.String(), "using the safetensors count") {
		t.Errorf("falcon: ParamCount() = %.0f, warn %q", a.ParamCount(), warn)
	}
	// MoE active counts still follow the shape.
	c = mustRead(t, "mixtral-8x7b")
	a, _ = c.WithCounts(TensorCounts{Params: 46_702_792_704 + 1000})
	if a.ParamCount() != 46_702_792_704+1000 || a.ActiveParams() != 12_879_925_248+1000 {
		t.Errorf("mixtral: %.0f / %.0f", a.ParamCount(), a.ActiveParams())
	}
	// Fewer in the headers (packed 4-bit weights): keep the shape count.
	c = mustRead(t, "llama-2-7b")
	a, warn = c.WithCounts(TensorCounts{Params: 1_000_000_000})
	if a.ParamCount() != 6_738_415_616 || !strings.Contains(warn.String(), "using the config.json count") {
		t.Errorf("packed: ParamCount() = %.0f, warn %q", a.ParamCount(), warn)
	}
	// OPT-350m carries its count in Params.
	c = mustRead(t, "opt-350m")
	a, _ = c.WithCounts(TensorCounts{Params: 331_196_416 + 10})
	if a.ParamCount() != 331_196_416+10 {
		t.Errorf("opt-350m: ParamCount() = %.0f", a.ParamCount())
	}
}

func TestDTypeAndPrecision(t *testing.T) {
	c := TensorCounts{ByDType: map[string]int64{"F32": 10, "BF16": 1000, "I64": 1000}}
	if got := c.DType(); got != "BF16" { // tie broken alphabetically
		t.Errorf("DType() = %q, want BF16", got)
	}
	if p, ok := PrecisionFor(c.DType(), model.TaskInference); p != model.BF16 || !ok {
		t.Errorf("PrecisionFor(BF16, inference) = %q, %v", p, ok)
	}
	if (TensorCounts{}).DType() != "" {
		t.Error("DType() of nothing is not empty")
	}
}

// TestReadSafetensorsMetadataOnly: a header with __metadata__ and no
// tensor is an error that names the file (walk35: it went on to "invalid
// architecture: give params, …" with no file named).
func TestReadSafetensorsMetadataOnly(t *testing.T) {
	head := []byte(`{"__metadata__": {"format": "pt"}}`)
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(head)))
	p := filepath.Join(t.TempDir(), "meta.safetensors")
	if err := os.WriteFile(p, append(b, head...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadSafetensors(p)
	if err == nil || !strings.HasPrefix(err.Error(), p+": ") || !errors.Is(err, ErrSafetensors) || !strings.Contains(err.Error(), "no parameter tensors") {
		t.Errorf("error = %v, want it to name %s, wrap ErrSafetensors and say there are no tensors", err, p)
	}
}

// TestWithCountsNamesTheShape: the warning names where the shape came
// from. walk51: `estimate --model llama-3.1-8b --safetensors X` was told
// "config.json gives 8030261248 parameters …" with no config.json given.
func TestWithCountsNamesTheShape(t *testing.T) {
	llama := mustRead(t, "llama-3.1-8b").Arch // Source: the file's path
	catalog := llama
	catalog.Key, catalog.Name, catalog.Source = "llama-3.1-8b", "Llama 3.1 8B", "config.json of meta-llama/Llama-3.1-8B"
	custom := model.Architecture{Family: model.FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, GatedMLP: true, Norm: model.RMSNorm, Vocab: 32000, Name: "custom decoder"} // llama-2-7b's shape
	for _, tt := range []struct {
		name string
		a    model.Architecture
		n    int64
		want string
	}{
		{"catalog, fewer in the headers", catalog, 1_000_000_000,
			"the catalog's Llama 3.1 8B shape gives 8030261248 parameters and the safetensors headers 1000000000 (-87.5%): using the catalog's count"},
		{"catalog, more in the headers", catalog, 9_000_000_000,
			"the catalog's Llama 3.1 8B shape gives 8030261248 parameters and the safetensors headers 9000000000 (+12.1%): using the safetensors count"},
		{"config.json", llama, 1_000_000_000,
			"config.json gives 8030261248 parameters and the safetensors headers 1000000000 (-87.5%): using the config.json count"},
		{"custom shape", custom, 1_000_000_000,
			"the custom shape gives 6738415616 parameters and the safetensors headers 1000000000 (-85.2%): using the custom shape's count"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, warn := (&Config{Arch: tt.a}).WithCounts(TensorCounts{Params: tt.n})
			if got := warn.String(); got != tt.want {
				t.Errorf("warning\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
