package hf

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// TensorCounts is what the headers of a safetensors checkpoint say about
// its tensors. Element counts are exact.
//
// Buffers are tensors that are stored but are not parameters; they are
// recognised by name (the last dot-separated part) and shape:
//   - inv_freq (rotary embedding frequencies, early Llama-2 conversions),
//     masked_bias (GPT-2, GPT-J), _float_tensor (fairseq);
//   - position_ids and token_type_ids of an integer dtype (RoBERTa);
//   - bias under attn or attention with shape [1, 1, n, n]: the causal
//     masks of GPT-2, GPT-J, GPT-Neo and old GPT-NeoX checkpoints;
//   - weight_scale_inv, weight_scale and input_scale: FP8 quantization
//     scales (DeepSeek-V3, compressed-tensors), metadata rather than weights.
//
// A tied LM head stored as a second copy (falcon-7b's .bin checkpoints) is
// counted twice: the headers cannot show that two tensors are tied.
type TensorCounts struct {
	Params  int64            // elements of parameter tensors
	ByDType map[string]int64 // parameter elements per safetensors dtype: "BF16", "F32", "F8_E4M3", ...
	Buffers int64            // elements of buffer tensors (see above), not in Params
	// Tensors and BufferTensors count tensors: all of them, and the buffers.
	Tensors, BufferTensors int
	// Bytes is the data size of all tensors, parameters and buffers: what an
	// index's metadata.total_size states.
	Bytes    int64
	Files    int             // safetensors files read
	Warnings []model.Message // e.g. an index whose total_size disagrees with the headers
}

// DType returns the safetensors dtype holding the most parameters ("" when
// none); ties go to the name first in alphabetical order.
func (t TensorCounts) DType() string {
	best := ""
	for d, n := range t.ByDType {
		if best == "" || n > t.ByDType[best] || n == t.ByDType[best] && d < best {
			best = d
		}
	}
	return best
}

// MaxHeaderBytes bounds a safetensors JSON header: the reference
// implementation's own limit (huggingface/safetensors,
// safetensors/src/tensor.rs, MAX_HEADER_SIZE = 100_000_000, which
// SafeTensors::read_metadata enforces as HeaderTooLarge); a larger declared
// length means the file is not safetensors or is corrupt.
const MaxHeaderBytes = 100_000_000

// Limits gpuplan sets on what it reads, far below the format's own, so that
// a crafted checkpoint costs seconds rather than hours (issue #29). Each is
// sized from the largest real checkpoints with headroom:
//
//   - MaxShardHeaderBytes, 16 MiB per header: a shard's header lists a
//     subset of the checkpoint's tensors, and the whole list of
//     DeepSeek-V3 (~90,000 tensors; deepseek-ai/DeepSeek-V3's
//     model.safetensors.index.json) is under 10 MiB, so even that model
//     saved as one file fits. A real shard's header is under 1 MB
//     (Llama-3.1-405B's 191 shards hold ~1,100 tensors between them).
//   - maxShards, 1024 shards: DeepSeek-V3 has 163 (model-00001-of-000163),
//     Llama-3.1-405B 191 (model-00001-of-00191); at transformers' default
//     max_shard_size of 5 GB, 1024 shards hold 5 TB, a BF16 checkpoint of
//     2.5 trillion parameters.
//   - maxTotalHeaderBytes, 64 MiB over all shards: four times the index's
//     cap (maxIndexBytes), as a header's entry per tensor (dtype, shape,
//     offsets) is longer than the index's line; the lengths the shards
//     state are summed before any header is parsed (shardHeadersFit).
//   - maxTensors, 1,000,000 tensors over all shards: ten times
//     DeepSeek-V3's ~90,000 (58 MoE layers × 256 experts × 3 projections,
//     each with an FP8 scale).
//
// The parse is linear in the header, 13–25 MB/s on one core
// (BenchmarkParseSafetensorsHeader); the worst accepted input, four shards
// of 16 MiB headers (620,000 tensors), took 2.7 s and 470 MB RSS.
const MaxShardHeaderBytes = 16 << 20

// The limits over an index's shards are variables so that tests can lower them.
var (
	maxShards           = 1024
	maxTotalHeaderBytes = uint64(64 << 20)
	maxTensors          = 1_000_000
)

// maxDataBytes bounds tensor offsets (1 EiB), so that sums of element
// counts (at most 2 per byte, for F4) cannot overflow int64.
const maxDataBytes = 1 << 60

// dtypeBits gives the bits per element of each safetensors dtype.
var dtypeBits = map[string]uint64{
	"BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8,
	"F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8,
	"I16": 16, "U16": 16, "F16": 16, "BF16": 16,
	"I32": 32, "U32": 32, "F32": 32,
	"I64": 64, "U64": 64, "F64": 64, "C64": 64,
	"F4": 4, "F6_E2M3": 6, "F6_E3M2": 6,
}

// ErrSafetensors is wrapped by every error about the content of a
// safetensors file or index (not by file-system errors).
var ErrSafetensors = errors.New("invalid safetensors")

// ParseSafetensorsHeader reads a safetensors header from r: the 8-byte
// little-endian header length, then that many bytes of JSON, and nothing
// more. fileSize is the size of the whole file, used to check the header
// length and the tensors' byte ranges; pass -1 when unknown (the range
// checks against the file are then skipped).
//
// Every header value is checked before use: a length above
// MaxHeaderBytes or past the end of the file, a truncated header, JSON that
// is malformed or of the wrong types, an unknown dtype, a negative or
// overflowing shape, a byte range that does not match dtype×shape, lies
// outside the data or overlaps another tensor, are all errors wrapping
// ErrSafetensors. Bytes not covered by any tensor give a warning. The
// header is read incrementally, so a false length allocates nothing large.
func ParseSafetensorsHeader(r io.Reader, fileSize int64) (TensorCounts, error) {
	tensors, warns, err := parseHeader(r, fileSize)
	if err != nil {
		return TensorCounts{}, model.Msg("%v: %v", ErrSafetensors, err)
	}
	var c TensorCounts
	for _, t := range tensors {
		c.add(t)
	}
	c.Files = 1
	c.Warnings = warns
	return c, nil
}

// tensor is one header entry, checked.
type tensor struct {
	name       string
	dtype      string
	numel      int64
	begin, end int64 // byte range in the data section
	buffer     bool
}

func (c *TensorCounts) add(t tensor) {
	c.Tensors++
	c.Bytes += t.end - t.begin
	if t.buffer {
		c.BufferTensors++
		c.Buffers += t.numel
		return
	}
	if c.ByDType == nil {
		c.ByDType = map[string]int64{}
	}
	c.Params += t.numel
	c.ByDType[t.dtype] += t.numel
}

// parseHeader reads and checks a header; tensors come sorted by offset.
func parseHeader(r io.Reader, fileSize int64) ([]tensor, []model.Message, error) {
	var prefix [8]byte
	if _, err := io.ReadFull(r, prefix[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, nil, model.Msg("shorter than the 8-byte header length")
		}
		return nil, nil, err
	}
	n := binary.LittleEndian.Uint64(prefix[:])
	switch {
	case n > MaxHeaderBytes:
		return nil, nil, model.Msg("header length %d bytes is above the %d MB limit of the safetensors format (not a safetensors file, or corrupt)", n, MaxHeaderBytes/1_000_000)
	case n > MaxShardHeaderBytes:
		return nil, nil, model.Msg("header length %d bytes is above gpuplan's %d MiB limit per file (real checkpoints' headers are under 1 MB; not a checkpoint gpuplan can count)", n, MaxShardHeaderBytes>>20)
	case fileSize >= 0 && n > uint64(max(fileSize-8, 0)):
		return nil, nil, model.Msg("header length %d bytes is past the end of the %d-byte file (truncated?)", n, fileSize)
	case n < 2:
		return nil, nil, model.Msg("header length %d bytes is too short for a JSON object", n)
	}
	var buf bytes.Buffer // grows as bytes arrive: a false length costs nothing
	if got, err := io.CopyN(&buf, r, int64(n)); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, model.Msg("header truncated: %d of %d bytes", got, n)
		}
		return nil, nil, err
	}
	head := buf.Bytes()
	if !utf8.Valid(head) {
		return nil, nil, model.Msg("header is not UTF-8")
	}
	if len(head) == 0 || head[0] != '{' {
		return nil, nil, model.Msg("header must be a JSON object, starts with %q", describe(head))
	}
	dataLen := int64(maxDataBytes)
	if fileSize >= 0 {
		dataLen = min(fileSize-8-int64(n), maxDataBytes)
	}
	tensors, err := decodeTensors(head, dataLen, fileSize >= 0)
	if err != nil {
		return nil, nil, err
	}

	slices.SortStableFunc(tensors, func(a, b tensor) int {
		if a.begin != b.begin {
			return cmp.Compare(a.begin, b.begin)
		}
		return cmp.Compare(a.end, b.end)
	})
	var warns []model.Message
	var covered, end int64
	last := ""
	for _, t := range tensors {
		if t.begin < end {
			return nil, nil, model.Msg("tensors %q and %q overlap at data bytes %d–%d", last, t.name, t.begin, end)
		}
		covered += t.end - t.begin
		end, last = t.end, t.name
	}
	total := end
	if fileSize >= 0 {
		total = dataLen
	}
	if gap := total - covered; gap > 0 {
		warns = append(warns, model.Msg("%d data bytes are not covered by any tensor", gap))
	}
	return tensors, warns, nil
}

// decodeTensors streams the header's members, so that memory stays
// proportional to the tensors kept rather than to the raw JSON. Duplicate
// names are an error (a JSON map would silently keep the last).
func decodeTensors(head []byte, dataLen int64, sized bool) ([]tensor, error) {
	dec := json.NewDecoder(bytes.NewReader(head))
	syntax := func(err error) error { return model.Msg("header JSON: %v", err) }
	if _, err := dec.Token(); err != nil { // the opening '{', checked by the caller
		return nil, syntax(err)
	}
	var tensors []tensor
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(err)
		}
		name, _ := tok.(string)     // object keys are strings
		if name == "__metadata__" { // free-form strings; not a tensor
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, syntax(err)
			}
			continue
		}
		var m map[string]json.RawMessage
		if err := dec.Decode(&m); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field == "" { // the entry itself is not an object
				return nil, model.Msg("tensor %q: want an object with dtype, shape and data_offsets, got %s", name, te.Value)
			}
			return nil, syntax(err)
		}
		if seen[name] {
			return nil, model.Msg("tensor %q appears twice", name)
		}
		seen[name] = true
		// The members by their exact names, as safetensors' serde reader
		// takes them: decoding into a struct would let "DTYPE" or "Shape"
		// stand for them (encoding/json ignores case).
		e := entry{DType: m["dtype"], Shape: m["shape"], Offsets: m["data_offsets"]}
		t, err := parseTensor(name, e, dataLen, sized)
		if err != nil {
			return nil, model.Msg("tensor %q: %v", name, err)
		}
		tensors = append(tensors, t)
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, syntax(err)
	}
	// The writer may pad the header with trailing spaces (for alignment);
	// anything else after the object is an error.
	if rest := bytes.TrimSpace(head[dec.InputOffset():]); len(rest) > 0 {
		return nil, model.Msg("header JSON: unexpected %s after the object", describe(rest))
	}
	return tensors, nil
}

// entry is a header member's three fields as written; parseTensor checks them.
type entry struct {
	DType, Shape, Offsets json.RawMessage
}

// parseTensor checks one header entry against dataLen, the size of the
// data section (an upper bound only when the file size is unknown).
func parseTensor(name string, e entry, dataLen int64, sized bool) (tensor, error) {
	if e.DType == nil && e.Shape == nil && e.Offsets == nil { // null or {}
		return tensor{}, model.Msg("want an object with dtype, shape and data_offsets, got none of them")
	}
	t := tensor{name: name}
	if e.DType == nil || json.Unmarshal(e.DType, &t.dtype) != nil {
		return tensor{}, model.Msg("dtype: want a string such as \"BF16\", got %s", orMissing(e.DType))
	}
	width, ok := dtypeBits[t.dtype]
	if !ok {
		return tensor{}, model.Msg("unknown dtype %q (want one of %s)", t.dtype, dtypeList())
	}
	var shape, offsets []uint64
	if e.Shape == nil || isNull(e.Shape) || json.Unmarshal(e.Shape, &shape) != nil {
		return tensor{}, model.Msg("shape: want a list of whole numbers ≥ 0, got %s", orMissing(e.Shape))
	}
	if e.Offsets == nil || json.Unmarshal(e.Offsets, &offsets) != nil || len(offsets) != 2 {
		return tensor{}, model.Msg("data_offsets: want [begin, end] in bytes, got %s", orMissing(e.Offsets))
	}
	numel := uint64(1)
	for _, d := range shape {
		hi, lo := bits.Mul64(numel, d)
		if hi != 0 || lo > maxDataBytes*2 {
			return tensor{}, model.Msg("shape %s has too many elements", describe(e.Shape))
		}
		numel = lo
	}
	// numel ≤ 2⁶¹ and width ≤ 64, so the product fits in 67 bits: check it.
	hi, nbits := bits.Mul64(numel, width)
	if hi != 0 || nbits/8 > maxDataBytes {
		return tensor{}, model.Msg("shape %s of %s is larger than 1 EiB", describe(e.Shape), t.dtype)
	}
	if nbits%8 != 0 {
		return tensor{}, model.Msg("shape %s of %s is not a whole number of bytes", describe(e.Shape), t.dtype)
	}
	begin, end := offsets[0], offsets[1]
	switch {
	case begin > end:
		return tensor{}, model.Msg("data_offsets [%d, %d]: begin is after end", begin, end)
	case end-begin != nbits/8:
		return tensor{}, model.Msg("data_offsets [%d, %d] hold %d bytes, but %s %s needs %d", begin, end, end-begin, t.dtype, describe(e.Shape), nbits/8)
	case end > uint64(dataLen) && sized:
		return tensor{}, model.Msg("data_offsets [%d, %d] end past the %d data bytes of the file (truncated?)", begin, end, dataLen)
	case end > uint64(dataLen):
		return tensor{}, model.Msg("data_offsets [%d, %d] end past 1 EiB", begin, end)
	}
	t.numel, t.begin, t.end = int64(numel), int64(begin), int64(end)
	t.buffer = isBuffer(name, t.dtype, shape)
	return t, nil
}

func orMissing(v json.RawMessage) string {
	if v == nil {
		return "nothing"
	}
	return describe(v)
}

func dtypeList() string {
	names := make([]string, 0, len(dtypeBits))
	for d := range dtypeBits {
		names = append(names, d)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// isBuffer applies the rule documented on TensorCounts.
func isBuffer(name, dtype string, shape []uint64) bool {
	parts := strings.Split(name, ".")
	last := parts[len(parts)-1]
	switch last {
	case "inv_freq", "masked_bias", "_float_tensor", "weight_scale_inv", "weight_scale", "input_scale":
		return true
	case "position_ids", "token_type_ids":
		return strings.HasPrefix(dtype, "I") || strings.HasPrefix(dtype, "U")
	case "bias":
		if len(parts) < 2 || (parts[len(parts)-2] != "attn" && parts[len(parts)-2] != "attention") {
			return false
		}
		return len(shape) == 4 && shape[0] == 1 && shape[1] == 1 && shape[2] == shape[3]
	}
	return false
}

// IndexFile is the name transformers gives a sharded checkpoint's index.
const IndexFile = "model.safetensors.index.json"

// maxIndexBytes bounds an index file. transformers writes it with
// json.dumps(indent=2, sort_keys=True) (modeling_utils.save_pretrained),
// about 90 bytes a tensor: Mixtral-8x22B's (WizardLM-2-8x22B's copy) is
// 162,187 bytes; a dense 405B's ~1,100 tensors are ~100 KB. The largest
// are block-FP8 MoE checkpoints, whose every expert projection has a
// weight_scale_inv beside it: DeepSeek-V3's 91,991 tensors (61 layers and
// the MTP layer, 256 experts, README_WEIGHTS.md) make an index of 8.9 MB,
// Kimi-K2's 139,583 (384 experts) 12.5 MB, computed from their tensor
// names in that layout. 16 MiB holds them with room; issue 29: a 31 MB
// index of 999,950 tensors under the old 64 MiB cap took 16 s and
// 0.88 GB before its shards were refused. readIndex reads through
// safeio.SafetensorsIndex (a stat, then a LimitReader), which has the
// same cap, so a larger file is refused before a byte is read.
const maxIndexBytes = 16 << 20

// ReadSafetensors counts the tensors of a checkpoint from its headers,
// reading no weights. path is a .safetensors file, an index
// (*.safetensors.index.json) or a directory holding model.safetensors.index.json
// and its shards, model.safetensors, or a single .safetensors file.
//
// With an index, every shard it names is read (shard names must be plain
// file names in the index's directory); a tensor listed in two shards is
// counted once. Disagreements between the index and the headers (a tensor
// missing from its shard, a total_size other than the headers' bytes) are
// warnings. Errors start with the file at fault.
func ReadSafetensors(path string) (TensorCounts, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return TensorCounts{}, err
	}
	if !fi.IsDir() {
		if strings.HasSuffix(path, ".index.json") {
			return readIndex(path)
		}
		return readFile(path)
	}
	idx := filepath.Join(path, IndexFile)
	if _, err := os.Stat(idx); err == nil {
		return readIndex(idx)
	}
	single := filepath.Join(path, "model.safetensors")
	if _, err := os.Stat(single); err == nil {
		return readFile(single)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return TensorCounts{}, err
	}
	var indexes, files []string
	for _, e := range entries {
		switch name := e.Name(); {
		case e.IsDir():
		case strings.HasSuffix(name, ".safetensors.index.json"):
			indexes = append(indexes, name)
		case strings.HasSuffix(name, ".safetensors"):
			files = append(files, name)
		}
	}
	switch {
	case len(indexes) == 1:
		return readIndex(filepath.Join(path, indexes[0]))
	case len(indexes) == 0 && len(files) == 1:
		return readFile(filepath.Join(path, files[0]))
	case len(indexes) == 0 && len(files) == 0:
		return TensorCounts{}, model.Msg("%s: no %s, model.safetensors or other .safetensors file", path, IndexFile)
	}
	return TensorCounts{}, model.Msg("%s: %s and no %s or model.safetensors: give the file to count",
		path, strings.Join(append(indexes, files...), ", "), IndexFile)
}

// readFile reads one safetensors file's header.
func readFile(path string) (TensorCounts, error) {
	tensors, warns, err := readShard(path)
	if err != nil {
		return TensorCounts{}, err
	}
	var c TensorCounts
	for _, t := range tensors {
		c.add(t)
	}
	if c.Params == 0 { // a header of __metadata__ (or buffers) alone counts nothing
		return TensorCounts{}, model.Msg("%s: %v: no parameter tensors in its header (%d entries); give a checkpoint's weights file, or its directory", path, ErrSafetensors, len(tensors))
	}
	c.Files = 1
	for _, w := range warns {
		c.Warnings = append(c.Warnings, model.Msg("%s: %v", path, w))
	}
	return c, nil
}

// readShard reads one file's header through safeio.Open: a FIFO, device or
// directory (after symlinks) is an error, never a hang, and parseHeader
// reads at most MaxHeaderBytes.
func readShard(path string) ([]tensor, []model.Message, error) {
	f, fi, err := safeio.Open(path)
	if err != nil {
		return nil, nil, model.Msg("%s: %v; want a .safetensors file", path, err)
	}
	defer f.Close()
	return readOpenShard(path, f, fi)
}

func readOpenShard(path string, f *os.File, fi fs.FileInfo) ([]tensor, []model.Message, error) {
	tensors, warns, err := parseHeader(f, fi.Size())
	if errors.Is(err, os.ErrDeadlineExceeded) { // safeio.Open's deadline
		return nil, nil, model.Msg("%s: %v", path, safeio.Stalled())
	}
	if err != nil {
		return nil, nil, model.Msg("%s: %v: %v", path, ErrSafetensors, err)
	}
	return tensors, warns, nil
}

// headerLen reads the 8-byte header length at the start of f and seeks back.
func headerLen(f *os.File) (uint64, error) {
	var prefix [8]byte
	if _, err := f.ReadAt(prefix[:], 0); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(prefix[:]), nil
}

// readIndex reads a sharded checkpoint through its index.
func readIndex(path string) (TensorCounts, error) {
	data, err := safeio.ReadFile(path, safeio.SafetensorsIndex) // regular files only, never blocks
	if err != nil {
		return TensorCounts{}, model.Msg("%s: %v", path, err)
	}
	shards, weightMap, totalSize, err := parseIndex(data)
	if err != nil {
		return TensorCounts{}, model.Msg("%s: %v: %v", path, ErrSafetensors, err)
	}
	if len(shards) > maxShards {
		return TensorCounts{}, model.Msg("%s: names %d shard files, above gpuplan's limit of %d (the largest real checkpoints have under 200)", path, len(shards), maxShards)
	}
	if len(weightMap) > maxTensors {
		return TensorCounts{}, model.Msg("%s: the weight_map names %d tensors, above gpuplan's limit of %d (DeepSeek-V3 has ~90,000)", path, len(weightMap), maxTensors)
	}
	dir := filepath.Dir(path)
	if err := shardHeadersFit(dir, shards); err != nil {
		return TensorCounts{}, err
	}
	var c TensorCounts
	seen := map[string]string{}   // tensor → shard it was counted from
	also := map[string][]string{} // tensor → further shards holding it
	var dups, missing, unlisted int
	var files []fs.FileInfo // the shards read, to refuse one file named twice
	var headerBytes uint64
	for _, shard := range shards {
		tensors, warns, fi, err := readIndexShard(filepath.Join(dir, shard), files, shards, &headerBytes)
		if err != nil {
			return TensorCounts{}, err
		}
		files = append(files, fi)
		if c.Tensors+dups+len(tensors) > maxTensors {
			return TensorCounts{}, model.Msg("%s: the shards up to %s hold more than gpuplan's limit of %d tensors (DeepSeek-V3 has ~90,000)", path, shard, maxTensors)
		}
		c.Files++
		for _, w := range warns {
			c.Warnings = append(c.Warnings, model.Msg("%s: %v", shard, w))
		}
		for _, t := range tensors {
			if _, ok := seen[t.name]; ok {
				dups++
				also[t.name] = append(also[t.name], shard)
				continue
			}
			seen[t.name] = shard
			c.add(t)
			if weightMap[t.name] != shard {
				unlisted++
			}
		}
	}
	for name, shard := range weightMap {
		if seen[name] != shard && !slices.Contains(also[name], shard) {
			missing++
		}
	}
	if missing > 0 {
		c.Warnings = append(c.Warnings, model.Msg("%d tensors of the index's weight_map are missing from their shards", missing))
	}
	if unlisted > 0 {
		c.Warnings = append(c.Warnings, model.Msg("%d tensors in the shards are not in the index's weight_map under that shard (counted)", unlisted))
	}
	if dups > 0 {
		c.Warnings = append(c.Warnings, model.Msg("%d tensors appear in more than one shard (counted once)", dups))
	}
	if totalSize >= 0 && totalSize != c.Bytes {
		c.Warnings = append(c.Warnings, model.Msg("index metadata.total_size is %d bytes, but the shard headers hold %d bytes of tensors", totalSize, c.Bytes))
	}
	return c, nil
}

// shardHeadersFit sums the header lengths the shards state (8 bytes read
// from each) and refuses the index when they are above
// maxTotalHeaderBytes, before any header is parsed: the cap held shard by
// shard let the shards under it be parsed first (issue 29: four 15 MB
// headers parsed, seconds and hundreds of MB, before the fifth was
// refused). A shard that cannot be opened or is too short is left to
// readIndexShard, which says why.
func shardHeadersFit(dir string, shards []string) error {
	var total uint64
	for _, shard := range shards {
		f, _, err := safeio.Open(filepath.Join(dir, shard))
		if err != nil {
			continue
		}
		n, err := headerLen(f)
		f.Close()
		if err != nil || n > MaxShardHeaderBytes {
			continue
		}
		if total += n; total > maxTotalHeaderBytes {
			return model.Msg("%s: the shards' headers up to this one are %d bytes, above gpuplan's limit of %d bytes in all (real checkpoints' are under 16 MiB)", filepath.Join(dir, shard), total, maxTotalHeaderBytes)
		}
	}
	return nil
}

// readIndexShard reads one shard of an index. A shard that is the same
// file as one already read (a symbolic or hard link) is refused: a real
// checkpoint's shards hold different tensors, so are different files (the
// Hugging Face cache links each snapshot file to a blob named by its
// content hash, so distinct shards stay distinct), and reading one file N
// times would cost N reads. The header lengths, summed over the shards,
// are checked against maxTotalHeaderBytes before any header is read.
func readIndexShard(path string, read []fs.FileInfo, names []string, total *uint64) ([]tensor, []model.Message, fs.FileInfo, error) {
	f, fi, err := safeio.Open(path)
	if err != nil {
		return nil, nil, nil, model.Msg("%s: %v; want a .safetensors file", path, err)
	}
	defer f.Close()
	for i, prev := range read {
		if os.SameFile(prev, fi) {
			return nil, nil, nil, model.Msg("%s: is the same file as shard %s (a link); each shard of an index must be its own file", path, names[i])
		}
	}
	if n, err := headerLen(f); err == nil && n <= MaxShardHeaderBytes {
		if *total += n; *total > maxTotalHeaderBytes {
			return nil, nil, nil, model.Msg("%s: the shards' headers up to this one are %d bytes, above gpuplan's limit of %d bytes in all (real checkpoints' are under 16 MiB)", path, *total, maxTotalHeaderBytes)
		}
	} // a short file or an over-long header is refused by parseHeader
	tensors, warns, err := readOpenShard(path, f, fi)
	return tensors, warns, fi, err
}

// parseIndex reads an index: the shard files in order of first use (checked
// to be plain names), the weight map, and metadata.total_size (-1 if absent).
func parseIndex(data []byte) (shards []string, weightMap map[string]string, totalSize int64, err error) {
	if len(data) > maxIndexBytes {
		return nil, nil, 0, model.Msg("index is above the %d MiB limit", maxIndexBytes>>20)
	}
	raw, err := decodeObject(data, false)
	if err != nil {
		return nil, nil, 0, err
	}
	totalSize = -1
	if m, ok := raw["metadata"]; ok && !isNull(m) {
		meta, err := decodeObject(m, false)
		if err != nil {
			return nil, nil, 0, model.Msg("metadata: %v", err)
		}
		if ts, ok := meta["total_size"]; ok && !isNull(ts) {
			if totalSize, err = parseSize(ts); err != nil {
				return nil, nil, 0, model.Msg("metadata.total_size: %v", err)
			}
		}
	}
	wm, ok := raw["weight_map"]
	if !ok || isNull(wm) {
		return nil, nil, 0, model.Msg(`missing "weight_map"`)
	}
	if err := json.Unmarshal(wm, &weightMap); err != nil || bytes.TrimSpace(wm)[0] != '{' {
		return nil, nil, 0, model.Msg("weight_map: want an object of tensor name to shard file, got %s", describe(wm))
	}
	if len(weightMap) == 0 {
		return nil, nil, 0, model.Msg("weight_map is empty")
	}
	set := map[string]bool{}
	for _, s := range weightMap {
		if !set[s] {
			if s == "" || s == "." || s == ".." || strings.ContainsAny(s, `/\`) || filepath.IsAbs(s) || filepath.VolumeName(s) != "" {
				return nil, nil, 0, model.Msg("weight_map: shard %q must be a file name in the index's directory", s)
			}
			if err := safeio.CheckName(s); err != nil {
				return nil, nil, 0, model.Msg("weight_map: shard %q: %v", s, err)
			}
			set[s] = true
			shards = append(shards, s)
		}
	}
	sort.Strings(shards)
	return shards, weightMap, totalSize, nil
}

// parseSize reads a whole number of bytes, 0–2⁶²; an integral float
// (1.5e10) is accepted.
func parseSize(v json.RawMessage) (int64, error) {
	s := string(bytes.TrimSpace(v))
	bad := model.Msg("want a whole number of bytes, got %s", describe(v))
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return 0, bad
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 && n <= 1<<62 {
		return n, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < 0 || x > 1<<62 || x != math.Trunc(x) {
		return 0, bad
	}
	return int64(x), nil
}
