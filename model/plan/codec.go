package plan

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/show"
)

// MaxPhases bounds a plan file's phases: a plan is a handful of steps;
// thousands are a mistake or hostile input.
const MaxPhases = 64

// MaxNameChars bounds a phase's name, in characters (runes, so a name in
// Chinese gets as many as one in English): a name is a table's first
// column and the word --phase picks it by, as fine-tune or serve; a
// 5,000-character name wrecked the table (attack round 10). 64 as
// MaxPhases, above the configurator's 40-character prompt and the
// 52-character job names export slugs a name to (launch.Name).
const MaxNameChars = 64

// MaxOfferBytes bounds a plan's name and a phase's provider, instance
// and region, in bytes, as safeio.CheckName bounds the catalog's names
// (256 bytes): a plan's offer names one of the catalog's, and its name is
// a title line; a 100,000-character instance was echoed three times in a
// 100 KB line (attack round 13). MaxPathBytes bounds a phase's config and
// its answers (paths among them) at Linux's PATH_MAX, 4096 bytes.
const (
	MaxOfferBytes = 256
	MaxPathBytes  = 4096
)

// planFile is a plan on disk: schema_version, name, [[phase]]. The
// configuration tables (workload, search, estimate, selection) may sit
// beside them, so a configuration can carry its plan; they are left to
// config.Decode.
type planFile struct {
	SchemaVersion int     `toml:"schema_version"`
	Name          string  `toml:"name,omitempty"`
	Phases        []Phase `toml:"phase"`
}

// planTables are the top-level keys a plan file may hold besides its own.
var planTables = []string{"workload", "search", "estimate", "selection"}

// configOnlyTables are the tables of a configuration that a plan does
// not take ([workload] holds every configuration's request, [launch] and
// [serve] an export's): with no [[phase]], the file is a configuration.
var configOnlyTables = []string{"workload", "launch", "serve"}

// planPhaseKeys are the keys of a [[phase]] table, for "did you mean".
var planPhaseKeys = []string{"name", "config", "answers", "provider", "instance", "region", "pricing", "instances",
	"usd_per_hour", "job_hours", "months", "hours_per_month"}

// Decode reads a plan file ([[phase]] tables, see Plan) strictly: an
// unknown key, a pricing mode that does not exist, text with control
// characters, more than MaxPhases phases or a phase's answers the
// configuration decoder refuses is an error naming the key (a
// *config.Error wrapping config.ErrInvalid). Costs are checked by
// Plan.Cost.
func Decode(b []byte) (Plan, error) {
	if config.LooksJSON(b) {
		// walk49: `gpuplan plan x.json` was told "line 1: expected '.' or
		// '=', but got '{'", where estimate, recommend and export say what
		// the file is.
		return Plan{}, &config.Error{Msg: model.Msg("this is a JSON file, not a gpuplan plan, which is TOML with one [[phase]] table per phase")}
	}
	// The file as written (raw.go) words what the typed decode reads as Go
	// types (instances = 1.5) or as 0 (instances left out): checkInstances
	// says those in its words, where the typed error is about instances.
	raw := rawPhases(b)
	var f planFile
	md, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&f)
	if err != nil {
		if ie := checkInstances(raw); ie != nil {
			return Plan{}, ie
		}
		if ne := checkNumbers(raw); ne != nil {
			return Plan{}, ne
		}
		if se := checkStrings(raw); se != nil {
			return Plan{}, se
		}
		if ae := checkRawAnswers(raw); ae != nil {
			return Plan{}, ae
		}
		if line := singlePhaseLine(b); line > 0 && strings.Contains(err.Error(), "phase") {
			// The decoder's words were "key 'phase' was already created and
			// cannot be used as an array" (walk37) and the like.
			return Plan{}, &config.Error{Key: "phase", Line: line, Msg: model.Msg("[phase] is one table; write every phase as [[phase]], with two brackets")}
		}
		if ce := config.TOMLParseError(err); ce != nil {
			return Plan{}, ce
		}
		return Plan{}, &config.Error{Msg: config.ValueMessage(config.TidyTOMLMessage(err.Error()))}
	}
	if len(f.Phases) == 0 && !md.IsDefined("phase") && slices.ContainsFunc(configOnlyTables, func(t string) bool { return md.IsDefined(t) }) {
		// A configuration given as a plan (walk37: gpuplan plan tune.toml
		// read "launch: unknown key \"launch\""): say so and how to use
		// it, as a plan given as --config says (Plan.Phase).
		return Plan{}, &config.Error{Msg: model.Msg("a gpuplan configuration, not a plan: rank its offers with gpuplan recommend --config FILE (gpuplan plan prices a file of [[phase]] tables)")}
	}
	for _, k := range md.Undecoded() {
		if slices.Contains(planTables, k[0]) {
			continue
		}
		return Plan{}, unknownKey(raw, k)
	}
	if !md.IsDefined("schema_version") { // an empty file among them; as config.Decode says it
		return Plan{}, config.Errorf("schema_version", "missing; add schema_version = %d at the top", config.SchemaVersion)
	}
	if f.SchemaVersion != config.SchemaVersion {
		return Plan{}, config.Errorf("schema_version", "want schema_version = %d at the top, got %d", config.SchemaVersion, f.SchemaVersion)
	}
	checkPricing(f.Phases)
	if err := check(f.Name, f.Phases); err != nil {
		var ce *config.Error
		if errors.As(err, &ce) && strings.HasSuffix(ce.Key, "instances") {
			if ie := checkInstances(raw); ie != nil {
				return Plan{}, ie
			}
		}
		return Plan{}, err
	}
	if err := checkGivenZero(raw, f.Phases); err != nil { // floors.go
		return Plan{}, err
	}
	return Plan{Name: f.Name, Phases: f.Phases}, nil
}

// singlePhaseHeader is a [phase] table header (one bracket each side),
// as TOML writes it: spaces inside the brackets, the key bare or quoted,
// a comment after. Compiled on first use: every command links this
// package, and only reading a plan needs it.
var singlePhaseHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[ \t]*\[[ \t]*(phase|"phase"|'phase')[ \t]*\][ \t]*(#.*)?\r?$`)
})

// singlePhaseLine is the line of b's first [phase] header, 0 for none: a
// phase written as one table, which the decoder refuses beside [[phase]]
// and the plan's array of phases cannot take alone.
func singlePhaseLine(b []byte) int {
	header := singlePhaseHeader()
	for i, l := range bytes.Split(b, []byte("\n")) {
		if header.Match(l) {
			return i + 1
		}
	}
	return 0
}

// planTopKeys are a plan file's top-level keys, for "did you mean".
var planTopKeys = append([]string{"schema_version", "name", "phase"}, planTables...)

// unknownKey is Decode's error for the key k it does not know: the
// closest valid key, else the valid ones (as config.Decode says it), and
// for a phase's key the phase by its name (raw: rawPhases), as its other
// errors name it (walk37: "phase.gpu: unknown key \"gpu\"" named no
// phase and suggested nothing; "colour: unknown key" listed no keys).
func unknownKey(raw []map[string]any, k toml.Key) error {
	key, last, valid := k.String(), k[len(k)-1], []string(nil)
	switch {
	case len(k) == 1:
		valid = planTopKeys
	case k[0] == "phase" && len(k) == 2:
		valid = planPhaseKeys
		for i, ph := range raw {
			if _, ok := ph[k[1]]; ok {
				name, _ := ph["name"].(string)
				key = phaseKey(i, name, k[1])
				break
			}
		}
	}
	msg := model.Msg("unknown key %q", last)
	if s := model.Closest(last, valid, 1); len(s) > 0 {
		msg = model.Msg("unknown key %q; did you mean %q?", last, s[0])
	} else if len(valid) > 0 {
		msg = model.Msg("unknown key %q; valid keys: %s", last, strings.Join(valid, ", "))
	}
	return &config.Error{Key: key, Msg: msg}
}

// check is what Decode and Encode both hold a plan to, so a file Encode
// writes is one Decode reads back: at least one and at most MaxPhases
// phases, text without control or invisible characters and within its
// bounds, paths inside the plan's folder, config or answers but not both,
// a pricing mode that exists, distinct names (checkFile), money and
// durations within bounds (checkBounds) and answers the configuration
// decoder takes (checkAnswers). What only the bytes show (an unknown key,
// the schema version, a figure written as 0) is Decode's alone.
func check(name string, phases []Phase) error {
	if len(phases) == 0 {
		return config.Errorf("phase", "no phases: add a [[phase]] table for each step")
	}
	if len(phases) > MaxPhases {
		return config.Errorf("phase", "%d phases; at most %d", len(phases), MaxPhases)
	}
	if err := planText("name", name, false); err != nil {
		return err
	}
	if len(name) > MaxOfferBytes {
		// The name is not quoted: it is what is too long.
		return config.Errorf("name", "%d bytes long; a plan's name is a title line of at most %d", len(name), MaxOfferBytes)
	}
	for i := range phases {
		p := &phases[i]
		key := func(k string) string { return fmt.Sprintf("phase[%d].%s", i, k) }
		for _, t := range []struct {
			k, v string
			req  bool
		}{{"name", p.Name, true}, {"config", p.Config, false}, {"provider", p.Provider, false},
			{"instance", p.Instance, false}, {"region", p.Region, false}} {
			if err := planText(key(t.k), t.v, t.req); err != nil {
				return err
			}
		}
		for _, t := range []struct {
			k, v string
			max  int
		}{{"provider", p.Provider, MaxOfferBytes}, {"instance", p.Instance, MaxOfferBytes}, {"region", p.Region, MaxOfferBytes}, {"config", p.Config, MaxPathBytes}} {
			if len(t.v) > t.max {
				return config.Errorf(key(t.k), "%d bytes long; at most %d (the catalog's names have at most 256 bytes)", len(t.v), t.max)
			}
		}
		for k, v := range p.Answers {
			if len(k) > MaxOfferBytes || len(v) > MaxPathBytes {
				return config.Errorf(key("answers"), "an answer of %d bytes under a key of %d; at most %d and %d", len(v), len(k), MaxPathBytes, MaxOfferBytes)
			}
		}
		if n := utf8.RuneCountInString(p.Name); n > MaxNameChars {
			// The name is not quoted: it is what is too long.
			return config.Errorf(key("name"), "%d characters long; a phase's name has at most %d, such as fine-tune or serve", n, MaxNameChars)
		}
		for k, v := range p.Answers {
			// The key and the value apart: an error quotes the one at fault
			// and counts bytes in it.
			if err := planText(key("answers"), k, false); err != nil {
				return err
			}
			if err := planText(key("answers."+k), v, false); err != nil {
				return err
			}
		}
		if p.Config != "" && !filepath.IsLocal(filepath.FromSlash(p.Config)) {
			// A plan is shared like a configuration; its files stay in its
			// folder, so one received cannot read /etc/passwd or ~/.ssh
			// and show a fragment in a parse error (issue 29).
			return config.Errorf(fmt.Sprintf("phase %s config", quoted(p.Name)), "%q is outside the plan's folder; put the configuration file beside the plan (or in a folder under it) and give its relative path, without a leading / or ..", p.Config)
		}
		for k, v := range p.Answers {
			// The files answers name are held to the folder as config is
			// (attack round 8: hf_config = "/home/u/.aws/credentials").
			switch strings.TrimPrefix(k, "workload.") {
			case "hf_config", "safetensors":
				if v != "" && !filepath.IsLocal(filepath.FromSlash(v)) {
					return config.Errorf(key("answers."+k), "%q is outside the plan's folder; put the file beside the plan (or in a folder under it) and give its relative path, without a leading / or ..", v)
				}
			}
		}
		if p.Config != "" && len(p.Answers) > 0 {
			return config.Errorf(key("config"), "give config or answers, not both: a phase is one configuration")
		}
		if p.Pricing != "" {
			if _, err := model.ParsePricing(string(p.Pricing)); err != nil {
				// Named by the phase's name, as its other figures are
				// (phaseKey), with the mode it is closest to (walk36b:
				// "phase[0].pricing" of pricing = "spott").
				k := phaseKey(i, p.Name, "pricing")
				if s := model.Closest(string(p.Pricing), pricingNames(), 1); len(s) > 0 {
					return config.Errorf(k, "%q: did you mean %q? want one of %s", quoted(p.Pricing), s[0], joinPricing())
				}
				return config.Errorf(k, "%q: want one of %s", quoted(p.Pricing), joinPricing())
			}
		}
	}
	if err := checkFile(name, phases); err != nil { // names.go
		return err
	}
	if err := checkAnswers(phases); err != nil { // answers.go
		return err
	}
	return nil
}

// checkPricing reads each phase's pricing as --pricing reads it
// (model.ParsePricing: case and surrounding space ignored, its aliases
// such as ondemand, on_demand or reserved) and keeps the mode it names, so
// every command prices, checks and exports that mode (walk36c: "SPOT",
// "On-Demand" or "reserved" passed plan, estimate --phase and export
// --phase, and export wrote on-demand); a mode it does not read is left
// to check, which says the closest. pricing = "" is the key left out,
// on-demand, as every command prices, checks and exports it (Configure):
// Encode writes it so for a phase without a mode, so a plan gpuplan wrote
// reopens.
func checkPricing(phases []Phase) {
	for i := range phases {
		p := &phases[i]
		if p.Pricing == "" {
			continue
		}
		if v, err := model.ParsePricing(string(p.Pricing)); err == nil {
			p.Pricing = v
		}
	}
}

// pricingNames are model.PricingModes as written in a plan.
func pricingNames() []string {
	s := make([]string, len(model.PricingModes))
	for i, p := range model.PricingModes {
		s[i] = string(p)
	}
	return s
}

func joinPricing() string { return strings.Join(pricingNames(), ", ") }

// Encode writes p as Decode reads it; decoding the result and
// encoding again gives the same bytes. A plan Decode would refuse (a
// bound, a name, an answer: check) is an error naming the key, as
// Decode's, and nothing is written: no caller can save a plan that does
// not reopen.
func Encode(p *Plan) ([]byte, error) {
	if err := check(p.Name, p.Phases); err != nil {
		return nil, err
	}
	phases := slices.Clone(p.Phases) // pricing as Decode reads it (checkPricing), p left as given
	checkPricing(phases)
	var b bytes.Buffer
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(planFile{SchemaVersion: config.SchemaVersion, Name: p.Name, Phases: phases}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// planText is CheckText that also refuses unprintable runes (escape
// sequences), since plan names are printed on the terminal.
func planText(key, s string, required bool) error {
	if err := config.CheckText(key, s, required); err != nil {
		return err
	}
	if strings.ContainsFunc(s, show.Unprintable) {
		return config.Errorf(key, "%q has control characters", quoted(s))
	}
	return nil
}
