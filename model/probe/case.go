package probe

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// Case is one calibration case in the suite's format
// (data/testdata/calibration/cases.toml; calCase in
// data/calibration_test.go, whose keys a test holds equal to these): the
// workload keys, what was measured and in which unit, the tolerance the
// suite holds it to, and its provenance (source, the quoted line).
type Case struct {
	ID       string `toml:"id"`
	Kind     string `toml:"kind"`     // memory or time
	Quantity string `toml:"quantity"` // allocated, nvidia-smi, samples_per_second, tokens_per_second, gpu_hours
	Settings
	Tokens float64 `toml:"tokens,omitempty,omitzero"`
	// GPUsPerNode and NetworkGbps are the node a multi-node run measured
	// (workload.gpus_per_node, workload.network_gbps: what a user of that
	// cluster would give estimate); a probe never sets them.
	GPUsPerNode int     `toml:"gpus_per_node,omitempty,omitzero"`
	NetworkGbps float64 `toml:"network_gbps,omitempty,omitzero"`
	LLMAnalysis float64 `toml:"llm_analysis,omitempty,omitzero"`
	Published   float64 `toml:"published"`
	Unit        string  `toml:"unit"`
	Tolerance   float64 `toml:"tolerance"`
	KnownGap    string  `toml:"known_gap,omitempty"`
	Source      string  `toml:"source"`
	Group       string  `toml:"group,omitempty"`
	Quote       string  `toml:"quote"`
	Includes    string  `toml:"includes,omitempty"`
	Note        string  `toml:"note,omitempty"`
}

// Suite is a file of the suite's format: [[arch]] tables for the models
// outside the catalog, then the [[case]] tables.
type Suite struct {
	Arch []Arch `toml:"arch,omitempty"`
	Case []Case `toml:"case"`
}

// Tolerances of the suite's cases, which the probe's cases take: memory
// 15%, time 25% (the values nearly every published case of the suite has).
const (
	MemoryTolerance = 0.15
	TimeTolerance   = 0.25
)

// ErrNotKept is wrapped when a result has nothing a case can keep.
var ErrNotKept = errors.New("nothing to keep")

// RunID names a probe run by its line: "probe-llama-3-1-8b-a10g-qlora-1a2b3c4d".
func RunID(r *Result) string {
	sum := sha256.Sum256(r.Line)
	s := r.Settings
	return "probe-" + slug(s.Model) + "-" + slug(s.GPU) + "-" + slug(s.Task) + "-" + hex.EncodeToString(sum[:])[:8]
}

// Cases turns a training result into the suite's cases: peak allocated
// memory (torch.cuda.max_memory_allocated, GB), nvidia-smi's process memory
// (MiB; the estimate's CUDA context follows the case's torch), and
// the throughput (tokens/s for text, img/s for images, all GPUs), each
// with the probe's line as its quote and the versions and date as its
// source. The case's torch is the release the probe ran on (its versions'
// torch, major.minor), empty when that does not parse. Smoke runs, runs out of memory and serving runs keep nothing:
// the error wraps ErrNotKept and says why.
func Cases(r *Result) (*Suite, error) {
	switch {
	case r.Kind == "serve":
		return nil, model.Errorf(ErrNotKept, "a serving probe is compared, not kept: the calibration suite has no serving cases (model/testdata/serving_calibration.toml holds those, by hand)")
	case r.Smoke:
		return nil, model.Errorf(ErrNotKept, "a --cpu-smoke run measured a tiny model on the CPU, not the plan")
	case r.Status != "ok":
		return nil, model.Errorf(ErrNotKept, "the run ran out of GPU memory before its measured steps; gpuplan probe compare shows how far it got")
	case r.Device == nil:
		return nil, model.Errorf(ErrNotKept, "the result names no GPU")
	}
	id := RunID(r)
	source := "gpuplan probe (gpuplan export --format probe) on " + r.Summary()
	note := r.ranNote()
	base := Case{Settings: *r.Settings, Source: source, Quote: string(r.Line), Note: note}
	base.Torch = ranTorch(r.Versions["torch"])
	var out []Case
	m := r.Measured
	if v := m.PeakAllocated; v != nil && *v > 0 {
		c := base
		c.ID, c.Kind, c.Quantity, c.Unit, c.Tolerance = id+"-allocated", "memory", "allocated", "GB", MemoryTolerance
		c.Published, c.Includes = round5(*v/1e9), "torch.cuda.max_memory_allocated"
		out = append(out, c)
	}
	if v := m.NvidiaSMIUsed; v != nil && *v > 0 {
		c := base
		c.ID, c.Kind, c.Quantity, c.Unit, c.Tolerance = id+"-nvidia-smi", "memory", "nvidia-smi", "MiB", MemoryTolerance
		c.Published = round5(*v / model.MiB)
		c.Includes = "nvidia-smi used_memory of the probe's process (--query-compute-apps)"
		out = append(out, c)
	}
	if v := m.SamplesPerSecond; v != nil && *v > 0 {
		c := base
		c.ID, c.Kind, c.Tolerance, c.Includes = id+"-throughput", "time", TimeTolerance, "throughput"
		switch {
		case r.Settings.SeqLen > 0 && m.TokensPerSecond != nil && *m.TokensPerSecond > 0:
			c.Quantity, c.Unit, c.Published = "tokens_per_second", "tokens/s", round5(*m.TokensPerSecond)
		case r.Settings.ImageSize > 0:
			c.Quantity, c.Unit, c.Published = "samples_per_second", "img/s", round5(*v)
		default:
			c.Quantity, c.Unit, c.Published = "samples_per_second", "samples/s", round5(*v)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, model.Errorf(ErrNotKept, "the result has no peak memory, nvidia-smi figure or throughput")
	}
	s := &Suite{Case: out}
	if r.Arch != nil && r.Arch.Key == r.Settings.Model {
		s.Arch = []Arch{*r.Arch}
	}
	return s, nil
}

// ranTorch is the PyTorch release of a probe's torch version ("2.5.1+cu124"
// is "2.5"), "" when it is not one model.ParseTorchVersion reads.
func ranTorch(v string) string {
	v, _, _ = strings.Cut(v, "+")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return ""
	}
	t, err := model.ParseTorchVersion(parts[0] + "." + parts[1])
	if err != nil {
		return ""
	}
	return t.String()
}

// ranNote says how the probe ran, for the case's note.
func (r *Result) ranNote() string {
	n := r.Ran
	head := "probe"
	if n.Builder != "" { // a field left empty is left out, not "built with ,"
		head += " built with " + n.Builder
	}
	parts := []string{head}
	if n.Attention != "" {
		parts = append(parts, "attention "+n.Attention)
	}
	if n.Autocast != nil && *n.Autocast != "" {
		parts = append(parts, "autocast "+*n.Autocast)
	}
	if n.LoadDtype != "" {
		parts = append(parts, "weights loaded in "+n.LoadDtype)
	}
	if n.GradScaler {
		parts = append(parts, "GradScaler")
	}
	if n.WorldSize > 0 {
		parts = append(parts, map[bool]string{true: "1 process", false: fmt.Sprintf("%d processes", n.WorldSize)}[n.WorldSize == 1])
	}
	if m := r.Measured; m.Steps != nil && m.WarmupSteps != nil {
		parts = append(parts, fmt.Sprintf("%.0f measured steps after %.0f warm-up", *m.Steps, *m.WarmupSteps))
	}
	if m := r.Measured; m.StepSeconds != nil {
		parts = append(parts, fmt.Sprintf("median step %.4g s", *m.StepSeconds))
	}
	return strings.Join(parts, ", ")
}

// round5 keeps five significant digits: a whole MiB of 12016, 701.44 tokens/s.
func round5(v float64) float64 {
	s := fmt.Sprintf("%.5g", v)
	var out float64
	fmt.Sscan(s, &out)
	return out
}

// slug is s as model.Slug makes it, at most 40 bytes, or "x".
func slug(s string) string {
	return cmp.Or(show.Slug(s, 40), "x")
}

// Encode writes s in the suite's TOML, header lines first as comments.
func (s *Suite) Encode(header []string) ([]byte, error) {
	var b strings.Builder
	for _, h := range header {
		b.WriteString("# " + show.Printable(h) + "\n")
	}
	if len(header) > 0 {
		b.WriteString("\n")
	}
	enc := toml.NewEncoder(&b)
	enc.Indent = "" // as the suite's file: keys flush left under [[case]]
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// Check refuses a suite a probe could not have written, as Parse refuses a
// result: names and quotes that are not one printable line, figures that
// are not finite and positive, kinds, quantities and units the suite does
// not have. The error names the case.
func (s *Suite) Check() error {
	if len(s.Case) > 64 || len(s.Arch) > 64 {
		return model.Msg("more than 64 cases or architectures")
	}
	for i := range s.Arch {
		if err := s.Arch[i].check(); err != nil {
			return err
		}
	}
	for i := range s.Case {
		c := &s.Case[i]
		if err := c.check(); err != nil {
			return model.Msg("case %s: %v", show.Printable(c.ID), err)
		}
	}
	return nil
}

func (c *Case) check() error {
	for _, t := range []struct {
		k, v string
		max  int
	}{{"id", c.ID, maxText}, {"kind", c.Kind, maxText}, {"quantity", c.Quantity, maxText}, {"unit", c.Unit, maxText},
		{"source", c.Source, 2048}, {"quote", c.Quote, MaxLineBytes}, {"includes", c.Includes, maxNote},
		{"note", c.Note, 2048}, {"known_gap", c.KnownGap, maxNote}} {
		if err := text(t.k, t.v, t.max); err != nil {
			return err
		}
	}
	if c.ID == "" || c.Source == "" || c.Quote == "" {
		return model.Msg("id, source and quote are required")
	}
	switch c.Kind + "/" + c.Quantity {
	case "memory/allocated", "memory/nvidia-smi", "time/samples_per_second", "time/tokens_per_second", "time/gpu_hours":
	default:
		return model.Msg("kind %q with quantity %q: the suite has memory allocated or nvidia-smi, time samples_per_second, tokens_per_second or gpu_hours",
			show.Printable(c.Kind), show.Printable(c.Quantity))
	}
	for _, f := range []struct {
		k   string
		v   *float64
		max float64
	}{{"published", &c.Published, maxCount}, {"tolerance", &c.Tolerance, 10}, {"tokens", &c.Tokens, maxCount},
		{"network_gbps", &c.NetworkGbps, model.MaxNetworkGbps}, {"llm_analysis", &c.LLMAnalysis, maxCount}} {
		if err := number(f.k, f.v, f.max); err != nil {
			return err
		}
	}
	if c.GPUsPerNode < 0 || c.GPUsPerNode > model.MaxGPUsPerNode {
		return model.Msg("gpus_per_node must be 1–%d, got %d", model.MaxGPUsPerNode, c.GPUsPerNode)
	}
	if !(c.Published > 0) || !(c.Tolerance > 0) {
		return model.Msg("published and tolerance must be > 0")
	}
	return c.Settings.check()
}
