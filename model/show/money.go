package show

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// USDPerHour formats an hourly price by the rule the tables use for a
// whole column: two decimals from $1 ("$1.01", "$113.59", "$1,113.59"),
// four below ("$0.3785", "$0.4200": the catalog's prices have up to four),
// and two significant digits below $0.0001 ("$0.0000010") so no price
// reads as free; "—" when unknown (0 or less). Warnings about prices use
// it too, so a warning and the table say a price alike.
func USDPerHour(v float64) string {
	switch {
	case math.IsNaN(v) || v <= 0:
		return "—"
	case v < 0.0001:
		return "$" + SmallUSD(v)
	case v < 1:
		return fmt.Sprintf("$%.4f", v)
	case v < 1e15:
		// Rounded half up to cents and grouped by thousands, as
		// go-humanize's FormatFloat("#,###.##") did for the tables.
		whole, frac := math.Modf(v + 0.005)
		digits := strconv.FormatInt(int64(whole), 10)
		for i := len(digits) - 3; i > 0; i -= 3 {
			digits = digits[:i] + "," + digits[i:]
		}
		return fmt.Sprintf("$%s.%02d", digits, int(frac*100))
	}
	return fmt.Sprintf("$%.2g", v)
}

// SmallUSD prints 0 < v < 0.01 with two significant digits and no
// exponent: 0.0012 → "0.0012", 1e-6 → "0.0000010". The exponent is read
// from v's rounded scientific form, so 0.00999 counts as 0.010. Below
// smallestPlain the exponent stays ("1.0e-300"): written out, 1e-300
// would be 300 digits of zeros.
func SmallUSD(v float64) string {
	sci := strconv.FormatFloat(v, 'e', 1, 64) // "1.0e-06"
	exp, err := strconv.Atoi(sci[strings.IndexByte(sci, 'e')+1:])
	switch {
	case err != nil || exp > -1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case exp < smallestPlain:
		return sci
	}
	return strconv.FormatFloat(v, 'f', 1-exp, 64)
}

// smallestPlain is the smallest power of ten SmallUSD writes out:
// "0.00000010" (ten characters) for 1e-7; no real price or cost is
// smaller, and smaller ones keep their exponent.
const smallestPlain = -7
