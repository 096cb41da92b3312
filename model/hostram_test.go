package model

import "testing"

// HostRAMNeed is the 8 GiB floor (system, Python, framework) or one
// 16-bit copy of the weights (4 bytes in fp32/tf32), whichever is more.
// Issue 31 item 9: an ImageNet-sized vision dataset (≥ 1M images) raised
// it to 64 GB "for the data loaders", a figure with no source that kept
// 237 offers from ResNet-50; a DataLoader streams samples from storage,
// and what its workers hold (num_workers × prefetch_factor batches,
// torch.utils.data.DataLoader) depends on settings gpuplan does not ask.
func TestHostRAMNeed(t *testing.T) {
	resnet := Architecture{Family: FamilyCNN, Params: 25.557032e6}
	tests := []struct {
		name   string
		w      Workload
		params float64
		want   float64
	}{
		{"ResNet-50 on 1.28M ImageNet images: the 8 GiB floor, not 64 GB", Workload{Settings: Settings{Task: TaskTrain, Precision: AMPBF16, DatasetSamples: 1.28e6}, Model: resnet}, 25.557032e6, 8 * GiB},
		{"ResNet-50, no dataset: the floor", Workload{Settings: Settings{Task: TaskTrain, Precision: AMPBF16}, Model: resnet}, 25.557032e6, 8 * GiB},
		{"70.6B in bf16: 2 bytes × 70.6e9 = 141.2 GB", Workload{Settings: Settings{Task: TaskInference, Precision: BF16}}, 70.6e9, 141.2e9},
		{"7B in fp32: 4 bytes × 7e9 = 28 GB", Workload{Settings: Settings{Task: TaskTrain, Precision: FP32}}, 7e9, 28e9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HostRAMNeed(&tt.w, tt.params); got != tt.want {
				t.Errorf("HostRAMNeed() = %.4g B, want %.4g B", got, tt.want)
			}
		})
	}
}
