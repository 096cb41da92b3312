package tui

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/ui/report"
)

// probeLines say, under the VRAM bar, what the user's kept probe runs
// close to the estimate shown (same GPU, family and recipe) make of it:
// the corrected memory and time beside the estimate, with how many runs
// back it; none when no kept run is close.
func (p panel) probeLines(e *model.Estimate, width int) []string {
	if len(p.probes) == 0 || e == nil {
		return nil
	}
	c := probe.Correct(e, p.probes)
	line := report.ProbeCorrectionLine(p.lang, &c)
	if line == "" {
		return nil
	}
	return wrapLines(p.st.Warn.Render(p.lang.T("Kept probes:")+" "+line), width)
}
