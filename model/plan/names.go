package plan

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"

	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/show"
)

// Invisible is show.Invisible: a rune that shows nothing or changes how
// its neighbours show, which plan text refuses.
func Invisible(r rune) bool { return show.Invisible(r) }

// NameKey is what two phase names are compared by: the name in
// Unicode normalisation form NFKC (full-width "ｔｒａｉｎ" and "train",
// the ligature "ﬁne-tune" and "fine-tune" are one name; UAX #15) with its
// runs of white space made one space and trimmed.
func NameKey(name string) string {
	return strings.Join(strings.Fields(norm.NFKC.String(name)), " ")
}

// CheckText reports an invisible, format or blank character (Invisible)
// or a stack of combining marks (show.MarkStack) in plan text, naming
// it; a name must show every character it holds.
func CheckText(key, s string) error {
	if i := strings.IndexFunc(s, Invisible); i >= 0 {
		r := []rune(s[i:])[0]
		return config.Errorf(key, "%s has the invisible character U+%04X at byte %d; names must show every character they hold", quoteShown(s), r, i)
	}
	if i := show.MarkStack(s); i >= 0 {
		return config.Errorf(key, "%s has more than %d combining marks on one letter, or one mark twice, at byte %d; names must read as the letters they hold, delete the marks", quoteShown(s), show.MaxMarks, i)
	}
	return nil
}

// quoteShown is show.Quote.
func quoteShown(s string) string { return show.Quote(s) }

// LookAlike reports whether two names read as one: the same
// show.LookKey once NameKey'd, the key the catalog's name check compares
// instance types and regions by (UTS #39 §4 skeleton, case, accents and
// separators set aside): Cyrillic "аре" and Latin "ape", "stage 1" and
// "stage l", "Train", "train." and "t-rain" (issue 29: "Train" and "train"
// were two phases, and --phase picked one by case).
func LookAlike(a, b string) bool {
	ka, kb := NameKey(a), NameKey(b)
	return show.LookKey(ka) == show.LookKey(kb) || confusables.Skeleton(ka) == confusables.Skeleton(kb)
}

// CheckScripts refuses a name whose letters mix scripts the way a spoof
// does (show.MixedScript, UTS #39's Highly Restrictive level): "QLoRA 微调"
// passes, "trаin" with a Cyrillic а does not.
func CheckScripts(key, name string) error {
	if i, a, b := show.MixedScript(name); i >= 0 {
		r, _ := utf8.DecodeRuneInString(name[i:])
		return config.Errorf(key, "%s mixes the %s and %s scripts (U+%04X at byte %d); write a name in one script (digits, spaces and punctuation go with any), so two names cannot look alike", quoteShown(name), a, b, r, i)
	}
	return nil
}

// checkFile is Decode's check of what its field-by-field checks
// do not cover: invisible characters in any text, phase names that are
// the same after NameKey, mix scripts (CheckScripts) or look like
// another's (LookAlike), and money and durations out of bounds
// (checkBounds).
func checkFile(name string, phases []Phase) error {
	if err := CheckText("name", name); err != nil {
		return err
	}
	seen := map[string]int{}
	for i := range phases {
		p := &phases[i]
		key := func(k string) string { return fmt.Sprintf("phase[%d].%s", i, k) }
		for _, t := range []struct{ k, v string }{{"name", p.Name}, {"config", p.Config}, {"provider", p.Provider}, {"instance", p.Instance}, {"region", p.Region}} {
			if err := CheckText(key(t.k), t.v); err != nil {
				return err
			}
		}
		for k, v := range p.Answers {
			if err := CheckText(key("answers"), k); err != nil {
				return err
			}
			if err := CheckText(key("answers."+k), v); err != nil {
				return err
			}
		}
		nk := NameKey(p.Name)
		if j, ok := seen[nk]; ok {
			return config.Errorf(key("name"), "%s is the name of phase[%d] (%s) too, once normalised (NFKC, spaces); give each phase its own name (a phase is picked by its name)", quoteShown(p.Name), j, quoteShown(phases[j].Name))
		}
		seen[nk] = i
		if err := CheckScripts(key("name"), p.Name); err != nil {
			return err
		}
		for j := range i {
			if LookAlike(p.Name, phases[j].Name) {
				return config.Errorf(key("name"), "%s reads as the name of phase[%d] (%s) once case, accents, separators (. _ - : / , + and spaces) and look-alike characters (UTS #39) are set aside; give each phase a name that differs in its letters or digits (a phase is picked by its name)", quoteShown(p.Name), j, quoteShown(phases[j].Name))
			}
		}
		if err := checkBounds(p, func(k string) string { return phaseKey(i, p.Name, k) }); err != nil {
			return err
		}
	}
	return nil
}

// phaseKey names key k of the i-th phase (0-based) in an error by the
// phase's name, as the answers' errors do (Phase.ConfigFromAnswers:
// `phase "tune" answers.batch_size`): `phase "tune" instances`, the
// name the user wrote and --phase takes, not its index (walk36:
// "phase[0].instances: missing" of a plan whose one phase is "tune").
// It is phase[i].k when the name cannot name it in a line: left out,
// longer than MaxNameChars, or with control or invisible characters
// (the name's own check says so; a raw read runs before it).
func phaseKey(i int, name, k string) string {
	if name == "" || utf8.RuneCountInString(name) > MaxNameChars || planText("name", name, true) != nil || CheckText("name", name) != nil {
		return fmt.Sprintf("phase[%d].%s", i, k)
	}
	return fmt.Sprintf("phase %s %s", quoted(name), k)
}

// quoted prints as %q does, escaping once: strconv.Quote's escapes
// (\x1b, \u200b), then show.Printable's for what Quote keeps (variation
// selectors and other default-ignorable runes). %q of show.Printable(s)
// escaped the backslash again (issue 29: --phase "\x1b" was shown as
// "\\x1b").
type quoted string

// Format writes q quoted whatever the verb, so a message's %q (its key,
// translated unchanged) takes it.
func (q quoted) Format(f fmt.State, _ rune) {
	io.WriteString(f, show.Printable(strconv.Quote(string(q))))
}
