package data

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// gpuMemoryMiB returns the memory per GPU that a SkyPilot GpuInfo cell
// states, in MiB, or 0 when it states none (an empty cell, a bare GPU name as
// Azure and Paperspace write, a dict without memory) or cannot be parsed.
//
// SkyPilot writes GpuInfo as a Python literal, not JSON:
// {'Gpus': [{'Name': 'A100', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 327680}.
// Keys are matched case-insensitively (DigitalOcean writes them in lower
// case). SizeInMiB is per GPU except on Vast, where it is the memory of all
// count GPUs, and on Prime Intellect, where it is the memory of all count
// GPUs too (its 8×A100 80GB rows say 655360); TotalGpuMemoryInMiB, used only
// when SizeInMiB is missing, is for all GPUs except on Lambda and
// DigitalOcean, where it is per GPU. RunPod's and Shadeform's fetchers write
// gigabytes in SizeInMiB ('SizeInMiB': 80 on an 80 GB A100): a per-GPU size
// under 512 is no GPU's memory in MiB, so it is read as GB (GPUs of 1 GB and
// less are not sold for machine learning).
func gpuMemoryMiB(info, provider string, count int) float64 {
	info = strings.TrimSpace(info)
	if !strings.HasPrefix(info, "{") || count < 1 {
		return 0
	}
	v, err := parsePyLiteral(info)
	if err != nil {
		return 0
	}
	root, _ := v.(map[string]any)
	mem := 0.0
	if gpus, _ := root["gpus"].([]any); len(gpus) > 0 {
		first, _ := gpus[0].(map[string]any)
		mi, _ := first["memoryinfo"].(map[string]any)
		if size := pyNumber(mi["sizeinmib"]); size > 0 {
			mem = size
			if provider == "vast" || provider == "primeintellect" {
				mem /= float64(count)
			}
			if mem < 512 {
				mem *= 1024 // the nominal "80 GB" of an A100 80GB is 80 GiB
			}
		}
	}
	if mem == 0 {
		if total := pyNumber(root["totalgpumemoryinmib"]); total > 0 {
			mem = total
			if provider != "lambda" && provider != "do" {
				mem /= float64(count)
			}
		}
	}
	if math.IsNaN(mem) || math.IsInf(mem, 0) || mem <= 0 || mem > 1<<24 { // > 16 TiB per GPU is not a GPU
		return 0
	}
	return mem
}

// pyNumber returns v as a number: SkyPilot writes counts and sizes as
// numbers, but Cudo writes 'Count': '1.0' as a string.
func pyNumber(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err == nil && model.DecimalText(strings.TrimSpace(x)) { // not 0x1p3, Inf or 1_0
			return f
		}
	}
	return 0
}

// maxPyDepth bounds nesting so hostile input cannot exhaust the stack.
const maxPyDepth = 32

// parsePyLiteral parses the subset of Python literals SkyPilot writes:
// dicts, lists, tuples, quoted strings, numbers, True/False/None and bare
// words (read as strings). Dict keys are lower-cased. Values are
// map[string]any, []any, string, float64, bool or nil.
func parsePyLiteral(s string) (any, error) {
	p := pyParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, model.Msg("unexpected %q at byte %d", p.s[p.i], p.i)
	}
	return v, nil
}

type pyParser struct {
	s string
	i int
}

var errPyEOF = errors.New("unexpected end")

func (p *pyParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *pyParser) value(depth int) (any, error) {
	if depth > maxPyDepth {
		return nil, model.Msg("nested too deeply")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errPyEOF
	}
	switch c := p.s[p.i]; c {
	case '{':
		return p.dict(depth)
	case '[':
		return p.list(depth, ']')
	case '(':
		return p.list(depth, ')')
	case '\'', '"':
		return p.str()
	}
	return p.bare()
}

func (p *pyParser) dict(depth int) (any, error) {
	p.i++ // {
	m := map[string]any{}
	for {
		p.space()
		if p.i >= len(p.s) {
			return nil, errPyEOF
		}
		if p.s[p.i] == '}' {
			p.i++
			return m, nil
		}
		k, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, model.Msg("want ':' after a dict key at byte %d", p.i)
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m[strings.ToLower(fmt.Sprint(k))] = v
		if err := p.sep('}'); err != nil {
			return nil, err
		}
	}
}

func (p *pyParser) list(depth int, end byte) (any, error) {
	p.i++ // [ or (
	var l []any
	for {
		p.space()
		if p.i >= len(p.s) {
			return nil, errPyEOF
		}
		if p.s[p.i] == end {
			p.i++
			return l, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		l = append(l, v)
		if err := p.sep(end); err != nil {
			return nil, err
		}
	}
}

// sep consumes a ',' or stops before end.
func (p *pyParser) sep(end byte) error {
	p.space()
	switch {
	case p.i >= len(p.s):
		return errPyEOF
	case p.s[p.i] == ',':
		p.i++
		return nil
	case p.s[p.i] == end:
		return nil
	}
	return model.Msg("want ',' or %q at byte %d, got %q", end, p.i, p.s[p.i])
}

func (p *pyParser) str() (any, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return nil, errPyEOF
}

// bare reads a number, True/False/None or an unquoted word up to the next
// delimiter.
func (p *pyParser) bare() (any, error) {
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(",:{}[]()'\"", rune(p.s[p.i])) {
		p.i++
	}
	w := strings.TrimSpace(p.s[start:p.i])
	if w == "" {
		return nil, model.Msg("unexpected %q at byte %d", p.s[start], start)
	}
	switch w {
	case "True":
		return true, nil
	case "False":
		return false, nil
	case "None":
		return nil, nil
	}
	if f, err := strconv.ParseFloat(w, 64); err == nil && model.DecimalText(w) { // Python's decimals, not Go's 0x1p3 or 1_0
		return f, nil
	}
	return w, nil
}
