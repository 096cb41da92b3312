package serve

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestFP16RefusedOverflows: every model type vLLM refuses float16 for
// (fp16Refused) is one model.FP16Overflows keeps from an fp16 fallback
// outside vLLM too, so the two lists cannot drift apart.
func TestFP16RefusedOverflows(t *testing.T) {
	for typ := range fp16Refused {
		if !model.FP16Overflows(&model.Architecture{ModelType: typ}) {
			t.Errorf("vLLM refuses float16 for %q, but model.FP16Overflows does not name it", typ)
		}
	}
}
