package launch

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// word is one word of a shell command line. Values from the plan (script,
// arguments, image, wheel, names) are literal text that shellQuote quotes;
// raw marks gpuplan's own words that must stay live for the shell, such as
// "--nnodes=$SKYPILOT_NUM_NODES", built only from constants and numbers.
type word struct {
	text string
	raw  bool
}

func lit(s string) word     { return word{text: s} }
func rawWord(s string) word { return word{text: s, raw: true} }

// shell writes w as an argument (not in command position).
func (w word) shell() string {
	if w.raw {
		return w.text
	}
	return argQuote(w.text)
}

func lits(s []string) []word {
	out := make([]word, len(s))
	for i, v := range s {
		out[i] = lit(v)
	}
	return out
}

// rendezvous is how the torchrun processes of the nodes find each other.
type rendezvous struct {
	// nnodes, nproc, nodeRank and master are numbers or gpuplan's own shell
	// expansions such as "$SKYPILOT_NUM_NODES"; they are written unquoted.
	nnodes, nproc, nodeRank, master string
	port                            string // "" is the plan's Port
	// c10d uses torchrun's c10d rendezvous at master (node ranks are
	// assigned); otherwise the static --node-rank/--master-addr form.
	c10d bool
	// standalone is one node: torchrun --standalone.
	standalone bool
}

// torchrunArgv returns the torchrun command's words (PyTorch docs, "torchrun
// (Elastic Launch)"), unquoted.
func (p *Plan) torchrunArgv(rdzv rendezvous, scriptArgs []string) []word {
	port := rdzv.port
	if port == "" {
		port = fmt.Sprint(p.Port)
	}
	w := []word{rawWord("torchrun")}
	switch {
	case rdzv.standalone:
		w = append(w, rawWord("--standalone"), rawWord("--nnodes=1"), rawWord("--nproc-per-node="+rdzv.nproc))
	case rdzv.c10d:
		w = append(w, rawWord("--nnodes="+rdzv.nnodes), rawWord("--nproc-per-node="+rdzv.nproc),
			rawWord("--rdzv-backend=c10d"), rawWord("--rdzv-endpoint="+rdzv.master+":"+port), lit("--rdzv-id="+p.Name))
	default:
		w = append(w, rawWord("--nnodes="+rdzv.nnodes), rawWord("--nproc-per-node="+rdzv.nproc), rawWord("--node-rank="+rdzv.nodeRank),
			rawWord("--master-addr="+rdzv.master), rawWord("--master-port="+port))
	}
	w = append(w, p.entryWords()...)
	return append(w, lits(scriptArgs)...)
}

// entryWords are what torchrun starts: the user's script, -m MODULE for
// the installed entry point, or on spot ResumeScript, which runs TRL's SFT
// script resuming from the last checkpoint (resume.go).
func (p *Plan) entryWords() []word {
	if p.resumes() {
		return []word{lit(ResumeScript)}
	}
	if p.Script == "" && p.Module != "" {
		return []word{rawWord("-m"), lit(p.Module)}
	}
	return []word{lit(p.Script)}
}

// torchrunWords returns the torchrun command line, one flag (with its
// value) per element, every value quoted.
func (p *Plan) torchrunWords(rdzv rendezvous, scriptArgs []string) []string {
	argv := p.torchrunArgv(rdzv, scriptArgs)
	n := len(argv) - len(scriptArgs) // torchrun, its flags and the script (-m MODULE): one per line
	out := make([]string, 0, len(argv))
	for i := 0; i < n; i++ {
		w := argv[i].shell()
		if argv[i].raw && argv[i].text == "-m" && i+1 < n {
			i++
			w += " " + argv[i].shell()
		}
		out = append(out, w)
	}
	return append(out, flagGroups(argv[n:])...)
}

// flagGroups writes the words for the shell, keeping a flag and its value
// on one line: "--deepspeed", "gpuplan-deepspeed.json" → "--deepspeed
// gpuplan-deepspeed.json". A value is a word after a flag that does not itself
// start with "-".
func flagGroups(words []word) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i].shell()
		if strings.HasPrefix(words[i].text, "-") && i+1 < len(words) && !strings.HasPrefix(words[i+1].text, "-") {
			w += " " + words[i+1].shell()
			i++
		}
		out = append(out, w)
	}
	return out
}

// continued joins command words with " \" line continuations, each word
// after the first on its own line indented by indent.
func continued(words []string, indent string) string {
	return strings.Join(words, " \\\n"+indent)
}

// shellQuote quotes s as one POSIX shell word with mvdan.cc/sh's
// syntax.Quote: bare when nothing needs quoting, else single-quoted. Text
// syntax.Quote refuses for POSIX (NUL, control and other non-printable
// characters) never gets here: checkShellWords rejects it first. Should it
// anyway, those runes become '?', so the word stays one literal word.
func shellQuote(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil {
		q, _ = syntax.Quote(strings.Map(func(r rune) rune {
			if r == utf8.RuneError || !unicode.IsPrint(r) {
				return '?'
			}
			return r
		}, s), syntax.LangPOSIX)
	}
	return q
}

// argQuote is shellQuote for a word after the command name, where '=' is
// literal: syntax.Quote quotes every '=' because a first word such as a=b
// would be an assignment, but "--lr=3e-4" as an argument needs no quotes.
// Any other character syntax.Quote would quote still gets quoted.
func argQuote(s string) string {
	if strings.Contains(s, "=") {
		if rest := strings.ReplaceAll(s, "=", ""); rest != "" {
			if q, err := syntax.Quote(rest, syntax.LangPOSIX); err == nil && q == rest {
				return s
			}
		}
	}
	return shellQuote(s)
}

// CheckText reports a plan value that is not UTF-8 text: YAML, TOML and
// JSON hold only UTF-8, and the catalog and config.json readers reject
// anything else, so such a value is a caller's bug. The error wraps ErrPlan.
func (p *Plan) CheckText() error {
	for _, v := range p.texts() {
		if !utf8.ValidString(v) {
			return model.Errorf(ErrPlan, "%q is not UTF-8 text", show.Printable(v))
		}
	}
	return nil
}

// checkC1 reports a plan value with a C1 control character (U+0080–
// U+009F; U+009B is CSI, read by terminals as ESC [), and fails
// CheckText: the TOML encoder (BurntSushi/toml) escapes C0 controls but
// writes C1 raw, so the TOML plan refuses them, as the sh plan refuses
// every control. The error wraps ErrPlan and names the value.
func (p *Plan) checkC1() error {
	if err := p.CheckText(); err != nil {
		return err
	}
	for _, v := range p.texts() {
		if strings.ContainsFunc(v, isC1) {
			return model.Errorf(ErrPlan, "%s has control characters; remove them", show.Quote(v))
		}
	}
	return nil
}

// isC1 reports a C1 control character, U+0080–U+009F.
func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// texts are the plan's text values, for CheckText and checkControls.
func (p *Plan) texts() []string {
	vals := []string{p.Name, p.Model, p.Provider, p.InstanceType, p.CatalogType, p.Region, p.Accelerator, p.Script, p.Module, p.Image, p.Wheel,
		p.ModelID, p.Dataset, p.Bucket, p.OutputDir}
	vals = append(append(vals, p.ScriptArgs...), p.LoRATargets...)
	for _, c := range p.Candidates {
		vals = append(vals, c.Provider, c.Region, c.InstanceType, c.Accelerator)
	}
	if p.GPU != nil {
		vals = append(vals, p.GPU.Key, p.GPU.Name)
	}
	return vals
}

// checkShellWords reports a plan value that cannot be one word of a POSIX
// sh script (syntax.Quote refuses NUL, control characters and other
// non-printable runes for POSIX, which has no $'…' escapes), and fails
// CheckText. The error wraps ErrPlan and names the value.
func (p *Plan) checkShellWords() error {
	if err := p.CheckText(); err != nil {
		return err
	}
	vals := []struct{ what, v string }{{"script", p.Script}, {"image", p.Image}, {"wheel", p.Wheel}, {"name", p.Name}}
	for _, a := range p.ScriptArgs {
		vals = append(vals, struct{ what, v string }{"script argument", a})
	}
	for _, v := range vals {
		if _, err := syntax.Quote(v.v, syntax.LangPOSIX); err != nil {
			// show.Quote escapes once; %q of show.Printable escaped the
			// escapes again ("zz\\u2028…": attack round 13).
			return model.Errorf(ErrPlan, "%s %s cannot be written into a shell script: %v", v.what, show.Quote(v.v), err)
		}
	}
	return nil
}

// heredoc writes content to file with a quoted here-document, so the shell
// expands nothing inside it. content is gpuplan's own JSON, whose lines
// never equal the delimiter (every line is indented or a brace), or
// ResumeSource, which has no line "EOF".
// The file is removed first: cat > follows a symlink planted under its
// name and would write through it (attack round 9); rm -f takes the link,
// never its target, and the file is ours (DeepSpeedFile's name).
func heredoc(file, content string) string {
	q := shellQuote(file)
	return fmt.Sprintf("rm -f %s\ncat > %s <<'EOF'\n%sEOF\n", q, q, content)
}

// setupLines are the shell commands that prepare a container or VM after
// PyTorch is installed: the script's requirements, DeepSpeed for ZeRO, and
// for training the libraries the derived flags need (derivedArgs: TRL's
// SFTConfig and ScriptArguments parse them, and TRL's SFT script is the
// default entry point, so transformers and trl ≥ MinTRL for every
// training task; PEFT adds LoRA's adapters, bitsandbytes quantizes
// QLoRA's base to NF4 and runs 8-bit AdamW).
func (p *Plan) setupLines() []string {
	lines := []string{"if [ -f requirements.txt ]; then pip install -r requirements.txt; fi"}
	if p.ZeRO() > 0 {
		lines = append(lines, "pip install deepspeed")
	}
	if !p.Task.Training() {
		return lines
	}
	pkgs := "pip install transformers \"trl>=" + MinTRL + "\""
	if p.Task.Adapters() {
		pkgs += " peft"
	}
	if p.Task == model.TaskQLoRA || p.Optimizer == model.AdamW8bit || p.Optimizer.Paged() {
		pkgs += " bitsandbytes"
	}
	return append(lines, pkgs)
}

// CommentBlock writes lines as shell/YAML/TOML comments. Lines carry data
// (model names, instance types, regions), so each is made printable first:
// a newline in a name cannot end the comment and start a command.
//
// YAML also ends a line at U+2028 and U+2029 (and U+0085, a control
// character Printable already escapes), which are printable text
// elsewhere, so they are escaped here too.
func CommentBlock(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("# " + yamlLineBreaks.Replace(show.Printable(l)) + "\n")
	}
	return b.String()
}

var yamlLineBreaks = strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`)
