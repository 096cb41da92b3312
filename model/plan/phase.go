package plan

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// IsPlan reports whether b is a plan file: TOML with [[phase]] tables.
// It only looks; Decode says what is wrong with one.
func IsPlan(b []byte) bool {
	var f struct {
		Phase []map[string]any `toml:"phase"`
	}
	_, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&f)
	return err == nil && len(f.Phase) > 0
}

// SyntaxError returns, when b does not read as TOML at all (a syntax
// error, a key defined twice, JSON), the error Decode gives for it, and
// nil when it reads. IsPlan is false for such a file, which is then no
// more a configuration than a plan: --phase on it says what is wrong,
// not "no [[phase]] tables" (walk50: a plan with months written twice
// was called a configuration by estimate, recommend and export --phase).
func SyntaxError(b []byte) error {
	var f map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&f); err == nil {
		return nil
	}
	_, err := Decode(b)
	if err == nil { // cannot happen: Decode reads b with the same decoder
		err = errors.New("not a TOML file")
	}
	return err
}

// PhaseNames returns the names of the plan's phases, in order.
func (pl *Plan) PhaseNames() []string {
	names := make([]string, len(pl.Phases))
	for i := range pl.Phases {
		names[i] = pl.Phases[i].Name
	}
	return names
}

// ErrNoPhase is matched (errors.Is) by Plan.Phase's error when no phase
// was named or none has the name.
var ErrNoPhase = errors.New("no such phase")

// phaseError is Plan.Phase's error: what to type, and ErrNoPhase.
type phaseError struct{ msg model.Message }

func (e *phaseError) Error() string          { return e.msg.String() }
func (e *phaseError) Message() model.Message { return e.msg }
func (e *phaseError) Is(target error) bool   { return target == ErrNoPhase }

// Phase returns the phase named name. Without a name, or with one no
// phase has, the error lists the phases and how to pick one.
func (pl *Plan) Phase(name string) (*Phase, error) {
	names := make([]string, len(pl.Phases))
	for i := range pl.Phases {
		if pl.Phases[i].Name == name && name != "" {
			return &pl.Phases[i], nil
		}
		names[i] = strconv.Quote(pl.Phases[i].Name)
	}
	list := strings.Join(names, ", ")
	switch s := model.Closest(name, pl.PhaseNames(), 1); {
	case name == "":
		return nil, &phaseError{model.Msg("a plan with phases %s: pick one with --phase NAME (gpuplan plan FILE prices the whole plan)", list)}
	case len(s) > 0:
		return nil, &phaseError{model.Msg("no phase %q; did you mean %q? The plan's phases are %s", quoted(name), s[0], list)}
	}
	return nil, &phaseError{model.Msg("no phase %q; the plan's phases are %s", quoted(name), list)}
}

// ConfigPath returns the file the phase's Config names, for a plan read
// from the folder dir: joined to dir (the plan's own folder, so a plan
// and its configurations move together; Decode refuses a path that
// leaves it, and an absolute one, which is returned as given). "" when
// the phase names no file. The caller reads it through
// the same bounded reader as any configuration (model reads no files).
func (p *Phase) ConfigPath(dir string) string {
	if p.Config == "" || filepath.IsAbs(p.Config) {
		return p.Config
	}
	return filepath.Join(dir, p.Config)
}

// ConfigTOML writes the phase's answers as a configuration file
// (AnswersTOML).
func (p *Phase) ConfigTOML() ([]byte, error) { return config.AnswersTOML(p.Answers) }

// Config returns the configuration the phase stands for: its answers
// through config.Decode (see ConfigTOML), and the phase's offer as the
// selection. Decode refuses a phase with both answers and a configuration
// file (Config); a phase with only the file is read by the caller (model
// reads no files), and is an error here. Errors are *config.Error
// whose key starts with the phase: `phase "serve" answers.precision`.
func (p *Phase) ConfigFromAnswers() (config.Config, error) {
	if p.Config != "" && len(p.Answers) == 0 {
		return config.Config{}, config.Errorf(fmt.Sprintf("phase %q", p.Name), "names a configuration file (config = %q) and no answers; read that file", p.Config)
	}
	b, err := p.ConfigTOML()
	if err == nil {
		var c config.Config
		if c, err = config.Decode(b); err == nil {
			return p.Configure(c), nil
		}
	}
	var ce *config.Error
	if errors.As(err, &ce) {
		k := strings.TrimPrefix(ce.Key, "workload.")
		if !strings.HasPrefix(k, "answers.") {
			k = "answers." + k
		}
		return config.Config{}, &config.Error{Key: fmt.Sprintf("phase %q %s", p.Name, k), Msg: ce.Msg}
	}
	return config.Config{}, err
}

// Configure returns c, the configuration phase p stands for (its answers
// decoded, or the configuration file its config names, which the caller
// reads: model reads no files), on the phase's own offer: the phase's
// provider, instance type, region, pricing (on-demand when left out, as
// the plan prices and checks it) and instances are c's picked offer
// (Selection), whatever the file picked, and the file's [estimate],
// figures for its own pick, is dropped. Every command that reads a phase
// goes through it, so gpuplan plan, estimate --phase and export --phase
// work on the same offer (walk36b: a phase on gcp g2-standard-4 naming a
// file exported for aws g5.xlarge was estimated on the file's A10G and
// exported as g5.xlarge; a serving file's g5.48xlarge was written for a
// phase renting two g5.12xlarge). A phase that names no offer keeps c's.
func (p *Phase) Configure(c config.Config) config.Config {
	if sel := p.selection(); sel != nil {
		c.Selection, c.Estimate = sel, nil
	}
	return c
}

// selection is the phase's offer as a configuration's picked offer; nil
// when the phase names none.
func (p *Phase) selection() *config.Selection {
	if p.Provider == "" || p.Instance == "" {
		return nil
	}
	s := &config.Selection{Provider: p.Provider, InstanceType: p.Instance, Region: p.Region, Pricing: cmp.Or(p.Pricing, model.OnDemand),
		Instances: p.Instances, USDPerHour: p.USDPerHour, JobHours: p.JobHours}
	if p.JobHours > 0 && p.USDPerHour > 0 {
		s.JobUSD = p.JobHours * p.USDPerHour
	}
	return s
}
