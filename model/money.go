package model

import (
	"math"
	"strconv"

	"github.com/dustin/go-humanize"
)

// USDCents writes dollars to the cent, grouped by thousands, as the
// tables group money: "$0.42", "$142.42", "$32,695.41"; a positive amount
// that cents would print as "$0.00" keeps four decimals ("$0.0012").
// Reasons that compare a figure with a limit (a near miss's "$142.42/h is
// above the $50.00/h limit") use it, and the near-miss price column
// beside them, so the two say one price alike (new-user walk: "$100/h"
// beside "$100.13/h", "$32695.41 for the job" beside "$1,672").
func USDCents(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case v > 0 && v < 0.005:
		return "$" + strconv.FormatFloat(v, 'f', 4, 64)
	}
	neg := v < 0
	c := int64(math.Round(math.Abs(v) * 100))
	s := "$" + humanize.Comma(c/100) + "." + strconv.FormatInt(100+c%100, 10)[1:]
	if neg {
		return "-" + s
	}
	return s
}

// USDWhole is USDCents to the dollar: "$730", "$32,695".
func USDWhole(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	s := "$" + humanize.Comma(int64(math.Round(math.Abs(v))))
	if v < 0 && math.Round(v) != 0 {
		return "-" + s
	}
	return s
}
