package plan

import (
	"errors"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// A phase whose answers the configuration decoder refuses makes the plan
// an error naming the phase and the key (attack test 3, M2: these were
// priced with exit 0, the error only inside the savings line).
func TestDecodeRefusesBadAnswers(t *testing.T) {
	const head = "schema_version = 1\n[[phase]]\nname = \"fine-tune\"\nusd_per_hour = 1.0\njob_hours = 2.0\n[phase.answers]\nmodel = \"llama-3.1-8b\"\ntask = \"qlora\"\n"
	tests := []struct {
		name, answer, want string
	}{
		{"batch size 0", `batch_size = "0"`, `phase "fine-tune" answers.batch_size: must be > 0; leave the key out for the default`},
		{"batch size NaN", `batch_size = "NaN"`, `phase "fine-tune" answers.batch_size: want a whole number such as 8, got "NaN"`},
		{"negative tokens", `dataset_tokens = "-100M"`, `phase "fine-tune" answers.dataset_tokens: want a number such as 3 or 0.5, got "-100M"`},
		{"unknown key", `evil = "x"`, `phase "fine-tune" answers.evil: unknown key "evil"`},
		{"search pricing", `"search.pricing" = "free"`, `phase "fine-tune" answers.search.pricing: pricing "free": want on-demand, spot, reserved-1y or reserved-3y`},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(head + tt.answer + "\n"))
		var ce *config.Error
		if !errors.As(err, &ce) || len(err.Error()) < len(tt.want) || err.Error()[:len(tt.want)] != tt.want {
			t.Errorf("%s: %v\nwant %s…", tt.name, err, tt.want)
		}
	}
	if _, err := Decode([]byte(head + `batch_size = "4"` + "\n")); err != nil {
		t.Errorf("good answers: %v", err)
	}
}
