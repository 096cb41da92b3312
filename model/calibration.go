package model

import "sort"

// Band is a 90% range around an estimate: the true value fell between
// Lo × estimate and Hi × estimate for 90% of the calibration cases of the
// same kind (data/testdata/calibration/cases.toml), as measured ratios of
// published to estimated.
type Band struct {
	Lo, Hi float64 // multipliers of the estimate
	Cases  int     // calibration cases behind the band
}

// BandKey names the calibration group an estimate of kind ("memory" or
// "time") falls in: the kind and, when the group has cases, the family
// class ("transformer" or "vision") — comparable cases, as the issue asks.
// Adapter training sharded by FSDP/ZeRO-3 over several GPUs is its own
// memory group (ShardedAdapters): its peak is mostly the gradients FSDP
// keeps for frozen weights sharing a unit with the adapters, a population
// apart from single-GPU and full fine-tuning rows.
func BandKey(kind string, w *Workload) string {
	vision := !w.Model.Family.Transformer() || w.Model.Family == FamilyViT
	key := kind
	switch {
	case kind == "memory" && ShardedAdapters(w):
		key = "memory/sharded-adapters"
	case kind == "memory" && vision:
		key = "memory/vision"
	case kind == "memory":
		key = "memory/transformer"
	case kind == "time" && vision:
		key = "time/vision"
	case kind == "time":
		key = "time/transformer"
	}
	if _, ok := calibrationBands[key]; ok {
		return key
	}
	return kind
}

// BandFor returns the band of an estimate of kind for w; a wide default
// (×0.75–×1.33) when no calibration group applies.
func BandFor(kind string, w *Workload) Band {
	if b, ok := calibrationBands[BandKey(kind, w)]; ok {
		return b
	}
	return Band{Lo: 0.75, Hi: 1.0 / 0.75}
}

// BandFromRatios returns the 5th–95th percentile band of ratios
// (published / estimated), linearly interpolated; the generator of
// calibration_bands.go uses it.
func BandFromRatios(r []float64) Band {
	if len(r) == 0 {
		return Band{Lo: 1, Hi: 1}
	}
	s := append([]float64(nil), r...)
	sort.Float64s(s)
	q := func(p float64) float64 {
		x := p * float64(len(s)-1)
		i := int(x)
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[i] + (x-float64(i))*(s[i+1]-s[i])
	}
	return Band{Lo: min(q(0.05), 1), Hi: max(q(0.95), 1), Cases: len(s)}
}

// CalibrationBand returns the band of a calibration group by key
// ("memory", "time/vision", …), as BandKey names them.
func CalibrationBand(key string) (Band, bool) {
	b, ok := calibrationBands[key]
	return b, ok
}

// ShardedAdapters reports LoRA/QLoRA training whose parameters FSDP or
// ZeRO-3 shard over more than one GPU: the calibration group of its own
// (see phases in memory.go for the frozen-weight gradients of FSDP).
func ShardedAdapters(w *Workload) bool {
	return w.Task.Adapters() && w.Strategy.ZeROStage() >= 3 && w.GPUs/max(w.TP, 1) > 1
}
