package model

import (
	"strings"
	"testing"
)

// TestParseEnumSuggests (walk37): a misspelt choice is told the closest
// valid one, as a plan's pricing is (task = "qlorra" was only given the
// list); one close to none is given the list alone.
func TestParseEnumSuggests(t *testing.T) {
	for _, tt := range []struct {
		parse func(string) error
		in    string
		want  string
	}{
		{func(s string) error { _, err := ParseTask(s); return err }, "qlorra", `task "qlorra": did you mean "qlora"? want train, finetune, lora, qlora or inference`},
		{func(s string) error { _, err := ParsePricing(s); return err }, "spott", `pricing "spott": did you mean "spot"?`},
		// "serve" is an accepted spelling of inference, and the nearest to "serv".
		{func(s string) error { _, err := ParseTask(s); return err }, "serv", `task "serv": did you mean "serve"? want train, finetune, lora, qlora or inference`},
		{func(s string) error { _, err := ParseTask(s); return err }, "zzzzzzzz", `task "zzzzzzzz": want train, finetune, lora, qlora or inference`},
	} {
		err := tt.parse(tt.in)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want it to start %q", tt.in, err, tt.want)
		}
	}
}
