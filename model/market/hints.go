package market

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// EmptyHints are the lines that say why q lists nothing when one of its
// GPU filters can never match c, whatever the rest of q (a new user's
// walk: `offers H100:9` and `offers MI300X:8 --nvlink` printed "0
// offers" and nothing more):
//
//   - a GPU spec with a count no instance type of those GPUs has: the
//     counts the catalog has for them;
//   - --nvlink or --interconnect nvlink/nvswitch on AMD GPUs only, which
//     join their GPUs with Infinity Fabric (xGMI), never NVLink.
//
// Call it when the listing is empty; nil when no filter is the cause.
func EmptyHints(c *model.Catalog, q *Query) []model.Message {
	var out []model.Message
	for i := range q.GPUs {
		s := &q.GPUs[i]
		counts := map[int]bool{}
		amd, nvidia := false, false
		for j := range c.Instances {
			in := &c.Instances[j]
			g, err := c.GPU(in.GPU)
			if err != nil || !(len(s.Keys) == 0 || slices.Contains(s.Keys, g.Key)) || !(s.Vendor == "" || g.Vendor == s.Vendor) || !s.VRAMGiB.Contains(g.MemoryGiB) {
				continue
			}
			counts[in.GPUCount] = true
			amd, nvidia = amd || g.Vendor == "amd", nvidia || g.Vendor != "amd"
		}
		if len(counts) == 0 {
			continue
		}
		name, count, _ := strings.Cut(s.Text, ":")
		have := make([]int, 0, len(counts))
		fits := false
		for n := range counts {
			have = append(have, n)
			fits = fits || s.Count.Contains(float64(n))
		}
		slices.Sort(have)
		if !fits {
			words := make([]string, len(have))
			for k, n := range have {
				words[k] = strconv.Itoa(n)
			}
			out = append(out, model.Msg("no %s instance type has %s GPUs; the catalog's have %s", name, count, strings.Join(words, ", ")))
		}
		if amd && !nvidia && (q.Interconnect == LinkNVLink || q.Interconnect == LinkNVSwitch) {
			out = append(out, model.Msg("%s joins its GPUs with AMD's Infinity Fabric (xGMI), never NVLink: --interconnect infinity-fabric (or fast) keeps those hosts", name))
		}
	}
	return out
}
