package cli

import (
	"encoding/csv"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/termsafe"
	"github.com/spf13/pflag"
)

// Flag values with messages that say what is valid. pflag's own numeric
// flags report strconv errors ("parsing "x": invalid syntax").

// intValue is a whole-number flag; max, when not 0, is the bound its key
// has in a configuration file (config.CheckRanges), said when the value
// is past any int (--batch-size 1e300: "at most 1048576", as 1e14 says,
// not int64's bound).
type intValue struct {
	v   *int
	max int
}

func (i intValue) String() string {
	if i.v == nil {
		return "0"
	}
	return strconv.Itoa(*i.v)
}

func (i intValue) Set(s string) error {
	n, err := config.ParseWhole(s, i.max) // range is checked where the value is used, with its name
	if err != nil {
		return err
	}
	*i.v = n
	return nil
}

func (intValue) Type() string { return "int" }

// floatValue is a number flag.
type floatValue struct{ v *float64 }

func (f floatValue) String() string {
	if f.v == nil || *f.v == 0 {
		return "0"
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f floatValue) Set(s string) error {
	v, err := config.ParseDecimal(s)
	if err != nil {
		return err
	}
	*f.v = v
	return nil
}

// decimalFloat parses a float flag's value as config.ParseDecimal.
func decimalFloat(s string) (float64, bool) {
	v, err := config.ParseDecimal(s)
	return v, err == nil
}

func (floatValue) Type() string { return "float" }

// usdCNYValue is --usd-cny RATE, refused at parse time outside
// [config.MinUSDCNY, config.MaxUSDCNY], 0 included: offers, recommend and
// the configuration's search.usd_cny share the bound.
type usdCNYValue struct{ v *float64 }

func (f usdCNYValue) String() string { return floatValue(f).String() }

func (f usdCNYValue) Set(s string) error {
	v, ok := decimalFloat(s)
	if !ok || !(v >= config.MinUSDCNY && v <= config.MaxUSDCNY) {
		return model.Msg("want how many CNY one USD buys, from %d to %d, e.g. 7.1", config.MinUSDCNY, config.MaxUSDCNY)
	}
	*f.v = v
	return nil
}

func (usdCNYValue) Type() string { return "float" }

// noneFloatValue is floatValue that also takes "none", stored as -1 (a
// target asked to be absent; the merge turns it into the request's
// NoTPOTTarget).
type noneFloatValue struct{ v *float64 }

func (f noneFloatValue) String() string {
	if f.v != nil && *f.v == -1 {
		return "none"
	}
	return floatValue(f).String()
}

func (f noneFloatValue) Set(s string) error {
	v, none, err := config.ParseMsOrNone(s)
	switch {
	case err != nil:
		*f.v = 0
		return err
	case none:
		*f.v = -1
	default:
		*f.v = v
	}
	return nil
}

func (noneFloatValue) Type() string { return "ms|none" }

func (f noneFloatValue) target() any { return f.v }

// quantityValue is a count with an optional suffix: 7B, 110M, 1.2T, 7e9.
type quantityValue struct{ v *float64 }

func (q quantityValue) String() string {
	if q.v == nil || *q.v == 0 {
		return ""
	}
	return model.FormatCount(*q.v)
}

func (q quantityValue) Set(s string) error {
	v, err := config.ParseQuantity(s)
	if err != nil {
		return model.Msg("want a count such as 7e9, 7B, 110M or 1.2T")
	}
	*q.v = v
	return nil
}

func (quantityValue) Type() string { return "count" }

// enumValue is a flag checked by one of model's Parse functions, whose
// error lists the valid values.
type enumValue[T ~string] struct {
	v     *T
	parse func(string) (T, error)
	names []T
	also  []string // other spellings parse accepts, offered by the did-you-mean too ("serve" for --task serv)
}

func (e enumValue[T]) String() string {
	if e.v == nil {
		return ""
	}
	return string(*e.v)
}

func (e enumValue[T]) Set(s string) error {
	v, err := e.parse(s)
	var m model.Message
	if err != nil && errors.As(err, &m) && !strings.Contains(m.Key, "want") {
		return m // a parser's own advice (launch.ParseFormat: deepspeed, vllm), not a list
	}
	if err != nil {
		names := make([]string, len(e.names))
		for i, n := range e.names {
			names[i] = string(n)
		}
		names = append(names, e.also...)
		if c := model.Closest(strings.ToLower(strings.TrimSpace(s)), names, 1); len(c) > 0 { // as model.ParseEnum (walk37)
			return model.Msg("did you mean %q? want %s", c[0], joinOr(e.names))
		}
		return model.Msg("want %s", joinOr(e.names))
	}
	*e.v = v
	return nil
}

func (e enumValue[T]) Type() string { return "string" }

func joinOr[T ~string](names []T) model.Message {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return model.OrMsg(s)
}

// tokensValue is a token count read by config.ParseTokens, vLLM's
// convention: 8K is 8192, 8k 8000; other forms as intValue.
type tokensValue struct{ v *int }

func (t tokensValue) String() string { return intValue{v: t.v}.String() }

func (t tokensValue) Set(s string) error {
	n, err := config.ParseTokenCount(s) // range is checked where the value is used, with its name
	if err != nil {
		return err
	}
	*t.v = n
	return nil
}

func (tokensValue) Type() string { return "tokens" }

// ropeValue is --rope-scaling TYPE:FACTOR[:ORIGINAL] (serve.ParseRopeScaling:
// yarn:4, yarn:2:32768) or none, refused at parse time with what is
// valid and a did-you-mean for the type.
type ropeValue struct{ v *serve.RopeScaling }

func (r ropeValue) String() string {
	if r.v == nil || r.v.IsZero() {
		return ""
	}
	return r.v.String()
}

func (r ropeValue) Set(s string) error {
	v, err := serve.ParseRopeScaling(s)
	if err != nil {
		return err
	}
	*r.v = v
	return nil
}

func (ropeValue) Type() string { return "string" }

func (r ropeValue) target() any { return r.v }

// choices are the scalings Qwen's model cards give (factor 2 for 65,536
// tokens, 4 for 131,072), for shell completion.
func (ropeValue) choices() []string { return []string{"yarn:2", "yarn:4", "none"} }

// choices lists the valid values, for shell completion.
func (e enumValue[T]) choices() []string {
	s := make([]string, len(e.names))
	for i, n := range e.names {
		s[i] = string(n)
	}
	return s
}

// target methods give merge the field each value sets.
func (i intValue) target() any        { return i.v }
func (f floatValue) target() any      { return f.v }
func (q quantityValue) target() any   { return q.v }
func (t tokensValue) target() any     { return t.v }
func (e enumValue[T]) target() any    { return e.v }
func (e suggestValue[T]) target() any { return e.v }
func (s stringValue) target() any     { return s.v }
func (b boolValue) target() any       { return b.v }
func (l listValue) target() any       { return l.v }

// stringValue is a text flag (a path or a catalog key).
// torchValue is --torch: the PyTorch release, "2.4".
type torchValue struct{ v *model.TorchVersion }

func (t torchValue) String() string {
	if t.v == nil {
		return ""
	}
	return t.v.String()
}

func (t torchValue) Set(s string) error {
	v, err := model.ParseTorchVersion(s)
	var te *model.TorchError
	if errors.As(err, &te) { // the flag names itself: the reason alone
		return te.Why
	}
	if err != nil {
		return err
	}
	*t.v = v
	return nil
}

func (torchValue) Type() string  { return "string" }
func (t torchValue) target() any { return t.v }

type stringValue struct{ v *string }

func (s stringValue) String() string {
	if s.v == nil {
		return ""
	}
	return *s.v
}

func (s stringValue) Set(v string) error { *s.v = v; return nil }
func (stringValue) Type() string         { return "string" }

// boolValue is a boolean flag for a setting whose absence means "the
// default" (nil); --name alone is true, as with pflag's BoolVar.
type boolValue struct{ v **bool }

func (b boolValue) String() string {
	if b.v == nil {
		return "false"
	}
	return flagBool{*b.v}.String()
}

func (b boolValue) Set(s string) error {
	var v bool
	if err := (flagBool{&v}).Set(s); err != nil {
		return err
	}
	*b.v = &v
	return nil
}

func (boolValue) Type() string     { return "bool" }
func (boolValue) IsBoolFlag() bool { return true }

// listValue is a comma-separated list, as pflag's StringSlice: the first
// use replaces the default, later uses append. Unlike pflag's, a value
// holding a control or invisible character is refused: the CSV reader both take it
// with reads a line break as the end of the record, so pflag's kept "eu"
// of "eu\nrope" and dropped the rest without a word.
type listValue struct {
	v   *[]string
	set *bool
}

// newList is a list flag over p whose default (p's value) the first use
// replaces.
func newList(p *[]string) listValue { return listValue{p, new(bool)} }

func (l listValue) String() string {
	if l.v == nil || len(*l.v) == 0 {
		return "" // pflag shows no default for "" (its own slices: "[]")
	}
	// As pflag's stringSlice writes itself, so GetStringSlice reads back a
	// name holding a comma ("korea, republic of") whole.
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write(*l.v) // a strings.Builder does not fail
	w.Flush()
	return "[" + strings.TrimSuffix(b.String(), "\n") + "]"
}

func (l listValue) Set(s string) error {
	// termsafe.Safe, not only controls: U+2028 at an end was trimmed as
	// a space and the value accepted (walk, 2026-12-06).
	if i := strings.IndexFunc(s, func(r rune) bool { return !termsafe.Safe(r) }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return model.Msg("a control or invisible character (%U) in the list; want comma-separated names on one line (a,b)", r)
	}
	r := csv.NewReader(strings.NewReader(s))
	vals, err := r.Read()
	if err != nil && s != "" {
		return err
	}
	if s == "" {
		vals = nil
	}
	if !*l.set {
		*l.v, *l.set = vals, true
	} else {
		*l.v = append(*l.v, vals...)
	}
	return nil
}

func (listValue) Type() string { return "stringSlice" }

// GetSlice is the names as given (as pflag.SliceValue's). pflag's
// GetStringSlice reparses String() and panics on the "" an unset list
// shows; read lists with listFlag.
func (l listValue) GetSlice() []string { return *l.v }

// listFlag is the names of fs's list flag name, and whether fs has one.
func listFlag(fs *pflag.FlagSet, name string) ([]string, bool) {
	f := fs.Lookup(name)
	if f == nil {
		return nil, false
	}
	if v, ok := f.Value.(interface{ GetSlice() []string }); ok { // listValue, pflag's slices
		return v.GetSlice(), true
	}
	return nil, false
}

// flagBool is a boolean flag for a setting whose default is false, so
// absent and false are the same; --name alone is true.
type flagBool struct{ v *bool }

func (b flagBool) String() string {
	if b.v == nil {
		return "false"
	}
	return strconv.FormatBool(*b.v)
}

func (b flagBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*b.v = v
	return nil
}

func (flagBool) Type() string     { return "bool" }
func (flagBool) IsBoolFlag() bool { return true }
func (b flagBool) target() any    { return b.v }
