// Command gencatalog writes gpuplan's embedded instance catalog, one
// instances/<provider>.toml per cloud, from SkyPilot catalog directories:
//
//	go run ./data/internal/gencatalog -gpus data/catalog/gpus.toml -o data/catalog/instances DIR...
//
// Each DIR holds SkyPilot's layout, vN/<provider>/vms.csv; for every
// provider the file of the highest schema version found is read with
// data.ReadSkyPilotCSV, corrected and enriched from the hand-maintained
// tables in tables.go (each row with its source), and written in the schema
// of /work/notes/schema.md (instances/<provider>.toml). Warnings of the
// import go to stderr. The output is generated: fix the tables, not the TOML.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// allProviders are the clouds generated when -providers is not given.
var allProviders = []string{"aws", "gcp", "azure", "lambda", "oci", "nebius", "cudo", "vast", "paperspace", "fluidstack", "do",
	"hyperstack", "jarvislabs", "seeweb", "verda", "yotta", "daytona", "shadeform", "primeintellect", "runpod",
	"lium", "hyperbolic", "simplepod"}

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

type options struct {
	gpus, out, asOf string
	providers       []string
	dirs            []string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("gencatalog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var providers string
	fs.StringVar(&o.gpus, "gpus", "", "the GPU catalog, gpus.toml (required)")
	fs.StringVar(&o.out, "o", "", "output directory for <provider>.toml (required)")
	fs.StringVar(&o.asOf, "as-of", time.Now().UTC().Format(time.DateOnly), "as_of date of the entries, YYYY-MM-DD")
	fs.StringVar(&providers, "providers", strings.Join(allProviders, ","), "comma-separated providers to generate")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gencatalog -gpus gpus.toml -o DIR [-as-of YYYY-MM-DD] [-providers aws,gcp,...] SKYPILOT_CATALOG_DIR...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.dirs = fs.Args()
	switch {
	case o.gpus == "" || o.out == "" || len(o.dirs) == 0:
		fs.Usage()
		return o, errors.New("need -gpus, -o and at least one catalog directory")
	}
	if _, err := time.Parse(time.DateOnly, o.asOf); err != nil {
		return o, fmt.Errorf("-as-of %q: want YYYY-MM-DD", o.asOf)
	}
	for _, p := range strings.Split(providers, ",") {
		if p = strings.TrimSpace(p); p != "" {
			o.providers = append(o.providers, p)
		}
	}
	return o, nil
}

func run(args []string, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "gencatalog:", err)
		return 2
	}
	cat, err := loadGPUs(o.gpus)
	if err != nil {
		fmt.Fprintln(stderr, "gencatalog:", err)
		return 1
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		fmt.Fprintln(stderr, "gencatalog:", err)
		return 1
	}
	status := 0
	for _, p := range o.providers {
		if err := generate(cat, o, p, stderr); err != nil {
			fmt.Fprintf(stderr, "gencatalog: %s: %v\n", p, err)
			status = 1
		}
	}
	return status
}

// gpuFile is the part of gpus.toml the generator needs; the strict loader
// lives in package data.
type gpuFile struct {
	GPU []struct {
		Key             string   `toml:"key"`
		Name            string   `toml:"name"`
		Aliases         []string `toml:"aliases"`
		MemoryGiB       float64  `toml:"memory_gib"`
		UsableMemoryMiB float64  `toml:"usable_memory_mib"`
		Interconnect    string   `toml:"interconnect"`
	} `toml:"gpu"`
}

func loadGPUs(path string) (*model.Catalog, error) {
	var f gpuFile
	if _, err := toml.DecodeFile(path, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(f.GPU) == 0 {
		return nil, fmt.Errorf("%s: no [[gpu]] entries", path)
	}
	c := &model.Catalog{}
	for _, g := range f.GPU {
		c.GPUs = append(c.GPUs, model.GPU{Key: g.Key, Name: g.Name, Aliases: g.Aliases, MemoryGiB: g.MemoryGiB,
			UsableMemoryMiB: g.UsableMemoryMiB, Interconnect: g.Interconnect})
	}
	c.Index()
	return c, nil
}

// findCSV returns the vms.csv of the highest schema version for provider
// under the catalog directories, and its path relative to its directory.
func findCSV(dirs []string, provider string) (path, rel string, err error) {
	files := findCSVs(dirs, provider)
	if len(files) == 0 {
		return "", "", fmt.Errorf("no v*/%s/vms.csv under %s", provider, strings.Join(dirs, ", "))
	}
	return files[0].path, files[0].rel, nil
}

// csvFile is one vN/<provider>/vms.csv found under a catalog directory.
type csvFile struct {
	version   int
	path, rel string
}

// findCSVs returns the vms.csv of every schema version for provider under
// the catalog directories, newest first (one per version: the first
// directory that has it).
func findCSVs(dirs []string, provider string) []csvFile {
	var files []csvFile
	seen := map[int]bool{}
	for _, d := range dirs {
		matches, _ := filepath.Glob(filepath.Join(d, "v*", provider, "vms.csv"))
		for _, m := range matches {
			v, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(filepath.Dir(m))), "v"))
			if err != nil || seen[v] {
				continue
			}
			seen[v] = true
			rel, _ := filepath.Rel(d, m)
			files = append(files, csvFile{v, m, filepath.ToSlash(rel)})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].version > files[j].version })
	return files
}

func generate(cat *model.Catalog, o options, provider string, stderr io.Writer) error {
	path, rel, err := findCSV(o.dirs, provider)
	if err != nil {
		return err
	}
	insts, source, err := importCSV(cat, provider, path, rel, stderr)
	if err != nil {
		return err
	}
	sources := map[string]string{}
	for _, in := range insts {
		sources[in.Type] = source
	}
	if why, ok := olderVersions[provider]; ok {
		// Types the newest file lacks come from the older versions, newest
		// first; a type the newer file has is never taken from an older one.
		for _, f := range findCSVs(o.dirs, provider)[1:] {
			older, src, err := importCSV(cat, provider, f.path, f.rel, stderr)
			if err != nil {
				return err
			}
			n := 0
			for _, in := range older {
				if _, ok := sources[in.Type]; ok {
					continue
				}
				sources[in.Type] = src + "; " + why
				insts = append(insts, in)
				n++
			}
			fmt.Fprintf(stderr, "gencatalog: %s: %d instance types from the older %s (%s)\n", provider, n, f.rel, why)
		}
	}
	kept := insts[:0]
	for _, in := range insts {
		if why, ok := partialGPU[provider][in.Type]; ok {
			fmt.Fprintf(stderr, "gencatalog: %s: %s dropped: %s\n", provider, in.Type, why)
			continue
		}
		kept = append(kept, in)
	}
	insts = kept
	notes := map[string]string{}
	for i := range insts {
		in := &insts[i]
		in.Source, in.AsOf = sources[in.Type], o.asOf
		if provider == "gcp" && strings.HasPrefix(in.Type, "n1-") {
			in.Source += "; " + srcN1
		}
		notes[in.Type] = enrich(cat, in, fixes[provider][in.Type])
		if f := fixes[provider][in.Type]; f.asOf != "" {
			in.AsOf = f.asOf // the price came from a dated source (fix.onDemand)
		}
		if s, ok := providerSources[provider]; ok {
			in.Source += "; " + s
		}
		if f, ok := retiredProviders[provider]; ok {
			in.Retired, in.RetiredSource = f.retired, f.source
			in.Source += "; retired: " + f.source
		}
	}
	for _, in := range handRows[provider] {
		in.Provider = provider
		if in.AsOf == "" {
			in.AsOf = o.asOf
		}
		insts = append(insts, in)
	}
	sort.SliceStable(insts, func(i, j int) bool { return insts[i].Type < insts[j].Type })
	for t := range fixes[provider] {
		if !hasType(insts, t) {
			fmt.Fprintf(stderr, "gencatalog: %s: fix for %s matches no imported type\n", provider, t)
		}
	}
	if _, ok := olderVersions[provider]; ok {
		for _, f := range findCSVs(o.dirs, provider)[1:] {
			rel += ", " + f.rel
		}
	}
	out := filepath.Join(o.out, provider+".toml")
	var b bytes.Buffer
	writeTOML(&b, provider, rel, insts, notes)
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "gencatalog: %s: %d instance types, %d regions → %s\n", provider, len(insts), countRegions(insts), out)
	return nil
}

// importCSV reads one vms.csv of provider with the importer and applies the
// rules that hold for every row of the file (the spot placeholders); it
// returns the instances and the file's source (its provenance row).
func importCSV(cat *model.Catalog, provider, path, rel string, stderr io.Writer) ([]model.Instance, string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(raw)
	source := fmt.Sprintf("SkyPilot catalog %s (upstream commit unknown), filtered", rel)
	if pv, ok := provenances[hex.EncodeToString(sum[:])]; ok {
		source = fmt.Sprintf("%s %s @ %s (SkyPilot authors, Apache-2.0)", pv.repo, pv.path, pv.commit)
		if pv.filtered {
			source += ", filtered"
		}
	} else {
		fmt.Fprintf(stderr, "gencatalog: %s: %s is not a file of the provenance table; its source names no commit\n", provider, rel)
	}
	input := raw
	if provider == "gcp" {
		if input, err = withN1Hosts(raw); err != nil {
			return nil, "", fmt.Errorf("%s: %w", rel, err)
		}
	}
	insts, warns, err := data.ReadSkyPilotCSV(bytes.NewReader(input), rel, provider, data.CatalogGPUResolver(cat))
	if err != nil {
		return nil, "", err
	}
	for _, w := range warns {
		fmt.Fprintf(stderr, "%s: %s\n", provider, w)
	}
	if provider == "azure" || provider == "runpod" {
		// SkyPilot's Azure rows for scarce types repeat the on-demand price as
		// the spot price (its catalog README: "H100 rows spot = on-demand"): a
		// placeholder, not a spot offer, so the spot price is left unknown.
		// RunPod's v8 rows repeat it on every row (1x_RTX4090_SECURE: 0.74
		// and 0.74), where RunPod's interruptible price is lower.
		for i := range insts {
			for j := range insts[i].Prices {
				if p := &insts[i].Prices[j]; p.SpotUSD > 0 && p.SpotUSD == p.OnDemandUSD {
					p.SpotUSD = 0
				}
			}
		}
	}
	return insts, source, nil
}

func hasType(insts []model.Instance, t string) bool {
	for i := range insts {
		if insts[i].Type == t {
			return true
		}
	}
	return false
}

func countRegions(insts []model.Instance) int {
	seen := map[string]bool{}
	for _, in := range insts {
		for _, p := range in.Prices {
			seen[p.Region] = true
		}
	}
	return len(seen)
}

// enrich applies a fix and derives the interconnect where the GPUs decide
// it; it returns the note to write above the entry.
func enrich(cat *model.Catalog, in *model.Instance, f fix) string {
	if f.gpuCount > 0 {
		in.GPUCount = f.gpuCount
	}
	if f.gpu != "" {
		in.GPU = f.gpu
	}
	if f.retired != "" {
		in.Retired, in.RetiredSource = f.retired, f.source
	}
	if f.memGiB > 0 {
		in.MemoryGiB = f.memGiB
	}
	if f.nvmeGB > 0 {
		in.LocalNVMeGB = f.nvmeGB
	}
	if f.onDemand > 0 {
		for i := range in.Prices {
			in.Prices[i].OnDemandUSD = f.onDemand
		}
	}
	if f.netGbps > 0 {
		in.NetworkGbps = f.netGbps
	}
	in.Interconnect = f.interconnect
	in.Fabric = f.fabric
	if f.source != "" {
		in.Source += "; " + f.source
	}
	if in.Interconnect != "" || in.GPUCount < 2 {
		return f.note
	}
	// Derived interconnects, only where the GPU leaves no doubt.
	g, err := cat.GPU(in.GPU)
	switch {
	case err != nil:
	case g.Interconnect == "pcie" || strings.Contains(strings.ToLower(in.Type), "pcie"):
		in.Interconnect = "pcie" // PCIe cards have no NVLink to use (or the type says PCIe)
		in.Source += "; interconnect: the GPU is a PCIe card"
	case in.GPUCount == 8 && hgxGPUs[in.GPU] && (in.GPU != "h100-sxm" || f.gpu != "" || namedSXM(in.Type)):
		in.Interconnect = "nvswitch"
		in.Source += "; interconnect: " + srcHGX
	case in.GPUCount == 8 && g.Interconnect == "infinity-fabric":
		in.Interconnect = "infinity-fabric" // 8 OAM modules fully connected on AMD's baseboard
		in.Source += "; interconnect: the GPU catalog's infinity-fabric (8 OAM GPUs on one baseboard)"
	}
	return f.note
}

// namedSXM reports whether an H100 instance is named or known as an SXM
// board; a bare "H100" (Paperspace, DigitalOcean) resolves to h100-sxm by
// default only, so its interconnect stays unknown. "NVLink" in a name is
// no SXM board: Hyperstack's n3-H100x8-NVLink is eight PCIe cards joined
// in pairs by NVLink bridges ("H100-80G-PCIe-NVLink").
func namedSXM(typ string) bool {
	t := strings.ToLower(typ)
	for _, s := range []string{"sxm", "mega"} {
		if strings.Contains(t, s) {
			return true
		}
	}
	for _, p := range []string{"p5.", "a3-", "standard_nd", "bm.gpu.h100"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// withN1Hosts appends N1 host VM rows (n1Standard96 scaled) for every zone
// that has GPU rows of a GPU GCP attaches to N1 VMs, so ReadSkyPilotCSV can
// pair them into n1-standard-8+1xT4 style types. Zones whose region has no
// N1 price stay without hosts (the importer warns).
func withN1Hosts(raw []byte) ([]byte, error) {
	r := csv.NewReader(bytes.NewReader(raw))
	header, err := r.Read()
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimPrefix(h, "\ufeff")] = i
	}
	for _, c := range []string{"InstanceType", "AcceleratorName", "Region", "AvailabilityZone"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("no column %s", c)
		}
	}
	zones := map[string]string{} // zone → region
	hasN1 := false
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		typ, accel := rec[col["InstanceType"]], rec[col["AcceleratorName"]]
		hasN1 = hasN1 || strings.HasPrefix(typ, "n1-standard-")
		switch accel {
		case "T4", "V100", "P100", "P4":
			if typ == "" {
				zones[rec[col["AvailabilityZone"]]] = rec[col["Region"]]
			}
		}
	}
	if hasN1 {
		return raw, nil // the file has its own N1 rows
	}
	names := make([]string, 0, len(zones))
	for z := range zones {
		names = append(names, z)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.Write(raw)
	if len(raw) > 0 && raw[len(raw)-1] != '\n' {
		b.WriteByte('\n')
	}
	w := csv.NewWriter(&b)
	for _, z := range names {
		p, ok := n1Standard96[zones[z]]
		if !ok {
			continue
		}
		for _, n := range n1HostSizes {
			row := make([]string, len(header))
			set := func(c, v string) {
				if i, ok := col[c]; ok {
					row[i] = v
				}
			}
			f := float64(n) / 96
			set("InstanceType", fmt.Sprintf("n1-standard-%d", n))
			set("vCPUs", strconv.Itoa(n))
			set("MemoryGiB", strconv.FormatFloat(3.75*float64(n), 'f', -1, 64))
			set("Region", zones[z])
			set("AvailabilityZone", z)
			set("Price", strconv.FormatFloat(round5(p[0]*f), 'f', -1, 64))
			set("SpotPrice", strconv.FormatFloat(round5(p[1]*f), 'f', -1, 64))
			if err := w.Write(row); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

func round5(v float64) float64 { return math.Round(v*1e5) / 1e5 }

// writeTOML writes one provider file in the catalog schema.
func writeTOML(b *bytes.Buffer, provider, rel string, insts []model.Instance, notes map[string]string) {
	fmt.Fprintf(b, "# gpuplan instance catalog: %s. GENERATED by data/internal/gencatalog from SkyPilot's\n", provider)
	fmt.Fprintf(b, "# catalog (%s); do not edit: fix the generator's tables and regenerate.\n", rel)
	b.WriteString("# Data from skypilot-org/skypilot-catalog, SkyPilot authors, Apache License 2.0 (licence\n")
	b.WriteString("# unverified, see NOTICE), modified: filtered to GPU rows, zones collapsed into regions,\n")
	b.WriteString("# GCP VM and GPU rows summed, corrected and enriched where each entry's source says so.\n")
	b.WriteString("# Prices: USD per hour for the whole instance; spot = the lowest over the region's zones.\n")
	b.WriteString("schema_version = 1\n")
	fmt.Fprintf(b, "provider = %s\n", config.QuoteTOML(provider))
	for _, in := range insts {
		b.WriteString("\n[[instance]]\n")
		if n := notes[in.Type]; n != "" {
			fmt.Fprintf(b, "# %s\n", n)
		}
		fmt.Fprintf(b, "type = %s\n", config.QuoteTOML(in.Type))
		fmt.Fprintf(b, "gpu = %s\n", config.QuoteTOML(in.GPU))
		fmt.Fprintf(b, "gpu_count = %d\n", in.GPUCount)
		if in.VCPUs > 0 {
			fmt.Fprintf(b, "vcpus = %d\n", in.VCPUs)
		}
		if in.MemoryGiB > 0 {
			fmt.Fprintf(b, "memory_gib = %s\n", num(in.MemoryGiB))
		}
		if in.LocalNVMeGB > 0 {
			fmt.Fprintf(b, "local_nvme_gb = %s\n", num(in.LocalNVMeGB))
		}
		if in.NetworkGbps > 0 {
			fmt.Fprintf(b, "network_gbps = %s\n", num(in.NetworkGbps))
		}
		if in.Interconnect != "" {
			fmt.Fprintf(b, "interconnect = %s\n", config.QuoteTOML(in.Interconnect))
		}
		if in.Fabric != "" {
			fmt.Fprintf(b, "fabric = %s\n", config.QuoteTOML(in.Fabric))
		}
		if in.Retired != "" {
			fmt.Fprintf(b, "retired = %s\n", in.Retired)
			fmt.Fprintf(b, "retired_source = %s\n", config.QuoteTOML(in.RetiredSource))
		}
		if in.SkyPilotAccelerator != "" {
			fmt.Fprintf(b, "skypilot_accelerator = %s\n", config.QuoteTOML(in.SkyPilotAccelerator))
		}
		if in.CPUArch != "" {
			fmt.Fprintf(b, "cpu_arch = %s\n", config.QuoteTOML(in.CPUArch))
		}
		fmt.Fprintf(b, "source = %s\n", config.QuoteTOML(in.Source))
		fmt.Fprintf(b, "as_of = %s\n", in.AsOf)
		data.WritePricesTOML(b, in.Prices)
	}
}

// num formats a float the shortest way that reads back exactly; whole
// numbers get no fraction ("8", "0.38").
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
