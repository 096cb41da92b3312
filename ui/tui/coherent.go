package tui

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// What the dataset answer counts depends on the model and the task: tokens
// or samples for a text model, images for a vision model, requests when
// serving. A number typed for one basis means something else on another
// ("20M tokens" as 20M images is 16 ImageNets), so each basis has its own
// default, and a default still untouched follows the basis.
const (
	basisText     = "text"     // training a text model: tokens or samples
	basisVision   = "vision"   // training a vision model: images
	basisRequests = "requests" // inference: requests to serve
)

// datasetDefault is a basis's default dataset size, unit and epochs.
type datasetDefault struct{ size, unit, epochs string }

// datasetDefaults per basis:
//   - text: an Alpaca-sized instruction set, 20M tokens for 3 epochs (the
//     first frame's answer; see defaultDataset);
//   - vision: ImageNet-1k's training split, 1,281,167 images (Russakovsky
//     et al. 2015, "ImageNet Large Scale Visual Recognition Challenge",
//     IJCV, Table 2: CLS-LOC train 1,281,167), for 90 epochs, the default
//     of torchvision's classification recipe (references/classification/
//     train.py, --epochs default=90);
//   - requests: no default count (serving has no natural size): empty,
//     which gives no serving time until the user says how many.
var datasetDefaults = map[string]datasetDefault{
	basisText:     {defaultDataset, defaultUnit, defaultEpochs},
	basisVision:   {"1.28M", unitImages, "90"},
	basisRequests: {"", "", ""},
}

// datasetBasis is what the dataset answer counts for these answers.
func (a *answers) datasetBasis() string {
	switch {
	case !a.Task.Training():
		return basisRequests
	case a.fill.vision:
		return basisVision
	}
	return basisText
}

// datasetMsg names a dataset answer for the footer: "20M tokens".
func datasetMsg(size, unit, basis string) model.Message {
	if basis == basisRequests {
		unit = "requests"
	}
	if strings.TrimSpace(unit) == "" {
		return model.Msg("%s", strings.TrimSpace(size))
	}
	return model.Msg("%s "+unit, size)
}

// followBasis resets the dataset answers still at their default when
// their basis changed, and flags those the user typed, which are kept.
// It returns what it did, for the footer; nothing on the first call, nor
// when serving an LLM (a.servingLLM), which asks no dataset or requests:
// a note would point to a question not shown (trial M7).
func (a *answers) followBasis(focused *string, cat *model.Catalog) []model.Message {
	basis := a.datasetBasis()
	was := a.fill.basis
	if basis == was {
		return nil
	}
	def := datasetDefaults[basis]
	a.fill.basis = basis
	old := a.fill.data
	a.fill.data = def
	if was == "" { // the first frame or a loaded file: nothing to follow
		return nil
	}
	var notes []model.Message
	// reconcile already swapped a unit the new basis has no option for
	// (tokens on a vision model): only a unit the user chose counts
	typed := a.Dataset != old.size || basis == was && a.DatasetUnit != old.unit ||
		was != basisRequests && a.DatasetUnit != old.unit && slices.Contains(unitOptions(was == basisVision), a.DatasetUnit)
	switch {
	case focused == &a.Dataset:
	case !typed:
		if a.Dataset != def.size {
			a.Dataset = def.size
			if def.unit != "" {
				a.DatasetUnit = def.unit
			}
			if def.size == "" {
				notes = append(notes, model.Msg("dataset cleared (give the requests to serve for a serving time)")) // an encoder's or a vision model's batch inference
			} else {
				notes = append(notes, model.Msg("dataset reset to %s", datasetMsg(def.size, def.unit, basis)))
			}
		}
	case strings.TrimSpace(a.Dataset) != "":
		notes = append(notes, model.Msg("check the dataset: %s was given as %s, it now counts %s",
			strings.TrimSpace(a.Dataset), model.Msg(unitWord(old.unit, was)), model.Msg(unitWord(a.DatasetUnit, basis))))
	}
	if a.servingLLM(cat) {
		notes = nil
	}
	if basis != basisRequests && focused != &a.Epochs && (a.Epochs == old.epochs || a.Epochs == "") && a.Epochs != def.epochs {
		a.Epochs = def.epochs
		notes = append(notes, model.Msg("%s epochs", def.epochs))
	}
	return notes
}

// unitWord is what a dataset number counts on a basis.
func unitWord(unit, basis string) string {
	switch {
	case basis == basisRequests:
		return "requests"
	case unit == "":
		return "samples"
	}
	return unit
}

// resetNote joins reconcile's notes into one footer line, or "".
func resetNote(lang *i18n.Printer, notes []model.Message) string {
	if len(notes) == 0 {
		return ""
	}
	return "↺ " + strings.Join(lang.Messages(notes), lang.T("; "))
}

// ckptNote says checkpointing followed the task's default.
func ckptNote(on bool, task model.Task) model.Message {
	state := "off"
	if on {
		state = "on"
	}
	// The task as its request value in English ("the lora default"), in
	// words in Chinese (the catalogue translates the value as a word).
	return model.Msg("activation checkpointing %s (the %s default)", model.Msg(state), model.Msg(string(task)))
}
