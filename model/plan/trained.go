package plan

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/model/show"
)

// Trained is the phase of a plan that trains the model a later serving
// phase serves (Scenario.TrainedFor).
type Trained struct {
	// Phase is the training phase's name, Index its place in the plan.
	Phase string
	Index int
	// Task is what it trains: an adapter (lora, qlora) or the whole model
	// (finetune, train).
	Task model.Task
	// Rank is the adapter's rank r (Workload.LoRARank), 0 for a whole
	// model.
	Rank int
}

// TrainedFor returns the phase that trains what serving phase i serves:
// the nearest phase before it whose task trains (LoRA, QLoRA, a full
// fine-tune, pre-training) the same catalog model (Architecture.Key; a
// quantized release of it is the same model). The link is implicit, by
// model and order, as a plan is written "fine-tune, then serve": a user
// who serves the base model after tuning it writes it as two plans. ok is
// false when phase i serves no LLM (Serve nil), its model has no catalog
// key (a config.json of its own) or no phase before it trains it.
func (sc Scenario) TrainedFor(i int) (Trained, bool) {
	if i < 0 || i >= len(sc) || sc[i].Serve == nil {
		return Trained{}, false
	}
	key := sc[i].Workload.Model.Key
	if key == "" {
		return Trained{}, false
	}
	for j := i - 1; j >= 0; j-- {
		w := &sc[j].Workload
		if w.Task.Training() && w.Model.Key == key {
			t := Trained{Phase: sc[j].Name, Index: j, Task: w.Task}
			if w.Task.Adapters() {
				t.Rank = max(w.LoRARank, 1)
			}
			return t, true
		}
	}
	return Trained{}, false
}

// AdapterName is the model name a served adapter answers to: the model's
// catalog key and the training phase's name, as a slug ("qwen3-8b-lora"),
// so it holds neither "=" nor "," (vLLM's --lora-modules name=path).
func AdapterName(modelKey, phase string) string {
	return show.Slug(modelKey+"-"+phase, 52)
}

// LinkTrained serves, on every serving phase of sc that follows a LoRA or
// QLoRA phase of its model (TrainedFor), that adapter on the base model,
// as vLLM serves one (serve.LoRA: --max-lora-rank the smallest vLLM
// accepts for the adapter's rank, one slot, vLLM's --max-loras default):
// its weight slots are then planned in the phase's memory and price
// (serve.LoRABytes), by plan, estimate --phase and export --phase alike.
// The time of vLLM's LoRA kernels (punica's shrink and expand, Triton
// since vllm-project/vllm#5036) beyond reading the slots, which a decode
// step does as it reads the weights (serve.Memory.LoRA), is not
// modelled: the figures found are single reports on other releases
// (vllm-project/vllm#10062: 96 prompts of Llama 2 7B on an A100 40GB in
// 35 s with a rank-64 adapter, 28 s without; #2829: 40% slower with the
// kernels of February 2024), no rule for a model, rank and batch; the
// message says so.
//
// It returns, per phase of sc, what the phase serves: the adapter, the
// whole fine-tuned checkpoint (a full fine-tune before it: served by its
// own weights, --model-id, as vLLM loads a checkpoint, not the base), or
// that the adapter's rank is past what vLLM serves (merge it); zero for
// a phase that serves what it names.
func LinkTrained(sc Scenario) []model.Message {
	out := make([]model.Message, len(sc))
	for i := range sc {
		t, ok := sc.TrainedFor(i)
		if !ok {
			continue
		}
		ph := &sc[i]
		if !t.Task.Adapters() {
			out[i] = model.Msg("serves %s after phase %q fine-tunes the whole model: serve that checkpoint, not the base (export --phase %s --model-id, its --output_dir or the repo you push it to)",
				ph.Workload.Model.Name, t.Phase, ph.Name)
			continue
		}
		r, ok := serve.MaxLoRARank(t.Rank)
		if !ok {
			out[i] = model.Msg("serves %s, but the adapter phase %q trains has rank %d, more than the 512 vLLM serves (--max-lora-rank): merge it into the base and serve the merged checkpoint (export --phase %s --model-id); planned as the base alone",
				ph.Workload.Model.Name, t.Phase, t.Rank, ph.Name)
			continue
		}
		s := *ph.Serve
		s.LoRA = &serve.LoRA{Name: AdapterName(ph.Workload.Model.Key, t.Phase), Rank: t.Rank, MaxRank: r, MaxLoRAs: serve.DefaultMaxLoRAs}
		ph.Serve = &s
		out[i] = model.Msg("serves the LoRA adapter phase %q trains on %s, as the model %q (vLLM --enable-lora, --max-lora-rank %d: its weight slots are planned in the phase's memory and price, not the LoRA kernels' own time, for which no sourced rule was found); export --phase %s writes it, to be copied from that phase's output",
			t.Phase, ph.Workload.Model.Name, s.LoRA.Name, r, ph.Name)
	}
	return out
}
