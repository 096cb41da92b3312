package update

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// writeOverlay writes insts in the catalog schema. Types the catalog has
// (current) are written as price patches — type, source, as_of and prices
// only — so the embedded corrections (GPU form factor, interconnect,
// retirements) stay; new types are complete entries. Every price carries
// the overlay as its provenance (data.LoadWith sets Origin to the file).
// Types of the catalog the fetch no longer lists (removed) get
// missing_since = the fetch date and a missing_source naming the fetch —
// not a retirement, which needs the provider's word — so they stop being
// ranked at their old embedded prices; retired types keep their sourced
// date.
func writeOverlay(b *bytes.Buffer, provider, url, credit string, now time.Time, insts []model.Instance, current map[string]*model.Instance, removed []string) error {
	// Bytes are counted while rendering: past the overlay cap it stops
	// (install would refuse the file), so a huge answer is never rendered
	// whole (attack round 13: a 137 MB overlay rendered, then refused).
	maxBytes := int(safeio.Overlay.MaxBytes)
	tooLarge := func(done int) error {
		return model.Errorf(ErrOverlayTooLarge, "more than %d KiB after %d of %d types, above the %d KiB a catalog overlay may have (the source lists far more than a price list holds; check it)",
			maxBytes>>10, done, len(insts), maxBytes>>10)
	}
	source := fmt.Sprintf("%s fetched %s by gpuplan catalog update", url, now.Format(time.RFC3339))
	fmt.Fprintf(b, "# gpuplan catalog update: %s prices from %s, fetched %s.\n", provider, url, now.Format(time.RFC3339))
	fmt.Fprintf(b, "# Written by `gpuplan catalog update`; the next update replaces it. %s\n", credit)
	b.WriteString("schema_version = 1\n")
	fmt.Fprintf(b, "provider = %s\n", config.QuoteTOML(provider))
	for i, in := range insts {
		if b.Len() > maxBytes {
			return tooLarge(i)
		}
		b.WriteString("\n[[instance]]\n")
		fmt.Fprintf(b, "type = %s\n", config.QuoteTOML(in.Type))
		if _, ok := current[in.Type]; !ok {
			fmt.Fprintf(b, "gpu = %s\n", config.QuoteTOML(in.GPU))
			fmt.Fprintf(b, "gpu_count = %d\n", in.GPUCount)
			fmt.Fprintf(b, "vcpus = %d\n", max(in.VCPUs, 1))
			fmt.Fprintf(b, "memory_gib = %s\n", num(max(in.MemoryGiB, 1)))
			if in.SkyPilotAccelerator != "" {
				fmt.Fprintf(b, "skypilot_accelerator = %s\n", config.QuoteTOML(in.SkyPilotAccelerator))
			}
			if in.CPUArch != "" {
				fmt.Fprintf(b, "cpu_arch = %s\n", config.QuoteTOML(in.CPUArch))
			}
			if in.Interconnect != "" {
				fmt.Fprintf(b, "interconnect = %s\n", config.QuoteTOML(in.Interconnect))
			}
		}
		src := source
		if _, ok := current[in.Type]; !ok && in.Source != "" && in.Source != url {
			src += "; " + in.Source // a new type's shape, from the fetcher's table
		}
		fmt.Fprintf(b, "source = %s\n", config.QuoteTOML(src))
		fmt.Fprintf(b, "as_of = %s\n", now.Format(time.DateOnly))
		data.WritePricesTOML(b, in.Prices)
	}
	for _, t := range removed {
		if in := current[t]; in == nil || in.Retired != "" {
			continue
		}
		b.WriteString("\n[[instance]]\n")
		fmt.Fprintf(b, "type = %s\n", config.QuoteTOML(t))
		fmt.Fprintf(b, "missing_since = %s\n", now.Format(time.DateOnly))
		fmt.Fprintf(b, "missing_source = %s\n", config.QuoteTOML(fmt.Sprintf(
			"not in the latest fetch: %s fetched %s by gpuplan catalog update no longer lists it; the provider may not have announced a retirement", url, now.Format(time.RFC3339))))
	}
	if b.Len() > maxBytes {
		return tooLarge(len(insts))
	}
	return nil
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
