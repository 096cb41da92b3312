package market

import (
	"strings"
	"testing"
)

// TestCountTooLarge (walk): h100:99999999999999999999 said "is not a
// whole number"; digits past int are a count too large.
func TestCountTooLarge(t *testing.T) {
	_, err := parseCountRange("99999999999999999999")
	if err == nil || !strings.Contains(err.Error(), "99999999999999999999 GPUs is too large, the most is") || strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("err = %v, want \"too large\"", err)
	}
	if _, err := parseCountRange("8x"); err == nil || !strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("8x: err = %v, want \"not a whole number\"", err)
	}
}
