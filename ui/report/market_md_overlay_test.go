package report

import (
	"testing"

	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/model/market/markettest"
)

// TestMarketMarkdownOverlay: re-attack F2. The Markdown table marks a
// price an overlay set with OverlayMark, as WriteMarket's table does, and
// names the overlay under it (a blank line first: GFM reads a line right
// under a table as a row), escaped so that its source cannot become a
// link, an image, a tag, emphasis or a list item; a held price keeps both
// "(held: looks fake)" and the mark. A catalog price stays unmarked.
func TestMarketMarkdownOverlay(t *testing.T) {
	c := markettest.Catalog()
	for i := range c.Instances {
		in := &c.Instances[i]
		switch in.Type {
		case "gpu_1x_gh200": // an overlay's price the guards held (listed with --all)
			in.Origin, in.Source, in.AsOf = "/tmp/my_deal.toml", "[ok](http://e) <img src=x> *b* | `c`", "2026-12-01"
			in.Prices[0].Held = true
		case "gpu_1x_h100_pcie": // an overlay's price, not held
			in.Origin, in.Source, in.AsOf = "neg.toml", "neg.toml", "2026-12-05"
		}
	}
	res, err := market.Browse(c, market.Query{Providers: []string{"lambda"}, Held: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `| provider | instance | GPUs | VRAM GiB | $/h | $/GPU-h | spot $/h | vCPUs/GPU | RAM GiB/GPU | interconnect | region | as of |
|---|---|---|--:|--:|--:|--:|--:|--:|---|---|---|
| lambda | gpu_1x_h100_pcie | 1× h100-pcie | 80 (80) | $2.49* | $2.49 | — | 26 | 200 | pcie | any of 3 regions | 2026-12-05 |
| lambda | gpu_8x_a100_80gb | 8× a100-80gb | 80 (640) | $14.32 | $1.79 | — | 30 | 225 | nvswitch | us-east-1 | — |
| lambda | gpu_1x_gh200 (held: looks fake) | 1× gh200 | 96 (96) | $1.49* | $1.49 | — | 64 | 432 | nvlink | us-east-3 | 2026-12-01 |

\* price from overlay neg.toml (as of 2026-12-05)

\* price from overlay /tmp/my\_deal.toml (\[ok\](http://e) \<img src=x\> \*b\* \| \` + "`" + `c\` + "`" + `, as of 2026-12-01)
`
	if got := MarketMarkdown(&res); got != want {
		t.Errorf("Markdown =\n%s\nwant\n%s", got, want)
	}
	// Without an overlay's price, no mark and no line under the table.
	res, err = market.Browse(c, market.Query{Providers: []string{"azure"}})
	if err != nil {
		t.Fatal(err)
	}
	want = `| provider | instance | GPUs | VRAM GiB | $/h | $/GPU-h | spot $/h | vCPUs/GPU | RAM GiB/GPU | interconnect | region | as of |
|---|---|---|--:|--:|--:|--:|--:|--:|---|---|---|
| azure | Standard_ND96isr_H100_v5 | 8× h100-sxm | 80 (640) | $98.32 | $12.29 | — | 12 | 237.5 | nvswitch + infiniband | eastus | — |
`
	if got := MarketMarkdown(&res); got != want {
		t.Errorf("Markdown =\n%s\nwant\n%s", got, want)
	}
}
