package config

import "testing"

// TestValueMessageHugeNumber: the TOML library's refusal of a number no Go
// number holds is worded as ours, with its number, so it translates
// (walk38: "1e400 is out of range for float64" in a Chinese error).
func TestValueMessageHugeNumber(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"1e400 is out of range for float64", "1e400 is too large a number for any setting; give a smaller one"},
		{"99999999999999999999999 is out of range for int64", "99999999999999999999999 is too large a number for any setting; give a smaller one"},
		{"something else", "something else"},
	} {
		m := ValueMessage(tt.text)
		if got := m.String(); got != tt.want {
			t.Errorf("ValueMessage(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	if m := ValueMessage("1e400 is out of range for float64"); m.Key == "%s" {
		t.Error("the refusal is the library's text, untranslatable")
	}
}
