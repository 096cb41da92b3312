package data

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// summarizeGuardsByText is summarizeGuards as it was: every line
// formatted, the group's lines sorted as text; the reference the one that
// formats only the lines shown must match.
func summarizeGuardsByText(found []Guard) []model.Message {
	type group struct {
		origin, rule string
		name         model.Message
		lines        []string
		msgs         map[string]model.Message
	}
	var groups []*group
	at := map[[2]string]*group{}
	for _, g := range found {
		k := [2]string{g.Origin, g.Rule}
		gr := at[k]
		if gr == nil {
			gr = &group{origin: g.Origin, rule: g.Rule, msgs: map[string]model.Message{}}
			at[k] = gr
			groups = append(groups, gr)
		}
		name := model.Msg("embedded catalog")
		if model.FromOverlay(g.Origin) {
			name = model.Msg("catalog %s", g.Origin)
		}
		gr.name = name
		m := model.Msg("%v: %v", name, g.Message())
		line := m.String()
		gr.lines = append(gr.lines, line)
		gr.msgs[line] = m
	}
	slices.SortFunc(groups, func(a, b *group) int {
		return cmp.Or(strings.Compare(a.origin, b.origin), strings.Compare(a.rule, b.rule))
	})
	var out []model.Message
	for _, gr := range groups {
		sort.Strings(gr.lines)
		for _, l := range gr.lines[:min(len(gr.lines), shownPerKind)] {
			out = append(out, gr.msgs[l])
		}
		if more := len(gr.lines) - shownPerKind; more > 0 {
			out = append(out, moreLikeThese(gr.name, more))
		}
	}
	return out
}

// TestSummarizeGuardsSame: the summary that formats only the lines it
// shows says what formatting every line said, on random findings built
// to tie: regions that are prefixes of one another ("r-1", "r-10", "r-1a",
// "r-1:x", "r-1: x"), one region twice with two messages, the same line
// twice, no region, two origins and rules, groups of 1 to 40.
func TestSummarizeGuardsSame(t *testing.T) {
	pick := func(r *rand.Rand, s ...string) string { return s[r.IntN(len(s))] }
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 7))
		var found []Guard
		for range 1 + r.IntN(40) {
			found = append(found, Guard{
				Provider: pick(r, "aws", "aws-x", "a"),
				Type:     pick(r, "p4d", "p4d.24xlarge", "p4", "g/5"),
				Region:   pick(r, "", "r-1", "r-10", "r-1a", "r-1:x", "r-1: x", "r 1", "R-1"),
				Rule:     pick(r, "below-floor", "unknown-region"),
				Origin:   pick(r, "embedded", "/tmp/a.csv", "/tmp/b.toml"),
				Msg:      model.Msg("on-demand $%.2f per GPU-hour %s", float64(r.IntN(3))+0.5, pick(r, "is low", "is odd", "")),
			})
		}
		got, want := summarizeGuards(found), summarizeGuardsByText(found)
		if !slices.EqualFunc(got, want, func(a, b model.Message) bool { return a.String() == b.String() }) {
			t.Fatalf("seed %d: %d findings:\ngot  %q\nwant %q", seed, len(found), model.Strings(got), model.Strings(want))
		}
	}
}

// TestGuardListOrder: findings come back in the order they were added,
// over the first small blocks and full ones; no findings are nil, as the
// exported rules returned.
func TestGuardListOrder(t *testing.T) {
	for _, n := range []int{0, 1, 8, 9, 24, 1000, guardBlock + 1, 5000} {
		var l guardList
		for i := range n {
			l.add(Guard{Type: strconv.Itoa(i)})
		}
		got := l.slice()
		if n == 0 && got != nil {
			t.Errorf("no findings: %v, want nil", got)
		}
		if len(got) != n {
			t.Fatalf("%d added, %d back", n, len(got))
		}
		for i, g := range got {
			if g.Type != strconv.Itoa(i) {
				t.Fatalf("%d added: finding %d is %q", n, i, g.Type)
			}
		}
		for _, b := range l.blocks {
			if cap(b) > guardBlock {
				t.Errorf("%d added: a block of %d", n, cap(b))
			}
		}
	}
}

// TestSummarizeGuardsParts: findings given in several slices summarize as
// the same findings in one (overlayGuards passes its blocks), and a
// finding's figures make the message Msg would have said.
func TestSummarizeGuardsParts(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 9))
		var found []Guard
		for range 1 + r.IntN(60) {
			g := Guard{Provider: "aws", Type: []string{"p4d", "p4", "g5"}[r.IntN(3)], Region: []string{"r-1", "r-10", ""}[r.IntN(3)],
				Rule: "below-floor", Origin: "/tmp/a.csv"}
			if r.IntN(2) == 0 {
				g.Msg = model.Msg("spot %s", "x")
			} else {
				g.text = spotAbove(float64(r.IntN(3))+0.5, 2)
			}
			found = append(found, g)
		}
		var parts [][]Guard
		for rest := found; len(rest) > 0; {
			n := 1 + r.IntN(len(rest))
			parts, rest = append(parts, rest[:n]), rest[n:]
		}
		got, want := summarizeGuards(parts...), summarizeGuards(found)
		if !slices.EqualFunc(got, want, func(a, b model.Message) bool { return a.String() == b.String() }) {
			t.Fatalf("seed %d:\ngot  %q\nwant %q", seed, model.Strings(got), model.Strings(want))
		}
	}
	g := Guard{Provider: "aws", Type: "g5", Region: "r-1", text: spotAbove(1, 2)}
	if got, want := g.String(), "aws/g5 r-1: on-demand $1.00 is below spot $2.00: not an on-demand price"; got != want {
		t.Errorf("figures: %q, want %q", got, want)
	}
	if g.Msg = model.Msg("set by hand"); g.String() != "aws/g5 r-1: set by hand" {
		t.Errorf("Msg set: %q, want it said", g.String())
	}
}

// TestGuardTexts: the messages findings make from their figures, worked
// by hand from each rule's format (prices as show.USDPerHour writes
// them: cents from $1, four decimals below), for the rules the load
// warnings of docs/speed.md's comparison did not show.
func TestGuardTexts(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		in   model.Instance
		want string
	}{
		// gcp A100-80GB us-central1 GPU row: on-demand 1.8462, spot 1.964.
		{model.Instance{Provider: "gcp", Type: "a2-ultragpu-1g", GPU: "a100-80gb", GPUCount: 1,
			Prices: []model.RegionPrice{{Region: "us-central1", OnDemandUSD: 1.8462, SpotUSD: 1.964}}},
			"gcp/a2-ultragpu-1g us-central1: on-demand $1.85 is below spot $1.96: not an on-demand price"},
		// a100-80gb is an NVLink (SXM) module in gpus.toml.
		{model.Instance{Provider: "fluidstack", Type: "A100_PCIE_80GB::1", GPU: "a100-80gb", GPUCount: 1,
			Prices: []model.RegionPrice{{Region: "NORWAY_4", OnDemandUSD: 1.8}}},
			"fluidstack/A100_PCIE_80GB::1: named PCIe but its GPU a100-80gb is an nvlink module"},
		{model.Instance{Provider: "lambda", Type: "gpu_1x_a100_sxm4", GPU: "a100-pcie-40gb", GPUCount: 1,
			Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 1.29}}},
			"lambda/gpu_1x_a100_sxm4: named SXM but its GPU a100-pcie-40gb is a PCIe card"},
		{model.Instance{Provider: "hyperstack", Type: "n3-H100x8-NVLink", GPU: "h100-sxm", GPUCount: 8, SkyPilotAccelerator: "H100-80G-PCIe-NVLink",
			Prices: []model.RegionPrice{{Region: "CANADA-1", OnDemandUSD: 15.6}}},
			"hyperstack/n3-H100x8-NVLink: SkyPilot accelerator H100-80G-PCIe-NVLink names PCIe but its GPU h100-sxm is an nvlink module"},
		{model.Instance{Provider: "runpod", Type: "1x_H100_SECURE", GPU: "h100-pcie", GPUCount: 1, SkyPilotAccelerator: "H100-SXM",
			Prices: []model.RegionPrice{{Region: "CA", OnDemandUSD: 2.69}}},
			"runpod/1x_H100_SECURE: SkyPilot accelerator H100-SXM names SXM but its GPU h100-pcie is a PCIe card"},
		{model.Instance{Provider: "hyperstack", Type: "n3-H100x8", GPU: "h100-pcie", GPUCount: 8, Interconnect: "nvswitch",
			Prices: []model.RegionPrice{{Region: "CANADA-1", OnDemandUSD: 15.2}}},
			"hyperstack/n3-H100x8: interconnect nvswitch but its GPU h100-pcie is a PCIe card: NVSwitch joins SXM modules"},
		// 1.0 per GPU over the median of {3, 3, 1}: 3; 1 < 0.6 × 3.
		{model.Instance{Provider: "aws", Type: "g5.xlarge", GPU: "a10g", GPUCount: 1,
			Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 3}, {Region: "us-east-2", OnDemandUSD: 3}, {Region: "us-west-2", OnDemandUSD: 1}}},
			"aws/g5.xlarge us-west-2: on-demand $1.00 per GPU-hour is below 60% of the type's median over regions, $3.00 (a flex-start or promotional price?)"},
	} {
		got := Guards(c, []model.Instance{tt.in}, nil)
		if len(got) != 1 || got[0].String() != tt.want {
			t.Errorf("%s: %v, want %q", tt.in.Type, got, tt.want)
		}
	}
}
