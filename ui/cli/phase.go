package cli

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/report"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// addPhaseFlag adds --phase NAME, which picks a phase of a plan given with
// --config (a file of [[phase]] tables, as gpuplan plan reads); it
// completes the phase names of the --config file.
func addPhaseFlag(cmd *cobra.Command) {
	cmd.Flags().String("phase", "", "with --config PLAN.toml: the phase whose answers are the request (names: gpuplan plan PLAN.toml)")
	_ = cmd.RegisterFlagCompletionFunc("phase", func(cmd *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
		path, _ := cmd.Flags().GetString("config")
		if path == "" || path == stdinPath {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		b, err := safeio.ReadTOML(path, safeio.Config)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		p, err := plan.Decode(b)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return list(s, p.PhaseNames())
	})
}

// readFromFileCmd is readFromFileIn that also takes a plan: when the
// --config file holds [[phase]] tables, the phase --phase names is the
// file (its answers through plan.Phase.ConfigFromAnswers, the same
// decoder as a configuration, or the configuration file it names);
// without --phase the error lists the phases. --phase on a configuration
// that is no plan is an error too.
func readFromFileCmd(cmd *cobra.Command, path string, in io.Reader) (fromFile, error) {
	phase, _ := cmd.Flags().GetString("phase") // "" when the command has no --phase
	if path == "" {
		if phase != "" {
			return fromFile{}, usage(model.Msg("--phase picks a phase of a plan: give the plan with --config PLAN.toml"))
		}
		return fromFile{}, nil
	}
	var b []byte
	if path == stdinPath {
		if in == nil {
			return readFromFileIn(path, in)
		}
		var err error
		if b, err = io.ReadAll(io.LimitReader(in, safeio.Config.MaxBytes+1)); err != nil {
			return readFromFileIn(path, bytes.NewReader(b))
		}
		in = bytes.NewReader(b) // readFromFileIn reads the same bytes
		if safeio.CheckTOMLDepth(b) != nil || int64(len(b)) > safeio.Config.MaxBytes {
			return readFromFileIn(path, in) // says what is wrong
		}
	} else {
		var err error
		if b, err = safeio.ReadTOML(path, safeio.Config); err != nil {
			return readFromFileIn(path, in) // says what is wrong
		}
	}
	if !plan.IsPlan(b) {
		if err := plan.SyntaxError(b); phase != "" && err != nil {
			return fromFile{}, usage(model.Msg("%s: %v", path, err))
		}
		if phase != "" {
			return fromFile{}, usage(model.Msg("--phase %s: %s has no [[phase]] tables; it is a configuration, read without --phase", termsafe.String(phase), path))
		}
		return readFromFileIn(path, in)
	}
	pl, err := plan.Decode(b)
	if err != nil {
		return fromFile{}, usage(model.Msg("%s: %v", path, err))
	}
	// The plan is held to what gpuplan plan holds it to before it prices
	// anything (Plan.Priced: usd_per_hour, job_hours or months, a finite
	// total), so a plan that plan refuses is refused here too, in its
	// words (walk36c: a phase without usd_per_hour was estimated and
	// exported, exit 0).
	if _, _, err := pl.Priced(); err != nil {
		return fromFile{}, usage(model.Msg("%s: %v", path, err))
	}
	ph, err := pl.Phase(phase)
	if err != nil {
		return fromFile{}, usage(model.Msg("%s: %v", path, err))
	}
	if len(ph.Answers) == 0 && ph.Config != "" {
		if path == stdinPath {
			return fromFile{}, usage(model.Msg("--config -: phase %q names the file %q, which is relative to a plan on disk; give the plan as a file", ph.Name, ph.Config))
		}
		c, err := readPhaseConfig(path, ph) // the error names the plan and the phase
		if err != nil {
			return fromFile{}, err
		}
		return fromFile{path: ph.ConfigPath(filepath.Dir(path)), cfg: &c, phase: ph, plan: path, whole: &pl}, nil
	}
	if path == stdinPath {
		c, err := ph.ConfigFromAnswers()
		if err != nil {
			return fromFile{}, usage(model.Msg("%s: %v", path, err))
		}
		return fromFile{path: path, cfg: &c, phase: ph, plan: path, whole: &pl}, nil
	}
	c, err := phaseAnswers(path, ph)
	if err != nil {
		return fromFile{}, err
	}
	return fromFile{path: path, cfg: &c, phase: ph, plan: path, whole: &pl}, nil
}

// onPhaseOffer is estimate --phase on the phase's own offer, as gpuplan
// plan estimates it (plan.JobOnOffer): its instance type's GPU and GPU
// count × instances, whatever the answers' gpus say, and the strategy the
// plan takes there (DDP, or FSDP where DDP does not fit or is borderline,
// unless the answers or --strategy name one), unless --gpus or --gpu asks
// for another count or GPU (departs). It returns w and the GPU to
// estimate on (gpu when --gpu gave one), and notes: the answers naming
// another count, --gpus or --gpu departing from the offer, or, when the
// catalog lacks the phase's instance type, that the estimate is on the
// answers' count. asPlan is false when --gpus or --gpu departs from the
// offer: the strategy is then the caller's to resolve on the GPU
// estimated (as estimate without --phase, openStrategy), as export
// resolves it (walk36c: --phase tune --gpus 8 said DDP ✗ where plan and
// export took FSDP). b.req is set (fromFile.workload).
func (b *fromFile) onPhaseOffer(fs *pflag.FlagSet, cat *model.Catalog, w model.Workload, gpu *model.GPU) (_ model.Workload, _ *model.GPU, notes []model.Message, asPlan bool) {
	ph := b.phase
	if ph == nil {
		return w, gpu, nil, false
	}
	in, n := plan.PhaseOffer(cat, ph)
	if in == nil {
		switch {
		case fs.Changed("gpus"):
		case ph.Provider == "" || ph.Instance == "":
			notes = append(notes, model.Msg("phase %q names no offer, so this estimate is on the answers' GPU count; give --gpus N --gpu NAME for the offer you mean", ph.Name))
		default:
			notes = append(notes, model.Msg("phase %q: its offer %s %s is not in the catalog, so this estimate is on the answers' GPU count, not the offer's as gpuplan plan would use; give --gpus N --gpu NAME for the offer you mean",
				ph.Name, ph.Provider, ph.Instance))
		}
		return w, gpu, notes, true
	}
	if d := b.departs(fs, in, n, w.GPUs, gpu); !d.IsZero() {
		if gpu == nil {
			gpu, _ = cat.GPU(in.GPU)
		}
		if !fs.Changed("gpus") {
			w, _ = plan.OnPhaseOffer(ph, n, w, b.req.GPUsAuto())
		}
		if gpu != nil && gpu.Key == in.GPU {
			// Another count on the phase's own type: laid out on its
			// instances, as export writes it.
			w = plan.OnType(in, w)
		}
		return w, gpu, []model.Message{d}, false
	}
	if gpu == nil {
		if g, err := cat.GPU(in.GPU); err == nil {
			gpu = g
		}
	}
	w = b.asPhase(fs, n, w)
	ps := plan.PhaseScenarioFor(ph, w, b.query(), cat)
	if job, ok, err := plan.JobOnOffer(cat, ph, &ps); ok && err == nil {
		if !job.Note.IsZero() {
			notes = append(notes, job.Note)
		}
		return plan.OnType(in, job.Workload), gpu, notes, true
	}
	v, note := plan.OnPhaseOffer(ph, n, w, b.req.GPUsAuto())
	if !note.IsZero() {
		notes = append(notes, note)
	}
	return v, gpu, notes, true
}

// departs says, for a phase whose offer is instance type in (n GPUs on
// the instances it rents), that --gpus (gpus, when given and not n) or
// --gpu (gpu, when given and not the type's) asks for another offer than
// the one gpuplan plan checks; zero when neither does (--gpus n is the
// phase's own count).
func (b *fromFile) departs(fs *pflag.FlagSet, in *model.Instance, n, gpus int, gpu *model.GPU) model.Message {
	ph := b.phase
	offer := fmt.Sprintf("%s %s", ph.Provider, ph.Instance)
	if nodes := max(ph.Instances, 1); nodes > 1 {
		offer = fmt.Sprintf("%d × %s", nodes, offer)
	}
	switch {
	case fs.Changed("gpus") && gpus != n:
		return model.Msg("phase %q rents %s (%d × %s); --gpus %d departs from it, so this is not the phase as gpuplan plan checks it (leave --gpus out for the plan's)",
			ph.Name, offer, n, in.GPU, gpus)
	case fs.Changed("gpu") && gpu != nil && gpu.Key != in.GPU:
		return model.Msg("phase %q rents %s (%d × %s); --gpu %s departs from it, so this is not the phase as gpuplan plan checks it (leave --gpu out for the plan's)",
			ph.Name, offer, n, in.GPU, gpu.Key)
	}
	return model.Message{}
}

// asPhase is w, the phase's workload with the flags over it, as gpuplan
// plan takes it on the phase's offer of n GPUs when --gpus names that
// same count (no departure: the phase itself): the answers' GPU count, so
// plan.JobOnOffer splits the answers' global batch over the n GPUs as
// plan does (walk37: --gpus 8 on a phase of batch 4 × accumulation 2
// renting 8 H200s ran 4 × 2 on each, 8 times the batch plan priced, and
// said it did not fit where plan said it did).
func (b *fromFile) asPhase(fs *pflag.FlagSet, n int, w model.Workload) model.Workload {
	if fs.Changed("gpus") && w.GPUs == n && b.cfg != nil {
		w.GPUs = max(b.cfg.Workload.GPUs, 1) // 0: gpus = "auto" or left out, one GPU as resolved
	}
	return w
}

// phaseJob is export --phase's job: the phase on its pinned offer as
// gpuplan plan checks it (plan.JobOnOffer: the offer's GPUs and
// instances, the strategy plan takes there), when the instance type and
// region exported are the phase's and --gpus asks for no other count
// (--gpus equal to the offer's is the phase's own); ok is false otherwise
// (no phase, a serving one, another offer), and note says when --gpus
// departs from the phase's offer (walk36c: --gpus 16 on a phase renting
// one 8-GPU instance wrote 2 nodes without a word).
func (b *fromFile) phaseJob(fs *pflag.FlagSet, cat *model.Catalog, in *model.Instance, region string, w model.Workload) (_ plan.Job, ok bool, note model.Message, _ error) {
	ph := b.phase
	if ph == nil || !w.Task.Training() || ph.Provider != in.Provider || ph.Instance != in.Type || region != "" && region != ph.Region {
		return plan.Job{}, false, model.Message{}, nil
	}
	if pin, n := plan.PhaseOffer(cat, ph); pin != nil {
		if d := b.departs(fs, pin, n, w.GPUs, nil); !d.IsZero() {
			return plan.Job{}, false, d, nil
		}
	}
	if _, n := plan.PhaseOffer(cat, ph); n > 0 {
		w = b.asPhase(fs, n, w)
	}
	ps := plan.PhaseScenarioFor(ph, w, b.query(), cat)
	job, ok, err := plan.JobOnOffer(cat, ph, &ps)
	if err != nil {
		return plan.Job{}, false, model.Message{}, usage(model.Msg("%s: %v", b.path, err))
	}
	return job, ok, model.Message{}, nil
}

// jobRefusal is why export --phase writes nothing for job phase name on
// its pinned offer (the job does not run there: memory, host RAM,
// precision, framework), in the words export exits with; zero when it
// runs.
func jobRefusal(name string, job *plan.Job) model.Message {
	if job.Why.IsZero() {
		return model.Message{}
	}
	v, _ := job.Verdict()
	return model.Msg("phase %q %v (see gpuplan recommend --config PLAN --phase NAME)", name, v)
}

// phaseNotExported is why export --phase writes nothing for the job
// phase estimate --phase estimated on its own offer (w, the workload
// before onPhaseOffer), as export says it: the job does not run there
// (jobRefusal), or the catalog has no price for the offer in the phase's
// pricing mode and region (checkPriced; unpriced is true then); zero when
// export writes it. estimate --phase --json gives it as exportable and
// not_exported, as for a serving phase (walk36c: a training phase said
// neither), and the unpriced one is a warning on stderr, as the serving
// phase's (walk37: a reserved-1y training phase said nothing of it).
func (b *fromFile) phaseNotExported(fs *pflag.FlagSet, cat *model.Catalog, w model.Workload) (_ model.Message, unpriced bool) {
	ph := b.phase
	in, _ := plan.PhaseOffer(cat, ph)
	if in == nil || !w.Task.Training() {
		return model.Message{}, false
	}
	if job, ok, _, err := b.phaseJob(fs, cat, in, "", w); err == nil && ok {
		if r := jobRefusal(ph.Name, &job); !r.IsZero() {
			return r, false
		}
	}
	var m model.Message
	if err := checkPriced(cat, in, ph.Region, b.origin("region"), cmp.Or(ph.Pricing, model.OnDemand)); err != nil && errors.As(err, &m) {
		return m, true
	}
	return model.Message{}, false
}

// phaseAnswers is the configuration of a phase of the plan at path that
// has answers: ConfigFromAnswers, the files the answers name (hf_config,
// safetensors) held to the plan's folder (confinePaths: links too, and a
// missing file is said) and resolved against it. Every command that turns
// a phase's answers into file reads goes through it or readPhaseConfig:
// estimate, recommend and export --phase, plan (its models, its savings
// and pinned serving) and the configurator (attack round 10: plan's
// savings read hf_config through a linked folder).
func phaseAnswers(path string, ph *plan.Phase) (config.Config, error) {
	c, err := ph.ConfigFromAnswers()
	if err != nil {
		return config.Config{}, usage(model.Msg("%s: %v", path, err))
	}
	if err := confinePaths(path, ph, &c.Workload, filepath.Dir(path)); err != nil {
		return config.Config{}, err
	}
	c.Workload.RelativeTo(filepath.Dir(path))
	return c, nil
}

// phaseConfig is the configuration of phase ph of the plan at path: its
// answers (phaseAnswers) or the configuration file it names
// (readPhaseConfig); ok is false when it has neither.
func phaseConfig(path string, ph *plan.Phase) (c config.Config, ok bool, err error) {
	switch {
	case len(ph.Answers) > 0:
		c, err = phaseAnswers(path, ph)
	case ph.Config != "":
		c, err = readPhaseConfig(path, ph)
	default:
		return config.Config{}, false, nil
	}
	return c, err == nil, err
}

// confinePaths holds the files a phase's answers name (hf_config,
// safetensors, relative to base: the plan's folder, or the folder of the
// configuration file a phase names) to the plan's folder, as plan.Decode
// holds config: a plan someone sends cannot make gpuplan read, and quote
// in an error, a file of the user's elsewhere (attack round 8, #4).
func confinePaths(path string, ph *plan.Phase, w *config.WorkloadAnswers, base string) error {
	dir := filepath.Dir(path)
	for _, f := range []struct{ key, v string }{{"hf_config", w.HFConfig}, {"safetensors", w.Safetensors}} {
		if f.v == "" {
			continue
		}
		ok := !filepath.IsAbs(f.v) && f.v[0] != '~'
		if ok {
			j := filepath.Join(base, filepath.FromSlash(f.v))
			rel, err := filepath.Rel(dir, j)
			ok = err == nil && filepath.IsLocal(rel) && inFolder(dir, j)
		}
		if !ok {
			return usage(model.Msg("%s: phase %q %s %s is outside the plan's folder; put the file beside the plan (or in a folder under it) and give its relative path", path, ph.Name, f.key, termsafe.String(f.v)))
		}
		// A file that is not there is the plan's mistake, said now with
		// the phase (attack round 10: gpuplan plan said it only inside
		// "What saves the most" and exited 0).
		j := filepath.Join(base, filepath.FromSlash(f.v))
		if _, err := os.Stat(j); errors.Is(err, fs.ErrNotExist) {
			return usage(model.Msg("%s: phase %q %s %s: no such file or directory; give the path of a file in the plan's folder, relative to it", path, ph.Name, f.key, termsafe.String(f.v)))
		}
		// The reader opens files the path does not name: config.json in
		// a folder, an index's shards. Each is held to the folder too,
		// links resolved (attack round 11: hf_config = "h", a folder in
		// the plan's, whose config.json linked out, was read).
		for _, o := range openedFiles(f.key, j) {
			if !inFolder(dir, o) {
				rel, err := filepath.Rel(base, o)
				if err != nil {
					rel = o
				}
				return usage(model.Msg("%s: phase %q %s %s opens %s, a link to a file outside the plan's folder; put the file itself beside the plan (or in a folder under it)", path, ph.Name, f.key, termsafe.String(f.v), termsafe.String(filepath.ToSlash(rel))))
			}
		}
	}
	return nil
}

// openedFiles lists the files the reader of key (data/hf ReadConfig for
// hf_config, ReadSafetensors for safetensors) may open for the path p,
// beyond p itself: for a folder, its config.json (hf_config), or every
// .safetensors and .json file in it (safetensors: the index, the shards
// it names, which are plain names in its folder, or the one file); for a
// safetensors index, every .safetensors file beside it. A file listed
// that the reader would not open only makes the check stricter.
func openedFiles(key, p string) []string {
	fi, err := os.Stat(p)
	if err != nil {
		return nil
	}
	dir := p
	switch {
	case fi.IsDir() && key == "hf_config":
		return []string{filepath.Join(p, "config.json")}
	case key != "safetensors":
		return nil
	case !fi.IsDir():
		if !strings.HasSuffix(p, ".index.json") {
			return nil
		}
		dir = filepath.Dir(p)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".safetensors") || strings.HasSuffix(n, ".json") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// readPhaseConfig reads the configuration file a phase of the plan at
// path names (config = FILE, relative to the plan's folder) through the
// same bounded reader and decoder as --config, on the phase's own offer
// (plan.Phase.Configure: its provider, instance type, region, pricing and
// instances, not the file's [selection]); the error names the phase and
// exits with status 2.
func readPhaseConfig(path string, ph *plan.Phase) (config.Config, error) {
	file := ph.ConfigPath(filepath.Dir(path))
	// plan.Decode keeps config in the plan's folder; a link there must
	// not lead out of it either (issue 29).
	if !inFolder(filepath.Dir(path), file) {
		return config.Config{}, usage(model.Msg("%s: phase %q config %s: a link to a file outside the plan's folder; copy the configuration file beside the plan", path, ph.Name, termsafe.String(file)))
	}
	b, err := safeio.ReadTOML(file, safeio.Config) // regular file, size and nesting capped, never blocks
	var c config.Config
	if err == nil && plan.IsPlan(b) {
		// A plan is not a configuration: config.Decode would say
		// `name: unknown key "name"` of its title (walk35).
		return config.Config{}, usage(model.Msg("%s: phase %q config %s is a plan file ([[phase]] tables), not a configuration: name a configuration file (gpuplan export --format toml writes one), or give the phase's answers in [phase.answers]", path, ph.Name, termsafe.String(file)))
	}
	if err == nil {
		c, err = config.Decode(b)
	} else if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err
	}
	if err != nil {
		return config.Config{}, usage(model.Msg("%s: phase %q config %s: %v", path, ph.Name, termsafe.String(file), err))
	}
	if err := confinePaths(path, ph, &c.Workload, filepath.Dir(file)); err != nil {
		return config.Config{}, err
	}
	c.Workload.RelativeTo(filepath.Dir(file))
	// The phase's offer, not the one the file picked (plan.Phase.Configure).
	return ph.Configure(c), nil
}

// inFolder reports whether file, once links are resolved, is under dir
// (itself resolved). A missing file is resolved through the deepest
// folder above it that exists, so "link/missing" with link leading out
// is outside too (whether a file out there exists is not told); a link
// that resolves to nothing (dangling, a loop) is outside. A dir that does
// not resolve is left to the reader to report.
func inFolder(dir, file string) bool {
	real, ok := resolveLinks(file)
	if !ok {
		return false
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return true
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && filepath.IsLocal(rel)
}

// resolveLinks is filepath.EvalSymlinks for a path whose last parts may
// be missing: the deepest existing folder resolved, the missing names
// joined to it; ok is false when an existing part does not resolve.
func resolveLinks(p string) (string, bool) {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real, true
	}
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return "", false // there, but a dangling link, a loop or unreadable
	}
	parent := filepath.Dir(p)
	if parent == p {
		return "", false
	}
	real, ok := resolveLinks(parent)
	return filepath.Join(real, filepath.Base(p)), ok
}

// checkPhaseConfigs reads the configuration file of every phase that
// names one, so a missing, special (/dev/zero, a FIFO) or malformed file
// is an error before anything is priced, with --no-savings too; and
// holds the files every phase's answers name (hf_config, safetensors) to
// the plan's folder, links resolved, a missing one an error (phaseConfig,
// as estimate --phase reads a phase), before any of them is read.
func checkPhaseConfigs(path string, p *plan.Plan) error {
	for i := range p.Phases {
		if _, _, err := phaseConfig(path, &p.Phases[i]); err != nil {
			return err
		}
	}
	return nil
}

// planSavingsPerKind bounds the GPU types and regions tried per phase, as
// recommend's savings (report.savingsPerKind).
const planSavingsPerKind = 6

// planScenario resolves each phase of p (read from path) to the scenario
// the engine prices: its answers (or the configuration file it names)
// through the configuration decoder, resolved against cat, on its chosen
// offer (plan.PhaseScenarioFor).
func planScenario(env *Env, cat *model.Catalog, path string, p *plan.Plan) (plan.Scenario, error) {
	pl, _, err := planScenarioLinked(env, cat, path, p)
	return pl, err
}

// planScenarioLinked is planScenario with what each phase serves: a
// serving phase after a LoRA or QLoRA phase of its model serves that
// adapter, its slots planned (plan.LinkTrained); the messages say so,
// per phase (zero for a phase that serves what it names).
func planScenarioLinked(env *Env, cat *model.Catalog, path string, p *plan.Plan) (plan.Scenario, []model.Message, error) {
	pl, err := planPhases(env, cat, path, p)
	if err != nil {
		return nil, nil, err
	}
	return pl, plan.LinkTrained(pl), nil
}

// linked is what the plan's serving phase b is serves besides the model
// it names (plan.LinkTrained), for estimate, export and recommend
// --phase as gpuplan plan says it: the LoRA adapter a phase before it
// trains (nil for none), that phase, and plan's sentence for it. ok is
// false when b is no phase of a plan, the plan's phases do not resolve,
// w serves another model than the phase (--model over it), or no phase
// before it trains its model.
func (b *fromFile) linked(env *Env, cat *model.Catalog, w *model.Workload) (lora *serve.LoRA, t plan.Trained, msg model.Message, ok bool) {
	if b.phase == nil || b.whole == nil {
		return nil, plan.Trained{}, model.Message{}, false
	}
	i := slices.IndexFunc(b.whole.Phases, func(ph plan.Phase) bool { return ph.Name == b.phase.Name })
	sc, links, err := planScenarioLinked(env, cat, b.plan, b.whole)
	if err != nil || i < 0 || i >= len(sc) || sc[i].Serve == nil || sc[i].Workload.Model.Key != w.Model.Key || links[i].IsZero() {
		return nil, plan.Trained{}, model.Message{}, false
	}
	t, _ = sc.TrainedFor(i)
	return sc[i].Serve.LoRA, t, model.Msg("phase %q: %v", b.phase.Name, links[i]), true
}

// planPhases is planScenario's phases, each as written.
func planPhases(env *Env, cat *model.Catalog, path string, p *plan.Plan) (plan.Scenario, error) {
	pl := make(plan.Scenario, 0, len(p.Phases))
	for i := range p.Phases {
		ph := &p.Phases[i]
		c, ok, err := phaseConfig(path, ph) // the files held to the plan's folder
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, model.Msg("phase %q has neither answers nor config, so there is no workload to change; add [phase.answers]", ph.Name)
		}
		w, _, err := c.Workload.Workload(cat, env.Readers)
		if err != nil {
			return nil, model.Msg("phase %q: %v", ph.Name, err)
		}
		q := c.Query()
		ps := plan.PhaseScenarioFor(ph, w, q, cat)
		if ps.Workload.Task == model.TaskInference && serve.ServesModel(&ps.Workload.Model) {
			// A served LLM: priced on the serving ranking, as recommend
			// ranks it (the request as resolveServe builds it).
			s := c.Workload.Serving(&ps.Workload)
			c.Search.ServeSearch(&s)
			ps = ps.WithServing(s)
		}
		pl = append(pl, ps)
	}
	return pl, nil
}

// planSavings is "what saves the most" over the whole plan read from
// path; the error, when set, is why there is none (shown, not fatal: the
// plan's own prices need no catalog).
func planSavings(env *Env, cat *model.Catalog, path string, p *plan.Plan) (float64, []plan.Saving, []string, error) {
	pl, err := planScenario(env, cat, path, p)
	if err != nil {
		return 0, nil, nil, err
	}
	// A spot job is priced as recommend's savings price it: at its expected
	// cost with interruptions (report.SpotJobCost), with the spot rates
	// recommend reads and its default assumptions (plan has no flags for
	// them); without rates, at the bare rate.
	var spot advice.SpotJobCost
	if env.SpotRates != nil {
		if rate, _, err := env.SpotRates(); err == nil {
			spot = report.SpotJobCost(cat, rate, defaultSpotAssumptions(), model.HoursPerMonth)
		}
	}
	return plan.Savings(cat, pl, planSavingsPerKind, spot)
}

// readConfigOrPlan reads the configurator's --config: a configuration, or
// a plan ([[phase]] tables), which opens with its phases and the answers
// of the phase named (--phase NAME, as recommend --config F --phase NAME
// reads it, its config file too) or else of its first phase that has
// answers or a configuration file (nil: none has, the defaults). Every
// phase's configuration file is read first; one refused is the error. It returns the name of the phase
// opened ("" for none); --phase on a configuration is an error.
func readConfigOrPlan(path, phase string) (*config.Config, *plan.Plan, string, error) {
	b, err := safeio.ReadTOML(path, safeio.Config)
	if err != nil || !plan.IsPlan(b) {
		if err == nil && phase != "" {
			if serr := plan.SyntaxError(b); serr != nil {
				return nil, nil, "", usage(model.Msg("%s: %v", path, serr))
			}
			return nil, nil, "", usage(model.Msg("--phase %s: %s has no [[phase]] tables; it is a configuration, read without --phase", termsafe.String(phase), path))
		}
		c, err := readConfig(path)
		if err != nil {
			return nil, nil, "", err
		}
		return &c, nil, "", nil
	}
	pl, err := plan.Decode(b)
	if err != nil {
		return nil, nil, "", usage(model.Msg("%s: %v", path, err))
	}
	// open gives the answers of one phase: its configuration file's, read
	// as recommend --config F --phase NAME reads it, or its answers'.
	open := func(ph *plan.Phase) (*config.Config, *plan.Plan, string, error) {
		if len(ph.Answers) == 0 && ph.Config != "" {
			c, err := readPhaseConfig(path, ph)
			if err != nil {
				return nil, nil, "", err
			}
			c.Workload.RelativeTo(filepath.Dir(ph.ConfigPath(filepath.Dir(path))))
			c.Selection = nil
			return &c, &pl, ph.Name, nil
		}
		c, err := phaseAnswers(path, ph)
		if err != nil {
			return nil, nil, "", err
		}
		c.Selection = nil // the offer is the phase's, kept in the plan
		return &c, &pl, ph.Name, nil
	}
	// Every phase's configuration file, and the files its answers name,
	// are checked now, as gpuplan plan checks them: a refused one is said
	// and exits 2, rather than the plan opening on default answers
	// (attack round 9), and no phase opened later on the plan page (e)
	// reads a file outside the plan's folder (attack round 10), with
	// --phase too.
	var named *plan.Phase // --phase: its own error first
	if phase != "" {
		if named, err = pl.Phase(phase); err != nil {
			return nil, nil, "", usage(model.Msg("%s: %v", path, err))
		}
		if _, _, err := phaseConfig(path, named); err != nil {
			return nil, nil, "", err
		}
	}
	var first *plan.Phase
	for i := range pl.Phases {
		ph := &pl.Phases[i]
		if _, ok, err := phaseConfig(path, ph); err != nil {
			return nil, nil, "", err
		} else if ok && first == nil {
			first = ph
		}
	}
	if named != nil {
		return open(named)
	}
	// Without --phase the first phase with answers or a configuration
	// file opens.
	if first == nil {
		return nil, &pl, "", nil
	}
	return open(first)
}

// origin names where a value of the file's picked offer came from, for
// an error about it when no flag gave it: key ("region", "instance") of
// the phase --phase picked, in the plan file (p1.toml: phase "train"
// region), or of a configuration's [selection] (tui.toml:
// selection.region), so the error does not name a flag the user never
// typed (walk37: "--region it-fr2: …" for a configuration's region).
func (b *fromFile) origin(key string) string {
	if b.phase != nil {
		return fmt.Sprintf("%s: phase %q %s", cmp.Or(b.plan, b.path), b.phase.Name, key)
	}
	if key == "instance" {
		key = "provider/instance_type"
	}
	return fmt.Sprintf("%s: selection.%s", b.path, key)
}

// phaseGPU gives a phase's selection the GPU of its instance type in cat
// (a phase records the offer, not the GPU), so estimate --phase times the
// job on the phase's GPU as it does on a configuration's picked offer.
func (b *fromFile) phaseGPU(cat *model.Catalog) {
	if b.cfg == nil || b.cfg.Selection == nil || b.cfg.Selection.GPU != "" {
		return
	}
	s := b.cfg.Selection
	for i := range cat.Instances {
		if in := &cat.Instances[i]; in.Provider == s.Provider && in.Type == s.InstanceType {
			s.GPU, s.GPUs = in.GPU, in.GPUCount*max(s.Instances, 1)
			return
		}
	}
}

// priceNote is the note export --phase adds to a file written for the
// phase's own offer (instance type in, region, nodes instances, pricing
// mode, as the phase rents it) whose header gives the catalog's
// usdPerHour, when the plan prices the phase at another usd_per_hour
// (plan.Phase.PriceNote); zero for another offer than the phase's (a
// departure), which the plan does not price.
func (b *fromFile) priceNote(in *model.Instance, region string, nodes int, pricing model.Pricing, usdPerHour float64, asOf string) model.Message {
	ph := b.phase
	if ph == nil || ph.Provider != in.Provider || ph.Instance != in.Type || ph.Region != "" && ph.Region != region ||
		max(ph.Instances, 1) != max(nodes, 1) || cmp.Or(ph.Pricing, model.OnDemand) != pricing {
		return model.Message{}
	}
	return ph.PriceNote(usdPerHour, asOf)
}

// phaseSearch is recommend --phase's search: base priced as the phase is,
// on every provider (plan.Phase.Search), its note added to warnings
// unless --providers narrows the search; base as it is without --phase.
// Training and serving recommend alike (walk38: a serving phase was
// ranked on-demand).
func (b *fromFile) phaseSearch(fs *pflag.FlagSet, base model.Query, warnings []model.Message) (model.Query, []model.Message) {
	if b.phase == nil {
		return base, warnings
	}
	if n := b.phase.SearchNote(); !n.IsZero() && !fs.Changed("providers") {
		warnings = append(warnings, n)
	}
	return b.phase.Search(base), warnings
}
