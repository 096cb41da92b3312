package model

import (
	"errors"
	"math"
	"testing"
)

// TestNCHWTensorCores: the NCHW layout cost applies to a PyTorch
// convolutional network trained in 16-bit on tensor cores, not channels
// last, not TensorFlow (NHWC on GPU), not fp32/tf32, not a transformer,
// not a GPU without tensor cores, not inference.
func TestNCHWTensorCores(t *testing.T) {
	cnn := Architecture{Key: "cnn", Family: FamilyCNN, Params: 25e6, ForwardGMACs: 4, ActivationMiBPerSample: 100, ImageSize: 224}
	pascal := &GPU{Key: "p100", Name: "P100", Architecture: "pascal", FP16TFLOPS: 21.2, FP32TFLOPS: 10.6, MemoryBandwidthGBps: 732}
	for _, tt := range []struct {
		name string
		edit func(*Workload)
		g    *GPU
		want bool
	}{
		{"amp-fp16 pytorch", func(w *Workload) {}, testA100, true},
		{"pure bf16", func(w *Workload) { w.Precision = BF16 }, testA100, true},
		{"hopper", func(w *Workload) {}, testH100, true},
		{"channels last", func(w *Workload) { w.ChannelsLast = true }, testA100, false},
		{"tensorflow", func(w *Workload) { w.Framework = TensorFlow }, testA100, false},
		{"fp32", func(w *Workload) { w.Precision = FP32 }, testA100, false},
		{"tf32", func(w *Workload) { w.Precision = TF32 }, testA100, false},
		{"pascal", func(w *Workload) {}, pascal, false},
		{"transformer", func(w *Workload) { w.Model = gpt2Small }, testA100, false},
		{"inference", func(w *Workload) { w.Task = TaskInference }, testA100, false},
		{"no GPU", func(w *Workload) {}, nil, false},
	} {
		w := Workload{Settings: Settings{Precision: AMPFP16, Task: TaskTrain}, Model: cnn}
		tt.edit(&w)
		if got := NCHWTensorCores(&w, tt.g); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestNCHWFactorTime: NCHW multiplies the step's convolution time, bound
// by compute or by traffic, and not the optimizer step. EfficientNet-B0
// is memory-bound (TestCNNRoofline): per image, 1.5 × 10 × 42.05 MiB at
// 60% of 2039 GB/s, plus the AdamW (foreach) step of 76 bytes per
// parameter once per 256 images.
func TestNCHWFactorTime(t *testing.T) {
	eff := Architecture{Key: "efficientnet-b0", Family: FamilyCNN, Params: 5288548, ForwardGMACs: 0.386, ActivationMiBPerSample: 42.05, ImageSize: 224}
	tn := Tuning{HFUTransformer: 0.52, HopperFactor: 0.68, MFUConv: 0.21, CNNTrafficFactor: 10, NCHWFactor: 1.5}
	w := Workload{Settings: Settings{MicroBatch: 256, DatasetSamples: 1.28e6, Precision: AMPFP16}, Model: eff, Tuning: &tn}
	a, _ := Compute(w, testA100)
	perImage := 1.5*10*42.05*MiB/(2039e9*MBU) + 76*eff.Params/(2039e9*MBU)/256
	if want := 1 / perImage; math.Abs(a.SamplesPerSecond/want-1) > 1e-9 {
		t.Errorf("NCHW: %.1f img/s, want %.1f", a.SamplesPerSecond, want)
	}
	w.ChannelsLast = true
	b, _ := Compute(w, testA100)
	perImage = 10*42.05*MiB/(2039e9*MBU) + 76*eff.Params/(2039e9*MBU)/256
	if want := 1 / perImage; math.Abs(b.SamplesPerSecond/want-1) > 1e-9 {
		t.Errorf("channels last: %.1f img/s, want %.1f", b.SamplesPerSecond, want)
	}
}

// TestChannelsLastValidate: channels_last is refused on a transformer and
// outside PyTorch, by its key.
func TestChannelsLastValidate(t *testing.T) {
	cnn := Architecture{Key: "cnn", Name: "cnn", Family: FamilyCNN, Params: 25e6, ForwardGMACs: 4, ActivationMiBPerSample: 100, ImageSize: 224}
	for _, tt := range []struct {
		name    string
		w       Workload
		wantErr bool
	}{
		{"cnn", Workload{Settings: Settings{Switches: Switches{ChannelsLast: true}}, Model: cnn}, false},
		{"transformer", Workload{Settings: Settings{Switches: Switches{ChannelsLast: true}}, Model: gpt2Small}, true},
		{"tensorflow", Workload{Settings: Settings{Framework: TensorFlow, Switches: Switches{ChannelsLast: true}}, Model: cnn}, true},
	} {
		w := tt.w
		w.Defaults()
		err := w.Validate()
		var fe *FieldError
		switch {
		case tt.wantErr && (!errors.As(err, &fe) || fe.Field != "channels_last"):
			t.Errorf("%s: %v, want a channels_last FieldError", tt.name, err)
		case !tt.wantErr && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
