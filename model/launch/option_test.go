package launch_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestOptionLikeNamesRefused: a model id, dataset or image starting with
// '-' lands as a word of a command line (vllm serve's positional model,
// --model_name_or_path's value, docker run's image) and would be read as an
// option: --model-id=--trust-remote-code wrote `vllm serve
// --trust-remote-code` (attack round 11). Each is refused as --script is.
func TestOptionLikeNamesRefused(t *testing.T) {
	a := model.Architecture{Key: "opt", Name: "opt", Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4,
		KVHeads: 2, FFN: 512, GatedMLP: true, Vocab: 1000, Norm: model.RMSNorm}
	g := model.GPU{Key: "g", Name: "g", Vendor: "nvidia", ComputeCapability: "8.0", MemoryGiB: 80, BF16TFLOPS: 312,
		FP16TFLOPS: 312, FP32TFLOPS: 19.5, TF32TFLOPS: 156, MemoryBandwidthGBps: 2039}
	in := model.Instance{Provider: "p", Type: "t", GPU: "g", GPUCount: 1, VCPUs: 8, MemoryGiB: 64}
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 512, GPUs: 1}, Model: a}
	e, err := model.Compute(w, &g)
	if err != nil {
		t.Fatal(err)
	}
	o := &model.Offer{Instance: &in, GPU: &g, Region: "r", Pricing: model.OnDemand, Instances: 1, GPUs: 1,
		Strategy: e.Workload.Strategy, USDPerHour: 1, Estimate: &e}
	for _, tc := range []struct {
		opt  launch.Options
		want string
	}{
		{launch.Options{ModelID: "--trust-remote-code"}, `model id "--trust-remote-code" starts with '-', which the trainer would read as an option; give a Hugging Face repo id`},
		{launch.Options{Dataset: "-x"}, `dataset "-x" starts with '-', which the trainer would read as an option`},
		{launch.Options{Image: "--privileged"}, `image "--privileged" starts with '-', which docker would read as an option`},
		{launch.Options{ModelID: "org/-ok", Dataset: "./-ok", Image: "repo/img:-ok"}, ""},
	} {
		_, err := launch.NewPlan(w, o, tc.opt)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v, want accepted", tc.opt, err)
		case tc.want != "" && (!errors.Is(err, launch.ErrPlan) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: err %v, want %q", tc.opt, err, tc.want)
		}
	}

	cat := loadCatalog(t)
	m, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	one := *cat
	one.Instances = nil
	for _, in := range cat.Instances {
		if in.Provider+"/"+in.Type == "aws/g6e.xlarge" {
			one.Instances = append(one.Instances, in)
		}
	}
	offers := serve.Offers(&one, model.Query{Pricing: model.OnDemand})
	if len(offers) == 0 {
		t.Fatal("no serving offer on aws/g6e.xlarge")
	}
	sp, err := serve.PlanServing(m, serve.Serving{MaxModelLen: 4096, PromptTokens: 512, OutputTokens: 128, Concurrency: 4}, offers[0])
	if err != nil || !sp.Fits {
		t.Fatalf("%v %v", err, sp.Reasons)
	}
	for _, tc := range []struct {
		opt  launch.ServeOptions
		want string
	}{
		{launch.ServeOptions{ModelID: "--trust-remote-code"}, `model id "--trust-remote-code" starts with '-', which vllm serve would read as an option`},
		{launch.ServeOptions{Image: "--privileged"}, `image "--privileged" starts with '-', which docker would read as an option`},
		{launch.ServeOptions{ModelID: "meta-llama/Llama-3.1-8B"}, ""},
	} {
		_, err := launch.NewServe(m, &sp, tc.opt)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("serve %+v: %v, want accepted", tc.opt, err)
		case tc.want != "" && (!errors.Is(err, launch.ErrPlan) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("serve %+v: err %v, want %q", tc.opt, err, tc.want)
		}
	}
}
