package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// The command line's language: --lang, else the --config file's top-level
// lang key, else LC_ALL/LC_MESSAGES/LANG (i18n.Resolve). It is settled
// before cobra parses the flags, so a flag error is already in it.

// scanFlag finds --name VALUE or --name=VALUE in args before "--"; ok is
// false when the flag is absent.
func scanFlag(args []string, name string) (value string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if v, found := strings.CutPrefix(a, "--"+name+"="); found {
			value, ok = v, true
		} else if a == "--"+name && i+1 < len(args) {
			value, ok = args[i+1], true
			i++
		}
	}
	return value, ok // the last one wins, as pflag's
}

// resolveLang sets env.lang. The config's lang is read only when --lang is
// not given and --config names a file (not stdin, which the command reads
// itself); an unreadable file is reported later by the command, in the
// environment's language.
func resolveLang(env *Env) error {
	flag, flagged := scanFlag(env.Args, "lang")
	if flagged && completing(env.Args) {
		// "--lang z<TAB>": the word being completed is not a language yet,
		// and completions are printed for the shell, not read.
		if _, err := i18n.Resolve(flag, "", env.Getenv); err != nil || strings.TrimSpace(flag) == "" {
			flag, flagged = "", false
		}
	}
	if flagged && strings.TrimSpace(flag) == "" {
		return usage(model.Msg("--lang %q: give en or zh-CN", flag))
	}
	var cfgLang, cfgPath string
	if !flagged {
		if path, ok := scanFlag(env.Args, "config"); ok && path != "" && path != stdinPath {
			if c, err := readConfig(path); err == nil {
				cfgLang, cfgPath = c.Lang, path
			}
		}
	}
	tag, err := i18n.Resolve(flag, cfgLang, env.Getenv)
	env.lang = i18n.New(i18n.Detect(env.Getenv))
	if err != nil {
		if flagged {
			return usage(model.Msg("--lang: %v", err))
		}
		return usage(model.Msg("%s: lang: %v", cfgPath, err))
	}
	env.lang = i18n.New(tag)
	return nil
}

// printWarningsIn prints warnings in p's language, one a line, made
// safe for the terminal (their values come from files).
func printWarningsIn(p *i18n.Printer, w io.Writer, warnings []model.Message) {
	for _, m := range warnings {
		if model.IsReleaseNote(m) || model.IsLeftOutReason(m) { // what a release's id names, why a model is left out: information (a new user's walk read it as a warning)
			notef(p, w, m)
			continue
		}
		if p.Chinese() {
			fmt.Fprintf(w, "gpuplan：警告：%s\n", termsafe.String(p.Message(m)))
			continue
		}
		fmt.Fprintf(w, "gpuplan: warning: %s\n", termsafe.String(m.String()))
	}
}

// notef writes a "gpuplan: note:" line of m in p's language.
func notef(p *i18n.Printer, w io.Writer, m model.Message) {
	if p.Chinese() {
		fmt.Fprintf(w, "gpuplan：提示：%s\n", termsafe.String(p.Message(m)))
		return
	}
	fmt.Fprintf(w, "gpuplan: note: %s\n", termsafe.String(m.String()))
}

// errorLine is the one line exitStatus prints for msg, already in p's
// language (oneLine).
func errorLine(p *i18n.Printer, msg string) string {
	if p.Chinese() {
		return "gpuplan：" + msg + "\n"
	}
	return "gpuplan: " + msg + "\n"
}

// Help in Chinese. English keeps cobra's own help and usage functions, so
// its output is byte for byte what it was; Chinese renders the same layout
// with the section titles, each command's Short/Long/Example and each
// flag's usage looked up in the catalogue at render time (the flag tables
// stay in English source). Shell completion descriptions stay English:
// they are read by the shell's completion machinery, not this code.

func useChineseHelp(root *cobra.Command, p *i18n.Printer) {
	if !p.Chinese() {
		return
	}
	root.SetUsageFunc(func(c *cobra.Command) error {
		_, err := io.WriteString(c.OutOrStderr(), usageIn(p, c))
		return err
	})
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		w := c.OutOrStdout()
		text := c.Long
		if text == "" {
			text = c.Short
		}
		if text = strings.TrimRightFunc(p.T(text), isSpace); text != "" {
			fmt.Fprintf(w, "%s\n\n", text)
		}
		if c.Runnable() || c.HasSubCommands() {
			io.WriteString(w, usageIn(p, c))
		}
	})
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' }

// usageIn mirrors cobra's defaultUsageFunc (cobra v1.10 command.go) in p's
// language; gpuplan uses no command groups or aliases.
func usageIn(p *i18n.Printer, c *cobra.Command) string {
	var b strings.Builder
	b.WriteString("用法：")
	if c.Runnable() {
		fmt.Fprintf(&b, "\n  %s", usePlaceholders.Replace(c.UseLine()))
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\n  %s [命令]", c.CommandPath())
	}
	if c.HasExample() {
		fmt.Fprintf(&b, "\n\n示例：\n%s", exampleIn(p, c.Example))
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\n命令：")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				fmt.Fprintf(&b, "\n  %-*s %s", sub.NamePadding(), sub.Name(), p.T(sub.Short))
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		fmt.Fprintf(&b, "\n\n参数：\n%s", strings.TrimRightFunc(flagUsagesIn(p, c.LocalFlags()), isSpace))
	}
	if c.HasAvailableInheritedFlags() {
		fmt.Fprintf(&b, "\n\n全局参数：\n%s", strings.TrimRightFunc(flagUsagesIn(p, c.InheritedFlags()), isSpace))
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\n\n运行 \"%s [命令] --help\" 查看命令的说明。", c.CommandPath())
	}
	b.WriteString("\n")
	return b.String()
}

// exampleIn translates an Example's comments ("  gpuplan  # open the
// configurator"): a whole example in the catalogue wins, else each
// "# comment" is looked up; command lines stay as typed.
func exampleIn(p *i18n.Printer, ex string) string {
	if t := p.T(ex); t != ex {
		return t
	}
	lines := strings.Split(ex, "\n")
	for i, l := range lines {
		if j := strings.Index(l, "# "); j >= 0 {
			lines[i] = l[:j] + "# " + p.T(l[j+2:])
		}
	}
	return strings.Join(lines, "\n")
}

// valueNames are pflag's value type names as Chinese placeholders.
var valueNames = map[string]string{
	"string": "文本", "stringArray": "文本", "strings": "列表", "stringSlice": "列表",
	"int": "整数", "int64": "整数", "uint": "整数", "float64": "数值", "float32": "数值",
	"duration": "时长", "bool": "", "count": "数量", "count|auto": "数量|auto", "float": "数值",
	"format": "格式", "tokens": "token数",
}

// usePlaceholders are the upper-case words of Use lines.
var usePlaceholders = strings.NewReplacer("[flags]", "[参数]", "FILE", "文件", "COUNT", "数量", "NAME", "名称")

// flagUsagesIn mirrors pflag's FlagUsagesWrapped (pflag flag.go) without
// wrapping: the flag, its value placeholder, padding to a common column
// measured in display cells (a CJK character is two), the translated
// usage and the default.
func flagUsagesIn(p *i18n.Printer, fs *pflag.FlagSet) string {
	type row struct{ left, right string }
	var rows []row
	maxw := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		left := fmt.Sprintf("      --%s", f.Name)
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			left = fmt.Sprintf("  -%s, --%s", f.Shorthand, f.Name)
		}
		varname, use := pflag.UnquoteUsage(f)
		if n, ok := valueNames[varname]; ok {
			varname = n
		}
		if varname != "" {
			left += " " + varname
		}
		if f.NoOptDefVal != "" && f.NoOptDefVal != "true" {
			left += fmt.Sprintf("[=%s]", f.NoOptDefVal)
		}
		right := flagUsageIn(p, use)
		if !zeroDefault(f) {
			def := f.DefValue
			if f.Value.Type() == "string" {
				def = strconv.Quote(def)
			}
			right += fmt.Sprintf("（默认 %s）", def)
		}
		if w := ansi.StringWidth(left); w > maxw {
			maxw = w
		}
		rows = append(rows, row{left, right})
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s%s   %s\n", r.left, strings.Repeat(" ", maxw-ansi.StringWidth(r.left)), r.right)
	}
	return b.String()
}

// flagUsageIn is a flag's usage (pflag.UnquoteUsage's) in p's language.
func flagUsageIn(p *i18n.Printer, use string) string {
	if name, ok := strings.CutPrefix(use, "help for "); ok { // cobra's -h and -v
		return p.Sprintf("help for %s", name)
	} else if name, ok := strings.CutPrefix(use, "version for "); ok {
		return p.Sprintf("version for %s", name)
	}
	return p.T(use)
}

// completionsIn puts what cobra's __complete prints beside each
// candidate ("recommend\tRank the cloud GPU offers…", "--pricing\t…") in
// p's language, as the help prints it: cobra reads Command.Short and
// Flag.Usage as they are. For __complete only (help translates the
// English keys itself); the help command and -h flags cobra adds at
// execution are added first so theirs are translated too.
func completionsIn(root *cobra.Command, p *i18n.Printer) {
	if !p.Chinese() {
		return
	}
	root.InitDefaultHelpCmd()
	root.InitDefaultVersionFlag()
	seen := map[*pflag.Flag]bool{}
	translate := func(f *pflag.Flag) {
		if !seen[f] {
			seen[f] = true
			_, use := pflag.UnquoteUsage(f)
			f.Usage = flagUsageIn(p, use)
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		c.Short = p.T(c.Short)
		c.Flags().VisitAll(translate)
		c.PersistentFlags().VisitAll(translate)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// zeroDefault is pflag's defaultIsZeroValue for the value types gpuplan
// uses: no "(default …)" for false, 0, "" and [].
func zeroDefault(f *pflag.Flag) bool {
	switch f.DefValue {
	case "", "false", "0", "[]", "<nil>", "0s":
		return true
	}
	return false
}
