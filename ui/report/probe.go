package report

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// WriteProbeComparison writes gpuplan probe compare: what was probed and
// on what, then one row per measured figure with its estimate, the error
// (estimated ÷ measured − 1) and the 90% range gpuplan prints, and the
// notes that qualify them.
func WriteProbeComparison(out io.Writer, r *Renderer, c *probe.Comparison) error {
	st := NewStyles(r)
	p := r.Lang
	var b strings.Builder
	res := c.Result
	title, shape := probeTitle(p, c)
	fmt.Fprintf(&b, "%s%s\n", st.Title.Render(title), st.Muted.Render(" · "+shape))
	b.WriteString(p.Sprintf("ran on %s", probeRanOn(p, res)) + "\n")
	b.WriteString("\n")
	if len(c.Rows) > 0 {
		headers := []string{p.T("Figure"), p.T("Measured"), p.T("Estimated"), p.T("Error"), p.T("range (90%)"), p.T("In range")}
		rows := make([][]string, len(c.Rows))
		for i, row := range c.Rows {
			band, in := "—", "—"
			if row.HasBand {
				band = probeValue(p, row.Band[0], row.Unit, false) + "–" + probeValue(p, row.Band[1], row.Unit, true)
				in = p.T("no")
				if row.Inside {
					in = p.T("yes")
				}
			}
			rows[i] = []string{p.T(row.Term), probeValue(p, row.Measured, row.Unit, true), probeValue(p, row.Estimated, row.Unit, true),
				fmt.Sprintf("%+.1f%%", row.Err*100), band, in}
		}
		b.WriteString(r.table(headers, rows, func(col int) bool { return col >= 1 && col <= 3 }))
		b.WriteString("\n")
		p.Fprintf(&b, "%s\n", st.Muted.Render(p.T("error = estimated ÷ measured − 1: negative when gpuplan under-estimated")))
	}
	for _, n := range c.Notes {
		b.WriteString(st.Muted.Render(p.Sprintf("note: %s", termsafe.String(p.Message(n)))) + "\n")
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// probeTitle names the probed workload: the model and, after it, the shape.
func probeTitle(p *i18n.Printer, c *probe.Comparison) (string, string) {
	if c.Estimate != nil {
		e := c.Estimate
		shape := DescribeWorkloadIn(p, &e.Workload)
		if e.GPU != nil {
			shape += " · " + e.GPU.Name
		}
		return ModelName(p, &e.Workload, e.Params), shape
	}
	s := c.Result.Serve
	sp := c.Serve
	name := ShownName(cmp.Or(c.ModelName, s.Model))
	shape := p.Sprintf("serve %s weights, TP %d × PP %d, --max-model-len %d, %d concurrent requests of %d + %d tokens",
		s.WeightFormat, s.TP, s.PP, s.MaxModelLen, s.Concurrency, s.PromptTokens, s.OutputTokens)
	if sp != nil && sp.Offer.GPU != nil {
		shape += " · " + sp.Offer.GPU.Name
	}
	return name, shape
}

// probeRanOn is probe.Result.Summary in p's language: the GPU, the
// software versions, the date.
func probeRanOn(p *i18n.Printer, r *probe.Result) string {
	if !p.Chinese() {
		return termsafe.String(r.Summary())
	}
	parts := []string{"CPU"}
	if r.Device != nil && r.Device.Name != "" {
		parts[0] = r.Device.Name
	}
	for _, k := range []string{"torch", "cuda", "driver", "transformers", "peft", "bitsandbytes", "deepspeed", "torchvision", "vllm"} {
		if v := r.Versions[k]; v != "" {
			name := map[string]string{"cuda": "CUDA", "driver": p.T("driver")}[k]
			parts = append(parts, cmp.Or(name, k)+" "+v)
		}
	}
	if len(r.Date) >= 10 {
		parts = append(parts, r.Date[:10])
	}
	return termsafe.String(strings.Join(parts, "、"))
}

// probeValue writes v in unit: GiB for bytes, seconds with three
// significant digits, rates with four.
func probeValue(p *i18n.Printer, v float64, unit string, withUnit bool) string {
	var s string
	switch unit {
	case "bytes":
		s = fmt.Sprintf("%.2f", v/model.GiB)
		unit = "GiB"
	case "s":
		s = fmt.Sprintf("%.3g", v)
	case "tokens":
		s = model.Grouped(int(v + 0.5))
	case "requests":
		s = fmt.Sprintf("%.2f", v)
	default:
		s = fmt.Sprintf("%.4g", v)
	}
	if !withUnit {
		return s
	}
	return s + " " + p.T(unit)
}

// ProbeJSON is probe compare --json.
type ProbeJSON struct {
	Kind    string            `json:"kind"`
	Status  string            `json:"status"`
	Smoke   bool              `json:"smoke"`
	RanOn   string            `json:"ran_on"`
	Date    string            `json:"date"`
	Plan    any               `json:"plan"`
	Rows    []ProbeRowJSON    `json:"rows"`
	Notes   []string          `json:"notes"`
	Quote   string            `json:"quote"`
	Version map[string]string `json:"versions"`
}

// ProbeRowJSON is one figure; band and inside are null where gpuplan prints
// no range.
type ProbeRowJSON struct {
	Term      string      `json:"term"`
	Unit      string      `json:"unit"`
	Measured  float64     `json:"measured"`
	Estimated float64     `json:"estimated"`
	Error     float64     `json:"error"` // estimated ÷ measured − 1
	Band      *[2]float64 `json:"band"`
	Inside    *bool       `json:"inside"`
}

// NewProbeJSON is c for --json.
func NewProbeJSON(c *probe.Comparison) ProbeJSON {
	res := c.Result
	j := ProbeJSON{Kind: res.Kind, Status: res.Status, Smoke: res.Smoke, RanOn: res.Summary(), Date: res.Date,
		Rows: []ProbeRowJSON{}, Notes: append([]string{}, model.Strings(c.Notes)...), Quote: string(res.Line), Version: res.Versions}
	if res.Settings != nil {
		j.Plan = res.Settings
	} else {
		j.Plan = res.Serve
	}
	for _, row := range c.Rows {
		rj := ProbeRowJSON{Term: row.Term, Unit: row.Unit, Measured: row.Measured, Estimated: row.Estimated, Error: row.Err}
		if row.HasBand {
			band, in := row.Band, row.Inside
			rj.Band, rj.Inside = &band, &in
		}
		j.Rows = append(j.Rows, rj)
	}
	return j
}

// ProbeCorrectionLine is the line estimate, recommend and the configurator
// print when kept probes are close to an estimate: how many runs on which
// GPU, family and recipe, and the corrected memory and time beside the
// uncorrected ones.
func ProbeCorrectionLine(p *i18n.Printer, c *probe.Correction) string {
	if !c.OK() {
		return ""
	}
	var parts []string
	if c.MemoryRatio > 0 {
		parts = append(parts, p.Sprintf("%s per GPU corrected (×%.3g), %s estimated", GiB(c.Memory), c.MemoryRatio, GiB(c.EstimatedMemory)))
	}
	if c.TimeRatio > 0 {
		if c.EstimatedHours > 0 {
			parts = append(parts, p.Sprintf("%.3g h corrected (time ×%.3g), %.3g h estimated", c.Hours, c.TimeRatio, c.EstimatedHours))
		} else {
			parts = append(parts, p.Sprintf("%.4g samples/s corrected (time ×%.3g), %.4g estimated", c.SamplesPerSecond, c.TimeRatio, c.EstimatedSamplesPerSecond))
		}
	}
	runs := p.Sprintf("%d kept probe runs", c.Runs)
	if c.Runs == 1 {
		runs = p.T("1 kept probe run")
	}
	sep := "; "
	if p.Chinese() {
		sep = "；"
	}
	return p.Sprintf("%s on %s (%s family, %s recipe): %s", runs, termsafe.String(c.GPU), c.Family, c.Recipe, strings.Join(parts, sep))
}

// ProbeCorrectionJSON is a correction in the JSON reports.
type ProbeCorrectionJSON struct {
	Runs                      int     `json:"runs"`
	GPU                       string  `json:"gpu"`
	Family                    string  `json:"family"`
	Recipe                    string  `json:"recipe"`
	MemoryRatio               float64 `json:"memory_ratio,omitempty"`
	MemoryBytes               int64   `json:"memory_bytes,omitempty"`
	EstimatedMemoryBytes      int64   `json:"estimated_memory_bytes,omitempty"`
	TimeRatio                 float64 `json:"time_ratio,omitempty"`
	SamplesPerSecond          float64 `json:"samples_per_second,omitempty"`
	EstimatedSamplesPerSecond float64 `json:"estimated_samples_per_second,omitempty"`
	Hours                     float64 `json:"hours,omitempty"`
	EstimatedHours            float64 `json:"estimated_hours,omitempty"`
}

// NewProbeCorrectionJSON is c for --json; nil when c corrects nothing.
func NewProbeCorrectionJSON(c *probe.Correction) *ProbeCorrectionJSON {
	if !c.OK() {
		return nil
	}
	j := &ProbeCorrectionJSON{Runs: c.Runs, GPU: c.GPU, Family: string(c.Family), Recipe: string(c.Recipe)}
	if c.MemoryRatio > 0 {
		j.MemoryRatio, j.MemoryBytes, j.EstimatedMemoryBytes = c.MemoryRatio, int64(c.Memory), int64(c.EstimatedMemory)
	}
	if c.TimeRatio > 0 {
		j.TimeRatio, j.SamplesPerSecond, j.EstimatedSamplesPerSecond = c.TimeRatio, c.SamplesPerSecond, c.EstimatedSamplesPerSecond
		j.Hours, j.EstimatedHours = c.Hours, c.EstimatedHours
	}
	return j
}
