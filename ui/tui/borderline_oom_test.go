package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestBorderlineOOMLine: the panel's borderline warning names both
// limits, the usable memory the band is weighed against (5% margin kept)
// and the memory the driver exposes, which the chance of running out is
// of. Worked by hand: 76.85 GiB needed on an H100 SXM (81559 MiB =
// 79.65 GiB visible, 75.67 GiB usable) with the fallback band (log ratio
// uniform over ±ln 0.75 = ±0.287682 at levels 0.05…0.95, steps of
// 0.031965): ln(79.6475/76.85) = 0.035755 is 10.1186 steps up, level
// 0.555929, a chance of 0.444071, "about 45%" (at the usable memory it
// would be ln 0.984582 = −0.015539, 8.5138 steps up, level 0.475689:
// 0.524, "about 50%").
func TestBorderlineOOMLine(t *testing.T) {
	need := 76.85 * model.GiB
	e := &model.Estimate{Memory: model.Memory{Weights: need}, MemoryBand: [2]float64{need * 0.75, need / 0.75}}
	h100 := &model.GPU{Name: "NVIDIA H100 SXM5 80GB", MemoryGiB: 80, UsableMemoryMiB: 81559}
	best := &model.Offer{GPU: h100, UsableBytes: model.UsableBytes(h100)}
	for _, tc := range []struct {
		lang *i18n.Printer
		want string
	}{
		{nil, "~ borderline on NVIDIA H100 SXM5 80GB: the band reaches 102.47 GiB of 75.67 GiB usable; about 45% chance of running out of the 79.65 GiB the driver exposes"},
		{i18n.New(language.SimplifiedChinese), "~ NVIDIA H100 SXM5 80GB 上显存紧张：区间上限达到 102.47 GiB，可用 75.67 GiB；约 45% 的概率超出驱动可见的 79.65 GiB，显存不足"},
	} {
		p := panel{st: testStyles(), lang: tc.lang}
		got := ansi.Strip(strings.Join(p.memoryDetailLines(e, best), "\n"))
		if !strings.Contains(got, tc.want) {
			t.Errorf("panel lines\n%s\nlack %q", got, tc.want)
		}
	}
}
