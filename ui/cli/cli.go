// Package cli is gpuplan's command line: the subcommands (estimate,
// recommend, catalog, export, version, completion), their flags and exit
// codes. It renders through package ui and gets the catalog and file
// readers from main, so it imports no data code itself.
package cli

import (
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/plan"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
	"github.com/gpuplan/gpuplan/ui/termsafe"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// Env is everything the command line touches: arguments, streams,
// environment and the loaders main wires in. Tests pass fakes.
type Env struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Version        string

	// LoadCatalog returns the embedded catalog overlaid with the user's
	// catalog.d files and the given paths, plus warnings.
	LoadCatalog func(overlays []string) (*model.Catalog, []model.Message, error)
	// Readers read config.json and safetensors files for config.WorkloadAnswers.
	Readers config.Readers
	// RunTUI opens the configurator; nil when the build has none.
	RunTUI func(ctx context.Context, cat *model.Catalog, opts tui.Options) error

	// UpdateCatalog runs gpuplan catalog update and returns its summary,
	// a line each; nil when the build cannot.
	UpdateCatalog func(ctx context.Context, o CatalogUpdate) ([]model.Message, error)
	// UpdateDir is the directory catalog update writes to, to tell its
	// overlays from hand-written ones; nil or an error means unknown.
	UpdateDir func() (string, error)
	// Now is the clock for the staleness of prices; nil is time.Now.
	Now func() time.Time
	// SpotRates returns the spot interruption rate of an instance type in
	// a region (data.SpotRates: the AWS advisor feed if downloaded, else
	// defaults marked as assumptions) and warnings; nil: no rates.
	SpotRates func() (func(provider, region, instanceType string) decide.InterruptionRate, []model.Message, error)

	// Probes reads probe results and keeps the user's probes (data/probes);
	// nil: the probe commands say the build has none, and estimates go
	// uncorrected.
	Probes *Probes

	// trustOverlay is --trust-overlay: rank the overlay prices the guards
	// held back (model.Catalog.TrustOverlays).
	trustOverlay bool

	// lang prints messages in the language of --lang, the config's lang
	// key or the environment (resolveLang); nil is English.
	lang *i18n.Printer
}

// Exit codes.
const (
	ExitOK        = 0
	ExitError     = 1   // the command failed: unreadable file, write error
	ExitUsage     = 2   // bad flags, values or input files; nothing was done
	ExitInterrupt = 130 // ctrl+c
)

// usageError marks errors in what the user typed or gave: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usage(err error) error { return usageError{err} }

// ErrInterrupted is returned when the user quits with ctrl+c.
var ErrInterrupted = errors.New("interrupted")

// Run executes the command line and returns the exit status. Errors are
// printed as one line on stderr: "gpuplan: what was wrong; how to fix it".
func Run(env Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	// The embedded catalog is tested; a load error comes from the user's
	// overlay files, so it is a usage error.
	if load := env.LoadCatalog; load != nil {
		env.LoadCatalog = func(paths []string) (*model.Catalog, []model.Message, error) {
			c, w, err := load(paths)
			if err != nil {
				err = usage(err)
			}
			if c != nil {
				c.TrustOverlays = env.trustOverlay // --trust-overlay, parsed by now
				if env.trustOverlay {
					w = model.Trusted(w)
				} else {
					w = model.Untrusted(w)
					c.UseEmbeddedForHeld() // a held overlay price hides no catalog price (model.HeldPricesEmbedded); the market lists it beside, asked (offers --all)
				}
				// An overlay that changes an embedded GPU's or model's
				// figures under its key is refused unless trusted, then
				// named on every command (attack round 10, S2).
				var refused []error
				for i := range c.Redefined {
					if r := &c.Redefined[i]; env.trustOverlay {
						w = append(w, r.Warning())
					} else {
						refused = append(refused, r.Refusal())
					}
				}
				if len(refused) > 0 {
					return nil, w, usage(errors.Join(refused...))
				}
			}
			return c, w, err
		}
	}
	if err := resolveLang(&env); err != nil {
		return exitStatus(env.lang, env.Stderr, err)
	}
	root := newRoot(&env)
	root.SetArgs(env.Args)
	root.SetIn(env.Stdin)
	out := &firstErrWriter{w: env.Stdout}
	root.SetOut(out)
	root.SetErr(env.Stderr)
	if err := unknownCommand(root, env.Args); err != nil {
		return exitStatus(env.lang, env.Stderr, err)
	}
	err := root.Execute()
	if err == nil {
		err = out.err // help and usage text: cobra drops its write errors
	}
	return exitStatus(env.lang, env.Stderr, err)
}

// unknownCommand refuses a first word that names no command before cobra
// parses flags: the root takes no arguments but has flags of its own, so
// `gpuplan recomend --model x` would otherwise fail on --model instead of
// on the typo. Suggestions are cobra's (Command.SuggestionsFor: a prefix,
// or Levenshtein distance at most SuggestionsMinimumDistance, 2).
func unknownCommand(root *cobra.Command, args []string) error {
	if err := workloadFlagOnRoot(root, args); err != nil {
		return err
	}
	words := positional(root, args)
	if len(words) == 0 {
		return nil // flags only: the configurator's --config, or --help
	}
	name := words[0]
	switch name {
	case "help":
		return unknownHelpTopic(root, words[1:])
	case cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return nil // added by cobra when it executes
	}
	if subcommand(root, name) != nil {
		return nil
	}
	if s := root.SuggestionsFor(name); len(s) > 0 {
		return usage(model.Msg("unknown command %q for %q; did you mean %q? (see %s --help)", name, root.Name(), s[0], root.Name()))
	}
	return usage(model.Msg("unknown command %q for %q (see %s --help)", name, root.Name(), root.Name()))
}

// opensConfigurator reports whether args run the root command itself
// with its own flags: no command named, no help asked for (help lists
// every command) and no flag the root lacks, which workloadFlagOnRoot
// looks up in the commands (gpuplan --gpu=l4 was cobra's bare "unknown
// flag --gpu", where gpuplan --gpu l4, its value read as a command,
// named the commands that take it).
func opensConfigurator(root *cobra.Command, args []string) bool {
	for _, a := range args {
		if a == "-h" || a == "--help" || strings.HasPrefix(a, "--help=") || a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--") && rootFlag(root, a) == nil {
			return false
		}
	}
	return len(positional(root, args)) == 0
}

// positional is args without the root's flags and their values: flags
// first (--lang zh-CN recomend) must not hide a typo. It stops at the
// first word after a command's own flag it does not know, which the
// command parses.
func positional(root *cobra.Command, args []string) []string {
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			words = append(words, a)
			continue
		}
		if a == "--" || strings.Contains(a, "=") {
			continue
		}
		f := rootFlag(root, a)
		if f == nil && len(words) > 0 && words[0] != "help" {
			break // the command's flag: its value, if any, is not ours to tell
		}
		if takesNext(f, a) {
			i++ // its value
		}
	}
	return words
}

// workloadFlagOnRoot refuses a flag of the commands given to the root
// before any command (gpuplan --model gemma-3-12b): it took the flag's
// value for a command ("unknown command "gemma-3-12b"", walk56). The
// line names the commands that take it and the configurator's way in.
// nil when the first such argument is the root's flag, or no command's.
func workloadFlagOnRoot(root *cobra.Command, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		long, ok := strings.CutPrefix(a, "--")
		if !ok || long == "" {
			if !strings.HasPrefix(a, "-") || a == "--" {
				return nil // a command (or a word cobra refuses)
			}
			continue
		}
		long, _, _ = strings.Cut(long, "=")
		if f := rootFlag(root, a); f != nil {
			if takesNext(f, a) {
				i++ // its value: --lang zh-CN
			}
			continue
		}
		var takers []string
		for _, c := range root.Commands() {
			if c.Flags().Lookup(long) != nil {
				takers = append(takers, root.Name()+" "+c.Name())
			}
		}
		if len(takers) == 0 {
			return nil // cobra's "unknown flag"
		}
		return usage(model.Msg("unknown flag --%s for %s: it is a flag of %s; the configurator takes its answers on its pages, or from --config FILE", long, root.Name(), model.OrMsg(takers)))
	}
	return nil
}

// rootFlag is the root's flag (its own or persistent) that argument a
// names, --long, --long=value or -x; nil for none.
func rootFlag(root *cobra.Command, a string) *pflag.Flag {
	if long, ok := strings.CutPrefix(a, "--"); ok {
		long, _, _ = strings.Cut(long, "=")
		if f := root.Flags().Lookup(long); f != nil {
			return f
		}
		return root.PersistentFlags().Lookup(long)
	}
	if len(a) == 2 {
		return root.Flags().ShorthandLookup(a[1:])
	}
	return nil
}

// takesNext reports whether flag f, given as argument a, takes the next
// argument as its value (--lang zh-CN, not --lang=zh-CN or a bool).
func takesNext(f *pflag.Flag, a string) bool {
	return f != nil && !strings.Contains(a, "=") && f.NoOptDefVal == "" && f.Value.Type() != "bool"
}

// subcommand is c's command named or aliased name, or nil.
func subcommand(c *cobra.Command, name string) *cobra.Command {
	for _, sub := range c.Commands() {
		if sub.Name() == name || sub.HasAlias(name) {
			return sub
		}
	}
	return nil
}

// unknownHelpTopic refuses `gpuplan help WORD…` when a word names no
// command, with a suggestion as a mistyped command gets: cobra's help
// would print the root's help and exit 0 (its Find leaves the word as an
// argument of the root), so `gpuplan help recomend` read as a success.
// help itself and completion are topics too.
func unknownHelpTopic(root *cobra.Command, topic []string) error {
	c := root
	for i, w := range topic {
		if next := subcommand(c, w); next != nil {
			c = next
			continue
		}
		if c == root && w == "help" {
			return nil // help's own help
		}
		if !c.HasSubCommands() {
			return nil // an argument of the command: cobra shows the command's help, as for --help
		}
		asked := strings.Join(topic[:i+1], " ")
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2
		}
		if s := c.SuggestionsFor(w); len(s) > 0 {
			return usage(model.Msg("unknown help topic %q; did you mean %q? (see %s --help)", asked, strings.Join(append(slices.Clone(topic[:i]), s[0]), " "), root.Name()))
		}
		return usage(model.Msg("unknown help topic %q (see %s --help)", asked, root.Name()))
	}
	return nil
}

// exitStatus prints err and maps it to an exit status.
func exitStatus(p *i18n.Printer, stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, ErrInterrupted) || errors.Is(err, tui.ErrInterrupted) {
		return ExitInterrupt // ctrl+c or SIGINT: the user knows
	}
	if errors.Is(err, syscall.EPIPE) {
		return ExitOK // the reader closed the pipe (| head): it has what it wanted
	}
	var se *tui.SignalError
	if errors.As(err, &se) { // SIGTERM, SIGHUP: 128 + the signal, as shells report
		io.WriteString(stderr, errorLine(p, sanitize(se.Error())))
		return se.ExitCode()
	}
	io.WriteString(stderr, errorLine(p, oneLine(p, err)))
	var ue usageError
	var fe *model.FieldError
	switch {
	case errors.As(err, &ue), errors.As(err, &fe), errors.Is(err, model.ErrInvalidWorkload),
		errors.Is(err, model.ErrInvalidArchitecture), errors.Is(err, model.ErrNotFound), errors.Is(err, model.ErrBadQuantity):
		return ExitUsage
	}
	return ExitError
}

// oneLine renders err in p's language on one line, by its structure
// (i18n.Printer.Error), never by matching its English text: joined errors
// are separated by "; ", and an error that is a workload field's alone
// names its flag.
func oneLine(p *i18n.Printer, err error) string {
	inner := err
	if ue, ok := err.(usageError); ok {
		inner = ue.err
	}
	if fe, ok := inner.(*model.FieldError); ok {
		return sanitize(p.Sprintf("%s: %s", flagName(fe.Field), p.Message(fe.Msg)))
	}
	return sanitize(strings.ReplaceAll(strings.TrimSpace(p.Error(err)), "\n", p.T("; ")))
}

// maxMessage bounds an error line: a 100 KB value typed by mistake should
// not fill the screen.
const maxMessage = 600

// sanitize is termsafe.String (every control, escape sequence, invisible
// or format character written as an escape) cut to maxMessage runes.
func sanitize(s string) string {
	s = termsafe.String(s)
	if utf8.RuneCountInString(s) <= maxMessage {
		return s
	}
	n := 0
	for i := range s {
		if n == maxMessage {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// sayf writes one line to w in p's language (key ends in a newline),
// through termsafe: the line names paths and names the user or a file gave
// (gpuplan: wrote … to PATH), so a newline or escape in them is shown
// escaped, never acted on.
func sayf(p *i18n.Printer, w io.Writer, key string, args ...any) {
	io.WriteString(w, termsafe.String(strings.TrimSuffix(p.Sprintf(key, args...), "\n"))+"\n")
}

func newRoot(env *Env) *cobra.Command {
	var configPath string
	var overlays []string
	root := &cobra.Command{
		Use:   "gpuplan",
		Short: "Which GPU cloud server to rent, whether the model fits, and what it costs",
		Long: `gpuplan estimates the GPU memory, compute and time a deep-learning workload needs,
finds the cloud GPU instances that run it, and ranks them by cost.

Run it with no command on a terminal to open the configurator; use the
commands below from scripts (add --json for machine-readable output).`,
		Example: `  gpuplan                                   # open the configurator
  gpuplan --config run.toml                 # reopen an exported configuration
  gpuplan estimate --model llama-3.1-8b --task qlora --gpu l4
  gpuplan recommend --model bert-large --task finetune --dataset-samples 88k --epochs 2
  gpuplan catalog gpus`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTUI(cmd, env, configPath, overlays)
		},
	}
	root.Version = env.Version
	root.SuggestionsMinimumDistance = 2 // cobra's default, which SuggestionsFor alone does not apply
	root.SetVersionTemplate("gpuplan {{.Version}}\n")
	root.PersistentFlags().StringArrayVar(&overlays, "catalog", nil, "overlay a catalog file (our TOML schema, or a SkyPilot vms.csv); repeatable")
	root.PersistentFlags().BoolVar(&env.trustOverlay, "trust-overlay", false, "rank overlay prices the guards flag as fake or mistyped (far below the GPU's floor or the provider's own price); without it they are listed, not ranked")
	root.Flags().StringVar(&configPath, "config", "", "open the configurator with the answers in an exported TOML file")
	// gpuplan --config PLAN.toml --phase NAME opens that phase.
	addPhaseFlag(root)
	root.PersistentFlags().String("lang", "", "output language: en or zh-CN (default: the config file's lang, else LC_ALL/LC_MESSAGES/LANG)") // read by resolveLang
	root.SetFlagErrorFunc(flagError)
	// Every command, in one place. A command line that names one builds
	// that one alone: the others' flag sets are ~40% of a short command's
	// fresh memory (each page a fault), and nothing reads them. Help,
	// completion and typos see them all.
	type command struct {
		name  string
		build func() *cobra.Command
	}
	commands := []command{
		{"estimate", func() *cobra.Command { return newEstimateCmd(env, &overlays) }},
		{"version", func() *cobra.Command { return newVersionCmd(env, &overlays) }},
		{"catalog", func() *cobra.Command { return newCatalogCmd(env, &overlays) }},
		{"export", func() *cobra.Command { return newExportCmd(env, &overlays) }},
		{"recommend", func() *cobra.Command { return newRecommendCmd(env, &overlays) }},
		{"offers", func() *cobra.Command { return newOffersCmd(env, &overlays, "offers") }},
		{"plan", func() *cobra.Command { return newPlanCmd(env) }},
		{"probe", func() *cobra.Command { return newProbeCmd(env, &overlays) }},
	}
	named := ""
	if len(env.Args) > 0 {
		named = env.Args[0]
	}
	switch i := slices.IndexFunc(commands, func(c command) bool { return c.name == named }); {
	case i >= 0:
		root.AddCommand(commands[i].build())
	case opensConfigurator(root, env.Args):
		// no command's flags are read (≈ 1.5 ms of the configurator's start)
	default:
		for _, c := range commands {
			root.AddCommand(c.build())
		}
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(newCompletionCmd(root))
	if completing(env.Args) { // only cobra's __complete reads them: ~1 ms of every other start
		registerCompletions(root, env, &overlays)
		completionsIn(root, env.lang)
	}
	plainBools(root)
	useChineseHelp(root, env.lang)
	return root
}

// completing reports whether args ask for completions: the generated
// scripts run "gpuplan __complete <words>" (cobra.ShellCompRequestCmd).
func completing(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// newCompletionCmd writes shell completion scripts; unlike cobra's default
// command it refuses an unknown shell with a usage error.
func newCompletionCmd(root *cobra.Command) *cobra.Command {
	shells := []string{"bash", "zsh", "fish", "powershell"}
	return &cobra.Command{
		Use:       "completion bash|zsh|fish|powershell",
		Short:     "Print the shell completion script",
		ValidArgs: shells,
		Example: `  source <(gpuplan completion bash)
  gpuplan completion zsh > "${fpath[1]}/_gpuplan"
  gpuplan completion fish > ~/.config/fish/completions/gpuplan.fish`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usage(model.Msg("say which shell: gpuplan completion %s", strings.Join(shells, "|")))
			case !slices.Contains(shells, args[0]):
				return usage(model.Msg("unknown shell %q: want %s", args[0], strings.Join(shells, ", ")))
			case len(args) > 1:
				return usage(model.Msg("one shell at a time: gpuplan completion %s", args[0]))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			}
			return root.GenPowerShellCompletionWithDesc(out)
		},
	}
}

// flagError turns pflag's errors into ours, by their types: an unknown
// flag suggests the closest known one; bad values say what is valid.
func flagError(cmd *cobra.Command, err error) error {
	var (
		missing  *pflag.NotExistError
		invalid  *pflag.InvalidValueError
		required *pflag.ValueRequiredError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &missing) && missing.GetSpecifiedShortnames() != "":
		return usage(model.Msg("unknown shorthand flag %q in -%s (see %s --help)", missing.GetSpecifiedName()[:1], missing.GetSpecifiedShortnames(), cmd.CommandPath()))
	case errors.As(err, &invalid) && errors.As(err, new(*csv.ParseError)):
		// pflag's comma-separated lists read their value as a CSV record;
		// the CSV reader's own words ("bare \" in non-quoted-field") name
		// no flag and no fix.
		return usage(model.Msg("--%s %q: a stray double quote; want comma-separated names (a,b), a name with a comma in double quotes (\"united states\",de)", invalid.GetFlag().Name, invalid.GetValue()))
	case errors.As(err, &invalid):
		// Our value's own error says what is valid.
		return usage(model.Msg("%s %q: %v", "--"+invalid.GetFlag().Name, invalid.GetValue(), errors.Unwrap(invalid)))
	case errors.As(err, &required):
		return usage(model.Msg("flag needs an argument: --%s (see %s --help)", required.GetSpecifiedName(), cmd.CommandPath()))
	case errors.As(err, &syntax):
		return usage(model.Msg("bad flag syntax: %s (see %s --help)", syntax.GetSpecifiedFlag(), cmd.CommandPath()))
	case !errors.As(err, &missing):
		return usage(model.Msg("%v (see %s --help)", err, cmd.CommandPath()))
	}
	{
		name, _, _ := strings.Cut(missing.GetSpecifiedName(), "=")
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		if s := suggestFlag(name, names); s != "" {
			shown := "--" + s
			if f := cmd.Flags().Lookup(s); f != nil && f.Shorthand != "" {
				shown = "-" + f.Shorthand + "/" + shown // as help shows it: -o/--output
			}
			return usage(model.Msg("unknown flag --%s; did you mean %s? (see %s --help)", name, shown, cmd.CommandPath()))
		}
		return usage(model.Msg("unknown flag --%s (see %s --help)", name, cmd.CommandPath()))
	}
}

// noArgs is cobra.NoArgs as a usage error carrying a message.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usage(model.Msg("unknown command %q for %q", args[0], cmd.CommandPath()))
	}
	return nil
}

// fileArg is cobra.ExactArgs(1) for a command reading one file, as a
// usage error that names the file wanted ("accepts 1 arg(s), received
// 0" named none), e.g. fileArg("plan", "PLAN.toml").
func fileArg(command, file string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0 || len(args) == 1 && strings.TrimSpace(args[0]) == "": // plan "": a variable left empty
			return usage(model.Msg("%s needs a file: gpuplan %s %s (- reads standard input; see gpuplan %s --help)", command, command, file, command))
		case len(args) == 2:
			return usage(model.Msg("%s reads one file, got 2 (%q, %q): give one, or run it once for each", command, args[0], args[1]))
		case len(args) > 2:
			return usage(model.Msg("%s reads one file, got %d (%q, %q…): give one, or run it once for each", command, len(args), args[0], args[1]))
		}
		return nil
	}
}

// firstErrWriter is standard output as cobra's help, usage and --version
// see it: it keeps the first write error, which cobra's help drops, so
// that help written to a full disk (>/dev/full: ENOSPC) or a closed
// descriptor (>&-: EBADF) exits 1 with one line like every command, not 0
// (attack r29b F3); EPIPE stays exit 0 (exitStatus).
type firstErrWriter struct {
	w   io.Writer
	err error
}

func (f *firstErrWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}

func newVersionCmd(env *Env, overlays *[]string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version and the catalog date",
		Example: `  gpuplan version
  gpuplan version --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cat, _, err := env.LoadCatalog(*overlays)
			asJSON, _ := cmd.Flags().GetBool("json")
			if err != nil {
				// version says what is installed: an overlay that cannot
				// be read is reported, and does not hide it (issue 29).
				line := oneLine(env.lang, err)
				printWarningsIn(env.lang, env.Stderr, []model.Message{model.Msg("%s", line)})
				if asJSON {
					return writeJSON(env.Stdout, map[string]any{"version": env.Version, "catalog_error": line})
				}
				_, err := env.lang.Fprintf(env.Stdout, "gpuplan %s (catalog not loaded: see the warning above)\n", env.Version)
				return err
			}
			if asJSON {
				return writeJSON(env.Stdout, map[string]any{"version": env.Version, "catalog_as_of": cat.AsOf,
					"gpus": len(cat.GPUs), "instances": len(cat.Instances), "models": len(cat.Models)})
			}
			_, err = env.lang.Fprintf(env.Stdout, "gpuplan %s (catalog as of %s: %d GPUs, %s instance types, %d models)\n",
				env.Version, cat.AsOf, len(cat.GPUs), model.Grouped(len(cat.Instances)), len(cat.Models))
			return err
		},
	}
	cmd.Flags().Bool("json", false, "print JSON")
	return cmd
}

// writeJSON prints v as indented JSON with a trailing newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return nonFiniteJSON(enc.Encode(v))
}

// renderer returns a report renderer for w that drops colours when w is
// not a terminal or NO_COLOR is set, and the width to lay out for. On a
// pipe or file the tables are plain (full names, no rules) unless COLUMNS
// asks for a terminal's layout at that width.
func renderer(env *Env, w io.Writer) (*report.Renderer, int) {
	r := report.ReportRenderer(w, env.Getenv)
	r.Lang = env.lang
	width := 0 // a pipe or file: no limit
	isTerm := false
	if f, ok := w.(*os.File); ok && term.IsTerminal(f.Fd()) {
		isTerm = true
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 0 {
			width = cols
		}
	}
	cols, err := strconv.Atoi(env.Getenv("COLUMNS"))
	if err == nil && cols > 0 {
		width = cols // the user's word wins
	}
	r.Plain = !isTerm && !(err == nil && cols > 0)
	return r, width
}

// runTUI opens the configurator when stdin and stdout are terminals. A
// --config file is checked first, so its errors (by key) come before the
// terminal's.
func runTUI(cmd *cobra.Command, env *Env, configPath string, overlays []string) error {
	var cfg *config.Config
	var cat *model.Catalog
	var warnings []model.Message
	if configPath == stdinPath { // stdin is the configurator's keyboard
		return usage(model.Msg("--config -: the configurator reads keys from standard input; give the configuration as a file"))
	}
	var planFile *plan.Plan // phase19: a plan file opens with its phases
	phase, _ := cmd.Flags().GetString("phase")
	var phaseName string // the phase whose answers open
	if phase != "" && configPath == "" {
		return usage(model.Msg("--phase picks a phase of a plan: give the plan with --config PLAN.toml"))
	}
	if configPath != "" {
		c, pl, name, err := readConfigOrPlan(configPath, phase)
		if err != nil {
			return err
		}
		planFile, phaseName = pl, name
		// A plan is held to gpuplan plan's check before it opens, and
		// refused in its words: a phase it cannot price (plan.Plan.Priced:
		// usd_per_hour left out), then a phase's model the catalog lacks
		// (checkPlanModels); the configurator opened both, its total "?".
		if pl != nil {
			if _, _, err := pl.Priced(); err != nil {
				return usage(model.Msg("%s: %v", configPath, err))
			}
		}
		if cat, warnings, err = env.LoadCatalog(overlays); err != nil {
			return err
		}
		if pl != nil {
			if err := checkPlanModels(cat, configPath, pl); err != nil {
				return err
			}
			if err := checkPlanServing(env, cat, configPath, pl); err != nil {
				return err
			}
		}
		// The configurator asks about the model but not about every key
		// (tp, lora_rank): a file it could not fix is refused here.
		if c != nil {
			if _, _, err := c.Workload.Resolve(cat, env.Readers); err != nil {
				return usage(model.Msg("%s: %v", configPath, err))
			}
		}
		cfg = c
	}
	// The configurator draws on stderr (tui.Run), so a redirected stderr
	// would leave a blank screen waiting for keys.
	in, inOK := env.Stdin.(*os.File)
	out, outOK := env.Stdout.(*os.File)
	errf, errOK := env.Stderr.(*os.File)
	if !inOK || !outOK || !errOK || !term.IsTerminal(in.Fd()) || !term.IsTerminal(out.Fd()) || !term.IsTerminal(errf.Fd()) {
		return usage(model.Msg("the configurator needs a terminal on stdin, stdout and stderr (it draws on stderr); for scripts use gpuplan estimate or gpuplan recommend (see gpuplan --help)"))
	}
	if env.RunTUI == nil {
		return model.Msg("this build has no configurator; use gpuplan estimate or gpuplan recommend")
	}
	if cat == nil {
		var err error
		if cat, warnings, err = env.LoadCatalog(overlays); err != nil {
			return err
		}
	}
	opts := tui.Options{
		Config:       cfg,
		ConfigPath:   configPath,
		Plan:         planFile,
		Phase:        phaseName,
		PhaseNamed:   phase != "",
		Accessible:   env.Getenv("ACCESSIBLE") != "" || env.Getenv("TERM") == "dumb",
		ReadHFConfig: env.Readers.HFConfig,
		In:           env.Stdin, Out: env.Stdout, Err: env.Stderr,
		Getenv: env.Getenv,
		Lang:   env.lang.Tag(), // --lang, the config's lang key, else the locale (resolveLang)
	}
	if planFile != nil { // the configuration export must not overwrite the plan
		opts.ConfigPath, opts.PlanPath = "", configPath
	}
	opts.PriceNote = priceNote(env, cat)
	// The plan page shows what gpuplan plan says of the plan (planNotes),
	// the phases added since read as the plan file's, beside it.
	planPath := cmp.Or(opts.PlanPath, "plan.toml")
	opts.CheckPlan = func(p *plan.Plan) ([]string, []plan.PhaseCost) {
		costs := make([]plan.PhaseCost, len(p.Phases))
		return env.lang.Messages(planNotes(env, cat, planPath, p, costs)), costs
	}
	var probeWarnings []model.Message
	opts.Probes, probeWarnings = keptProbes(env, cat) // the panel shows the correction of close estimates
	warnings = append(warnings, probeWarnings...)
	opts.SpotRate = lazySpotRate(env.SpotRates)
	opts.Warnings = env.lang.Messages(warnings) // on screen at start; printed too, so the scrollback keeps them
	printWarningsIn(env.lang, env.Stderr, warnings)
	return env.RunTUI(cmd.Context(), cat, opts)
}
