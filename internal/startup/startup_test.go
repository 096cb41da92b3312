package startup

import "testing"

func TestLoads(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, true}, // the configurator
		{[]string{"recommend", "--json"}, true},
		{[]string{"estimate"}, true},
		{[]string{"offers"}, true},
		{[]string{"plan", "p.toml"}, true},
		{[]string{"export"}, true},
		{[]string{"version"}, false},
		{[]string{"help", "recommend"}, false},
		{[]string{"completion", "bash"}, false},
		{[]string{"catalog", "models"}, false}, // loads it only for some subcommands
		{[]string{"--lang", "zh", "recommend"}, false},
		{[]string{"-test.run=x"}, false}, // a test binary
		{[]string{""}, false},
	} {
		if got := Loads(c.args); got != c.want {
			t.Errorf("Loads(%q) = %v, want %v", c.args, got, c.want)
		}
	}
	if Ranks {
		t.Error("a test binary's command line (-test.…) ranks nothing")
	}
}
