package launch_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// TestNoEntryPointRefused: pre-training and models TRL's SFT script does
// not train have no installed entry point, so the formats that start the
// job refuse with the reason and the fix (--script) instead of writing a
// train.py nobody has; the TOML still records the plan, and naming a
// script writes the files.
func TestNoEntryPointRefused(t *testing.T) {
	cat := testCatalog()
	in := &cat.Instances[1] // p4de.24xlarge, 8 × A100 80GB
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	bert := model.Architecture{Key: "bert-large", Name: "BERT large", Family: model.FamilyEncoder, Layers: 24, Hidden: 1024, Heads: 16, FFN: 4096, Vocab: 30522, MaxPositions: 512}
	resnet := model.Architecture{Key: "resnet-50", Name: "ResNet-50", Family: model.FamilyCNN, Params: 25.6e6}
	for _, tc := range []struct {
		name string
		task model.Task
		arch model.Architecture
		why  string
	}{
		{"pre-training a decoder", model.TaskTrain, llama8B, "pre-training Llama 3.1 8B has no entry point installed"},
		{"fine-tuning an encoder", model.TaskFinetune, bert, "TRL's SFT script trains decoder-only causal LMs"},
		{"fine-tuning a CNN", model.TaskFinetune, resnet, "references/classification/train.py is in its repository, not in the package"},
		{"inference of an encoder", model.TaskInference, bert, "name your inference script with --script and its arguments with --script-args"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := model.Workload{Settings: model.Settings{Task: tc.task, Strategy: model.DDP, MicroBatch: 1, GradAccum: 1, SeqLen: 512, GPUs: 8}, Model: tc.arch}
			w.Defaults()
			o := &model.Offer{Instance: in, GPU: g, Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, GPUs: 8,
				Strategy: w.Strategy, USDPerHour: 1, Estimate: &model.Estimate{Workload: w, Params: 1e9}}
			p, err := launch.NewPlan(w, o, launch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Module != "" || p.Script != "" {
				t.Fatalf("module %q script %q, want none", p.Module, p.Script)
			}
			for _, f := range []launch.Format{launch.FormatSkyPilot, launch.FormatTorchrun, launch.FormatDocker, launch.FormatK8s, launch.FormatPyTorchJob} {
				_, err := p.Render(f)
				if !errors.Is(err, launch.ErrNoEntryPoint) || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), "--script") {
					t.Errorf("%s: err = %v; want ErrNoEntryPoint saying %q and naming --script", f, err, tc.why)
				}
			}
			if out, err := p.Render(launch.FormatTOML); err != nil || strings.Contains(string(out), "script =") || strings.Contains(string(out), "module =") {
				t.Errorf("toml: err %v, or it names an entry point:\n%s", err, out)
			}
			if _, err := launch.NewPlan(w, o, launch.Options{Script: "--help"}); !errors.Is(err, launch.ErrPlan) || !strings.Contains(err.Error(), `script "--help" starts with '-', which torchrun reads as an option`) {
				t.Errorf("--script --help: err %v, want refused", err)
			}
			p, err = launch.NewPlan(w, o, launch.Options{Script: "my_train.py"})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []launch.Format{launch.FormatSkyPilot, launch.FormatTorchrun, launch.FormatDocker, launch.FormatK8s} {
				out, err := p.Render(f)
				if err != nil || !strings.Contains(string(out), "my_train.py") || strings.Contains(string(out), launch.TRLSFTModule) {
					t.Errorf("%s with --script: err %v, or it does not run my_train.py:\n%s", f, err, out)
				}
			}
		})
	}
}
