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
// of. Worked by hand: 74 GiB needed on an H100 SXM (81559 MiB =
// 79.65 GiB visible, 75.67 GiB usable: it fits at the estimate, so the
// verdict is borderline, model.MemoryVerdict) with the fallback band (log
// ratio uniform over ±ln 0.75 = ±0.287682 at levels 0.05…0.95, steps of
// 0.031965): ln(79.6475/74) = 0.073545 is 11.3007 steps up, level
// 0.615035, a chance of 0.384965, "about 40%" (to the nearest 5%).
func TestBorderlineOOMLine(t *testing.T) {
	need := 74.0 * model.GiB
	e := &model.Estimate{Memory: model.Memory{Weights: need}, MemoryBand: [2]float64{need * 0.75, need / 0.75}}
	h100 := &model.GPU{Name: "NVIDIA H100 SXM5 80GB", MemoryGiB: 80, UsableMemoryMiB: 81559}
	best := &model.Offer{GPU: h100, UsableBytes: model.UsableBytes(h100)}
	for _, tc := range []struct {
		lang *i18n.Printer
		want string
	}{
		{nil, "~ borderline on NVIDIA H100 SXM5 80GB: the band reaches 98.67 GiB of 75.67 GiB usable; about 40% chance of running out of the 79.65 GiB the driver exposes"},
		{i18n.New(language.SimplifiedChinese), "~ NVIDIA H100 SXM5 80GB 上显存紧张：区间上限达到 98.67 GiB，可用 75.67 GiB；约 40% 的概率超出驱动可见的 79.65 GiB，显存不足"},
	} {
		p := panel{st: testStyles(), lang: tc.lang}
		got := ansi.Strip(strings.Join(p.memoryDetailLines(e, best), "\n"))
		if !strings.Contains(got, tc.want) {
			t.Errorf("panel lines\n%s\nlack %q", got, tc.want)
		}
	}
}
