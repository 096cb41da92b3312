package config

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// A serving file's batch_size is the load in all, which the planner
// spreads over the replicas (model.Workload.Defaults makes it Sequences,
// WorkloadAnswers.Serving the Concurrency), and its comment says so; a
// training file's is the micro-batch per GPU (walk35: a configurator file
// said "concurrent sequences per model replica" of 4 requests that 8
// replicas served).
func TestBatchSizeNote(t *testing.T) {
	for _, tt := range []struct {
		task model.Task
		want string
	}{
		{model.TaskInference, "# concurrent requests in all, spread over the replicas\n"},
		{model.TaskFinetune, "# micro-batch per GPU\n"},
	} {
		c := Config{Workload: WorkloadAnswers{Model: "llama-3.1-8b"}}
		c.Workload.Task, c.Workload.MicroBatch = tt.task, 4
		b, err := Encode(&c)
		if err != nil {
			t.Fatal(err)
		}
		line := ""
		for _, l := range strings.SplitAfter(string(b), "\n") {
			if strings.HasPrefix(l, "batch_size = 4 ") {
				line = l
			}
		}
		if !strings.HasSuffix(line, tt.want) || strings.Contains(string(b), "per model replica") {
			t.Errorf("%s: batch_size line %q, want it to end %q", tt.task, line, tt.want)
		}
	}
}
