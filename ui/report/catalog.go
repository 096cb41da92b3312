package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// GPURowJSON is one row of gpuplan catalog gpus --json. TFLOPS are dense
// peaks; null where the format is unsupported or unpublished.
type GPURowJSON struct {
	Key                 string     `json:"key"`
	Name                string     `json:"name"`
	Aliases             []string   `json:"aliases"`
	Vendor              string     `json:"vendor"`
	Architecture        string     `json:"architecture"`
	MemoryGiB           float64    `json:"memory_gib"`
	MemoryBandwidthGBps *float64   `json:"memory_bandwidth_gbps"`
	TFLOPS              TFLOPSJSON `json:"tflops"`
	INT8TOPS            *float64   `json:"int8_tops"`
	ComputeCapability   string     `json:"compute_capability"`
	Interconnect        string     `json:"interconnect"`
	InterconnectGBps    *float64   `json:"interconnect_gbps"`
	TDPWatts            *float64   `json:"tdp_w"`
	Source              string     `json:"source"`
	AsOf                string     `json:"as_of"`
	UsableMemoryMiB     *float64   `json:"usable_memory_mib"`
}

// TFLOPSJSON holds dense peak TFLOPS per format.
type TFLOPSJSON struct {
	FP32 *float64 `json:"fp32"`
	TF32 *float64 `json:"tf32"`
	FP16 *float64 `json:"fp16"`
	BF16 *float64 `json:"bf16"`
	FP8  *float64 `json:"fp8"`
}

func orNull(v float64) *float64 {
	if v <= 0 {
		return nil
	}
	return &v
}

// NewGPURows lists the GPUs in catalog order.
func NewGPURows(c *model.Catalog) []GPURowJSON {
	rows := make([]GPURowJSON, 0, len(c.GPUs))
	for _, g := range c.GPUs {
		rows = append(rows, GPURowJSON{
			Key: g.Key, Name: g.Name, Aliases: append([]string{}, g.Aliases...), Vendor: g.Vendor, Architecture: g.Architecture,
			MemoryGiB: g.MemoryGiB, MemoryBandwidthGBps: orNull(g.MemoryBandwidthGBps),
			TFLOPS:   TFLOPSJSON{FP32: orNull(g.FP32TFLOPS), TF32: orNull(g.TF32TFLOPS), FP16: orNull(g.FP16TFLOPS), BF16: orNull(g.BF16TFLOPS), FP8: orNull(g.FP8TFLOPS)},
			INT8TOPS: orNull(g.INT8TOPS), ComputeCapability: g.ComputeCapability, Interconnect: g.Interconnect,
			InterconnectGBps: orNull(g.InterconnectGBps), TDPWatts: orNull(g.TDPWatts), Source: g.Source, AsOf: g.AsOf,
			UsableMemoryMiB: orNull(g.UsableMemoryMiB),
		})
	}
	return rows
}

// InstanceRowJSON is one row of gpuplan catalog instances --json: one per
// instance type and region. Prices are USD per hour for the whole
// instance; null when unknown, never 0.
type InstanceRowJSON struct {
	Provider           string   `json:"provider"`
	InstanceType       string   `json:"instance_type"`
	Region             string   `json:"region"`
	GPU                string   `json:"gpu"`
	GPUCount           int      `json:"gpu_count"`
	GPUMemoryGiB       float64  `json:"gpu_memory_gib"`
	VCPUs              int      `json:"vcpus"`
	MemoryGiB          float64  `json:"memory_gib"`
	LocalNVMeGB        *float64 `json:"local_nvme_gb"`
	NetworkGbps        *float64 `json:"network_gbps"`
	Interconnect       string   `json:"interconnect"`
	OnDemandUSDPerHour *float64 `json:"on_demand_usd_per_hour"`
	SpotUSDPerHour     *float64 `json:"spot_usd_per_hour"`
	Retired            string   `json:"retired,omitempty"`
	MissingSince       string   `json:"missing_since,omitempty"` // not in the latest `catalog update` fetch since this date
	Source             string   `json:"source"`
	AsOf               string   `json:"as_of"`
	Origin             string   `json:"origin"`
}

// ModelRowJSON is one row of gpuplan catalog models --json.
type ModelRowJSON struct {
	Key              string   `json:"key"`
	Name             string   `json:"name"`
	Aliases          []string `json:"aliases"`
	Family           string   `json:"family"`
	Params           int64    `json:"params"`
	ActiveParams     int64    `json:"active_params"`
	PublishedParams  int64    `json:"published_params"`
	Layers           int      `json:"layers,omitempty"`
	DecoderLayers    int      `json:"decoder_layers,omitempty"`
	Hidden           int      `json:"hidden,omitempty"`
	Heads            int      `json:"heads,omitempty"`
	KVHeads          int      `json:"kv_heads,omitempty"`
	HeadDim          int      `json:"head_dim,omitempty"`
	FFN              int      `json:"ffn,omitempty"`
	GatedMLP         bool     `json:"gated_mlp,omitempty"`
	Vocab            int      `json:"vocab,omitempty"`
	TiedEmbeddings   bool     `json:"tied_embeddings,omitempty"`
	Experts          int      `json:"experts,omitempty"`
	ExpertsPerToken  int      `json:"experts_per_token,omitempty"`
	SharedExperts    int      `json:"shared_experts,omitempty"`
	DenseLayers      int      `json:"dense_layers,omitempty"`
	DenseFFN         int      `json:"dense_ffn,omitempty"`
	KVLoRARank       int      `json:"kv_lora_rank,omitempty"`
	VisionParams     int64    `json:"vision_params,omitempty"`
	MaxPositions     int      `json:"max_positions,omitempty"`
	PatchSize        int      `json:"patch_size,omitempty"`
	ImageSize        int      `json:"image_size,omitempty"`
	ForwardGMACs     float64  `json:"forward_gmacs,omitempty"`
	ActivationMiB    float64  `json:"activation_mib_per_sample,omitempty"`
	DefaultBatch     int      `json:"default_batch,omitempty"`
	DefaultSeqLen    int      `json:"default_seq_len,omitempty"`
	DefaultImageSize int      `json:"default_image_size,omitempty"`
	Source           string   `json:"source"`
	ParamsSource     string   `json:"params_source"`
	AsOf             string   `json:"as_of"`
}

// NewModelRows lists the model architectures in catalog order.
func NewModelRows(c *model.Catalog) []ModelRowJSON {
	rows := make([]ModelRowJSON, 0, len(c.Models))
	for i := range c.Models {
		a := &c.Models[i]
		rows = append(rows, ModelRowJSON{
			Key: a.Key, Name: a.Name, Aliases: append([]string{}, a.Aliases...), Family: string(a.Family),
			Params: i64(a.ParamCount()), ActiveParams: i64(a.ReportedActiveParams()), PublishedParams: i64(a.PublishedParams),
			Layers: a.Layers, DecoderLayers: a.DecoderLayers, Hidden: a.Hidden, Heads: a.Heads, KVHeads: a.KVHeads,
			HeadDim: a.HeadDim, FFN: a.FFN, GatedMLP: a.GatedMLP, Vocab: a.Vocab, TiedEmbeddings: a.Tied,
			Experts: a.Experts, ExpertsPerToken: a.ExpertsPerToken, SharedExperts: a.SharedExperts, DenseLayers: a.DenseLayers,
			DenseFFN: a.DenseFFN, KVLoRARank: a.KVLoRARank, VisionParams: i64(a.VisionParams), MaxPositions: a.MaxPositions, PatchSize: a.PatchSize,
			ImageSize: a.ImageSize, ForwardGMACs: a.ForwardGMACs, ActivationMiB: a.ActivationMiBPerSample,
			DefaultBatch: a.DefaultBatch, DefaultSeqLen: a.DefaultSeqLen, DefaultImageSize: a.DefaultImageSize,
			Source: a.Source, ParamsSource: a.ParamsSource, AsOf: a.AsOf,
		})
	}
	return rows
}

func num(v float64) string {
	if v <= 0 {
		return "—"
	}
	return trimFloat(v)
}

func trimFloat(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	return strings.TrimSuffix(s, ".0")
}

// translate is each of words in p's language (table headers), in a new
// slice: words is often a package-level list.
func translate(p *i18n.Printer, words ...string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = p.T(w)
	}
	return out
}

// WriteCatalogGPUs prints the GPU table. width is the terminal's (0: a
// pipe or a file, every column, names up to 30 cells): a table wider
// (walk52: 105 cells at 80 columns) cuts the names, then hides the fp32
// and tf32 columns and cuts the names again to fit, and a line says what
// is hidden and where it is.
func WriteCatalogGPUs(out io.Writer, r *Renderer, c *model.Catalog, width int) error {
	p := r.Lang
	layout := func(nameCut int, withFP32 bool) string {
		headers := translate(p, "key", "name", "GiB", "GB/s", "fp32", "tf32", "bf16", "fp16", "fp8", "cc")
		rows := [][]string{}
		for _, g := range c.GPUs {
			rows = append(rows, []string{g.Key, r.Cut(g.Name, nameCut), trimFloat(g.MemoryGiB), num(g.MemoryBandwidthGBps),
				num(g.FP32TFLOPS), num(g.TF32TFLOPS), num(g.BF16TFLOPS), num(g.FP16TFLOPS), num(g.FP8TFLOPS), g.ComputeCapability})
		}
		right := map[int]bool{2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true}
		if !withFP32 {
			headers = slices.Delete(headers, 4, 6)
			for i := range rows {
				rows[i] = slices.Delete(rows[i], 4, 6)
			}
			right = map[int]bool{2: true, 3: true, 4: true, 5: true, 6: true}
		}
		return r.tableRight(headers, rows, right)
	}
	const nameCut, minNameCut, fp32NameCut = 30, 12, 20
	table := layout(nameCut, true)
	var hidden []string
	if over := tableWidth(table) - width; width > 0 && over > 0 {
		if table = layout(max(nameCut-over, fp32NameCut), true); tableWidth(table) > width {
			hidden = translate(p, "fp32", "tf32")
			table = layout(nameCut, false)
			if over := tableWidth(table) - width; over > 0 {
				table = layout(max(nameCut-over, minNameCut), false)
			}
		}
	}
	w := &errWriter{w: r.Writer(out)} // its first error is the result
	if _, err := fmt.Fprintln(w, table); err != nil {
		return err
	}
	WrapLine(w, p.Sprintf("TFLOPS are dense peaks from vendor datasheets (no sparsity); — = unsupported or unpublished. Catalog as of %s.", c.AsOf), width, "")
	if len(hidden) > 0 {
		WrapLine(w, p.Sprintf("Hidden to fit %d columns: %s (--json shows it).", width, strings.Join(hidden, p.T(", "))), width, "")
	}
	return w.err
}

// WriteCatalogInstances prints the instance table: one row per instance
// type with its cheapest region.
func WriteCatalogInstances(out io.Writer, r *Renderer, c *model.Catalog, provider string) error {
	p := r.Lang
	rows := [][]string{}
	for i := range c.Instances {
		in := &c.Instances[i]
		if provider != "" && in.Provider != provider {
			continue
		}
		cheapest, region, spot := 0.0, "", 0.0
		for _, p := range in.Prices {
			if p.OnDemandUSD > 0 && (cheapest == 0 || p.OnDemandUSD < cheapest) {
				cheapest, region = p.OnDemandUSD, p.Region
			}
			if p.SpotUSD > 0 && (spot == 0 || p.SpotUSD < spot) {
				spot = p.SpotUSD
			}
		}
		od, sp := p.T("unknown"), p.T("unknown")
		if cheapest > 0 {
			od = USD(cheapest)
		}
		if spot > 0 {
			sp = USD(spot)
		}
		name := in.Type
		if in.Retired != "" {
			name += p.T(" (retired)")
		} else if in.MissingSince != "" {
			name += p.T(" (not in latest fetch)")
		}
		rows = append(rows, []string{in.Provider, r.Cut(name, 34), fmt.Sprintf("%d×%s", in.GPUCount, in.GPU), fmt.Sprint(in.VCPUs),
			trimFloat(in.MemoryGiB), od, r.Cut(region, 18), sp, fmt.Sprint(len(in.Prices))})
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i][0] != rows[j][0] {
			return rows[i][0] < rows[j][0]
		}
		return rows[i][1] < rows[j][1]
	})
	_, err := fmt.Fprintf(r.Writer(out), "%s\n%s\n", r.tableRight(translate(p, "provider", "instance", "GPUs", "vCPUs", "RAM GiB", "on-demand $/h", "cheapest region", "spot $/h", "regions"), rows,
		map[int]bool{3: true, 4: true, 5: true, 7: true, 8: true}),
		p.Sprintf("%d instance types; prices are the lowest on-demand and spot per hour for the whole instance (per region: --json). Catalog as of %s.", len(rows), c.AsOf))
	return err
}

// WriteCatalogModels prints the model table: key, name, family, the
// parameters, the active ones of a mixture of experts ("—" for a dense
// model, which runs them all; walk51: qwen3-30b-a3b's 3.35B active were
// only in --json and csv) and the shape. width is the terminal's (0: a
// pipe or a file, every column whole): a table wider hides the shape, then
// cuts the names to fit, and a line says what is hidden and where it is.
func WriteCatalogModels(out io.Writer, r *Renderer, c *model.Catalog, width int) error {
	p := r.Lang
	type row struct{ key, name, family, params, active, shape string }
	rows := make([]row, 0, len(c.Models))
	for i := range c.Models {
		a := &c.Models[i]
		shape := "—"
		switch {
		case a.HasShape() && a.Experts > 1:
			shape = p.Sprintf("%d×%d, %d experts (top-%d)", a.TotalLayers(), a.Hidden, a.Experts, a.ExpertsPerToken)
		case a.HasShape():
			shape = p.Sprintf("%d layers × %d", a.TotalLayers(), a.Hidden)
		case a.ForwardGMACs > 0:
			shape = p.Sprintf("%.4g GMACs at %d px", a.ForwardGMACs, a.ImageSize)
		}
		active := "—"
		if n := a.ReportedActiveParams(); a.Experts > 1 && n > 0 && n < a.ParamCount() {
			active = model.FormatCount(n)
		}
		rows = append(rows, row{a.Key, a.Name, p.T(string(a.Family)), model.FormatCount(a.ParamCount()), active, shape})
	}
	layout := func(nameCut int, withShape bool) string {
		headers := translate(p, "key", "name", "family", "params", "active", "shape")
		if !withShape {
			headers = headers[:5]
		}
		cells := make([][]string, len(rows))
		for i, m := range rows {
			cells[i] = []string{m.key, r.Cut(m.name, nameCut), m.family, m.params, m.active}
			if withShape {
				cells[i] = append(cells[i], m.shape)
			}
		}
		return r.tableRight(headers, cells, map[int]bool{3: true, 4: true})
	}
	const nameCut, minNameCut = 28, 12
	table := layout(nameCut, true)
	var hidden []string
	if width > 0 && tableWidth(table) > width {
		hidden = append(hidden, p.T("shape"))
		table = layout(nameCut, false)
		if over := tableWidth(table) - width; over > 0 {
			table = layout(max(nameCut-over, minNameCut), false)
		}
	}
	w := &errWriter{w: r.Writer(out)} // its first error is the result
	if _, err := fmt.Fprintln(w, table); err != nil {
		return err
	}
	if len(hidden) > 0 {
		WrapLine(w, p.Sprintf("Hidden to fit %d columns: %s (--json shows it).", width, strings.Join(hidden, p.T(", "))), width, "")
	}
	return w.err
}

// tableWidth is the widest line of a laid-out table, in terminal cells.
func tableWidth(table string) int {
	n := 0
	for l := range strings.SplitSeq(table, "\n") {
		n = max(n, ansi.StringWidth(l))
	}
	return n
}
