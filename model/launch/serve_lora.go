package launch

import (
	"fmt"
	"path"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// Where a served LoRA adapter (serve.Serving.LoRA) is read from: the
// script reads AdapterDir/NAME from where it runs; the docker script, the
// SkyServe file and the Kubernetes Deployment put it at AdapterMount/NAME
// in the server (a bind mount, a file mount, a volume).
const (
	AdapterDir   = "adapters"
	AdapterMount = "/adapters"
)

// ServeAdapter is the LoRA adapter a serving deployment serves on its
// base model (serve.Serving.LoRA): vllm serve --enable-lora
// --max-lora-rank R --max-loras N --lora-modules NAME=PATH, NAME the
// model name requests ask for it by.
type ServeAdapter struct {
	// From is the plan's phase that trains it, OutputDir that phase's
	// --output_dir, where TRL's SFT script saves it at the end
	// (trainer.save_model(training_args.output_dir), huggingface/trl @
	// f2cd57710ae3 trl/scripts/sft.py: a PEFT model saves
	// adapter_config.json and adapter_model.safetensors, huggingface/peft
	// @ 5d602fdbff04 src/peft/utils/constants.py). Either may be empty.
	From, OutputDir string
	// Name is serve.LoRA.Name; dir is where vllm serve reads it in this
	// format (adapterPath).
	Name string
	dir  string
}

// adapterPath is where vllm serve reads the adapter: AdapterDir/NAME
// relative to where the script runs, or the format's mount.
func (s *Serve) adapterPath() string {
	if s.Adapter.dir != "" {
		return s.Adapter.dir
	}
	return path.Join(AdapterDir, s.Adapter.Name)
}

// mounted is s with its adapter read at AdapterMount/NAME, the path the
// docker, SkyServe and Kubernetes files put it at; s itself without an
// adapter.
func (s *Serve) mounted() *Serve {
	if s.Adapter == nil {
		return s
	}
	c := *s
	a := *s.Adapter
	a.dir = path.Join(AdapterMount, a.Name)
	c.Adapter = &a
	return &c
}

// loraArgs are vLLM's flags for the adapter (vllm/engine/arg_utils.py,
// the LoRAConfig group: --enable-lora, --max-loras, --max-lora-rank;
// vllm/entrypoints/openai/cli_args.py @ 005223338608 --lora-modules,
// LoRAParserAction: "name=path" when the item holds "=" and no ",", else
// JSON): none without one. The name is a slug and the path gpuplan's own,
// so neither holds "=" or ",".
func (s *Serve) loraArgs() []string {
	l := s.Serving.LoRA
	if l == nil || s.Adapter == nil {
		return nil
	}
	return []string{"--enable-lora", "--max-lora-rank", fmt.Sprint(l.MaxRank), "--max-loras", fmt.Sprint(max(l.MaxLoRAs, 1)),
		"--lora-modules", s.Adapter.Name + "=" + s.adapterPath()}
}

// adapterNote says, in format f's terms, which adapter the files serve,
// under which model name, and where it must be: copied from the training
// phase's output. Zero without an adapter.
func (s *Serve) adapterNote(f Format) model.Message {
	a, l := s.Adapter, s.Serving.LoRA
	if a == nil || l == nil {
		return model.Message{}
	}
	// Messages, not formatted strings, so the parts are translated with
	// the sentence.
	from := model.Msg("the adapter")
	if a.From != "" {
		from = model.Msg("the adapter phase %q trains", a.From)
		if a.OutputDir != "" {
			from = model.Msg("the adapter phase %q trains (its --output_dir %s: adapter_config.json, adapter_model.safetensors)", a.From, a.OutputDir)
		}
	}
	where := model.Msg("copy it to %s/%s where this script runs", AdapterDir, a.Name)
	switch f {
	case FormatDocker:
		where = model.Msg("copy it to %s/%s where this script runs (mounted read-only at %s/%s)", AdapterDir, a.Name, AdapterMount, a.Name)
	case FormatSkyPilot:
		where = model.Msg("copy it to %s/%s where you run sky serve up (file_mounts copies it to %s/%s)", AdapterDir, a.Name, AdapterMount, a.Name)
	case FormatK8s, FormatPyTorchJob:
		where = model.Msg("it is read from the PersistentVolumeClaim %s mounted read-only at %s/%s, where the training phase's Kubernetes export writes its outputs; copy it there otherwise (a ReadWriteOnce claim mounts on one node: several replicas need a ReadWriteMany one)", DefaultOutputClaim, AdapterMount, a.Name)
	case FormatTOML:
		where = model.Msg("vllm_args read it from %s/%s", AdapterDir, a.Name)
	}
	return model.Msg("serves %v on %s as the model %q (--enable-lora, --max-lora-rank %d for rank %d, %d slot, planned in the memory; the LoRA kernels' own time is not estimated; requests naming %s get the base model); %v",
		from, s.ModelID, a.Name, l.MaxRank, l.Rank, max(l.MaxLoRAs, 1), s.ModelID, where)
}

// newAdapter is the deployment's adapter for plan sp: opt's, named as the
// serving request names it (as a slug); nil when sp serves no adapter.
func newAdapter(sp *serve.Plan, opt *ServeAdapter) *ServeAdapter {
	l := sp.Serving.LoRA
	if l == nil {
		return nil
	}
	a := ServeAdapter{Name: slug(l.Name, "adapter")} // a slug: no "=" or "," for --lora-modules, no shell word
	if opt != nil {
		a.From, a.OutputDir = opt.From, opt.OutputDir
	}
	return &a
}

// DefaultOutputDir is the --output_dir a training export of the model
// keyed key writes with no --name, as NewPlan sets it: "outputs", or on
// spot CheckpointDir/gpuplan-KEY (the bucket its checkpoints go to).
func DefaultOutputDir(key string, spot bool) string {
	if !spot {
		return "outputs"
	}
	return CheckpointDir + "/" + Name("gpuplan-"+slug(key, "custom"))
}
