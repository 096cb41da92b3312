package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestAllocatorLabelByFramework: the two allocator figures are torch's
// only with PyTorch; with TensorFlow or JAX the totals line names that
// framework's allocator and the JSON says whose they are ("allocator"),
// in English and Chinese, and no torch call is named.
func TestAllocatorLabelByFramework(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	for _, tc := range []struct {
		fw          model.Framework
		line, lineZ string
		json        string
	}{
		{model.PyTorch, "torch allocated 12.88 GiB (12.00–14.50 GiB), reserved 13.50 GiB (12.50–17.25 GiB) at 90%; peak at backward",
			"torch 已分配 12.88 GiB（12.00–14.50 GiB），已预留 13.50 GiB（12.50–17.25 GiB），90% 区间；峰值出现在反向传播", "torch"},
		{model.TensorFlow, "TensorFlow allocator peak in use 12.88 GiB (12.00–14.50 GiB), pool 13.50 GiB (12.50–17.25 GiB) at 90%; peak at backward",
			"TensorFlow 分配器峰值占用 12.88 GiB（12.00–14.50 GiB），内存池 13.50 GiB（12.50–17.25 GiB），90% 区间；峰值出现在反向传播", "tensorflow"},
		{model.JAX, "JAX allocator peak in use 12.88 GiB (12.00–14.50 GiB), pool 13.50 GiB (12.50–17.25 GiB) at 90%; peak at backward",
			"JAX 分配器峰值占用 12.88 GiB（12.00–14.50 GiB），内存池 13.50 GiB（12.50–17.25 GiB），90% 区间；峰值出现在反向传播", "jax"},
	} {
		e, f := handEstimate(t)
		e.Workload.Framework = tc.fw
		if got := TotalsLine(e); got != tc.line {
			t.Errorf("%s: got %q\nwant %q", tc.fw, got, tc.line)
		}
		if got := TotalsLineIn(zh, e); got != tc.lineZ {
			t.Errorf("%s zh-CN: got %q\nwant %q", tc.fw, got, tc.lineZ)
		}
		b, err := json.Marshal(NewEstimateJSON(e, f))
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Memory struct {
				Allocator string `json:"allocator"`
				Alloc     int64  `json:"torch_allocated_bytes"`
			} `json:"memory"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if v.Memory.Allocator != tc.json || v.Memory.Alloc != 12875*(1<<30)/1000 {
			t.Errorf("%s: JSON allocator %q, torch_allocated_bytes %d; want %q and the same bytes", tc.fw, v.Memory.Allocator, v.Memory.Alloc, tc.json)
		}
	}
}

// TestAllocatorAssumptionByFramework: the assumption naming the peak's
// allocator figures reads the framework's own API, never torch's, with
// TensorFlow or JAX.
func TestAllocatorAssumptionByFramework(t *testing.T) {
	for _, tc := range []struct {
		fw         model.Framework
		want, none string
	}{
		{model.PyTorch, "(torch max_memory_allocated)", "get_memory_info"},
		{model.TensorFlow, "(TensorFlow get_memory_info peak), allocator pool", "max_memory"},
		{model.JAX, "(JAX memory_stats peak_bytes_in_use), allocator pool", "max_memory"},
	} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, Framework: tc.fw}, Model: model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4, KVHeads: 4, FFN: 1024, Vocab: 1000}}
		e, err := model.Compute(w, nil)
		if err != nil {
			t.Fatal(err)
		}
		var peak string
		for _, s := range e.Assumptions() {
			if strings.HasPrefix(s, "peak at the ") {
				peak = s
			}
		}
		if !strings.Contains(peak, tc.want) || strings.Contains(peak, tc.none) {
			t.Errorf("%s: peak assumption %q; want %q in it and no %q", tc.fw, peak, tc.want, tc.none)
		}
	}
}
