package config

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// The readings of a value typed as text, shared by the command-line flags
// (ui/cli's flag values call them) and by the [serve] keys of a
// configuration file or a plan's answers given as a string, so that a
// file takes what the flags take, with the same words for what it
// refuses (walk51: "serve.replicas" = "auto" and "serve.tpot_ms" = "none"
// were refused where --replicas auto and --tpot-ms none work). Ranges are
// checked where the value is used, with its name; the errors are
// model.Message, without the value (the caller names it).

// ParseWhole reads a whole number as the count flags do (--concurrency,
// --pp, --max-num-seqs): digits, or a quantity that is whole (2k, 1e3).
// max, when not 0, is the bound said for a value past any int.
func ParseWhole(s string, max int) (int, error) {
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		return n, nil
	}
	// 1e14 and 2k are whole numbers too: kept as Atoi keeps 99999999999,
	// for the flag's own range check to refuse with its bound (issue 29:
	// "--batch-size 1e14: want a whole number").
	q, err := ParseQuantity(s)
	switch {
	case err != nil || q != math.Trunc(q):
		return 0, model.Msg("want a whole number such as 8 or 2k")
	case math.Abs(q) >= 1<<63 && max > 0:
		return 0, model.Msg("out of range: at most %d", max)
	case math.Abs(q) >= 1<<63:
		return 0, model.Msg("out of range: at most %d", math.MaxInt64)
	}
	return int(q), nil
}

// ParseAutoWhole reads a count that may be "auto" (0), as --replicas.
func ParseAutoWhole(s string) (int, error) {
	if strings.EqualFold(strings.TrimSpace(s), "auto") {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return 0, model.Msg(`want a whole number ≥ 1 or "auto"`)
	}
	return n, nil
}

// ErrDecimal is every decimal flag's refusal: the one form it takes.
var ErrDecimal = model.Msg("want a decimal number such as 0.4 or 2.5e-3 (digits, at most one '.', an optional exponent)")

// ParseDecimal reads a number in the form data's vms.csv reader takes
// (model.DecimalText): an optional sign, digits with at most one '.', and
// an optional exponent. strconv.ParseFloat also reads Go's hex floats
// (0x1p-3 = 0.125), digit separators (1_0 = 10), Inf and NaN, none of
// which is a number a user means (attack r29b F4). The error is
// ErrDecimal.
func ParseDecimal(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if !model.DecimalText(s) {
		return 0, ErrDecimal
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, ErrDecimal
	}
	return v, nil
}

// ParseMsOrNone reads a latency target that may be "none" (none true), as
// --tpot-ms: a decimal number of milliseconds ≥ 0.
func ParseMsOrNone(s string) (ms float64, none bool, err error) {
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		return 0, true, nil
	}
	if v, err := ParseDecimal(s); err == nil && v >= 0 {
		return v, false, nil
	}
	return 0, false, model.Msg(`want a number of milliseconds such as 50, or "none"`)
}

// ParseTokenCount reads a token count as the token flags do
// (--max-model-len, --prompt-tokens): digits, or ParseTokens' vLLM
// convention, 8K is 8192 and 8k 8000.
func ParseTokenCount(s string) (int, error) {
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		return n, nil
	}
	n, err := ParseTokens(s)
	if q, qerr := ParseQuantity(s); err != nil && qerr == nil && q == math.Trunc(q) && q > model.MaxSeqLen {
		// 1e14 is a whole number, too large (issue 29); every token
		// flag's key has this bound in a configuration file.
		return 0, model.Msg("out of range: at most %d", model.MaxSeqLen)
	}
	if err != nil {
		return 0, model.Msg("want a whole number of tokens such as 2048, 8K (8192) or 8k (8000)")
	}
	return n, nil
}

// The [serve] request keys' types: a TOML number as before, or a string
// read by the parser of the key's flag, refused in the flag's words after
// the value ("x": want a whole number ≥ 1 or "auto"), as the flag's line
// says them after its own (--replicas "x": …).

// textError is a string value's refusal by its flag's parser.
func textError(s string, err error) error {
	var m model.Message
	if errors.As(err, &m) {
		return badValue("%q: %s", s, m)
	}
	return badValue("%q: %v", s, err)
}

// intText is a count, or its text as its flag reads it (P's parse): one
// type per flag parser, so the TOML decoder, which builds zero values,
// knows the parser from the field's type.
type intText[P intParser] struct {
	tInt
	text string // the string it was read from, the flag's text; empty for a number (zeroText)
}

// intParser is a flag's parser of a count.
type intParser interface{ parse(string) (int, error) }

type (
	wholeParser     struct{} // the count flags (ParseWhole)
	autoWholeParser struct{} // --replicas: a count or "auto", 0 (ParseAutoWhole)
	tokenParser     struct{} // the token flags (ParseTokenCount)
)

func (wholeParser) parse(s string) (int, error)     { return ParseWhole(s, 0) }
func (autoWholeParser) parse(s string) (int, error) { return ParseAutoWhole(s) }
func (tokenParser) parse(s string) (int, error)     { return ParseTokenCount(s) }

type (
	tWholeText = intText[wholeParser]
	tAutoWhole = intText[autoWholeParser]
	tTokenText = intText[tokenParser]
)

func (t *intText[P]) UnmarshalTOML(v any) error {
	if s, ok := v.(string); ok {
		var p P
		n, err := p.parse(s)
		if err != nil {
			return textError(s, err)
		}
		t.v, t.set, t.text = n, true, s
		return nil
	}
	return t.tInt.UnmarshalTOML(v)
}

// tDecimalText is a number, or its text as the decimal flags read it
// (ParseDecimal).
type tDecimalText struct {
	tFloat
	text string // the string it was read from, the flag's text; empty for a number (zeroText)
}

func (t *tDecimalText) UnmarshalTOML(v any) error {
	if s, ok := v.(string); ok {
		x, err := ParseDecimal(s)
		if err != nil {
			return textError(s, err)
		}
		t.v, t.set, t.text = x, true, s
		return nil
	}
	return t.tFloat.UnmarshalTOML(v)
}

// tMsOrNone is tpot_ms: a number of milliseconds (0 asks for no target),
// or its text as --tpot-ms reads it, "none" being 0 (ParseMsOrNone).
type tMsOrNone struct {
	tFloat
	text string // the string it was read from, the flag's text; empty for a number (zeroText)
	none bool   // the text is "none"
}

func (t *tMsOrNone) UnmarshalTOML(v any) error {
	if s, ok := v.(string); ok {
		x, none, err := ParseMsOrNone(s)
		if err != nil {
			return textError(s, err)
		}
		if none {
			x = 0
		}
		t.v, t.set, t.text, t.none = x, true, s, none
		return nil
	}
	return t.tFloat.UnmarshalTOML(v)
}

// flagTextTypes are the types above: an answer of one is written as the
// string typed, for the decoder to read with the flag's parser.
var flagTextTypes = map[reflect.Type]bool{
	reflect.TypeFor[tWholeText](): true, reflect.TypeFor[tAutoWhole](): true, reflect.TypeFor[tTokenText](): true,
	reflect.TypeFor[tDecimalText](): true, reflect.TypeFor[tMsOrNone](): true,
}
