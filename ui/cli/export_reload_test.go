package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportTOMLReloadsClean (issue 31 round 4, item 6): export --format
// toml for ResNet-50 wrote flash_attention, and reloading warned "flash
// attention ignored: ResNet-50 is a convolutional network"; the file also
// pins the offer's provider and region without saying so. Failing before:
// flash_attention in the file and the warning on reload.
func TestExportTOMLReloadsClean(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r50.toml")
	code, _, errOut := runCLI(t, "export", "--model", "resnet-50", "--task", "finetune", "--instance", "aws/g6.xlarge", "--format", "toml", "-o", path)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "flash_attention") {
		t.Errorf("flash_attention written for a CNN:\n%s", b)
	}
	if !strings.Contains(string(b), "delete providers and regions") {
		t.Errorf("the file pins the offer without saying so:\n%s", b)
	}
	code, _, errOut = runCLI(t, "recommend", "--config", path)
	if code != 0 || strings.Contains(errOut, "warning") {
		t.Errorf("reload: exit %d, stderr %s", code, errOut)
	}
}

// TestExportDatasetRoundTrip (walk37): a configuration exported with
// --dataset keeps it, so exporting its launch files again trains on it;
// --dataset still wins over the file's. Failing before: the re-export
// wrote --dataset_name CHANGE-ME/dataset.
func TestExportDatasetRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tune.toml")
	code, _, errOut := runCLI(t, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--seq-len", "2048", "--instance", "seeweb/ECS1GPU11",
		"--dataset", "trl-lib/Capybara", "--format", "toml", "-o", path)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "--dataset_name trl-lib/Capybara"},
		{[]string{"--dataset", "org/other"}, "--dataset_name org/other"},
	} {
		code, out, errOut := runCLI(t, append([]string{"export", "--config", path, "--format", "torchrun"}, tt.args...)...)
		if code != 0 || !strings.Contains(out, tt.want) || strings.Contains(out, "CHANGE-ME/dataset") {
			t.Errorf("export --config %v: exit %d, want %q in\n%s\nstderr %s", tt.args, code, tt.want, out, errOut)
		}
	}
}
