package launch

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// rendezvous is how the torchrun processes of the nodes find each other.
type rendezvous struct {
	// nnodes, nproc, nodeRank and master are literal values or shell
	// expansions such as "$SKYPILOT_NUM_NODES"; they are written unquoted.
	nnodes, nproc, nodeRank, master string
	port                            string // "" is the plan's Port
	// c10d uses torchrun's c10d rendezvous at master (node ranks are
	// assigned); otherwise the static --node-rank/--master-addr form.
	c10d bool
	// standalone is one node: torchrun --standalone.
	standalone bool
}

// torchrunWords returns the torchrun command line, one flag per element,
// script arguments shell-quoted.
func (p *Plan) torchrunWords(rdzv rendezvous, scriptArgs []string) []string {
	port := rdzv.port
	if port == "" {
		port = fmt.Sprint(p.Port)
	}
	w := []string{"torchrun"}
	switch {
	case rdzv.standalone:
		w = append(w, "--standalone", "--nnodes=1", "--nproc-per-node="+rdzv.nproc)
	case rdzv.c10d:
		w = append(w, "--nnodes="+rdzv.nnodes, "--nproc-per-node="+rdzv.nproc,
			"--rdzv-backend=c10d", "--rdzv-endpoint="+rdzv.master+":"+port, "--rdzv-id="+p.Name)
	default:
		w = append(w, "--nnodes="+rdzv.nnodes, "--nproc-per-node="+rdzv.nproc, "--node-rank="+rdzv.nodeRank,
			"--master-addr="+rdzv.master, "--master-port="+port)
	}
	w = append(w, shellQuote(p.Script))
	return append(w, flagGroups(quoteAll(scriptArgs))...)
}

// flagGroups keeps a flag and its value on one line: "--deepspeed",
// "ds_config.json" → "--deepspeed ds_config.json". A value is a word after
// a flag that does not itself start with "-".
func flagGroups(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
			w += " " + words[i+1]
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

// shellQuote quotes s for a POSIX shell: bare when it is made of safe
// characters, in double quotes when it only has spaces and punctuation that
// double quotes keep literal, else in single quotes.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe, dq := true, true
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("-_./=:,+@%", r):
		case strings.ContainsRune("\"$`\\!'", r) || r == '\n':
			safe, dq = false, false
		default:
			safe = false
		}
	}
	switch {
	case safe:
		return s
	case dq:
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = shellQuote(v)
	}
	return out
}

// heredoc writes content to file with a quoted here-document, so the shell
// expands nothing inside it.
func heredoc(file, content string) string {
	return fmt.Sprintf("cat > %s <<'EOF'\n%sEOF\n", file, content)
}

// setupLines are the shell commands that prepare a container or VM after
// PyTorch is installed: the script's requirements, DeepSpeed for ZeRO, and
// for LoRA/QLoRA the libraries the derived flags need (TRL parses them,
// PEFT adds the adapters, bitsandbytes quantizes the base to NF4).
func (p *Plan) setupLines() []string {
	lines := []string{"if [ -f requirements.txt ]; then pip install -r requirements.txt; fi"}
	if p.ZeRO() > 0 {
		lines = append(lines, "pip install deepspeed")
	}
	switch p.Task {
	case model.TaskLoRA:
		lines = append(lines, "pip install transformers trl peft")
	case model.TaskQLoRA:
		lines = append(lines, "pip install transformers trl peft bitsandbytes")
	}
	return lines
}

func commentBlock(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("# " + l + "\n")
	}
	return b.String()
}
