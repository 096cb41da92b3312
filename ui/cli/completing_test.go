package cli

import "testing"

// TestCompleting pins which invocations register flag completions: only
// the two requests cobra's generated scripts send (TestCompletion drives
// them end to end).
func TestCompleting(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"__complete", "recommend", "--model", ""}, true},
		{[]string{"__completeNoDesc", "est"}, true},
		{[]string{"recommend", "--json", "--model", "llama-3.1-8b"}, false},
		{[]string{"completion", "bash"}, false},
		{[]string{"recommend", "__complete"}, false}, // a word after the command is an argument
		{nil, false},
	} {
		if got := completing(c.args); got != c.want {
			t.Errorf("completing(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
