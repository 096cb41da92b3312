package cli

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/hbollon/go-edlib"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// plainBool hides the IsBoolFlag method of a boolean flag's value, so
// pflag's help prints "--json" instead of "--json[=true|false]" (pflag
// v1.1.0, flag.go FlagUsagesWrapped, the latest release: it appends
// "[=true|false]" to every value whose IsBoolFlag is true). NoOptDefVal
// stays "true", so --json and --json=false parse as before, and Type
// stays "bool", so GetBool and cobra's completion treat it as a boolean.
type plainBool struct{ pflag.Value }

// plainBools rewraps every boolean flag of root and its subcommands,
// including cobra's own help and version flags.
func plainBools(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		c.InitDefaultVersionFlag()
		for _, fs := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() && f.Value.Type() == "bool" {
					f.Value = plainBool{f.Value}
				}
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// suggestFlag returns the flag of names closest to the unknown name, or
// "". A flag that starts with the name or is its start (--out, --output)
// wins; otherwise the edit distance must be at most a third of the name,
// so --output never suggests --tp, which merely occurs inside it. The
// distance is optimal string alignment (Damerau–Levenshtein without
// repeated edits of a substring: Boytsov 2011, "Indexing methods for
// approximate dictionary searching", §2.2), so a transposition such as
// --modle for --model is one edit, as people make it.
func suggestFlag(name string, names []string) string {
	name = strings.ToLower(name)
	if m, ok := meantFlags[name]; ok && slices.Contains(names, m) {
		return m
	}
	if len(name) > maxFlagName {
		return "" // a pasted value, not a flag name: O(n·m) is not worth it
	}
	best, bestD := "", len(name)/3+1
	if bestD < 2 {
		bestD = 2 // one typo in a short flag: --gpu → --gpus
	}
	for _, n := range names {
		d := edlib.OSADamerauLevenshteinDistance(name, n)
		if len(name) >= 3 && len(n) >= 3 && (strings.HasPrefix(n, name) || strings.HasPrefix(name, n)) {
			d = 0
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// meantFlags are names people type for a flag that spelling does not
// find: a Hugging Face config.json is --hf-config, which --config-json
// is closer to --config (a TOML file) in letters than to (a held-out user
// tried it first).
var meantFlags = map[string]string{
	"config-json":    "hf-config",
	"hf-config-json": "hf-config",
	"model-config":   "hf-config",
	"hf-json":        "hf-config",
}

// maxFlagName is the longest unknown flag suggestFlag compares; ours are
// under 30 characters.
const maxFlagName = 64

// Output formats of -o/--output on the report commands, as kubectl's.
const (
	outTable = "table"
	outJSON  = "json"
	outCSV   = "csv"
)

// outputValue is -o/--output: one of choices.
type outputValue struct {
	v       *string
	choices []string
}

func (o outputValue) String() string { return *o.v }

func (o outputValue) Set(s string) error {
	s = strings.ToLower(strings.TrimSpace(s))
	if !slices.Contains(o.choices, s) {
		return model.Msg("want %s", joinOr(o.choices))
	}
	*o.v = s
	return nil
}

func (outputValue) Type() string { return "format" }

// addOutputFlag adds -o/--output with the given formats, table first, and
// its completion.
func addOutputFlag(cmd *cobra.Command, v *string, choices ...string) {
	*v = outTable
	cmd.Flags().VarP(outputValue{v, choices}, "output", "o", "output format: "+model.OrList(choices)+" (--json is -o json)")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(choices, cobra.ShellCompDirectiveNoFileComp))
}

// serveJSON is outputFormat for the serving reports, which print a table
// or JSON: -o json asks for JSON as --json does, -o csv is refused.
func serveJSON(cmd *cobra.Command, asJSON bool, o string) (bool, error) {
	o, err := outputFormat(cmd, asJSON, o)
	if err != nil {
		return false, err
	}
	if o == outCSV {
		return false, usage(model.Msg("-o csv: the serving report prints a table or JSON (-o json)"))
	}
	return o == outJSON, nil
}

// outputFormat is the format asked for: --json is -o json; the two
// disagreeing is a usage error.
func outputFormat(cmd *cobra.Command, asJSON bool, o string) (string, error) {
	if !asJSON {
		return o, nil
	}
	if cmd.Flags().Changed("output") && o != outJSON {
		return "", usage(model.Msg("--json and -o %s disagree; give one", o))
	}
	return outJSON, nil
}
