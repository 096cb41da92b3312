package launch

import (
	"errors"

	"github.com/gpuplan/gpuplan/model"
)

// TRLSFTModule is the training entry point the files run for a decoder
// LM's fine-tuning (full, LoRA, QLoRA) when no --script is given: TRL's
// SFT script, trl/scripts/sft.py, as the module the trl package installs.
// It is the script `trl sft` runs (huggingface/trl trl/cli/commands:
// TrainingCommand("sft") imports trl.scripts.sft, parses with its
// make_parser and starts the file under accelerate launch); run as
// __main__ it parses its arguments with TrlParser over ScriptArguments,
// SFTConfig, ModelConfig and DatasetMixtureConfig and stops on any it
// does not know. torchrun starts it with -m (torch/distributed/run.py,
// --module: "interpret the launch script as a Python module"), so the
// rank count stays the plan's --nproc-per-node.
const TRLSFTModule = "trl.scripts.sft"

// MinTRL is the oldest TRL whose SFT script takes every flag the files
// write: SFTConfig.loss_type "chunked_nll" arrived in v1.4.0 (#5575);
// ModelConfig.dtype (v0.23) and SFTConfig.max_length (v0.16) are older.
const MinTRL = "1.4"

// ErrNoEntryPoint is wrapped when a format would start the job but the
// workload has no installed entry point and Options.Script names none
// (Plan.NoEntry says why).
var ErrNoEntryPoint = errors.New("no training entry point")

// entryPoint returns the installed module that trains w when the user
// names no script, or why there is none. Only TRL's SFT script is a
// standard, installed trainer for a workload gpuplan prices: it fine-tunes
// a pretrained causal LM (SFTTrainer loads model_name_or_path with
// from_pretrained). Pre-training, encoders, encoder-decoders and vision
// models have no such entry point in the packages: the scripts that
// exist (transformers' examples/pytorch such as run_clm.py and run_glue.py,
// torchvision's references/classification/train.py) live in the
// repositories and are not installed with the wheels.
func entryPoint(w *model.Workload) (module string, why model.Message) {
	name := ModelName(&w.Model)
	switch {
	case w.Task == model.TaskInference:
		return "", model.Msg("%s inference has no script to run: gpuplan writes serving files (vllm serve) for the decoder LMs vLLM serves; name your inference script with --script and its arguments with --script-args", name)
	case w.Task == model.TaskTrain:
		return "", model.Msg("pre-training %s has no entry point installed with PyTorch, transformers or TRL (TRL's SFT script, the one `trl sft` runs, fine-tunes pretrained weights; transformers' run_clm.py example is not in the package): name your training script with --script", name)
	case w.Model.Head == model.HeadTokenClassification:
		// TRL's SFT script loads AutoModelForCausalLM and trains the LM
		// head: it would train another model than the classifier priced.
		// The arguments gpuplan writes are that script's, so the message
		// names --script-args too (walk53: run_ner.py would refuse them).
		return "", model.Msg("%s is a %s model, and TRL's SFT script trains causal LMs (AutoModelForCausalLM, the next-token loss); transformers' token-classification example (run_ner.py) is not in the package: name your training script with --script and its arguments with --script-args (the ones gpuplan writes are TRL's)", name, model.Msg(string(w.Model.Head)))
	case w.Model.Head != "":
		return "", model.Msg("%s is a %s model, and TRL's SFT script trains causal LMs (AutoModelForCausalLM, the next-token loss); transformers' text-classification examples (run_classification.py, run_glue.py) are not in the package: name your training script with --script and its arguments with --script-args (the ones gpuplan writes are TRL's)", name, model.Msg(string(w.Model.Head)))
	case w.Model.Family.Vision():
		return "", model.Msg("%s (%s) has no training entry point installed with PyTorch or torchvision (torchvision's references/classification/train.py is in its repository, not in the package): name your training script with --script", name, model.Msg(string(w.Model.Family)))
	case w.Model.Family != model.FamilyDecoder:
		return "", model.Msg("%s (%s) has no training entry point installed with transformers or TRL (TRL's SFT script trains decoder-only causal LMs; transformers' examples such as run_glue.py are not in the package): name your training script with --script", name, model.Msg(string(w.Model.Family)))
	}
	return TRLSFTModule, model.Message{}
}

// checkEntry is the error of the formats that start the job when the plan
// has no entry point.
func (p *Plan) checkEntry() error {
	if p.Script == "" && p.Module == "" {
		return model.Errorf(ErrNoEntryPoint, "%s", p.NoEntry)
	}
	return nil
}

// entryComment says what the files run, for their header.
func (p *Plan) entryComment() string {
	if p.resumes() {
		return "entry point: TRL's SFT script (python -m " + TRLSFTModule + ", the script `trl sft` runs; pip install \"trl>=" + MinTRL + "\"), started by torchrun with the plan's ranks through " + ResumeScript + ", which resumes it from the newest complete checkpoint"
	}
	if p.Module == TRLSFTModule {
		return "entry point: TRL's SFT script (python -m " + TRLSFTModule + ", the script `trl sft` runs; pip install \"trl>=" + MinTRL + "\"), started by torchrun with the plan's ranks"
	}
	return ""
}

// Learning rates written for fine-tuning, TRL's recommendation for SFT
// (huggingface/trl docs/source/peft_integration.md, "Recommended learning
// rates"): 2.0e-5 for full fine-tuning (SFTConfig's default) and 10× that,
// 2.0e-4, for LoRA and QLoRA, whose adapters are a small fraction of the
// parameters. They do not change what the estimate priced; they are
// written so a LoRA run does not train at the full-fine-tuning rate.
const (
	sftLearningRate  = "2e-05"
	loraLearningRate = "2e-04"
)

// loraAlphaPerRank keeps TRL's default LoRA scaling at any rank:
// ModelConfig defaults lora_r 16 and lora_alpha 32 (alpha/r = 2,
// trl/trainer/model_config.py), so --lora_alpha is written as 2 × r.
const loraAlphaPerRank = 2

// trlOptim is the Trainer's --optim for the estimate's optimizer
// (transformers training_args.py OptimizerNames, built by
// Trainer.get_optimizer_cls_and_kwargs):
//
//   - AdamW and Adam: "adamw_torch", torch.optim.AdamW in its default
//     foreach form, whose step temporary the estimate sizes
//     (model/memory.go); the fused form the Trainer picks by default on
//     torch ≥ 2.8 has none. Adam is AdamW with the Trainer's default
//     weight_decay 0. Fused AdamW: "adamw_torch_fused".
//   - 8-bit AdamW: "adamw_bnb_8bit", bitsandbytes' AdamW8bit; the paged
//     ones "paged_adamw_32bit" and "paged_adamw_8bit" (transformers
//     OptimizerNames PAGED_ADAMW, PAGED_ADAMW_8BIT: bitsandbytes'
//     PagedAdamW and PagedAdamW8bit).
//   - Adafactor: "adafactor" (no momentum, as the estimate sizes it).
//   - SGD with or without momentum: "sgd", torch.optim.SGD with no
//     momentum (the Trainer passes none); Notes says so for momentum.
func trlOptim(o model.Optimizer) string {
	switch o {
	case model.AdamW8bit:
		return "adamw_bnb_8bit"
	case model.AdamWFused:
		return "adamw_torch_fused"
	case model.PagedAdamW:
		return "paged_adamw_32bit"
	case model.PagedAdamW8bit:
		return "paged_adamw_8bit"
	case model.Adafactor:
		return "adafactor"
	case model.SGD, model.SGDMomentum:
		return "sgd"
	}
	return "adamw_torch"
}

// TRLDatasetNote is the note for the dataset placeholder when TRL's SFT
// script runs (a fmt format of the dataset id): trl/scripts/sft.py loads
// --dataset_name with datasets.load_dataset, and SFTTrainer takes
// language-modeling ("text"), conversational ("messages") and
// prompt-completion datasets (huggingface/trl docs/source/sft_trainer.md,
// "Expected dataset type and format"; its example is trl-lib/Capybara).
const TRLDatasetNote = "replace the dataset %s (--dataset ID): TRL's SFT script loads it with datasets.load_dataset, a Hugging Face dataset id or a local path " +
	"with a \"text\", \"messages\" or \"prompt\"/\"completion\" column (TRL's SFT Trainer docs; e.g. trl-lib/Capybara)"
