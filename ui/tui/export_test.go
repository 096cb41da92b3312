package tui

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

func TestExportFormats(t *testing.T) {
	cat := embeddedCatalog(t)
	a, err := cat.Model("bert-large")
	if err != nil {
		t.Fatal(err)
	}
	w := model.Workload{Model: *a, Task: model.TaskFinetune, MicroBatch: 32, SeqLen: 384, DatasetSamples: 88000, Epochs: 2}
	rec, err := model.Recommend(w, cat, model.Query{Providers: []string{"aws"}})
	if err != nil || len(rec.Offers) == 0 {
		t.Fatal(err, len(rec.Offers))
	}
	offer := &rec.Offers[0]
	for _, tt := range []struct {
		format launch.Format
		name   string
		want   string
		perm   fs.FileMode
	}{
		{launch.FormatTOML, defaultExport, "[launch]", 0o644},
		{launch.FormatSkyPilot, "./gpuplan-sky.yaml", "instance_type: " + offer.Instance.Type, 0o644},
		{launch.FormatTorchrun, "./gpuplan-torchrun.sh", "torchrun", 0o755},
		{launch.FormatDocker, "./gpuplan-docker.sh", "docker run --gpus all", 0o755},
		{launch.FormatK8s, "./gpuplan-k8s.yaml", "nvidia.com/gpu", 0o644},
	} {
		d := newExportDialog(defaultExport, []byte("schema_version = 1\n"), offer, tt.format, newTheme(), 60)
		out, path, perm, err := d.payload()
		if err != nil || path != tt.name || perm != tt.perm || !strings.Contains(string(out), tt.want) {
			t.Errorf("%s: path %s perm %v err %v; output lacks %q", tt.format, path, perm, err, tt.want)
		}
	}
	d := newExportDialog(defaultExport, []byte("x"), nil, launch.FormatSkyPilot, newTheme(), 60)
	if _, _, _, err := d.payload(); err == nil {
		t.Error("a launch file without an offer was accepted")
	}
}
