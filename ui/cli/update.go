package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/progress"
	"github.com/charmbracelet/x/term"
	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/update"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// CatalogUpdate is what gpuplan catalog update asks of Env.UpdateCatalog
// (main wires data/update.Run): empty lists mean the defaults.
type CatalogUpdate struct {
	Providers []string // checked: update.CheckProviders
	Sources   []string // base URLs tried in order; --source puts a mirror first
	// AllowRedirects are hosts a redirect may lead to besides the host
	// asked (--allow-redirect).
	AllowRedirects []string
	Force          bool // accept a result that drops more than half of a provider's types
	// Progress is called as bytes arrive and when each provider is done.
	Progress func(update.Progress)
}

func newUpdateCmd(env *Env) *cobra.Command {
	var o CatalogUpdate
	cmd := &cobra.Command{
		Use:   "update",
		Short: "Fetch fresh prices (SkyPilot's catalog, Azure Retail Prices, OCI price list) into dated overlays",
		Long: `update fetches the prices of the default providers (--providers below lists
them): SkyPilot's hosted v8 catalog files (raw GitHub, then its public S3 mirror)
for all but azure and oci, Azure's Retail Prices API and Oracle's
public OCI price list (all credential-free), checks them with the same importer and guards as the embedded catalog,
and writes one dated overlay per provider to $XDG_DATA_HOME/gpuplan/catalog.d/,
which every later command reads. A provider whose fetch fails keeps its previous
file (exit 1); a result that drops more than half of a provider's types is refused
unless --force. Prices the guards flag (spot above on-demand, far below the
type's median, below half the lowest on-demand price the catalog knows for
the GPU (for a GPU it prices nowhere: for its TFLOPS, memory and bandwidth),
below half the type's own catalog price in that region, or below 0.4 × what the
provider asks for the same GPU in another type) are held back, --force
or not: not written, so never ranked, and listed in the summary.

Each provider has 5 minutes, the whole update 10, a connection 15 s (through a
proxy, its answer to CONNECT included), and a transfer
slower than 1 KiB/s over 30 s is cut off; a source that did not answer for one
provider is not asked for the next (those left without one are skipped).
Redirects are followed on the same host only (--allow-redirect adds one). --source is a SkyPilot mirror: with it, azure and oci (their own APIs)
are not fetched. It honours HTTPS_PROXY and runs only when asked.`,
		Example: `  gpuplan catalog update
  gpuplan catalog update --providers aws,gcp
  gpuplan catalog update --source https://mirror.example.com/catalogs`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if env.UpdateCatalog == nil {
				return model.Msg("this build cannot update the catalog")
			}
			for i, s := range o.Sources {
				s = strings.TrimRight(strings.TrimSpace(s), "/")
				u, err := url.Parse(s)
				if err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Hostname() == "" || !validPort(u.Port()) {
					// User information typed in the URL (a password, or a
					// token as the name) is never shown, parsed or not.
					return usage(model.Msg("--source %q: want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)", update.Redact(s)))
				}
				if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
					// The file path is appended to the base, so a query
					// would end up in the middle of it; and a query often
					// holds a token, which is not shown either.
					u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
					return usage(model.Msg("--source %q: a mirror's base URL has no query (?…) or fragment (#…); drop them (files are SOURCE/v8/PROVIDER/vms.csv)", strings.TrimRight(update.Redact(u.String()), "/")))
				}
				o.Sources[i] = s
			}
			if cmd.Flags().Changed("providers") && len(o.Providers) == 0 {
				// --providers "" (a variable left empty) means no provider,
				// not every one: as "lambda," is refused.
				return usage(model.Msg("--providers is empty; name the providers to update, or leave the flag out for the defaults"))
			}
			for i, p := range o.Providers {
				o.Providers[i] = strings.ToLower(strings.TrimSpace(p))
			}
			if err := update.CheckProviders(o.Providers); err != nil {
				// A provider the catalog has as shut down has no price list
				// to fetch: say so, as offers and recommend do, rather than
				// "unknown provider" (walk, 2026-12-06).
				if cat, lerr := data.Load(); lerr == nil {
					for _, p := range o.Providers {
						if date, _, ok := cat.ProviderRetirement(p); ok {
							return usage(model.Msg("--providers: %s shut down on %s: it has no price list to fetch; catalog update fetches %s", p, date, strings.Join(update.KnownProviders(), ", ")))
						}
					}
				}
				return usage(model.Msg("--providers: %v", err))
			}
			if len(o.Sources) > 0 {
				for _, p := range o.Providers {
					if !slices.Contains(update.MirrorProviders(), p) {
						return usage(model.Msg("--source serves SkyPilot's files (every provider but azure and oci); %s comes from its own price API: leave it out of --providers or drop --source", p))
					}
				}
			}
			for i, h := range o.AllowRedirects {
				h = strings.ToLower(strings.TrimSpace(h))
				if in, ok := strings.CutPrefix(h, "["); ok && strings.HasSuffix(in, "]") && net.ParseIP(strings.TrimSuffix(in, "]")) != nil {
					// "[::1]", as a URL writes an IPv6 host, is the
					// address ::1 (refused before while ::1 and
					// [::1]:8080 passed: attack round 13).
					h = strings.TrimSuffix(in, "]")
				}
				if !redirectHost(h) {
					return usage(model.Msg("--allow-redirect %q: want a host name such as mirror.example.com (or host:port)", h))
				}
				o.AllowRedirects[i] = h
			}
			o.Progress = updateProgress(env.lang, env.Stderr)
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			summary, err := env.UpdateCatalog(ctx, o)
			for _, l := range summary {
				fmt.Fprintln(env.Stdout, termsafe.Lines(env.lang.Message(l)))
			}
			if err != nil {
				if errors.Is(err, update.ErrUnknownProvider) || errors.Is(err, update.ErrNoMirror) {
					return usage(model.Msg("catalog update: %v", err))
				}
				// One line per provider: joined, the errors of a few
				// providers made one line past maxMessage, cut at "…"
				// (issue 29).
				if j, ok := err.(interface{ Unwrap() []error }); ok && len(j.Unwrap()) > 1 {
					errs := j.Unwrap()
					skipped := 0
					for _, e := range errs {
						io.WriteString(env.Stderr, errorLine(env.lang, oneLine(env.lang, model.Msg("catalog update: %v", e))))
						if errors.Is(e, update.ErrSkipped) {
							skipped++
						}
					}
					// Skipped providers were not asked, as the progress
					// lines and the summary say: not counted as failed.
					switch failed := len(errs) - skipped; {
					case skipped == 0:
						return model.Msg("catalog update: %d providers failed (a line each above)", failed)
					case failed == 0:
						return model.Msg("catalog update: %d providers skipped (a line each above)", skipped)
					}
					return model.Msg("catalog update: %d "+model.Plural(len(errs)-skipped, "provider")+" failed and %d skipped (a line each above)", len(errs)-skipped, skipped)
				}
				return model.Msg("catalog update: %v", err)
			}
			return nil
		},
	}
	cmd.Flags().Var(newList(&o.Providers), "providers", updateProvidersUsage())
	cmd.Flags().StringArrayVar(&o.Sources, "source", nil, "a SkyPilot mirror's base URL, tried instead of the defaults (every provider but azure and oci); repeatable, in order")
	cmd.Flags().StringArrayVar(&o.AllowRedirects, "allow-redirect", nil, "a host redirects may lead to besides the one asked; repeatable")
	cmd.Flags().BoolVar(&o.Force, "force", false, "accept a result that drops more than half of a provider's types")
	_ = cmd.RegisterFlagCompletionFunc("providers", func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return list(s, update.KnownProviders())
	})
	return cmd
}

// updateProvidersUsage is --providers' usage, from update's own lists so
// the help names what the code fetches: the defaults, then the providers
// fetched only when named. "Default" is what update fetches, not what
// recommend ranks: runpod and yotta are ranked from the embedded catalog
// either way, and an update that leaves them out leaves their prices as
// they are (a new user's walk read "also runpod, yotta" as not fetched
// and so not ranked by default).
func updateProvidersUsage() string {
	var named []string
	for _, p := range update.KnownProviders() {
		if !slices.Contains(update.DefaultProviders, p) {
			named = append(named, p)
		}
	}
	return "only these providers (fetched by default: " + strings.Join(update.DefaultProviders, ", ") + "; fetched only when named: " + strings.Join(named, ", ") + ", whose prices an update without them leaves as they are); comma-separated"
}

// updateProgress returns the progress callback: on a terminal, one line
// redrawn in place (a bar over the providers, the provider and bytes so
// far), cleared at the end; otherwise one line on w per provider when it
// is done, with its bytes and time, so a log says where the time went.
func updateProgress(p *i18n.Printer, w io.Writer) func(update.Progress) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return func(pr update.Progress) {
			if !pr.Done {
				return
			}
			sayRefused(p, w, &pr)
			state := p.T("done")
			switch {
			case errors.Is(pr.Err, update.ErrSkipped): // as the summary says: not asked, so not failed
				state = p.T("skipped")
			case pr.Err != nil:
				state = p.T("failed")
			}
			p.Fprintf(w, "gpuplan: catalog update: %s %s (%s in %s)\n", termsafe.String(pr.Provider), state,
				humanize.Bytes(uint64(pr.Bytes)), pr.Elapsed.Round(100*time.Millisecond))
		}
	}
	bar := progress.New(progress.WithWidth(30), progress.WithDefaultBlend())
	var last time.Time
	return func(pr update.Progress) {
		if pr.Total <= 0 {
			return
		}
		if !pr.Done && time.Since(last) < 100*time.Millisecond && pr.Bytes > 0 {
			return // a redraw per chunk would flood a slow terminal
		}
		last = time.Now()
		done := pr.Index
		if pr.Done {
			done++
		}
		p.Fprintf(w, "\r\x1b[2K%s %d/%d providers · %s %s", bar.ViewAs(float64(done)/float64(pr.Total)), done, pr.Total,
			termsafe.String(pr.Provider), humanize.Bytes(uint64(pr.Bytes)))
		if pr.Done && len(pr.Refused) > 0 {
			io.WriteString(w, "\r\x1b[2K") // the notes on lines of their own
			sayRefused(p, w, &pr)
		}
		if pr.Done && done == pr.Total {
			io.WriteString(w, "\r\x1b[2K") // clear the line for the summary
		}
	}
}

// validPort reports whether a URL's port is empty (the scheme's) or a TCP
// port, 1–65535: url.Parse takes any digits, and the dial's "invalid port"
// would come as a network failure, exit 1, for what is a usage error.
func validPort(port string) bool {
	if port == "" {
		return true
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535
}

// sayRefused writes a line on w for each source tried before the one a
// provider's prices came from, and why it was not used (issue 29: a
// mirror refused for invalid data was passed over in silence).
func sayRefused(p *i18n.Printer, w io.Writer, pr *update.Progress) {
	if pr.Err != nil {
		return // the error names every source tried
	}
	for _, m := range pr.Refused {
		sayf(p, w, "gpuplan: catalog update: %s: source not used, the next one was: %s\n", pr.Provider, p.Message(m))
	}
}

// redirectHost reports whether h names one host a redirect may lead to:
// a DNS name (RFC 1123 labels: ASCII letters, digits and inner hyphens,
// 1–63 bytes each, 253 in all; an IDN in its xn-- form) or an IP address,
// optionally with :port (1–65535). A wildcard ("*", "*.example.com"), an
// empty label or a URL is not one (issue 29: --allow-redirect '*' was
// taken, matching nothing, as if it allowed every host).
func redirectHost(h string) bool {
	host := h
	if hp, port, err := net.SplitHostPort(h); err == nil {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || strings.ContainsAny(port, "+-") {
			return false
		}
		host = hp
	}
	if net.ParseIP(host) != nil {
		return true
	}
	if host == "" || len(host) > 253 {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
