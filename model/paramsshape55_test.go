package model

import (
	"strings"
	"testing"
)

// TestParamsBesideShape (walk55): a count given beside a shape that
// counts far fewer or more is said; one within half again either way, a
// count alone or a shape alone is not. Hand counts: 2 layers × 4096,
// 32 heads, FFN 4 × 4096 ungated, no vocabulary: per layer 4·4096² (QKV
// and output) + 2·4096·16384 (MLP) = 201,326,592 plus biases and norms,
// about 0.4B for two.
func TestParamsBesideShape(t *testing.T) {
	shape := func(params float64, layers int) Architecture {
		return Architecture{Family: FamilyDecoder, Params: params, Layers: layers, Hidden: 4096, Heads: 32, FFN: 4 * 4096}
	}
	for _, tc := range []struct {
		name string
		a    Architecture
		want bool
	}{
		{"7B on 2 layers", shape(7e9, 2), true},
		{"0.1B on 32 layers", shape(1e8, 32), true},
		{"7B on 32 layers (6.4B)", shape(7e9, 32), false},
		{"a count alone", Architecture{Family: FamilyDecoder, Params: 7e9}, false},
		{"a shape alone", shape(0, 2), false},
	} {
		w := Workload{Model: tc.a}
		m, ok := w.ParamsBesideShape()
		if ok != tc.want {
			t.Errorf("%s: said %v (%q), want %v", tc.name, ok, m, tc.want)
		}
		if ok && !strings.Contains(m.String(), "the shape (") {
			t.Errorf("%s: %q", tc.name, m)
		}
	}
	w := Workload{Model: shape(7e9, 2)}
	if m, _ := w.ParamsBesideShape(); !strings.HasPrefix(m.String(), "7B parameters given, but the shape (2 layers × 4096 hidden) counts ") {
		t.Errorf("message %q", m)
	}
}
