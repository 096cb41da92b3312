package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/internal/stack"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/report"
)

// PreemptibleNote says what --pricing preemptible ranks: spot prices. GCP's
// preemptible VMs are priced as its Spot VMs ("Spot VMs are the latest
// version of preemptible VMs ... preemptible VMs use the same pricing
// model as Spot VMs", Google Cloud, "Create and use preemptible VMs"),
// but "always stop after 24 hours", which the spot estimate does not
// model.
func PreemptibleNote() model.Message {
	return model.Msg("--pricing preemptible is ranked as spot: GCP prices its preemptible VMs as its Spot VMs, but stops them after 24 hours, which the spot estimate does not model")
}

// queryFlags are recommend's search flags.
type queryFlags struct {
	providers, regions []string
	countries          []string
	pricing            model.Pricing
	maxPrice, budget   float64
	budgetJob          float64
	hoursPerMonth      float64
	deadline           float64
	multiNode          bool
	marketplaces       bool
	maxGPUs            int
	precisionFallback  bool
	limit              int
	// retiredLeftOut says which providers named query left out as retired
	// (retiredNamed), for the command to print.
	retiredLeftOut []model.Message
	sort           model.SortKey
	usdCNY         float64
	// preemptible is set when --pricing was spelt "preemptible", which
	// parses as spot (model.ParsePricing's alias): recommend says so once.
	preemptible bool
}

func (f *queryFlags) register(fs *pflag.FlagSet) {
	fs.Var(newList(&f.providers), "providers", "only these providers: aws,gcp,azure,lambda,… (default all)")
	fs.Var(newList(&f.regions), "regions", "only these regions, prefixes ending in '-', continents or country codes: us-east-1,europe-,europe,asia,DE (a country code is every region in that country; default all; leaves out offers whose location is not stated)")
	fs.Var(newList(&f.countries), "country", "only regions in these countries, ISO codes or English names: de,uk,\"united states\",holland (default any; leaves out offers whose location is not stated)")
	fs.BoolVar(&f.marketplaces, "marketplaces", false, "include marketplace offers (vast, lium, hyperbolic, simplepod), left out unless --providers names them")
	parsePricing := func(s string) (model.Pricing, error) {
		f.preemptible = strings.EqualFold(strings.TrimSpace(s), "preemptible")
		return model.ParsePricing(s)
	}
	fs.Var(enumValue[model.Pricing]{&f.pricing, parsePricing, model.PricingModes, nil}, "pricing", "on-demand, spot, reserved-1y or reserved-3y (default on-demand)")
	fs.Var(floatValue{&f.maxPrice}, "max-price-hour", "only offers up to this USD per hour")
	fs.Var(floatValue{&f.budget}, "budget-month", "only offers up to this USD per month")
	fs.Var(floatValue{&f.budgetJob}, "budget-job", "only offers whose whole job costs up to this USD (needs a dataset)")
	fs.Var(floatValue{&f.hoursPerMonth}, "hours-per-month", "hours used per month, for part-time use: billed on demand and spot; a reserved term bills every hour of the month (default 730)")
	fs.Var(floatValue{&f.deadline}, "deadline-hours", "the job must finish within this many hours")
	fs.BoolVar(&f.multiNode, "allow-multi-node", false, "allow more than one instance")
	fs.Var(intValue{v: &f.maxGPUs}, "max-gpus", "without --gpus: rent at most N GPUs (up to N, whole instances)")
	fs.BoolVar(&f.precisionFallback, "allow-precision-fallback", false, "accept GPUs without the precision asked for, running the framework's fallback (bf16 → fp16, fp8 → bf16)")
	fs.Var(intValue{v: &f.limit}, "limit", "show at most N rows (an offer in other regions at one price is one row; --json and -o csv list each region of them); 0 shows all (-o csv: all unless given)")
	// The aliases are model.ParseSortKey's (cost is the job's cost), said here so none is a surprise.
	fs.Var(enumValue[model.SortKey]{&f.sort, model.ParseSortKey, model.SortKeys, nil}, "sort", "price, monthly, job, time or headroom (default job with a dataset, else price; also hourly = price, month = monthly, cost = job, fastest = time)")
	fs.Var(usdCNYValue{&f.usdCNY}, "usd-cny", "rank CNY-priced overlay rows at 1 USD = RATE CNY (none is assumed)")
}

// query returns the search over base (from --config; zero for none):
// flags given on the command line win.
func (f *queryFlags) query(fs *pflag.FlagSet, cat *model.Catalog, autoGPUs bool, base model.Query) (model.Query, error) {
	if err := listNamesSome(fs, "providers", "regions", "country"); err != nil {
		return base, err
	}
	q := base
	q.AutoGPUs = autoGPUs
	changed := fs.Changed
	if changed("providers") {
		q.Providers = f.providers
	}
	if f.marketplaces && len(q.Providers) == 0 {
		// As offers --marketplaces: every provider, the marketplaces too
		// (model.Query.AllowsProvider leaves them out only when none is named).
		q.Providers = providerNames(cat)
	}
	if changed("regions") {
		q.Regions = f.regions
	}
	if changed("country") {
		q.Countries = f.countries
	}
	if changed("pricing") {
		q.Pricing = f.pricing
	}
	if changed("max-price-hour") {
		q.MaxUSDPerHour = f.maxPrice
	}
	if changed("budget-month") {
		q.BudgetMonthUSD = f.budget
	}
	if changed("budget-job") {
		q.BudgetJobUSD = f.budgetJob
	}
	if changed("hours-per-month") {
		q.HoursPerMonth = f.hoursPerMonth
	}
	if changed("deadline-hours") {
		q.DeadlineHours = f.deadline
	}
	if changed("allow-multi-node") {
		q.AllowMultiNode = f.multiNode
	}
	if changed("allow-precision-fallback") {
		q.AllowPrecisionFallback = f.precisionFallback
	}
	// A precision typed on the command line is asked for; the default (or
	// a file's, as the configurator writes its default answer) adapts to
	// the GPU (model.Query.PrecisionAsked).
	q.PrecisionAsked = changed("precision")
	if changed("max-gpus") {
		switch {
		case f.maxGPUs < 1 || f.maxGPUs > model.MaxGPUs:
			return q, usage(model.Msg("--max-gpus must be 1–%d, got %d", model.MaxGPUs, f.maxGPUs))
		case !autoGPUs:
			return q, usage(model.Msg("--max-gpus caps the GPU count recommend picks, and --gpus fixes it: give one of them"))
		}
		q.MaxGPUs = f.maxGPUs
	}
	if changed("sort") {
		q.Sort = f.sort
	}
	if changed("usd-cny") { // else the configuration's search.usd_cny, set above
		q.ExchangeRates = usdCNYRates(f.usdCNY)
	}
	for name, v := range map[string]float64{"max-price-hour": f.maxPrice, "budget-month": f.budget, "budget-job": f.budgetJob, "deadline-hours": f.deadline} {
		if fs.Changed(name) && !(v > 0) {
			return q, usage(model.Msg("--%s must be > 0, got %v", name, v))
		}
	}
	// The configuration's bounds (search.max_price_hour …): one source,
	// so that export writes no value its own file would refuse.
	if err := (&config.SearchAnswers{MaxPriceHour: f.maxPrice, BudgetMonth: f.budget, BudgetJob: f.budgetJob, DeadlineHours: f.deadline}).CheckRanges(); err != nil {
		return q, rangeError(err)
	}
	if fs.Changed("hours-per-month") && !(f.hoursPerMonth >= config.MinHoursPerMonth && f.hoursPerMonth <= config.MaxHoursPerMonth) {
		return q, usage(model.Msg("--hours-per-month must be %g–%d, got %v", config.MinHoursPerMonth, config.MaxHoursPerMonth, f.hoursPerMonth))
	}
	// The providers to check against, gathered only when there is a name
	// to check (the regions are model.CheckRegionWords'): over every price
	// of the catalog, they were most of a plain recommend's time here.
	providers := map[string]bool{}
	if len(q.Providers) > 0 {
		for _, in := range cat.Instances {
			providers[in.Provider] = true
		}
	}
	source := "--providers"
	if !changed("providers") {
		source = "search.providers"
	}
	var ps []string // trimmed, lowercase, empty entries dropped ("aws,,gcp")
	for _, p := range q.Providers {
		if p = strings.ToLower(strings.TrimSpace(p)); p == "" {
			continue
		}
		if !providers[p] {
			err := error(model.Msg("%s: unknown provider %q (list: gpuplan catalog instances)", source, p))
			if s := suggest(p, providers); !s.IsZero() {
				err = model.Msg("%s: unknown provider %q; did you mean %s? (list: gpuplan catalog instances)", source, p, s)
			}
			if now, ok := model.RenamedProvider(p); ok && providers[now] { // datacrunch is verda
				err = model.Msg("%s: %s", source, model.RenamedProviderMsg(p, now))
			}
			if !changed("providers") {
				err = fileValueError{err}
			}
			return q, usage(err)
		}
		ps = append(ps, p)
	}
	if err := retiredProviders(cat, ps, source); err != nil {
		return q, err
	}
	// A retired provider beside others is left out of the search itself,
	// so that export does not write it (a file naming cudo warned on every
	// reload, naming a flag it was not given), with a warning the
	// commands print (walk, 2026-12-06).
	ps, f.retiredLeftOut = retiredNamed(cat, ps, source)
	q.Providers = ps
	// One check and one wording with offers' (model.CheckRegionWords).
	if m := model.CheckCountryWords("--country", q.Countries); !m.IsZero() {
		return q, usage(m)
	}
	source = "--regions" // else the file's, which the caller names (walk37)
	if !changed("regions") {
		source = "search.regions"
	}
	if m := model.CheckRegionWords(cat, source, q.Regions); !m.IsZero() {
		var err error = m
		if !changed("regions") {
			err = fileValueError{err}
		}
		return q, usage(err)
	}
	return q, nil
}

// listNamesSome refuses a list flag of names given with none
// (--country "", --regions ,,), as kubectl and gh refuse an empty flag
// value: one wording for offers, recommend and the configurator's filter
// line (model.CheckListNamesSome), exit 2.
func listNamesSome(fs *pflag.FlagSet, names ...string) error {
	for _, n := range names {
		if !fs.Changed(n) {
			continue
		}
		v, ok := listFlag(fs, n)
		if !ok {
			continue // not a list flag of this command
		}
		if m := model.CheckListNamesSome("--"+n, v); !m.IsZero() {
			return usage(m)
		}
	}
	return nil
}

// fileValueError marks a query error about a value of the --config file
// (not a flag), which the caller names the file for.
type fileValueError struct{ error }

func (e fileValueError) Unwrap() error { return e.error }

// suggest is the closest of names as a message ("a", "b" or "c"), or
// the zero message when none is close.
func suggest(s string, names map[string]bool) model.Message {
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	slices.Sort(list)
	close := model.Closest(s, list, 3)
	if len(close) == 0 {
		return model.Message{}
	}
	for i, c := range close {
		close[i] = strconv.Quote(c)
	}
	return model.OrMsg(close)
}

func newRecommendCmd(env *Env, overlays *[]string) *cobra.Command {
	var wf workloadFlags
	var qf queryFlags
	var df decideFlags
	var asJSON bool
	var output string
	var configPath string
	qf.limit = 10
	cmd := &cobra.Command{
		Use:   "recommend",
		Short: "Rank the cloud GPU offers that run a workload, by cost",
		Long: `recommend estimates the workload, matches it against every instance type, region
and pricing mode of the catalog, and ranks the offers that fit by job cost (with a
dataset) or hourly price. Without --gpus it picks, per instance type, the fewest
whole instances that fit. The near misses nearest to fitting are listed with their
reason: the least VRAM short first, then hosts over --max-gpus or --max-nodes,
hosts the framework cannot run on only when nothing else is left.`,
		Example: `  gpuplan recommend --model bert-large --task finetune --batch-size 32 --seq-len 384 --dataset-samples 88k --epochs 2
  gpuplan recommend --model llama-3.1-8b --task qlora --providers aws,gcp --pricing spot
  gpuplan recommend --model resnet50 --dataset-samples 1.28M --epochs 90 --gpus 8 --sort job
  gpuplan recommend --config gpuplan.toml --pricing spot
  gpuplan recommend --model llama-3.1-70b --task finetune --dataset-tokens 1B --checkpointing --allow-multi-node --deadline-hours 48 --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if qf.limit < 0 {
				return usage(model.Msg("--limit %d: want 0 (all offers) or a positive count", qf.limit))
			}
			if sl, ok, err := loadServe(cmd, env, *overlays, &wf, configPath); ok || err != nil {
				if err != nil {
					return err
				}
				asJSON, err := serveJSON(cmd, asJSON, output)
				if err != nil {
					return err
				}
				sl.warnings = append(sl.warnings, unusedEpochs(cmd.Flags(), &sl.w, true)...)
				return runServeRecommend(cmd, env, sl, &wf, &qf, asJSON)
			}
			cat, w, file, warnings, err := loadWorkload(cmd, env, *overlays, &wf, configPath)
			if err != nil {
				return err
			}
			warnings = append(warnings, unusedEpochs(cmd.Flags(), &w, false)...)
			if qf.preemptible { // an alias taken silently read as a mode of its own (new-user walk)
				warnings = append(warnings, PreemptibleNote())
			}
			// The request's own warnings, which estimate prints in its
			// report and the ranking has no place for (a new user's walk:
			// --seq-len 1000000 on Qwen3 8B ranked in silence).
			warnings = append(warnings, w.PastPositions()...)
			if m, ok := w.TPNotExportable(); ok { // the offers ranked cannot be exported as they are (walk49)
				warnings = append(warnings, m)
			}
			if m, ok := w.QLoRAExpertsStay16Bit(); ok { // the rows' VRAM is mostly 16-bit experts (walk49)
				warnings = append(warnings, m)
			}
			baseQuery := file.query() // as the configurator's, for the same request
			baseQuery, warnings = file.phaseSearch(cmd.Flags(), baseQuery, warnings)
			q, err := qf.query(cmd.Flags(), cat, baseQuery.AutoGPUs, baseQuery)
			if err != nil {
				if file.cfg != nil && errors.As(err, new(fileValueError)) {
					return usage(model.Msg("%s: %v", file.path, err))
				}
				return err
			}
			if m, ok := w.ShardsNothing(); ok && !q.AutoGPUs { // every offer runs the GPUs asked
				warnings = append(warnings, m)
			}
			if wf.gpu != "" { // recommend --gpu: only offers with that GPU
				g, err := cat.GPU(wf.gpu)
				if err != nil {
					return usage(model.Msg("--gpu: %v", err))
				}
				q.GPUs = []string{g.Key}
			}
			base, err := model.Compute(w, nil)
			if err != nil {
				return err
			}
			// Work that waits on nothing the ranking makes runs beside it,
			// on the machine's other core: the spot rates decide reads.
			df.spot = startSpotRates(env.SpotRates)
			stack.Grow() // the ranking goes 64 KB deep: one copy of the stack, not three
			rq := q
			rq.SpotView = df.spotView(cmd.Flags(), cat, q) // a region's hosts weighed as the table ranks them
			rec, err := model.Recommend(w, cat, rq)
			if err != nil {
				return usage(needsRateHint(err, cat, q))
			}
			warnings = append(warnings, hiddenTypes(env, cat, q.Providers)...)
			warnings = append(warnings, qf.retiredLeftOut...)
			if q.DeadlineHours > 0 && w.DatasetSamples == 0 && w.DatasetTokens == 0 {
				warnings = append(warnings, model.Msg("--deadline-hours needs a dataset (--dataset-samples or --dataset-tokens) to time the job; ignored"))
			}
			if output, err = outputFormat(cmd, asJSON, output); err != nil {
				return err
			}
			if output == outCSV {
				limit := qf.limit
				if !cmd.Flags().Changed("limit") {
					limit = 0
				}
				printWarningsIn(env.lang, env.Stderr, warnings)
				return report.WriteRecommendCSV(env.Stdout, &rec, limit)
			}
			df.savingsAside = output == outJSON // writeRecommendJSON waits for them after the offers
			d, dwarn, err := df.decide(cmd, env, cat, w, q, &rec)
			if err != nil {
				return err
			}
			switch n := d.SpotLast; {
			case n == 0:
			case n == len(rec.Offers):
				dwarn = append(dwarn, model.Msg("no offer's spot job would finish: interruptions come faster than it progresses between them (the Spot lines say why); --pricing on-demand, fewer nodes or a shorter --restart-minutes"))
			default:
				dwarn = append(dwarn, model.Msg("%v ranked after the rest: their spot job would not finish, interruptions coming faster than it progresses between them (the Spot lines say why)", model.CountMsg(n, "offer")))
			}
			answers, err := df.answers(cmd.Flags(), &rec, d, time.Now())
			if err != nil {
				return err
			}
			warnings = append(warnings, dwarn...)
			probeText, probeJSON, pw := recommendProbes(env, cat, &rec, qf.limit) // the user's kept probes close to the offers
			warnings = append(warnings, pw...)
			hints := report.WouldFit(w, cat, q, &rec, df.spotInput(cmd.Flags(), cat))
			if output == outJSON {
				printWarningsIn(env.lang, env.Stderr, warnings)
				j := report.NewRecommendJSONStream(&rec, &base, qf.limit, d)
				j.Answers = answers
				j.WouldFit = report.NewWouldFitJSON(hints)
				return writeJSONStream(env.Stdout, withProbes(j, probeJSON))
			}
			if df.pareto {
				printWarningsIn(env.lang, env.Stderr, warnings)
				r, _ := renderer(env, env.Stdout)
				return report.WritePareto(env.Stdout, r, &rec, d, answers)
			}
			if n := len(report.NeedsRate(cat, q.Providers, q.ExchangeRates)); n > 0 {
				warnings = append(warnings, model.Msg("%d CNY-priced instance "+model.Plural(n, "type")+" not ranked: needs --usd-cny RATE (1 USD = RATE CNY)", n))
			}
			if w := convertedHeldWarning(cat, q.ExchangeRates); !w.IsZero() {
				warnings = append(warnings, w)
			}
			printWarningsIn(env.lang, env.Stderr, warnings)
			r, width := renderer(env, env.Stdout)
			if output == outWide { // every column, as offers -o wide (kubectl get -o wide)
				width = 0
			}
			d.Answers = answers // under best:, where they answer the question
			if err := report.WriteRecommendDecided(env.Stdout, r, &rec, &base, qf.limit, width, " (--limit 0 shows all)", d); err != nil {
				return err
			}
			if h, ok := report.NearMissFit(w, cat, q, &rec); ok {
				if err := report.WriteNearMissFit(env.Stdout, r, h); err != nil {
					return err
				}
			}
			if len(rec.Offers) > 0 { // with none, the hints below name it
				if h, ok := report.GlobalBatchFit(w, cat, rq, &rec); ok { // rq: spot offers at the figures the table shows
					if err := report.WriteBatchHint(env.Stdout, r, h); err != nil {
						return err
					}
				}
			}
			if err := report.WriteWouldFit(env.Stdout, r, hints); err != nil {
				return err
			}
			if wf.gpu != "" && len(q.GPUs) == 1 { // the other variants --gpu left out, on stderr
				siblingNote(env, cat, market.Query{GPUs: []market.GPUSpec{{Text: wf.gpu, Keys: q.GPUs}}, Providers: q.Providers}, "recommend … --gpu")
			}
			for _, l := range probeText {
				if err := writeProbeLine(env, l); err != nil {
					return err
				}
			}
			if rate := q.ExchangeRates["CNY"]; rate > 0 && report.ShowsCurrency(rec.Offers, qf.limit, "CNY") {
				if _, err := env.lang.Fprintf(env.Stdout, "CNY prices converted at 1 USD = %.4g CNY.\n", 1/rate); err != nil {
					return err
				}
			}
			// model.Recommend leaves marketplaces out unless named (Query.AllowsProvider).
			if m := marketplacesIn(cat); len(q.Providers) == 0 && len(m) > 0 {
				if _, err := env.lang.Fprintf(env.Stdout, "Marketplace offers (%s) left out: their prices change by the hour; --providers %s ranks them.\n",
					strings.Join(m, ", "), strings.Join(m, ",")); err != nil {
					return err
				}
			}
			return report.WriteDecisionsAnswers(env.Stdout, r, &rec, d, answers)
		},
	}
	wf.register(cmd.Flags())
	qf.register(cmd.Flags())
	df.register(cmd.Flags())
	cmd.Flags().StringVar(&configPath, "config", "", "start from an exported configuration (TOML): the same ranking; flags override it")
	addPhaseFlag(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the table")
	addOutputFlag(cmd, &output, outTable, outJSON, outCSV, outWide)
	cmd.Flags().Lookup("gpu").Usage = "only offers with this GPU, e.g. a100-80gb (list: gpuplan catalog gpus)"
	cmd.Flags().Lookup("gpus").Usage = "total GPUs (default: per instance type, the fewest whole instances that fit)"
	cmd.Flags().SortFlags = false
	return cmd
}

// retiredProviders refuses a provider list whose every provider is
// retired (model.Catalog.ProviderRetirement): nothing could match, and
// "no instance matches" would hide why. The message gives the date and
// the catalog's source. A list with one provider still offering passes.
func retiredProviders(cat *model.Catalog, ps []string, source string) error {
	var why []string
	for _, p := range ps {
		date, src, ok := cat.ProviderRetirement(p)
		if !ok {
			return nil
		}
		why = append(why, fmt.Sprintf("%s shut down on %s (%s)", p, date, src))
	}
	if len(why) == 0 {
		return nil
	}
	return usage(model.Msg("%s: %s: none of its instance types is offered; pick another provider (list: gpuplan catalog instances)", source, strings.Join(why, "; ")))
}

// retiredNamed splits a list with some providers still offering into
// those (live) and a warning for each retired one (retiredProviders
// refuses a list of only those): the ranking leaves their types out, and
// `--providers cudo,aws` went on in silence while `--providers cudo` said
// why (walk, 2026-12-06). Each provider's retirement is looked up once.
func retiredNamed(cat *model.Catalog, ps []string, source string) (live []string, said []model.Message) {
	for i, p := range ps {
		date, _, retired := cat.ProviderRetirement(p)
		switch {
		case !retired:
			live = append(live, p)
		case !slices.Contains(ps[:i], p): // --providers cudo,cudo,aws: said once
			said = append(said, model.Msg("%s: %s shut down on %s: left out; the other providers named are searched", source, p, date))
		}
	}
	return live, said
}

// needsRateHint adds to a no-offers error the instance types the search
// would have ranked but for a CNY price with no --usd-cny rate: they are
// not in the search at all, so the error alone ("no instance in the
// catalog matches providers autodl") sent an AutoDL user with a filled-in
// overlay to the catalog instead of the rate (walk48). Other errors, and
// a no-offers error with no such type, are returned as they are.
func needsRateHint(err error, cat *model.Catalog, q model.Query) error {
	var ke *model.KindError
	if !errors.As(err, &ke) || ke.Kind != model.ErrNoOffers {
		return err
	}
	need := report.NeedsRate(cat, q.Providers, q.ExchangeRates)
	if len(need) == 0 {
		return err
	}
	key := "%v; %d CNY-priced instance types (%s/%s first) not ranked: needs --usd-cny RATE (1 USD = RATE CNY)"
	if len(need) == 1 {
		key = "%v; %d CNY-priced instance type (%s/%s) not ranked: needs --usd-cny RATE (1 USD = RATE CNY)"
	}
	return model.Errorf(model.ErrNoOffers, key, ke.Msg, len(need), need[0].Provider, need[0].InstanceType)
}
