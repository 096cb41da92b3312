package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/report"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// marketPricing are the modes --pricing takes on the market: the pricing
// modes of recommend plus the availability modes with a public price.
var marketPricing = []model.Pricing{model.OnDemand, model.Spot, model.Reserved1y, model.Reserved3y, model.FlexStart, model.CapacityBlock}

func parseMarketPricing(s string) (model.Pricing, error) {
	t := model.Pricing(strings.ToLower(strings.TrimSpace(s)))
	if t == model.FlexStart || t == model.CapacityBlock || t == "dws" {
		if t == "dws" {
			t = model.FlexStart
		}
		return t, nil
	}
	p, err := model.ParsePricing(s)
	if err != nil {
		var names []string
		for _, m := range marketPricing {
			names = append(names, string(m))
		}
		return "", model.Msg("--pricing %q: want %v", s, model.OrMsg(names))
	}
	return p, nil
}

// strs spells typed enum values as strings, for completion.
func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// convertedHeldWarning says how many prices in another currency the
// query's rates convert below the price guards' floor, so are not ranked
// (model.HeldAt, data.SetCurrencyFloors); zero when none or trusted.
func convertedHeldWarning(cat *model.Catalog, rates map[string]float64) model.Message {
	h := cat.ConvertedHeld(rates)
	if h.Count == 0 || cat.TrustOverlays {
		return model.Message{}
	}
	in := h.Instance
	return model.Msg("%d %s-priced region "+model.Plural(h.Count, "price")+" converted below the price guards' floor, not ranked (the first: %s/%s %s from %s, %s per GPU-hour where the floor for %s is %s: a fake or mistyped price?); pass --trust-overlay to rank them",
		h.Count, in.PriceCurrency(), in.Provider, in.Type, h.Region, in.Origin, report.USDPerHour(h.USDPerGPUHour), in.GPU, report.USDPerHour(h.FloorUSD))
}

// usdCNYRates turns --usd-cny RATE (1 USD = RATE CNY, checked by
// usdCNYValue) into the ExchangeRates of a query (USD per unit of the
// currency); nil for 0, the flag not given.
func usdCNYRates(rate float64) map[string]float64 {
	if rate == 0 {
		return nil
	}
	return map[string]float64{"CNY": 1 / rate}
}

// outWide is gpuplan offers -o wide: the table with every column however
// narrow the terminal (kubectl get -o wide,
// https://kubectl.docs.kubernetes.io/references/kubectl/get/options/wide).
const outWide = "wide"

// marketFlags are the flags of gpuplan offers.
type marketFlags struct {
	vram, pricing, maxPrice, arch, interconnect, sort, groupBy, format, output string
	regions, providers, countries                                              []string
	provider                                                                   string // the old --provider, kept for scripts
	nvlink, infiniband, efa, allRegions, all, asJSON, marketplaces             bool
	usdCNY                                                                     float64
	limit                                                                      int
}

// query builds the market query from args (GPU specs) and the flags.
func (f *marketFlags) query(cat *model.Catalog, args []string) (market.Query, error) {
	var q market.Query
	for _, a := range args {
		for _, s := range strings.Split(a, ",") {
			spec, err := market.ParseGPUSpec(s, cat)
			if err != nil {
				return q, err
			}
			q.GPUs = append(q.GPUs, spec)
		}
	}
	var err error
	if f.vram != "" {
		if q.VRAMGiB, err = market.ParseVRAMRange(f.vram); err != nil {
			return q, err
		}
	}
	for _, r := range f.regions {
		if r = strings.TrimSpace(r); r != "" {
			q.Regions = append(q.Regions, r)
		}
	}
	for _, c := range f.countries {
		if c = strings.TrimSpace(c); c != "" {
			q.Countries = append(q.Countries, c)
		}
	}
	if f.provider != "" {
		f.providers = append(f.providers, f.provider)
	}
	for _, p := range f.providers {
		if p = strings.ToLower(strings.TrimSpace(p)); p != "" {
			q.Providers = append(q.Providers, p)
		}
	}
	if f.pricing != "" {
		if q.Pricing, err = parseMarketPricing(f.pricing); err != nil {
			return q, err
		}
	}
	if f.maxPrice != "" {
		if q.MaxUSDPerHour, err = market.ParseMaxPrice(f.maxPrice); err != nil {
			return q, err
		}
	}
	if f.arch != "" {
		if q.Arch, err = market.ParseArch(f.arch); err != nil {
			return q, err
		}
	}
	if f.interconnect != "" {
		if q.Interconnect, err = market.ParseInterconnect(f.interconnect); err != nil {
			return q, err
		}
	}
	if f.nvlink {
		if q.Interconnect != "" && q.Interconnect != market.LinkNVLink {
			return q, model.Msg("--nvlink and --interconnect %s: give one", f.interconnect)
		}
		q.Interconnect = market.LinkNVLink
	}
	q.InfiniBand = f.infiniband || f.efa
	if f.sort != "" {
		if q.Sort, err = market.ParseSort(f.sort); err != nil {
			return q, model.Msg("--%v", err) // the flag's name: `sort "x": want …` → `--sort "x": want …`
		}
	}
	if f.groupBy != "" {
		if q.GroupBy, err = market.ParseGroupBy(f.groupBy); err != nil {
			return q, model.Msg("--%v", err) // as --sort (walk55: `group-by "gpuu"` named no flag)
		}
	}
	q.AllRegions, q.Retired, q.Held = f.allRegions, f.all, f.all
	if !f.all { // --all lists retired types: a retired provider's are there to see
		if err := retiredProviders(cat, q.Providers, "--providers"); err != nil {
			return q, err
		}
	}
	q.ExchangeRates = usdCNYRates(f.usdCNY)
	return q, nil
}

// newOffersCmd is gpuplan offers, also gpuplan catalog instances: the
// market without a workload, like sky show-gpus and dstack offer.
func newOffersCmd(env *Env, overlays *[]string, use string, aliases ...string) *cobra.Command {
	var f marketFlags
	cmd := &cobra.Command{
		Use:         use + " [GPU[:COUNT]]...",
		Aliases:     aliases,
		Annotations: map[string]string{argsAnnotation: argsGPUSpecs},
		Short:       "Browse GPU cloud offers: filter, sort and group the market without a workload",
		Long: `Lists the cloud instance types on the market, one row per choice: each type at
its cheapest region unless --all-regions, regions at the same price collapsed into
"+N". GPU specs: H100, H100:8, A100-80GB:4+, h100:1..4, 24GB..80GB:2 (several, or
comma-separated, match any). Prices are per hour in the --pricing mode.`,
		Example: `  gpuplan offers H100:8
  gpuplan offers --vram 24GB..48GB --max-price 1 --regions europe
  gpuplan offers H100:8 --country de,fr
  gpuplan offers A100,H100 --group-by provider --sort gpu-price
  gpuplan offers L40S --all-regions --format markdown
  gpuplan catalog instances --providers lambda --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.limit < 0 { // recommend's words
				return usage(model.Msg("--limit %d: want 0 (all offers) or a positive count", f.limit))
			}
			out, err := outputFormat(cmd, f.asJSON, f.output)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("format") { // the older spelling of -o
				switch out = strings.ToLower(f.format); out {
				case "table", "csv", "markdown", outJSON:
				case "md":
					out = "markdown"
				default:
					return usage(model.Msg("--format %q: want table, csv or markdown", f.format))
				}
			}
			if err := listNamesSome(cmd.Flags(), "providers", "regions", "country"); err != nil {
				return err
			}
			cat, warnings, err := env.LoadCatalog(*overlays)
			if err != nil {
				return err
			}
			q, err := f.query(cat, args)
			if err != nil {
				printWarningsIn(env.lang, env.Stderr, warnings)
				return usage(err)
			}
			warnings = append(warnings, hiddenTypes(env, cat, q.Providers)...)
			if !q.Retired { // --all lists a retired provider's types
				_, said := retiredNamed(cat, q.Providers, "--providers")
				warnings = append(warnings, said...)
			}
			printWarningsIn(env.lang, env.Stderr, warnings)
			res, err := market.Browse(cat, q)
			if err != nil {
				return usage(err)
			}
			// Marketplaces only when named, as recommend and the README
			// ("Vast on request"): their rows are hourly snapshots.
			asked := q.Providers // as the user named them, for the empty hints
			hidden, markets := 0, marketplacesIn(cat)
			if len(q.Providers) == 0 && !f.marketplaces && len(markets) > 0 {
				all := len(res.Rows)
				q.Providers = slices.DeleteFunc(providerNames(cat), func(p string) bool { return slices.Contains(model.MarketplaceProviders, p) })
				if q.GroupBy == market.GroupNone && len(q.Providers) > 0 {
					// The same rows as browsing again with q.Providers (every
					// provider but the marketplaces), in the same (total)
					// order: no second pass over the catalog.
					res.Query.Providers = q.Providers
					res.Rows = slices.DeleteFunc(res.Rows, func(r market.Row) bool { return slices.Contains(model.MarketplaceProviders, r.Instance.Provider) })
				} else if res, err = market.Browse(cat, q); err != nil { // groups index the rows
					return usage(err)
				}
				hidden = all - len(res.Rows)
			}
			// An interconnect filter cannot tell rows whose catalog entry
			// does not state the link (shown as "not stated"): say how many it left out.
			if q.Interconnect != "" {
				wide := res.Query
				wide.Interconnect = ""
				if all, err := market.Browse(cat, wide); err == nil {
					n := 0
					for i := range all.Rows {
						if in := all.Rows[i].Instance; in.Interconnect == "" && in.GPUCount > 1 {
							n++
						}
					}
					if n > 0 {
						notef(env.lang, env.Stderr, model.Msg("%d "+model.Plural(n, "offer")+" whose interconnect is not stated (\"not stated\" in the table) left out by the interconnect filter", n))
					}
				}
			}
			// --limit as recommend's: the first N rows (of each group).
			total := len(res.Rows)
			more := res.Limit(f.limit)
			var footer model.Message
			if hidden > 0 {
				footer = model.Msg("%d marketplace "+model.Plural(hidden, "offer")+" hidden (--providers %s, or --marketplaces)", hidden, strings.Join(markets, ","))
			}
			prov := catalogProvenance(env, cat)
			m := report.MarketJSON{RowsTotal: total, NeedsRate: report.NeedsRate(cat, q.Providers, q.ExchangeRates),
				Prices: report.NewProvenanceJSON(prov)}
			if f.usdCNY > 0 {
				m.USDCNY = &f.usdCNY
			}
			m.MoreRows = more
			m.CatalogAsOf = cat.AsOf
			staleNote(env, prov)
			if w := convertedHeldWarning(cat, q.ExchangeRates); !w.IsZero() && !cat.TrustOverlays {
				notef(env.lang, env.Stderr, w)
			}
			if !footer.IsZero() && out != outTable && out != outWide { // keep the data clean for scripts
				notef(env.lang, env.Stderr, footer)
			}
			if len(res.Rows) == 0 { // why nothing is listed: a scan of the catalog, only then
				if note, ok := cat.ChinaNote(q.Countries, q.Regions); ok {
					notef(env.lang, env.Stderr, note)
				}
				hq := q // the providers asked: the marketplaces hidden have their own footer
				hq.Providers = asked
				for _, h := range market.EmptyHints(cat, &hq) {
					notef(env.lang, env.Stderr, h)
				}
			}
			if more > 0 && out != outTable && out != outWide {
				notef(env.lang, env.Stderr, model.Msg("%d more "+model.Plural(more, "row")+" left out by --limit %d (--limit 0 shows all)", more, f.limit))
			}
			switch {
			case out == outJSON: // one pass, no second copy: 100,000 rows are ~80 MB of JSON
				return writeJSONStream(env.Stdout, report.StreamMarketJSON(m, &res)) // rows laid out one at a time
			case out == outCSV:
				s, err := report.MarketCSV(&res)
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(env.Stdout, s)
				return err
			case out == "markdown":
				_, err := fmt.Fprint(env.Stdout, report.MarketMarkdown(&res))
				return err
			}
			// On a terminal (or with COLUMNS) the table hides its least
			// needed columns to fit, as recommend's does; -o wide shows
			// them all, as kubectl get -o wide.
			r, width := renderer(env, env.Stdout)
			if out == outWide {
				width = 0
				// On a pipe or a file -o wide prints what a plain pipe
				// does (no rule, no blanks ending a line), COLUMNS or not:
				// COLUMNS asks for a terminal's width, which -o wide does
				// not use (walk: COLUMNS=80 … -o wide | cat padded).
				if f, ok := env.Stdout.(*os.File); !ok || !term.IsTerminal(f.Fd()) {
					r.Plain = true
				}
			}
			if err := report.WriteMarket(env.Stdout, r, &res, m, width); err != nil {
				return err
			}
			if !footer.IsZero() { // wrapped at the width as the table's footers
				out := &firstErrWriter{w: env.Stdout} // a line lost is an error, as the table's
				report.WrapLine(out, termsafe.Lines(env.lang.Message(footer)), width, "")
				if out.err != nil {
					return out.err
				}
			}
			siblingNote(env, cat, res.Query, "offers")
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.vram, "vram", "", "memory per GPU: 24GB..80GB, 40GB+, 80GB")
	fl.Var(newList(&f.regions), "regions", "regions, prefixes (us-east-1, europe-, asia*), continents (europe, eu, asia, north-america) or ISO country codes (de, us: every region in that country); comma-separated; leaves out offers whose location is not stated")
	fl.Var(newList(&f.countries), "country", "regions in these countries: ISO codes or English names (de, uk, \"united states\", holland); comma-separated; leaves out offers whose location is not stated")
	fl.Var(newList(&f.providers), "providers", "providers (aws, gcp, azure, lambda, …); comma-separated")
	fl.StringVar(&f.provider, "provider", "", "one provider (same as --providers)")
	_ = fl.MarkHidden("provider")
	fl.StringVar(&f.pricing, "pricing", "", "on-demand (default), spot, reserved-1y, reserved-3y, flex-start or capacity-block")
	fl.StringVar(&f.maxPrice, "max-price", "", "highest USD per hour for the whole instance: 2.50 or $2.50/h")
	fl.StringVar(&f.arch, "arch", "", "host CPU: x86_64 or arm64")
	fl.StringVar(&f.interconnect, "interconnect", "", "between the GPUs: nvlink, nvswitch, pcie, infinity-fabric or fast")
	fl.BoolVar(&f.nvlink, "nvlink", false, "only GPUs joined by NVLink or NVSwitch")
	fl.BoolVar(&f.infiniband, "infiniband", false, "only instances with a GPU network between nodes: InfiniBand, EFA, RoCE or other RDMA, GCP GPUDirect-TCPX/TCPXO")
	fl.BoolVar(&f.efa, "efa", false, "same as --infiniband (AWS Elastic Fabric Adapter)")
	fl.StringVar(&f.sort, "sort", "", "price (default), gpu-price, vram-price, vcpus, ram or vram")
	fl.StringVar(&f.groupBy, "group-by", "", "gpu, provider or region, with price ranges per group")
	fl.BoolVar(&f.allRegions, "all-regions", false, "one row per region price instead of each type's cheapest")
	fl.BoolVar(&f.all, "all", false, "include retired instance types and the overlay prices the guards held as fake, marked")
	fl.BoolVar(&f.marketplaces, "marketplaces", false, "include marketplace offers (vast, lium, hyperbolic, simplepod), left out unless --providers names them")
	fl.BoolVar(&f.asJSON, "json", false, "print JSON")
	addOutputFlag(cmd, &f.output, outTable, outJSON, outCSV, "markdown", outWide)
	fl.StringVar(&f.format, "format", "", "same as -o: table, csv or markdown")
	_ = fl.MarkHidden("format")
	fl.Var(usdCNYValue{&f.usdCNY}, "usd-cny", "rank CNY prices at 1 USD = RATE CNY (no rate is assumed)")
	fl.Var(intValue{v: &f.limit}, "limit", "show at most N rows, of each group with --group-by; 0 (the default) shows all")
	for name, vals := range map[string][]string{"pricing": strs(marketPricing), "arch": strs(model.Archs),
		"interconnect": market.Interconnects, "sort": strs(market.Sorts), "group-by": strs(market.Groups)} {
		_ = cmd.RegisterFlagCompletionFunc(name, byPrefix(cobra.FixedCompletions(vals, noFile)))
	}
	return cmd
}

// marketplacesIn lists the marketplace providers (model.MarketplaceProviders)
// with instance types in cat.
func marketplacesIn(cat *model.Catalog) []string {
	var out []string
	for _, p := range providerNames(cat) {
		if slices.Contains(model.MarketplaceProviders, p) {
			out = append(out, p)
		}
	}
	return out
}

// catalogProvenance says where cat's prices came from.
func catalogProvenance(env *Env, cat *model.Catalog) market.Provenance {
	dir := ""
	if env.UpdateDir != nil {
		dir, _ = env.UpdateDir()
	}
	return market.CatalogProvenance(cat, dir)
}

// staleNote prints, once on stderr, that prices are past market.StaleAfter.
func staleNote(env *Env, p market.Provenance) {
	now := time.Now
	if env.Now != nil {
		now = env.Now
	}
	if m := p.StaleNote(now()); !m.IsZero() {
		notef(env.lang, env.Stderr, m)
	}
}

// priceNote is the configurator header's word on the prices besides the
// catalog date: how many overlays and catalog update files changed them,
// and, past market.StaleAfter, the command that refreshes them. An update
// older than the embedded prices is called older, not "updated": beside
// "catalog 2026-12-03", "updated 2026-10-01" read as a refresh, where the
// update only sets the offers the embedded catalog lacks or has older
// (data.LoadWith leaves out the rest).
func priceNote(env *Env, cat *model.Catalog) string {
	p := catalogProvenance(env, cat)
	var parts []string
	updated, embedded, overlays := "", "", 0
	for _, o := range p.Origins {
		switch {
		case o.Origin == "embedded":
			embedded = o.AsOf
		case o.Updated:
			updated = max(updated, o.AsOf)
		default:
			overlays++
		}
	}
	switch {
	case updated != "" && updated < embedded:
		parts = append(parts, env.lang.Sprintf("older update %s", updated))
	case updated != "":
		parts = append(parts, env.lang.Sprintf("updated %s", updated))
	}
	if overlays > 0 {
		parts = append(parts, env.lang.Sprintf("+%d "+model.Plural(overlays, "overlay"), overlays))
	}
	now := time.Now
	if env.Now != nil {
		now = env.Now
	}
	if p.Stale(now()) {
		parts = append(parts, env.lang.Sprintf("stale: gpuplan catalog update"))
	}
	if len(parts) == 0 {
		return ""
	}
	return env.lang.Sprintf("(%s)", strings.Join(parts, env.lang.Sprintf(", ")))
}

// siblingNote tells, on stderr, of the other variants of a GPU the
// query named and how to ask for them: "A100" is the 40GB part
// (SkyPilot's naming), so the 80GB offers are not in the table.
func siblingNote(env *Env, cat *model.Catalog, q market.Query, command string) {
	sibs := market.Siblings(cat, q)
	if len(sibs) == 0 {
		return
	}
	notef(env.lang, env.Stderr, model.Msg("also: %s: other variants, not shown; ask for one by name, e.g. gpuplan %s %s", report.SiblingList(env.lang, sibs), command, sibs[0].Spec))
}
