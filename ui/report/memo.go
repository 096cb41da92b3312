package report

import (
	"math"
	"reflect"

	"github.com/gpuplan/gpuplan/model"
)

// messageMemo formats each distinct message once: the offers of one
// Recommendation repeat the same few warnings (a GPU's precision
// fallback, FlashAttention's missing kernel, the same borderline figures)
// hundreds of times, each a fmt.Sprintf. Only messages whose arguments
// are plain scalars (numbers, strings, booleans and the model's named
// kinds of them) are kept, so equal keys format to equal text (-0
// and NaN are left out).
type messageMemo map[messageKey]string

// messageKey is a message with up to 5 scalar arguments (an offer's
// borderline warning has 5).
type messageKey struct {
	key  string
	n    int
	args [5]any
}

// strings is model.Strings through the memo; a nil memo formats each
// message. The result is never nil (an empty list encodes as []).
func (mm messageMemo) strings(ms []model.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		k, ok := memoKey(m)
		if mm == nil || !ok {
			out[i] = m.String()
			continue
		}
		s, hit := mm[k]
		if !hit {
			s = m.String()
			mm[k] = s
		}
		out[i] = s
	}
	return out
}

// memoKey returns m as a key, ok false when m has more arguments than
// the key holds or one that is not a scalar.
func memoKey(m model.Message) (messageKey, bool) {
	k := messageKey{key: m.Key, n: len(m.Args)}
	if len(m.Args) > len(k.args) {
		return k, false
	}
	for i, a := range m.Args {
		if a == nil {
			return k, false
		}
		switch v := reflect.ValueOf(a); v.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			k.args[i] = a
		case reflect.Float32, reflect.Float64:
			if f := v.Float(); f == 0 && math.Signbit(f) || math.IsNaN(f) {
				return k, false // -0 equals 0 as a key and prints as -0; NaN equals nothing
			}
			k.args[i] = a
		default:
			return k, false
		}
	}
	return k, true
}
