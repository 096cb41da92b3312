package data

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// SpotAdvisorURL is AWS's public, credential-free Spot Instance Advisor
// feed: frequency-of-interruption buckets per region, OS and instance type.
const SpotAdvisorURL = "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json"

// maxSpotAdvisorBytes bounds what ParseSpotAdvisor reads; the real feed is
// about 1 MB.
const maxSpotAdvisorBytes = 32 << 20

// SpotAdvisor is the parsed feed: for each region and instance type
// (Linux), the interruption bucket.
type SpotAdvisor struct {
	GlobalRate string // the feed's average over everything, "<10%"
	rates      map[string]map[string]decide.InterruptionRate
}

type advisorFile struct {
	Ranges []struct {
		Index int    `json:"index"`
		Label string `json:"label"`
		Max   int    `json:"max"`
	} `json:"ranges"`
	SpotAdvisor map[string]map[string]map[string]struct {
		Savings *int `json:"s"`
		Range   *int `json:"r"`
	} `json:"spot_advisor"`
	GlobalRate string `json:"global_rate"`
}

// ParseSpotAdvisor reads spot-advisor-data.json (SpotAdvisorURL). Unknown
// keys are ignored (the feed also carries instance_types); a missing
// ranges or spot_advisor key, a bucket label that is not a percentage
// range, or an "r" that names no range is an error that says which.
func ParseSpotAdvisor(r io.Reader) (*SpotAdvisor, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxSpotAdvisorBytes+1))
	if err != nil {
		return nil, model.Msg("spot advisor: %v", err)
	}
	if len(b) > maxSpotAdvisorBytes {
		return nil, model.Msg("spot advisor: larger than %d MiB; is this spot-advisor-data.json?", maxSpotAdvisorBytes>>20)
	}
	var f advisorFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, model.Msg("spot advisor: not the advisor's JSON: %v", err)
	}
	if len(f.Ranges) == 0 || f.SpotAdvisor == nil {
		return nil, model.Msg(`spot advisor: missing "ranges" or "spot_advisor": is this spot-advisor-data.json?`)
	}
	source := "AWS Spot Instance Advisor (" + SpotAdvisorURL + ")"
	buckets := make(map[int]decide.InterruptionRate, len(f.Ranges))
	for _, rg := range f.Ranges {
		rate, err := decide.RateFromBucket(rg.Label, source)
		if err != nil {
			return nil, model.Msg("spot advisor: range %d: %v", rg.Index, err)
		}
		buckets[rg.Index] = rate
	}
	a := &SpotAdvisor{GlobalRate: f.GlobalRate, rates: make(map[string]map[string]decide.InterruptionRate, len(f.SpotAdvisor))}
	regions := make([]string, 0, len(f.SpotAdvisor))
	for region := range f.SpotAdvisor {
		regions = append(regions, region)
	}
	sort.Strings(regions) // errors name the first bad entry in a stable order
	for _, region := range regions {
		linux := f.SpotAdvisor[region]["Linux"]
		types := make([]string, 0, len(linux))
		for t := range linux {
			types = append(types, t)
		}
		sort.Strings(types)
		m := make(map[string]decide.InterruptionRate, len(linux))
		for _, t := range types {
			e := linux[t]
			if e.Range == nil {
				return nil, model.Msg(`spot advisor: %s %s: missing "r"`, region, t)
			}
			rate, ok := buckets[*e.Range]
			if !ok {
				return nil, model.Msg(`spot advisor: %s %s: "r" = %d names no range`, region, t, *e.Range)
			}
			m[t] = rate
		}
		a.rates[region] = m
	}
	return a, nil
}

// Rate returns the advisor's bucket for an instance type in a region
// (Linux), and whether the feed lists it.
func (a *SpotAdvisor) Rate(region, instanceType string) (decide.InterruptionRate, bool) {
	if a == nil {
		return decide.InterruptionRate{}, false
	}
	r, ok := a.rates[region][instanceType]
	return r, ok
}

//go:embed spot/interruptions.toml
var interruptionsTOML []byte

type interruptionEntry struct {
	Provider string    `toml:"provider"`
	Bucket   string    `toml:"bucket"`
	PerMonth *float64  `toml:"per_month"`
	Source   string    `toml:"source"`
	AsOf     time.Time `toml:"as_of"`
}

// SpotDefaults are the interruption rates assumed per provider when no
// published figure covers an instance (data/spot/interruptions.toml).
type SpotDefaults struct {
	providers map[string]decide.InterruptionRate
	fallback  decide.InterruptionRate
}

// LoadSpotDefaults returns the embedded defaults: spot/interruptions.toml
// as `go generate ./data` decoded and validated it into spot_gen.go
// (decoding the TOML at run time was ~0.2 ms of recommend's start).
func LoadSpotDefaults() (*SpotDefaults, error) { return embeddedSpotDefaults(), nil }

// SpotDefaultsTOML decodes and validates the embedded
// spot/interruptions.toml: the rate of each provider named there and the
// fallback. `go generate ./data` writes its result into spot_gen.go
// (TestEmbeddedSpotDefaultsFresh); start-up never calls it.
func SpotDefaultsTOML() (providers map[string]decide.InterruptionRate, fallback decide.InterruptionRate, err error) {
	d, err := parseSpotDefaults(interruptionsTOML)
	if err != nil {
		return nil, decide.InterruptionRate{}, err
	}
	return d.providers, d.fallback, nil
}

func parseSpotDefaults(b []byte) (*SpotDefaults, error) {
	var f struct {
		SchemaVersion int                 `toml:"schema_version"`
		Provider      []interruptionEntry `toml:"provider"`
		Fallback      *interruptionEntry  `toml:"fallback"`
	}
	md, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&f)
	if err != nil {
		return nil, model.Msg("interruptions.toml: %v", err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		return nil, model.Msg("interruptions.toml: unknown keys %q", u)
	}
	if f.SchemaVersion != SchemaVersion {
		return nil, model.Msg("interruptions.toml: schema_version %d, this build reads %d", f.SchemaVersion, SchemaVersion)
	}
	if f.Fallback == nil {
		return nil, model.Msg("interruptions.toml: missing [fallback]")
	}
	rate := func(e *interruptionEntry, what string) (decide.InterruptionRate, error) {
		if e.Source == "" || e.AsOf.IsZero() {
			return decide.InterruptionRate{}, model.Msg("interruptions.toml: %s: source and as_of are required", what)
		}
		r, err := decide.RateFromBucket(e.Bucket, e.Source)
		if err != nil {
			return r, model.Msg("interruptions.toml: %s: %v", what, err)
		}
		if e.PerMonth != nil {
			if !(*e.PerMonth >= 0 && *e.PerMonth < 1) {
				return r, model.Msg("interruptions.toml: %s: per_month must be in [0, 1), got %g", what, *e.PerMonth)
			}
			r.PerMonth = *e.PerMonth
		}
		r.Assumption = true
		return r, nil
	}
	d := &SpotDefaults{providers: map[string]decide.InterruptionRate{}}
	var errs []error
	for i := range f.Provider {
		e := &f.Provider[i]
		r, err := rate(e, fmt.Sprintf("provider %q", e.Provider))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, dup := d.providers[e.Provider]; dup || e.Provider == "" {
			errs = append(errs, model.Msg("interruptions.toml: provider %q is empty or listed twice", e.Provider))
			continue
		}
		d.providers[e.Provider] = r
	}
	if d.fallback, err = rate(f.Fallback, "fallback"); err != nil {
		errs = append(errs, err)
	}
	return d, errors.Join(errs...)
}

// SpotRate returns the interruption rate to plan a spot offer with: the
// advisor's bucket when adv lists the instance type in the region (AWS),
// else the provider's default, else the fallback; the defaults carry
// Assumption = true so every view can label them. adv may be nil (no
// feed downloaded).
func (d *SpotDefaults) SpotRate(adv *SpotAdvisor, provider, region, instanceType string) decide.InterruptionRate {
	if provider == "aws" {
		if r, ok := adv.Rate(region, instanceType); ok {
			return r
		}
	}
	if r, ok := d.providers[provider]; ok {
		return r
	}
	return d.fallback
}
