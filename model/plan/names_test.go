package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// planWith is a valid plan file with phases given as TOML bodies.
func planWith(phases ...string) string {
	s := "schema_version = 1\n"
	for _, p := range phases {
		s += "\n[[phase]]\n" + p + "\n"
	}
	return s
}

const okPhase = "provider = \"aws\"\ninstance = \"g6.xlarge\"\nregion = \"us-east-1\"\npricing = \"on-demand\"\ninstances = 1\nusd_per_hour = 0.8048\n"

// TestDecodeRefuses: each hostile plan file is refused with its full
// message, naming the key; the values a real plan has pass.
func TestDecodeRefuses(t *testing.T) {
	tests := []struct{ name, file, want string }{
		{"duplicate names", planWith(`name = "train"`+"\n"+okPhase+"job_hours = 5", `name = "train"`+"\n"+okPhase+"months = 2"),
			`phase[1].name: "train" is the name of phase[0] ("train") too, once normalised (NFKC, spaces); give each phase its own name (a phase is picked by its name)`},
		{"full-width twin", planWith(`name = "train"`+"\n"+okPhase+"job_hours = 5", `name = "ｔｒａｉｎ"`+"\n"+okPhase+"months = 2"),
			`phase[1].name: "ｔｒａｉｎ" is the name of phase[0] ("train") too, once normalised (NFKC, spaces); give each phase its own name (a phase is picked by its name)`},
		{"ligature and spaces", planWith(`name = "ﬁne-tune  v2"`+"\n"+okPhase+"job_hours = 5", `name = " fine-tune v2 "`+"\n"+okPhase+"months = 2"),
			`phase[1].name: " fine-tune v2 " is the name of phase[0] ("ﬁne-tune  v2") too, once normalised (NFKC, spaces); give each phase its own name (a phase is picked by its name)`},
		{"zero-width space", planWith(`name = "train\u200b"` + "\n" + okPhase + "job_hours = 5"),
			`phase[0].name: "train\u200b" has the invisible character U+200B at byte 5; names must show every character they hold`},
		{"byte-order mark", planWith(`name = "\ufefftrain"` + "\n" + okPhase + "job_hours = 5"),
			`phase[0].name: "\ufefftrain" has the invisible character U+FEFF at byte 0; names must show every character they hold`},
		{"soft hyphen", planWith(`name = "fine\u00adtune"` + "\n" + okPhase + "job_hours = 5"),
			`phase[0].name: "fine\u00adtune" has the invisible character U+00AD at byte 4; names must show every character they hold`},
		{"tag characters", planWith(`name = "serve\U000E0041"` + "\n" + okPhase + "job_hours = 5"),
			`phase[0].name: "serve\U000e0041" has the invisible character U+E0041 at byte 5; names must show every character they hold`},
		{"Hangul filler", `schema_version = 1` + "\nname = \"plan\u3164\"\n" + planWith(`name = "x"` + "\n" + okPhase + "job_hours = 5")[len("schema_version = 1\n"):],
			`name: "plan\u3164" has the invisible character U+3164 at byte 4; names must show every character they hold`},
		// Issue 29 L5: names that look alike across scripts.
		{"Cyrillic a in a Latin name", planWith(`name = "trаin"` + "\n" + okPhase + "job_hours = 5"),
			`phase[0].name: "trаin" mixes the Latin and Cyrillic scripts (U+0430 at byte 2); write a name in one script (digits, spaces and punctuation go with any), so two names cannot look alike`},
		{"Greek omicron in a Latin name", planWith(`name = "serve-prοd"` + "\n" + okPhase + "job_hours = 5"),
			`phase[0].name: "serve-prοd" mixes the Latin and Greek scripts (U+03BF at byte 8); write a name in one script (digits, spaces and punctuation go with any), so two names cannot look alike`},
		{"all-Cyrillic twin", planWith(`name = "ape"`+"\n"+okPhase+"job_hours = 5", `name = "аре"`+"\n"+okPhase+"months = 2"),
			`phase[1].name: "аре" reads as the name of phase[0] ("ape") once case, accents, separators (. _ - : / , + and spaces) and look-alike characters (UTS #39) are set aside; give each phase a name that differs in its letters or digits (a phase is picked by its name)`},
		{"digit one for l", planWith(`name = "stage l"`+"\n"+okPhase+"job_hours = 5", `name = "stage 1"`+"\n"+okPhase+"months = 2"),
			`phase[1].name: "stage 1" reads as the name of phase[0] ("stage l") once case, accents, separators (. _ - : / , + and spaces) and look-alike characters (UTS #39) are set aside; give each phase a name that differs in its letters or digits (a phase is picked by its name)`},
		// Issue 29: case, punctuation and accents alone do not make two
		// phases (the catalog's look-alike key, show.LookKey).
		{"case twin", planWith(`name = "Train"`+"\n"+okPhase+"job_hours = 5", `name = "train"`+"\n"+okPhase+"months = 2"),
			`phase[1].name: "train" reads as the name of phase[0] ("Train") once case, accents, separators (. _ - : / , + and spaces) and look-alike characters (UTS #39) are set aside; give each phase a name that differs in its letters or digits (a phase is picked by its name)`},
		{"trailing dot", planWith(`name = "train"`+"\n"+okPhase+"job_hours = 5", `name = "train."`+"\n"+okPhase+"months = 2"),
			`phase[1].name: "train." reads as the name of phase[0] ("train") once case, accents, separators (. _ - : / , + and spaces) and look-alike characters (UTS #39) are set aside; give each phase a name that differs in its letters or digits (a phase is picked by its name)`},
		{"full-width capitals", planWith(`name = "train"`+"\n"+okPhase+"job_hours = 5", `name = "ＴＲＡＩＮ"`+"\n"+okPhase+"months = 2"),
			`phase[1].name: "ＴＲＡＩＮ" reads as the name of phase[0] ("train") once case, accents, separators (. _ - : / , + and spaces) and look-alike characters (UTS #39) are set aside; give each phase a name that differs in its letters or digits (a phase is picked by its name)`},
		{"accent and hyphen", planWith(`name = "fine tune"`+"\n"+okPhase+"job_hours = 5", `name = "fïne-tune"`+"\n"+okPhase+"months = 2"),
			`phase[1].name: "fïne-tune" reads as the name of phase[0] ("fine tune") once case, accents, separators (. _ - : / , + and spaces) and look-alike characters (UTS #39) are set aside; give each phase a name that differs in its letters or digits (a phase is picked by its name)`},
		{"invisible in the region", planWith("name = \"x\"\n" + strings.Replace(okPhase, "us-east-1", "us-east-1\u200d", 1) + "job_hours = 5"),
			`phase[0].region: "us-east-1\u200d" has the invisible character U+200D at byte 9; names must show every character they hold`},
		// Re-attack 5: the key and the value apart, the byte counted in the
		// value; config and answers together refused.
		{"invisible in an answer", planWith("name = \"x\"\n" + okPhase + "job_hours = 5\n[phase.answers]\nmodel = \"llama-3.1-8b\u200b\""),
			`phase[0].answers.model: "llama-3.1-8b\u200b" has the invisible character U+200B at byte 12; names must show every character they hold`},
		// Issue 29: a phase's configuration file stays in the plan's folder.
		{"absolute config", planWith("name = \"serve\"\nconfig = \"/etc/passwd\"\n" + okPhase + "job_hours = 5"),
			`phase "serve" config: "/etc/passwd" is outside the plan's folder; put the configuration file beside the plan (or in a folder under it) and give its relative path, without a leading / or ..`},
		{"config up and out", planWith("name = \"serve\"\nconfig = \"sub/../../x.toml\"\n" + okPhase + "job_hours = 5"),
			`phase "serve" config: "sub/../../x.toml" is outside the plan's folder; put the configuration file beside the plan (or in a folder under it) and give its relative path, without a leading / or ..`},
		{"config dot-dot", planWith("name = \"serve\"\nconfig = \"..\"\n" + okPhase + "job_hours = 5"),
			`phase "serve" config: ".." is outside the plan's folder; put the configuration file beside the plan (or in a folder under it) and give its relative path, without a leading / or ..`},
		{"config and answers", planWith("name = \"x\"\nconfig = \"a.toml\"\n" + okPhase + "job_hours = 5\n[phase.answers]\nmodel = \"llama-3.1-8b\""),
			`phase[0].config: give config or answers, not both: a phase is one configuration`},
		{"price above the cap", planWith("name = \"x\"\n" + strings.Replace(okPhase, "0.8048", "1e300", 1) + "job_hours = 5"),
			`phase "x" usd_per_hour: must be 0.001–1e+07 USD per hour (or left out), got 1e+300`},
		{"infinite price", planWith("name = \"x\"\n" + strings.Replace(okPhase, "0.8048", "inf", 1) + "job_hours = 5"),
			`phase "x" usd_per_hour: must be 0.001–1e+07 USD per hour (or left out), got +Inf`},
		{"NaN hours", planWith("name = \"x\"\n" + okPhase + "job_hours = nan"),
			`phase "x" job_hours: must be 0.001–1e+07 hours (or left out), got NaN`},
		{"a billion months", planWith("name = \"x\"\n" + okPhase + "months = 1e9"),
			`phase "x" months: must be 0.001–120 months (or left out), got 1e+09`},
		{"negative months", planWith("name = \"x\"\n" + okPhase + "months = -1"),
			`phase "x" months: must be 0.001–120 months (or left out), got -1`},
		{"hours_per_month of a 31-day month passes; above is refused", planWith("name = \"x\"\n" + okPhase + "months = 2\nhours_per_month = 744.5"),
			`phase "x" hours_per_month: must be 0.001–744 hours a month (or left out), got 744.5`},
		{"hours_per_month over a month", planWith("name = \"x\"\n" + okPhase + "months = 2\nhours_per_month = 800"),
			`phase "x" hours_per_month: must be 0.001–744 hours a month (or left out), got 800`},
		// Issue 29 item 5: absurdly small values and instance counts.
		{"subnormal job hours", planWith("name = \"x\"\n" + okPhase + "job_hours = 1e-300"),
			`phase "x" job_hours: must be 0.001–1e+07 hours (or left out), got 1e-300`},
		{"negative job hours", planWith("name = \"x\"\n" + okPhase + "job_hours = -5"),
			`phase "x" job_hours: must be 0.001–1e+07 hours (or left out), got -5`},
		{"a price of a nanodollar", planWith("name = \"x\"\n" + strings.Replace(okPhase, "0.8048", "1e-9", 1) + "job_hours = 5"),
			`phase "x" usd_per_hour: must be 0.001–1e+07 USD per hour (or left out), got 1e-09`},
		{"tiny months", planWith("name = \"x\"\n" + okPhase + "months = 5e-324"),
			`phase "x" months: must be 0.001–120 months (or left out), got 5e-324`},
		{"a tenth of a second a month", planWith("name = \"x\"\n" + okPhase + "months = 2\nhours_per_month = 3e-5"),
			`phase "x" hours_per_month: must be 0.001–744 hours a month (or left out), got 3e-05`},
		{"zero instances", planWith("name = \"x\"\n" + strings.Replace(okPhase, "instances = 1", "instances = 0", 1) + "job_hours = 5"),
			`phase "x" instances: must be 1–131072 for the offer aws g6.xlarge, got 0`},
		{"negative instances", planWith("name = \"x\"\n" + strings.Replace(okPhase, "instances = 1", "instances = -3", 1) + "job_hours = 5"),
			`phase "x" instances: must be 1–131072 for the offer aws g6.xlarge, got -3`},
		{"a million instances", planWith("name = \"x\"\n" + strings.Replace(okPhase, "instances = 1", "instances = 1000000", 1) + "job_hours = 5"),
			`phase "x" instances: must be 1–131072 for the offer aws g6.xlarge, got 1000000`},
		// Attack round 10: a 5,000-character name wrecked the table; 65
		// characters are refused, counted in characters (65 CJK too).
		{"a 5,000-character name", planWith("name = \"" + strings.Repeat("x", 5000) + "\"\n" + okPhase + "job_hours = 5"),
			`phase[0].name: 5000 characters long; a phase's name has at most 64, such as fine-tune or serve`},
		{"65 characters", planWith("name = \"" + strings.Repeat("a", 65) + "\"\n" + okPhase + "job_hours = 5"),
			`phase[0].name: 65 characters long; a phase's name has at most 64, such as fine-tune or serve`},
		{"65 CJK characters", planWith(`name = "a"`+"\n"+okPhase+"job_hours = 5", "name = \""+strings.Repeat("微", 65)+"\"\n"+okPhase+"months = 1"),
			`phase[1].name: 65 characters long; a phase's name has at most 64, such as fine-tune or serve`},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(tt.file))
		if err == nil || err.Error() != tt.want || !errors.Is(err, config.ErrInvalid) {
			t.Errorf("%s:\n got %v\nwant %s", tt.name, err, tt.want)
		}
	}
	for _, ok := range []string{
		planWith(`name = "train"`+"\n"+okPhase+"job_hours = 5", `name = "train 2"`+"\n"+okPhase+"months = 120"),
		planWith(`name = "微调"`+"\n"+okPhase+"job_hours = 1e7", `name = "部署"`+"\n"+okPhase+"months = 0.5\nhours_per_month = 730"),
		planWith(`name = "smoke test"`+"\n"+okPhase+"job_hours = 0.001", `name = "demo"`+"\n"+strings.Replace(okPhase, "instances = 1", "instances = 131072", 1)+"months = 0.001\nhours_per_month = 0.001"),
		planWith(`name = "answers only"` + "\nusd_per_hour = 0.001\njob_hours = 5"),
		// A configuration file beside the plan or under it.
		planWith(`name = "a"`+"\nconfig = \"serve.toml\"\n"+okPhase+"job_hours = 5", `name = "b"`+"\nconfig = \"configs/./b/../serve.toml\"\n"+okPhase+"months = 2"),
		// A 31-day month, as --hours-per-month and the configuration allow.
		planWith(`name = "always on"` + "\n" + okPhase + "months = 1\nhours_per_month = 744"),
		// One script, or Latin with CJK, Arabic…: names people write.
		planWith(`name = "QLoRA 微调"`+"\n"+okPhase+"job_hours = 5", `name = "サービング 本番 v2"`+"\n"+okPhase+"months = 2", `name = "обучение 2"`+"\n"+okPhase+"months = 1"),
		// 64 characters, in ASCII or CJK (192 bytes), pass.
		planWith("name = \""+strings.Repeat("a", 64)+"\"\n"+okPhase+"job_hours = 5", "name = \""+strings.Repeat("微", 64)+"\"\n"+okPhase+"months = 1"),
	} {
		if _, err := Decode([]byte(ok)); err != nil {
			t.Errorf("a valid plan refused: %v\n%s", err, ok)
		}
	}
}

// TestCheckPlanEveryNote: each note CheckPlan writes, in full, with the
// cases the first test lacks: a phase without a pricing mode (compared as
// on-demand; the note read "no  price" with its word missing) and a type
// the latest fetch no longer lists.
func TestCheckPlanEveryNote(t *testing.T) {
	cat := modeltest.Catalog()
	cat.AsOf = "2026-11-30"
	for i := range cat.Instances {
		if in := &cat.Instances[i]; in.Type == "huge.8" {
			in.MissingSince = "2026-12-01"
		}
	}
	pl := Plan{Phases: []Phase{
		{Name: "no mode, as listed", Provider: "p1", Instance: "small.1", Region: "us-east-1", Instances: 1, USDPerHour: 1, JobHours: 1},
		{Name: "no mode, cheaper", Provider: "p1", Instance: "small.1", Region: "us-east-1", Instances: 1, USDPerHour: 0.5, JobHours: 1},
		{Name: "gone", Provider: "p2", Instance: "huge.8", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 80, JobHours: 1},
	}}
	var got []string
	for _, m := range Check(cat, &pl) {
		got = append(got, m.String())
	}
	want := []string{
		`phase "no mode, cheaper": the plan prices p1 small.1 in us-east-1 (on-demand) at $0.5/h; the catalog (as of 2026-11-30) says $1/h`,
		`phase "gone": p2 huge.8 is not in the latest price fetch (missing since 2026-12-01): the plan's price for it is unchecked`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range got {
		if strings.Contains(s, "  ") {
			t.Errorf("a word is missing: %q", s)
		}
	}
}

// TestPhaseKey: a phase's figure in an error is named by the phase's
// name, as --phase takes it (walk36: "phase[0].instances: missing" of a
// plan whose phase is "tune"), unless the name cannot show in a line:
// then its index, which its own error names.
func TestPhaseKey(t *testing.T) {
	tests := []struct{ name, phase, want string }{
		{"a plain name", "tune", `phase "tune" instances`},
		{"a name in two scripts", "QLoRA 微调", `phase "QLoRA 微调" instances`},
		{"a quote is escaped once", `a"b`, `phase "a\"b" instances`},
		{"no name", "", "phase[2].instances"},
		{"a control character", "tu\x1bne", "phase[2].instances"},
		{"a zero-width space", "tu\u200bne", "phase[2].instances"},
		{"65 characters, one over MaxNameChars", strings.Repeat("n", MaxNameChars+1), "phase[2].instances"},
	}
	for _, tt := range tests {
		if got := phaseKey(2, tt.phase, "instances"); got != tt.want {
			t.Errorf("%s: phaseKey(2, %q) = %q, want %q", tt.name, tt.phase, got, tt.want)
		}
	}
}
