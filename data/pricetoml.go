package data

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// WritePricesTOML appends an instance's `prices = [...]` array in the
// catalog's TOML schema, one inline table per region with the modes it
// sells; numbers are written the shortest way that reads back exactly.
// Used by the SkyPilot generator and by catalog update, so the two write
// the same rows.
func WritePricesTOML(b *bytes.Buffer, prices []model.RegionPrice) {
	b.WriteString("prices = [\n")
	for _, p := range prices {
		fmt.Fprintf(b, "  { region = %s", config.QuoteTOML(p.Region))
		for _, m := range []struct {
			key string
			usd float64
		}{{"on_demand", p.OnDemandUSD}, {"spot", p.SpotUSD}, {"flex_start", p.FlexStartUSD}} {
			if m.usd > 0 {
				fmt.Fprintf(b, ", %s = %s", m.key, strconv.FormatFloat(m.usd, 'f', -1, 64))
			}
		}
		if p.Reservation {
			b.WriteString(", reservation = true")
		}
		b.WriteString(" },\n")
	}
	b.WriteString("]\n")
}
