package launch

import (
	"strings"
	"testing"
)

// A script argument the shell cannot take is quoted once in the error
// (attack round 13: `script argument "zz\\u2028envs…"`, the escape
// escaped again).
func TestShellWordErrorQuotesOnce(t *testing.T) {
	p := Plan{Script: "train.py", ScriptArgs: []string{"zz\u2028envs"}}
	err := p.checkShellWords()
	if err == nil {
		t.Fatal("the argument was taken")
	}
	if !strings.Contains(err.Error(), `"zz\u2028envs"`) || strings.Contains(err.Error(), `\\u2028`) {
		t.Errorf("error = %v, want the argument quoted once", err)
	}
}
