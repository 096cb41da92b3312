package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// TestDecodeAnswerNamesPhase: an answer the decode refuses is named by
// its phase, not placed at the file's last [phase.answers] (walk38:
// "phase.answers (line 64)" for the first phase's grad_accum = 8; a number is read as typed now, so a date stands in).
func TestDecodeAnswerNamesPhase(t *testing.T) {
	const file = `schema_version = 1
[[phase]]
name = "train"
provider = "aws"
instance = "g5.xlarge"
instances = 1
usd_per_hour = 1
job_hours = 2
[phase.answers]
model = "llama-3.1-8b"
grad_accum = 2026-01-01

[[phase]]
name = "serve"
provider = "aws"
instance = "g5.xlarge"
instances = 1
usd_per_hour = 1
months = 1
[phase.answers]
model = "llama-3.1-8b"
task = "inference"
`
	_, err := Decode([]byte(file))
	var ce *config.Error
	if !errors.As(err, &ce) {
		t.Fatalf("Decode: %v, want a *config.Error", err)
	}
	if ce.Key != `phase "train" answers` || !strings.Contains(ce.Msg.String(), `answer "grad_accum": want a value as typed`) {
		t.Errorf("key %q, message %q; want phase \"train\" answers and the grad_accum answer", ce.Key, ce.Msg)
	}
}
