package config

import "testing"

// Trap (issue 17): "tOML files cannot contain control characters": the
// first letter is lowered only when it does not start an acronym.
func TestTidyTOMLMessage(t *testing.T) {
	for in, want := range map[string]string{
		"toml: TOML files cannot contain control characters: '0x01'": "TOML files cannot contain control characters: '0x01'",
		"toml: Expected a newline.\nmore":                            "expected a newline",
		"Bare keys cannot contain '['":                               "bare keys cannot contain '['",
		"X":                                                          "X",
	} {
		if got := TidyTOMLMessage(in); got != want {
			t.Errorf("TidyTOMLMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
