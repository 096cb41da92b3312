package config

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		err  bool
	}{
		{"7e9", 7e9, false}, {"7B", 7e9, false}, {"7b", 7e9, false}, {"110M", 110e6, false}, {"1.2k", 1200, false},
		{"2T", 2e12, false}, {"1_000_000", 1e6, false}, {"1,281,167", 1281167, false}, {" 88k ", 88000, false},
		{"0", 0, false}, {"1.5G", 1.5e9, false},
		{"", 0, true}, {"B", 0, true}, {"-5", 0, true}, {"abc", 0, true}, {"NaN", 0, true}, {"Inf", 0, true},
		{"1e400", 0, true}, {"1e300T", 0, true}, {"7 B", 7e9, false}, {"0x10", 0, true},
		// A comma groups thousands or is refused (a new user's walk:
		// --batch-size 1,2 ran 12).
		{"1,2", 0, true}, {"20,48", 0, true}, {"1,0000", 0, true}, {",100", 0, true}, {"1.5,000", 0, true},
		{"1,5M", 0, true}, {"1,500M", 1.5e9, false}, {"12,345.5", 12345.5, false},
	}
	for _, tt := range tests {
		got, err := ParseQuantity(tt.in)
		if (err != nil) != tt.err || !tt.err && got != tt.want {
			t.Errorf("ParseQuantity(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, model.ErrBadQuantity) {
			t.Errorf("ParseQuantity(%q) error %v does not wrap ErrBadQuantity", tt.in, err)
		}
	}
}

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		err  bool
	}{
		{"40GiB", 40 * model.GiB, false}, {"80 GB", 80e9, false}, {"512MiB", 512 * model.MiB, false}, {"1e9", 1e9, false},
		{"2TiB", 2 << 40, false}, {"1kb", 1000, false}, {"100b", 100, false},
		{"GiB", 0, true}, {"-1GiB", 0, true}, {"lots", 0, true}, {"1e308TiB", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseBytes(tt.in)
		if (err != nil) != tt.err || !tt.err && got != tt.want {
			t.Errorf("ParseBytes(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// FuzzParseQuantity: never panics; accepted values are finite and ≥ 0.
func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"7e9", "7B", "110M", "1.2k", "1_000", "1,281,167", "-1", "NaN", "1e400", "", "0x1p-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseQuantity(s)
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
			t.Fatalf("ParseQuantity(%q) = %v", s, v)
		}
		b, err := ParseBytes(s)
		if err == nil && (math.IsNaN(b) || math.IsInf(b, 0) || b < 0) {
			t.Fatalf("ParseBytes(%q) = %v", s, b)
		}
		if n, err := ParseTokens(s); err == nil && n < 0 {
			t.Fatalf("ParseTokens(%q) = %d", s, n)
		}
	})
}

func TestParseTokens(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		err  bool
	}{
		// vLLM's human_readable_int (vllm/engine/arg_utils.py): lowercase
		// decimal, uppercase binary, decimals with decimal suffixes only.
		{"1k", 1000, false}, {"1K", 1024, false}, {"25.6k", 25600, false}, {"8k", 8000, false}, {"8K", 8192, false},
		{"128K", 131072, false}, {"1.5k", 1500, false}, {"1.5K", 0, true}, {"2m", 2000000, false}, {"1M", 1 << 20, false},
		{"2048", 2048, false}, {"1.3k", 1300, false}, {"1_000", 1000, false}, {" 4K ", 4096, false},
		{"2e3", 2000, false}, {"", 0, true}, {"x", 0, true}, {"k", 0, true}, {"1.5", 0, true}, {"-4", 0, true},
		{"1.0001k", 0, true}, {"3T", 0, true}, {"7B", 0, true},
		{"32,768", 32768, false}, {"20,48", 0, true}, {"1,2K", 0, true}} {
		got, err := ParseTokens(tt.in)
		if (err != nil) != tt.err || !tt.err && got != tt.want {
			t.Errorf("ParseTokens(%q) = %d, %v; want %d (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
	// A count past int32 is too large, not "not whole" (walk35b: a
	// 999999999999K was called not whole); a fraction is not whole.
	for in, want := range map[string]string{
		"999999999999K": "is too many tokens", "3T": "too many tokens", "2147483648": "too many tokens",
		"1.0001k": "not a whole number", "1.5": "not a whole number",
	} {
		if _, err := ParseTokens(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTokens(%q): %v, want %q", in, err, want)
		}
	}
	if n, err := ParseTokens("2147483647"); err != nil || n != math.MaxInt32 {
		t.Errorf("ParseTokens(2147483647) = %d, %v", n, err)
	}
}
