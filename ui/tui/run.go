package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/mattn/go-runewidth"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/internal/atomicfile"
	"github.com/gpuplan/gpuplan/ui/report"
)

// IssuesURL is where crashes are reported.
const IssuesURL = "https://github.com/gpuplan/gpuplan/issues"

// Run opens the configurator: the questions with the live panel on
// opts.Err (stdout stays clean), or with opts.Accessible plain prompts and
// a text summary on opts.Out. It returns when the user quits. A panic is
// caught, the terminal restored, and the error says where to report it.
func Run(ctx context.Context, cat *model.Catalog, opts Options) error {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	measureLikeLipgloss()
	// Dark until the terminal says otherwise: nothing here asks it (a
	// terminal that never answers would stall the start); the configurator
	// asks once, asynchronously, from Init.
	st := report.NewStyles(&report.Renderer{Dark: true})
	if opts.Accessible {
		if !utf8Locale(opts.Getenv) {
			opts.Err = &asciiWriter{w: opts.Err} // the prompts; stdout (report, answers as TOML) stays as it is
		}
		return runAccessible(ctx, cat, opts, &st)
	}
	// go-runewidth fills a 2.2 MB width table the first time it measures
	// a rune above U+02FF (the renderer's wcwidth path, on the first
	// frame's box drawing): ≈ 10 ms of a first frame, done on the other
	// core while the form is built.
	go runewidth.RuneWidth('─')
	if f, ok := opts.Err.(*os.File); ok { // an ioctl, not a query: the terminal need not answer
		opts.width, opts.height, _ = term.GetSize(f.Fd())
	}
	m := newApp(cat, opts, &st, newTheme())
	m.ascii = !utf8Locale(opts.Getenv)
	return runProgram(ctx, m, opts.In, opts.Err, screenProfile(opts.Err, opts.Getenv))
}

// measureLikeLipgloss makes go-runewidth (which bubbles' table uses to
// cut cells) count East Asian ambiguous glyphs (…, ×, ─, ·) as one cell,
// as lipgloss does: in a CJK locale they would otherwise count two and
// the table's columns would not line up with its header and borders.
func measureLikeLipgloss() {
	runewidth.EastAsianWidth = false
	runewidth.DefaultCondition = runewidth.NewCondition()
}

// screenProfile is the colour profile the configurator draws with on w:
// what the terminal and environment support (report.ReportRenderer reads
// them without querying the terminal), and no colour with NO_COLOR.
func screenProfile(w io.Writer, getenv func(string) string) colorprofile.Profile {
	return report.ReportRenderer(w, getenv).Profile
}

// runProgram runs m on the terminal and turns a caught panic into an
// error that says where to report it, with the details on errOut.
func runProgram(ctx context.Context, m app, in io.Reader, errOut io.Writer, profile colorprofile.Profile) error {
	return finish(ctx, m, newProgram(ctx, m, in, errOut, profile), errOut)
}

// newProgram draws on out (stderr) in the alternate screen (app.View asks
// for it), so the shell's screen comes back on exit.
func newProgram(ctx context.Context, m app, in io.Reader, out io.Writer, profile colorprofile.Profile) *tea.Program {
	// Signals are finish's: Bubble Tea's own handler ends the program on
	// SIGTERM as if the user quit, and knows nothing of SIGHUP. Frames are
	// written on a ticker, the first one tick after the start: at 120 fps
	// (Bubble Tea's most; 60 by default) the first frame and each key's echo
	// wait 4 ms less on average, for ≈ 0.2% more CPU while idle (measured).
	return tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithContext(ctx),
		tea.WithColorProfile(profile), tea.WithoutSignalHandler(), tea.WithFPS(120))
}

// ErrInterrupted is returned by Run when SIGINT ends the configurator
// (kill -INT; in the terminal, ctrl+c is a key that asks first). It wraps
// tea.ErrInterrupted; the command line exits 130 for it.
var ErrInterrupted error = interruptedError{}

type interruptedError struct{}

func (interruptedError) Error() string { return "interrupted" }
func (interruptedError) Unwrap() error { return tea.ErrInterrupted }

// SignalError is returned by Run when a signal other than SIGINT (SIGTERM,
// SIGHUP) ends the configurator; the terminal was restored first.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string {
	return "stopped by signal " + sigName(e.Signal)
}

// ExitCode is the shell's convention for a process ended by the signal:
// 128 + its number (SIGHUP 129, SIGTERM 143).
func (e *SignalError) ExitCode() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

func sigName(s os.Signal) string {
	switch s {
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	}
	return s.String()
}

// stopSignals end the configurator as quitting does (finish).
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// finish runs p to the end and reports a caught panic. SIGINT, SIGTERM
// and SIGHUP end the program as quitting does, so the terminal's modes
// are restored, and then become ErrInterrupted or a *SignalError.
func finish(ctx context.Context, m app, p *tea.Program, errOut io.Writer) error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	return finishOn(ctx, m, p, errOut, sigs)
}

// finishOn is finish with the signals read from sigs: tests deliver a
// SIGINT there instead of to the whole test process, where other tests'
// handlers (teatest's, one per test model, never stopped) would take it.
func finishOn(ctx context.Context, m app, p *tea.Program, errOut io.Writer, sigs <-chan os.Signal) error {
	stops := m.stops
	stops.arm()
	defer stops.disarm()
	caught := make(chan os.Signal, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-stops.stops: // kill -TSTP, or Bubble Tea's own stop for ctrl+z
				stops.caught(p)
			case s := <-sigs:
				caught <- s
				p.Quit()
				select { // a program that does not quit in time is killed (which restores the terminal too)
				case <-done:
				case <-time.After(2 * time.Second):
					p.Kill()
				}
				return
			case <-done:
				return
			}
		}
	}()
	final, err := p.Run()
	var info *crashInfo
	if fm, ok := final.(app); ok {
		info = fm.crash.info
	}
	if info == nil {
		info = m.crash.info
	}
	switch {
	case info != nil:
		fmt.Fprintf(errOut, "gpuplan: internal error: %v\n%s\n", info.value, info.stack)
		return fmt.Errorf("internal error: %v (a bug: please report it at %s with the lines above)", info.value, IssuesURL)
	case errors.Is(err, tea.ErrProgramPanic):
		return fmt.Errorf("internal error (a bug: please report it at %s with the lines above)", IssuesURL)
	}
	select {
	case s := <-caught:
		if s == syscall.SIGINT {
			return ErrInterrupted
		}
		return &SignalError{Signal: s}
	default:
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// ErrInputEnded is returned by the accessible configurator when its input
// ends (ctrl+d, a closed pipe) before the questions are answered.
var ErrInputEnded = errors.New("input ended before the questions were answered; nothing was exported")

// promptReader reads one byte at a time, so that each of huh's prompts,
// which wrap the input in a new scanner, gets exactly its own line. It
// remembers the end of the input: huh's prompts cannot report it (they
// take the last line typed, or nothing, as the answer).
type promptReader struct {
	r   io.Reader
	eof bool
	// zero reads an empty line as "0": huh's accessible multi-select
	// confirms its selection on 0 and refuses an empty line
	// (MultiSelect.RunAccessible asks accessibility.PromptInt with no
	// default), where every other prompt keeps its answer on enter.
	zero    bool
	midLine bool // a byte other than a newline was read since the last newline
	held    byte // a newline held back behind the "0" given for it
	holding bool
}

func (l *promptReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if l.holding {
		p[0], l.holding = l.held, false
		l.midLine = p[0] != '\n'
		return 1, nil
	}
	n, err := l.r.Read(p[:1])
	if err != nil {
		l.eof = true // io.EOF, or a read error: the answers end here either way
	}
	if n == 1 {
		c := p[0]
		if l.zero && !l.midLine && (c == '\n' || c == '\r') { // an empty line, LF or CRLF
			p[0], l.held, l.holding = '0', c, true
		}
		l.midLine = p[0] != '\n'
	}
	return n, err
}

// ask runs one accessible prompt. A panic inside huh (its select takes an
// invalid last line at the end of input as the answer) and the end of the
// input both become ErrInputEnded; never a stack trace.
func ask(f huh.Field, out io.Writer, in *promptReader) (err error) {
	_, in.zero = f.(*huh.MultiSelect[string]) // enter keeps the selection
	defer func() {
		in.zero = false
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in a prompt: %v (a bug: please report it at %s)", r, IssuesURL)
		}
		if in.eof {
			err = ErrInputEnded
		}
	}()
	return f.RunAccessible(out, in)
}

// shownDefault is what enter keeps, for the line above a prompt; huh's
// selects take the current option on enter without showing it. Every
// select the pages ask is one asSelect knows (TestEverySelectFilterable),
// shown as a file spells the answer; a zero value that no option spells
// so (the loss and 4-bit type's auto, tensor parallel's 0, the weight
// format's "") as the option reads.
func shownDefault(f huh.Field, inputs []boundInput, lang *i18n.Printer) (string, bool) {
	if in, ok := f.(*huh.Input); ok {
		for _, b := range inputs {
			if huh.Field(b.field) == huh.Field(in) {
				return *b.value, *b.value != ""
			}
		}
		return "", false
	}
	if _, _, ok := asSelect(f); !ok {
		return "", false
	}
	switch v := f.GetValue().(type) {
	case model.Loss:
		return (&model.Workload{Settings: model.Settings{Loss: v}}).LossImpl().String(), true // "hf-fp32 … (default)"
	case model.QuantType:
		q, _ := (&model.Workload{Settings: model.Settings{QuantType: v}}).FourBit() // "NF4 … (default)"
		return q.String(), true
	case serve.WeightFormat:
		if v == "" {
			return lang.T("as the precision"), true
		}
	case int:
		if v == 0 {
			return "auto", true // tensor parallel's
		}
	}
	v := fmt.Sprint(f.GetValue())
	return v, v != ""
}

// runAccessible asks every question that applies as a plain prompt
// (hidden pages are skipped, unlike huh's own runner), checking each page
// as it goes, prints the estimate and the best offers as text, and offers
// to export. When the input ends early it prints the answers given so far
// (as a file to reopen) and returns ErrInputEnded.
func runAccessible(ctx context.Context, cat *model.Catalog, opts Options, st *report.Styles) error {
	cat.EnsureIndex()
	a := defaultAnswers(cat)
	if opts.Config != nil {
		a = answersFromConfig(cat, opts.Config)
	}
	in := &promptReader{r: opts.In}
	prompts := opts.Err
	hf := &hfReader{read: opts.ReadHFConfig}
	lang := opts.printer()
	plain := huh.ThemeFunc(huh.ThemeBase)
	w := newWizard(a, cat, hf.check(), plain, 80, 40, lang)
	ended := func(err error) error {
		if errors.Is(err, ErrInputEnded) {
			if data, err := exportConfig(a, nil, nil, cat.AsOf); err == nil {
				fmt.Fprintf(opts.Out, "# gpuplan answers so far: save them and reopen with gpuplan --config FILE\n%s", data)
			}
		}
		return err
	}
	fmt.Fprintln(prompts, lang.T("gpuplan configurator (accessible mode): press enter to keep the answer shown in brackets."))
	for i := 0; i < len(w.pages); i++ {
		p := w.pages[i]
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if p.hide != nil && p.hide() {
			continue
		}
		fmt.Fprintf(prompts, "\n== %s ==\n", lang.T(p.title))
		start := len(w.inputs)
		for _, f := range p.fields(true) {
			f.WithTheme(plain)
			f.Init()
			f.Focus()
			if v, ok := shownDefault(f, w.inputs[start:], lang); ok {
				fmt.Fprintf(prompts, "[%s]\n", v)
			} else if ms, ok := f.(*huh.MultiSelect[string]); ok {
				// huh's accessible multi-select: a number toggles an option,
				// 0 confirms, and so does enter (promptReader reads it as 0).
				chosen := lang.T("none chosen")
				if v, _ := ms.GetValue().([]string); len(v) > 0 {
					chosen = strings.Join(v, ", ")
				}
				fmt.Fprintf(prompts, "[%s] %s\n", chosen, lang.T("(enter keeps it)"))
			}
			if err := ask(f, prompts, in); err != nil {
				fmt.Fprintln(prompts)
				return ended(err)
			}
			a.reconcile(cat, nil)
			w.syncRegions()
		}
		if p.check != nil {
			if err := p.check(); err != nil {
				fmt.Fprintf(prompts, "✗ %s\n", printable(errIn(lang, err)))
				back := slices.IndexFunc(w.pages, func(q page) bool { return q.title == p.backTo })
				if back < 0 {
					back = i
				}
				lang.Fprintf(prompts, "asking again from %s\n", lang.T(w.pages[back].title))
				i = back - 1
			}
		}
	}
	cfg, cfgErr := a.config()
	res := compute(cat, cfg, cfgErr, hf, 0)
	out := &report.Renderer{Profile: colorprofile.NoTTY, Lang: lang} // plain text: no styling at all
	fmt.Fprintln(opts.Out)
	if !res.ok() {
		lang.Fprintf(opts.Out, "No estimate: %s\n", errTextIn(lang, res.err))
	} else {
		// The decisions first: under spot pricing they rank the offers by
		// the expected cost with interruptions the table then shows.
		d := accessibleDecisions(cat, res, opts.SpotRate)
		if err := report.WriteRecommendDecided(opts.Out, out, &res.rec, res.est, 5, 100, "", d); err != nil {
			return err
		}
		if err := writeAccessibleDecisions(opts.Out, out, res, d); err != nil {
			return err
		}
	}
	if cfgErr != nil {
		return nil
	}
	data, err := exportConfig(a, res, nil, cat.AsOf)
	if err != nil {
		return err
	}
	for {
		path := ""
		fmt.Fprintln(prompts)
		exp := huh.NewInput().Title(lang.T("Export the answers to a file (empty: do not export)")).Value(&path)
		exp.WithTheme(plain) // as the questions: huh's default theme colours the title
		if err := ask(exp, prompts, in); err != nil {
			return ended(err)
		}
		if strings.TrimSpace(path) == "" {
			return nil
		}
		abs, _ := filepath.Abs(expandHome(strings.TrimSpace(path)))
		err = atomicfile.WriteFileAtomic(abs, data, false)
		if errors.Is(err, atomicfile.ErrFileExists) {
			overwrite := false
			c := huh.NewConfirm().Title(lang.Sprintf("Overwrite %s?", printable(abs))).Value(&overwrite)
			c.WithTheme(plain)
			if err := ask(c, prompts, in); err != nil {
				return ended(err)
			}
			if !overwrite {
				fmt.Fprintln(prompts, lang.T("kept the file; give another name, or none to skip the export"))
				continue
			}
			err = atomicfile.WriteFileAtomic(abs, data, true)
		}
		if err != nil {
			fmt.Fprintf(prompts, "✗ %s\n", printable(errTextIn(lang, err))) // the file writer's reasons are messages
			continue
		}
		fmt.Fprintln(prompts, lang.Sprintf("exported to %s", printable(abs)))
		return nil
	}
}
