package cli

import (
	"strings"
	"testing"
)

// walkOffCatalog is walk3's p1.toml: a Llama 3.1 70B full fine-tune
// pinned on gcp g2-standard-8, which the catalog lacks, then an 8B
// served on aws g6.xlarge.
const walkOffCatalog = `schema_version = 1
name = "70B full fine-tune on one L4, then serve"

[[phase]]
name = "fine-tune"
provider = "gcp"
instance = "g2-standard-8"
region = "us-central1"
pricing = "on-demand"
instances = 1
job_hours = 10
usd_per_hour = 0.8536
[phase.answers]
dataset_tokens = "100M"
model = "llama-3.1-70b"
task = "finetune"

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

// TestPlanOffCatalogPhaseThatCannotRun: walk3 printed "Total $1,457"
// with the fine-tune in it, unmarked, and exited 0, while the savings
// said the phase was left out of these totals, the plan's own too. A
// phase whose instance the catalog lacks is estimated on the answers'
// GPUs; when nothing runs it there it is ✗, out of the Total, exit 1, as
// on a catalog instance.
func TestPlanOffCatalogPhaseThatCannotRun(t *testing.T) {
	path := writeFile(t, "p1.toml", walkOffCatalog)
	code, out, errs := runCLI(t, "plan", path)
	if code != ExitError {
		t.Errorf("exit %d, want %d (a phase cannot run): %s", code, ExitError, errs)
	}
	for _, w := range []string{
		"✗ fine-tune",
		`✗ phase "fine-tune": cannot run on the answers' 1 GPU: its offer gcp g2-standard-8 is not in the catalog, so it is estimated on them, and no gcp us-central1 offer runs it there`,
		`Total $1,449 for the phases that can run; phase "fine-tune" (✗, $8.54 as written) is left out: it cannot run on its pinned offer`,
		`phase "fine-tune" is left out of these totals, the plan's own too`,
	} {
		if !strings.Contains(out, w) {
			t.Errorf("want %q in:\n%s", w, out)
		}
	}
	if strings.Contains(out, "Total $1,457") {
		t.Errorf("the Total counts a phase the savings leave out:\n%s", out)
	}
}

// TestPlanOffCatalogPhaseThatRuns: a phase on an instance the catalog
// lacks that the estimator runs on the answers' GPUs (an 8B served on
// gcp) stays in the Total, unmarked, and the savings do not leave it out.
func TestPlanOffCatalogPhaseThatRuns(t *testing.T) {
	src := strings.Replace(walkOffCatalog, `model = "llama-3.1-70b"
task = "finetune"`, `model = "llama-3.1-8b"
task = "lora"`, 1)
	path := writeFile(t, "p1.toml", src)
	code, out, errs := runCLI(t, "plan", path)
	if code != ExitOK {
		t.Errorf("exit %d, want %d: %s", code, ExitOK, errs)
	}
	if strings.Contains(out, "✗") || strings.Contains(out, "left out") {
		t.Errorf("a phase that runs on the answers' GPUs is marked or left out:\n%s", out)
	}
	if !strings.Contains(out, "Total $1,457") {
		t.Errorf("want the plan's own Total $1,457 in:\n%s", out)
	}
}
