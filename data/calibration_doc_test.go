package data_test

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// calibrationDocFile holds the generated calibration table between
// calibrationStart and calibrationEnd.
const (
	calibrationDocFile = "../docs/calibration.md"
	calibrationStart   = "<!-- calibration:start -->\n"
	calibrationEnd     = "<!-- calibration:end -->"
)

// calibrationDoc renders the calibration table: accuracy by kind and
// reading, the fitted constants, the bands, and every case.
func calibrationDoc(runs []*calCaseRun, res cvResult, bands map[string]model.Band, sum []summaryRow) string {
	var b bytes.Buffer
	files := map[string]bool{}
	for _, run := range runs {
		files[run.file] = true
	}
	var fs []string
	for f := range files {
		fs = append(fs, "`"+f+"`")
	}
	sort.Strings(fs)
	fmt.Fprintf(&b, "%d published measurements from %d sources (%s). Accuracy is **leave-one-source-out cross-validated** (LOSO CV): each source is scored by the estimator with its fitted constants (`model.Tuning`) refitted without that source, as a run gpuplan has never seen would be. In-sample figures (constants fitted on every source, as shipped) stand beside them, labelled. An error is estimate / measurement − 1 of the memory or of the job time (a throughput 10%% too high is a time error of −9%%): positive over-estimates. *Inside the printed 90%% range* is the share of cross-validated errors inside the range an estimate prints (built from all of them, so it is expected to be high); *inside a range built without the source* rebuilds each source's range without it — how the range holds on a source gpuplan has never seen. Cross-validation refits the constants only: the formulas were written with these sources in view, which no refit can undo, so errors on new sources can be larger (memory is fitted in one constant, so its cross-validated and in-sample errors nearly coincide).\n\n",
		len(runs), len(res.sources), strings.Join(fs, ", "))
	b.WriteString("| Kind / reading | Cases | Sources | LOSO CV median \\|error\\| | LOSO CV median signed error | Inside the printed 90% range | Inside a range built without the source | In-sample median \\|error\\| | In-sample median signed error |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range sum {
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f%% | %+.1f%% | %.0f%% | %.0f%% | %.1f%% | %+.1f%% |\n", r.name, r.cases, r.sources,
			r.cvAbs*100, r.cvSigned*100, r.printed*100, r.fresh*100, r.inAbs*100, r.inSigned*100)
	}
	writeLLMAnalysisShare(&b, runs, res)
	b.WriteString("\nFitted constants (`model.Tuning`, fitted inside the cross-validation by `fitTuning`): shipped is the fit on every source; the range over the folds shows how much each leans on a single source. A fold keeps the prior when no remaining case informs the constant.\n\n")
	b.WriteString("| Constant | Shipped (fit on every source) | Prior | Fits without one source: min–max |\n|---|---|---|---|\n")
	for _, f := range tuneFields {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, src := range res.sources {
			tn := res.folds[src]
			v := *f.ptr(&tn)
			lo, hi = min(lo, v), max(hi, v)
		}
		fmt.Fprintf(&b, "| `%s` | %g | %g | %g–%g |\n", f.name, *f.ptr(&res.full), *f.ptr(&model.TuningPrior), lo, hi)
	}
	b.WriteString("\n90% ranges (`model/calibration_bands.go`), by calibration group; an estimate takes the first of its groups listed here (`model.BandGroups`), a group needing ")
	fmt.Fprintf(&b, "%d sources. Each is the group's conformal range of the cross-validated errors (`model.ConformalBand`), widened about its median by its kind's factor: the least that makes the ranges hold 90%% of the cases when each source is left out of the ranges it is checked against (cross-conformal, sources as folds: `kindWidening`; at least 1). ", minBandSources)
	w := kindWidening(runs, res.cv)
	var kinds []string
	for k := range w {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for i, k := range kinds {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s ×%.3g", k, w[k])
	}
	b.WriteString(":\n\n")
	b.WriteString("| Group | Cases | Sources | 90% range (× estimate) |\n|---|---|---|---|\n")
	var groups []string
	for g := range bands {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		v := bands[g]
		fmt.Fprintf(&b, "| `%s` | %d | %d | ×%.3f–×%.3f |\n", g, v.Cases, v.Sources, v.Lo, v.Hi)
	}
	b.WriteString("\nBeside gpuplan: Accelerate's `accelerate estimate-memory` (model size × 4 for fp32 Adam training, × 2 for 16-bit, × 1 at the inference dtype; src/accelerate/commands/estimate.py), llm-analysis (cli99/llm-analysis d841e40: weights + KV cache + activations for inference, `estimated_peak_memory_per_gpu` for full-parameter 16-bit training, the optimizer as its docstring says to express one; data/testdata/calibration/run_llm_analysis.py) and DeepSpeed's `estimate_zero2_model_states_mem_needs` (model states only), for the same case, where they apply.\n\n")
	b.WriteString("| Case | Measures | Published | gpuplan (LOSO CV) | Error (LOSO CV) | Error (in-sample) | In its 90% range | Accelerate estimate-memory | llm-analysis | DeepSpeed estimator | Source |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, run := range runs {
		c := &run.c
		ds, acc, la := "—", "—", "—"
		if v := c.LLMAnalysis; v > 0 {
			la = fmt.Sprintf("%.4g (%+.0f%%)", v, (v/c.Published-1)*100)
		}
		if run.deepspeed > 0 {
			ds = fmt.Sprintf("%.1f GB", run.deepspeed)
		}
		if run.accel > 0 {
			acc = fmt.Sprintf("%.4g (%+.0f%%)", run.accel, (run.accel/c.Published-1)*100)
		}
		in := "no"
		if band, ok := bandForRun(bands, run); ok && inside(band, res.cv[i].r) {
			in = "yes"
		}
		id := c.ID
		if c.KnownGap != "" {
			id += " (known gap: " + c.KnownGap + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %.4g %s | %.4g | %+.1f%% | %+.1f%% | %s | %s | %s | %s | [source](%s) |\n", id, c.Quantity, c.Published, c.Unit,
			res.cv[i].predicted, errOf(res.cv[i].r)*100, errOf(res.inSample[i].r)*100, in, acc, la, ds, c.Source)
	}
	return b.String()
}

// writeLLMAnalysisShare writes how often gpuplan (LOSO CV) is closer to
// the measurement than llm-analysis, on the cases llm-analysis applies to
// (those with llm_analysis), by reading kind and training or inference.
func writeLLMAnalysisShare(b *bytes.Buffer, runs []*calCaseRun, res cvResult) {
	rows, names := llmAnalysisShare(runs, res)
	if len(names) == 0 {
		return
	}
	b.WriteString("\ngpuplan beside llm-analysis, on every case llm-analysis applies to (the `llm_analysis` column; gpuplan's error cross-validated): closer is a smaller |error| than llm-analysis's on the same case.\n\n")
	b.WriteString("| Cases | Count | gpuplan closer | gpuplan median \\|error\\| (LOSO CV) | llm-analysis median \\|error\\| |\n|---|---|---|---|---|\n")
	for _, k := range names {
		r := rows[k]
		fmt.Fprintf(b, "| %s | %d | %d (%.0f%%) | %.1f%% | %.1f%% |\n", k, r.n, r.closer, 100*float64(r.closer)/float64(r.n), 100*median(r.g), 100*median(r.l))
	}
}

// shareRow counts the cases of one row of llmAnalysisShare: how many,
// how many gpuplan is closer on, and both tools' |errors|.
type shareRow struct {
	n, closer int
	g, l      []float64
}

// llmAnalysisShare compares gpuplan (LOSO CV) with llm-analysis on the
// cases with llm_analysis: "all", "training", "inference" and each of
// those by reading, "all" first.
func llmAnalysisShare(runs []*calCaseRun, res cvResult) (map[string]*shareRow, []string) {
	rows := map[string]*shareRow{}
	var names []string
	add := func(k string, g, l float64) {
		r := rows[k]
		if r == nil {
			r = &shareRow{}
			rows[k] = r
			names = append(names, k)
		}
		r.n++
		if math.Abs(g) < math.Abs(l) {
			r.closer++
		}
		r.g, r.l = append(r.g, math.Abs(g)), append(r.l, math.Abs(l))
	}
	for i, run := range runs {
		c := &run.c
		if c.LLMAnalysis <= 0 {
			continue
		}
		g, l := errOf(res.cv[i].r), c.LLMAnalysis/c.Published-1
		task := "training"
		if c.Task == "inference" {
			task = "inference"
		}
		add("all", g, l)
		add(task, g, l)
		add(task+" · "+readingOf(c), g, l)
	}
	// A task read one way only ("inference · allocated" beside
	// "inference") is the same set of cases: one row says it.
	names = slices.DeleteFunc(names, func(k string) bool {
		task, _, sub := strings.Cut(k, " · ")
		return sub && rows[k].n == rows[task].n
	})
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == "all") != (names[j] == "all") {
			return names[i] == "all"
		}
		return names[i] < names[j]
	})
	return rows, names
}

// readmeFile holds the accuracy summary (readmeAccuracy) between
// accuracyStart and accuracyEnd: the README's calibration table.
const (
	readmeFile    = "../README.md"
	accuracyStart = "<!-- accuracy:start -->\n"
	accuracyEnd   = "<!-- accuracy:end -->"
)

// readmeAccuracy is the README's summary of sum: every figure out of
// sample (LOSO CV), the in-sample one beside it, labelled.
func readmeAccuracy(runs []*calCaseRun, res cvResult, sum []summaryRow) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Training: %d published measurements from %d sources, each source scored by a model refitted without it (leave-one-source-out cross-validation, LOSO CV); error = estimate / measurement − 1, negative too low.\n\n", len(runs), len(res.sources))
	b.WriteString("| Kind / reading | Cases | Sources | Median \\|error\\| (LOSO CV) | Median signed error (LOSO CV) | Inside the printed 90% range | Inside a range built without the source | Median \\|error\\| (in-sample) |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range sum {
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f%% | %+.1f%% | %.0f%% | %.0f%% | %.1f%% |\n", r.name, r.cases, r.sources, r.cvAbs*100, r.cvSigned*100, r.printed*100, r.fresh*100, r.inAbs*100)
	}
	if rows, names := llmAnalysisShare(runs, res); len(names) > 0 {
		b.WriteString("\nBeside llm-analysis (cli99/llm-analysis, run offline on every case it applies to; [docs/calibration.md](docs/calibration.md)):\n\n")
		b.WriteString("| Cases | Count | gpuplan closer | gpuplan median \\|error\\| (LOSO CV) | llm-analysis median \\|error\\| |\n|---|---|---|---|---|\n")
		for _, k := range names {
			r := rows[k]
			fmt.Fprintf(&b, "| %s | %d | %d (%.0f%%) | %.1f%% | %.1f%% |\n", k, r.n, r.closer, 100*float64(r.closer)/float64(r.n), 100*median(r.g), 100*median(r.l))
		}
	}
	return b.String()
}
