package data

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// SpotAdvisorFile is the name the AWS Spot Instance Advisor feed is read
// under, in UpdateDir. Nothing writes it: the user saves SpotAdvisorURL
// there (catalog update does not fetch it).
const SpotAdvisorFile = "spot-advisor-data.json"

// spotAdvisorKind caps the feed (about 1 MB real) as ParseSpotAdvisor does.
var spotAdvisorKind = safeio.Kind{Name: "spot advisor feed", MaxBytes: maxSpotAdvisorBytes}

// SpotRates returns the interruption rate to plan spot offers with
// (SpotDefaults.SpotRate): the AWS advisor feed from UpdateDir when it is
// there, else the embedded defaults, labelled as assumptions. A feed that
// is present but unreadable gives a warning and the defaults; a missing
// one is normal (no warning).
func SpotRates() (rate func(provider, region, instanceType string) decide.InterruptionRate, warnings []model.Message, err error) {
	d, err := LoadSpotDefaults()
	if err != nil {
		return nil, nil, err
	}
	var adv *SpotAdvisor
	if dir, derr := UpdateDir(); derr == nil {
		path := filepath.Join(dir, SpotAdvisorFile)
		adv, err = readSpotAdvisor(path)
		if err != nil {
			// catalog update does not fetch the feed, so the way out is
			// the file itself (attack r29: the line said to run it), and
			// only a valid feed makes the rates AWS's: deleting it leaves
			// them assumptions (attack r29b F6: the line said deleting
			// would end that).
			warnings = append(warnings, model.Msg("%s: %v; spot interruption rates are assumptions until the file holds AWS's feed (save %s over it); deleting the file only ends this warning, and gpuplan catalog update does not fetch it", path, err, SpotAdvisorURL))
			adv = nil
		}
	}
	return func(provider, region, instanceType string) decide.InterruptionRate {
		return d.SpotRate(adv, provider, region, instanceType)
	}, warnings, nil
}

// readSpotAdvisor reads the feed at path; nil, nil when there is none.
func readSpotAdvisor(path string) (*SpotAdvisor, error) {
	b, err := safeio.ReadFile(path, spotAdvisorKind)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseSpotAdvisor(bytes.NewReader(b))
}
