package report

import (
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestSpotLineNoCheckpoint: a spot job shorter than its checkpoint
// interval takes none (decide.SpotExpectedCost), and its Spot line says
// so in place of "checkpoint every …" (a new user's 6-minute job was 18
// minutes on spot, 12 of them one checkpoint at its end). At λ = 0.01/h
// and δ = 0.2 h Daly's τ = √(2·0.2·100)·(1 + √0.001/3 + 0.001/9) − 0.2 =
// 6.1919 h: a 0.1 h job takes none, a 20 h job one every 6.2 h; without
// interruptions the line says neither.
func TestSpotLineNoCheckpoint(t *testing.T) {
	const (
		none  = "no checkpoint: the job is shorter than the checkpoint interval, so an interruption restarts it"
		every = "checkpoint every 6.2 h"
	)
	rate := decide.InterruptionRate{PerMonth: -math.Expm1(-7.3)}
	for _, c := range []struct {
		name        string
		w           float64
		rate        decide.InterruptionRate
		none, every bool
	}{
		{"0.1 h job, τ 6.2 h: none", 0.1, rate, true, false},
		{"20 h job: every 6.2 h", 20, rate, false, true},
		{"no interruptions: neither", 0.1, decide.InterruptionRate{}, false, false},
	} {
		e, err := decide.SpotExpectedCost(decide.SpotInput{JobHours: c.w, SpotUSDPerHour: 10, OnDemandUSDPerHour: 30, Nodes: 1, Rate: c.rate,
			CheckpointWriteHours: 0.2, RestartHours: 1.0 / 6})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		line := SpotLineIn(i18n.New(language.English), &e, decide.SpotAssumptions{})
		if strings.Contains(line, none) != c.none || strings.Contains(line, every) != c.every {
			t.Errorf("%s: %q: want %q %v, %q %v", c.name, line, none, c.none, every, c.every)
		}
		if zh := SpotLineIn(i18n.New(language.SimplifiedChinese), &e, decide.SpotAssumptions{}); strings.Contains(zh, "不写检查点") != c.none {
			t.Errorf("%s (zh-CN): %q", c.name, zh)
		}
	}
}
