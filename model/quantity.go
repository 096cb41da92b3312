package model

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// ErrBadQuantity is wrapped by the errors of model/config's ParseQuantity,
// ParseBytes and ParseTokens.
var ErrBadQuantity = errors.New("bad quantity")

// FormatCount renders a count with a decimal suffix: 6.74B, 110M, 1.28M, 512.
func FormatCount(v float64) string {
	if math.Abs(v) >= 1e4 {
		// Round to the 3 digits shown before picking the unit, so that
		// 999,885,952 reads 1B, not 1000M.
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	}
	switch a := math.Abs(v); {
	case a >= 1e12:
		return trimZeros(v/1e12, 3) + "T"
	case a >= 1e9:
		return trimZeros(v/1e9, 3) + "B"
	case a >= 1e6:
		return trimZeros(v/1e6, 3) + "M"
	case a >= 1e4:
		return trimZeros(v/1e3, 3) + "k"
	}
	return trimZeros(v, 3)
}

// trimZeros formats v with up to sig significant digits and no trailing zeros.
func trimZeros(v float64, sig int) string {
	s := strconv.FormatFloat(v, 'f', max(0, sig-1-int(math.Floor(math.Log10(math.Max(math.Abs(v), 1))))), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// FormatAsGiven renders a figure the user set as they wrote it: the
// shortest decimal that reads back as v, with no exponent and no rounding
// (0.5, 2.4, 30, 10000000), for messages that repeat a limit back, such
// as a deadline in hours (walk37: --deadline-hours 0.5 read "the 0 h
// deadline" under %.0f).
func FormatAsGiven(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
