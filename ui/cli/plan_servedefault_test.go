package cli

import (
	"strings"
	"testing"
)

// walkServeNoLoad is a walker's serve phase: Llama 3.1 8B pinned on aws
// g6.xlarge (one L4) with no load given, so the serving question is a
// price per token at the default 4 concurrent requests.
const walkServeNoLoad = `schema_version = 1
name = "serve 8b on one L4"
[[phase]]
name = "serve"
provider = "aws"
instance = "g6.xlarge"
region = "us-east-1"
pricing = "on-demand"
instances = 1
months = 6.0
usd_per_hour = 0.8048
hours_per_month = 300.0
[phase.answers]
model = "llama-3.1-8b"
task = "inference"
`

// TestPlanSavingsServeWithoutLoad: the savings priced the phase on the
// serving ranking's first plan, which without a load ranked g6.12xlarge
// ($9.83/Mtok, clear) over the borderline g6.xlarge ($4.81/Mtok): the
// "over twice the cost" rule skipped per-token questions. The base was
// "$8,283, against the plan's own $1,449", and dearer changes were listed
// as savings ("run on a10g (serve) saves $6,472 (78%); total $1,811, $362
// more than the plan's own"). With the rule on $/Mtok the base is the
// plan's own choice, and no dearer change is a saving.
func TestPlanSavingsServeWithoutLoad(t *testing.T) {
	path := writeFile(t, "walk.toml", walkServeNoLoad)
	_, out, errs := runCLI(t, "plan", path)
	if !strings.Contains(out, "re-priced that way now $1,449)") {
		t.Errorf("want the base at the plan's own $1,449 in:\n%s\n%s", out, errs)
	}
	for _, bad := range []string{"$8,283", "more than the plan's own"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q in:\n%s", bad, out)
		}
	}
}
