package launch

import "testing"

// TestValidBucket: the S3 ∩ GCS naming rules of ValidBucket's doc comment,
// and what attack round 9 sent through --bucket (a newline, quotes).
func TestValidBucket(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{PlaceholderBucket, true},
		{"abc", true},
		{"my-team.ckpt_2026", true},
		{"ab", false},                     // under 3
		{string(make([]byte, 64)), false}, // over 63
		{"a23456789012345678901234567890123456789012345678901234567890123", true}, // 63
		{"-abc", false}, {"abc-", false}, {".abc", false}, {"abc_", false},
		{"a..b", false},
		{"MyBucket", false},
		{"my bucket", false},
		{"ok\nrun: rm -rf ~", false},
		{"a'b", false}, {`a"b`, false}, {"a$b", false},
		{"bücket", false},
	} {
		if got := ValidBucket(tc.name); got != tc.ok {
			t.Errorf("ValidBucket(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
