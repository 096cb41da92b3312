package cli

import "testing"

func TestTokensValue(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		err  bool
	}{{"8k", 8000, false}, {"8K", 8192, false}, {"1.5k", 1500, false}, {"1.5K", 0, true}, {"4096", 4096, false}, {"128K", 131072, false},
		{"2048", 2048, false}, {"x", 0, true}, {"1.3k", 1300, false}, {"-1", -1, false}} {
		var v int
		err := tokensValue{&v}.Set(tt.in)
		if (err != nil) != tt.err || !tt.err && v != tt.want {
			t.Errorf("Set(%q) = %d, %v; want %d (error %v)", tt.in, v, err, tt.want, tt.err)
		}
	}
}
