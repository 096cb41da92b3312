package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEstimateOpenStrategy: estimate --gpus N with no strategy named
// takes the layout recommend and export take on the same GPUs (FSDP where
// DDP does not fit and FSDP does) and says so on stderr; a strategy named
// is kept; without --gpu DDP is estimated and the note says it was
// assumed. Llama 3.1 8B full fine-tune at 1 × 4096 on 8 H100s (75.2 GiB
// usable): DDP holds 16 bytes of model states per parameter on every GPU,
// 128 GB, and needs ~183 GiB per GPU; FSDP over 8 holds an eighth of them
// and needs ~52 GiB (recommend --gpus 8 prints FSDP ×8, 52.25 GiB/GPU).
func TestEstimateOpenStrategy(t *testing.T) {
	base := []string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpus", "8", "--batch-size", "1", "--seq-len", "4096", "--json"}
	type doc struct {
		Workload struct{ Strategy string }
		GPU      *struct{ Fits bool }
	}
	for _, c := range []struct {
		name     string
		args     []string
		strategy string
		fits     bool
		note     string // on stderr; "" for none
	}{
		{"gpu, no strategy", []string{"--gpu", "h100-sxm"}, "fsdp", true, "no --strategy: DDP needs 183.22 GiB per GPU, more than the 75.23 GiB usable on NVIDIA H100 SXM5 80GB; estimated as FSDP over the same 8 GPUs, as recommend takes it (--strategy ddp keeps DDP)"},
		{"ddp named", []string{"--gpu", "h100-sxm", "--strategy", "ddp"}, "ddp", false, ""},
		{"zero2 named", []string{"--gpu", "h100-sxm", "--strategy", "zero2"}, "zero2", true, ""},
		{"no gpu", nil, "ddp", false, "no --strategy: 8 GPUs estimated as DDP"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, errs := runCLIJSON[doc](t, base, c.args...)
			if d.Workload.Strategy != c.strategy {
				t.Errorf("strategy %q, want %q", d.Workload.Strategy, c.strategy)
			}
			if d.GPU != nil && d.GPU.Fits != c.fits {
				t.Errorf("fits %v, want %v", d.GPU.Fits, c.fits)
			}
			if c.note == "" && strings.Contains(errs, "no --strategy") || c.note != "" && !strings.Contains(errs, c.note) {
				t.Errorf("stderr %q, want the note %q", errs, c.note)
			}
		})
	}
	// A job DDP fits keeps DDP and says nothing: QLoRA of the 8B model on
	// 2 H100s holds a 4-bit base and small adapters per GPU.
	code, out, errs := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--gpus", "2", "--gpu", "h100-sxm", "--json")
	if code != 0 || !strings.Contains(out, `"strategy": "ddp"`) || strings.Contains(errs, "no --strategy") {
		t.Errorf("qlora on 2 H100s: exit %d, want ddp and no note; stderr %q", code, errs)
	}
	// A file that names ddp keeps it, as --strategy ddp does.
	cfg := writeFile(t, "ddp.toml", "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"finetune\"\ngpus = 8\nstrategy = \"ddp\"\nbatch_size = 1\n")
	code, out, errs = runCLI(t, "estimate", "--config", cfg, "--gpu", "h100-sxm", "--json")
	if code != 0 || !strings.Contains(out, `"strategy": "ddp"`) || strings.Contains(errs, "no --strategy") {
		t.Errorf("file naming ddp: exit %d, want ddp kept and no note; stderr %q", code, errs)
	}
}

// TestEpochsWithoutDataset: --epochs multiplies a dataset; without a
// dataset size estimate and recommend take it and print nothing of it, so
// they say in one stderr line that it is ignored (as --mfu without --gpu);
// with a dataset, or on export (the script's --num_train_epochs), nothing
// is said. Serving is sized for a load: every dataset flag is ignored.
func TestEpochsWithoutDataset(t *testing.T) {
	const ignored = "gpuplan: warning: --epochs ignored: it multiplies a dataset: give --dataset-samples or --dataset-tokens for job time and cost\n"
	for _, c := range []struct {
		args []string
		want string // the warning lines on stderr
	}{
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "l4", "--epochs", "3"}, ignored},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "l4", "--epochs", "3", "--dataset-samples", "10k"}, ""},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "l4", "--epochs", "3", "--dataset-tokens", "20M"}, ""},
		{[]string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--epochs", "3", "--limit", "1", "--providers", "aws"}, ignored},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "inference", "--gpu", "h100-sxm", "--epochs", "3", "--dataset-tokens", "1M"},
			"gpuplan: warning: --dataset-tokens ignored: serving is sized for a load (--concurrency or --rps), not a dataset\n" +
				"gpuplan: warning: --epochs ignored: serving is sized for a load (--concurrency or --rps), not a dataset\n"},
		{[]string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--epochs", "3", "--instance", "aws/g5.2xlarge", "--format", "torchrun"}, ""},
	} {
		code, out, errs := runCLI(t, c.args...)
		var warnings strings.Builder
		for _, l := range strings.SplitAfter(errs, "\n") {
			if strings.HasPrefix(l, "gpuplan: warning:") {
				warnings.WriteString(l)
			}
		}
		if code != 0 || warnings.String() != c.want {
			t.Errorf("%s: exit %d, warnings %q, want %q", strings.Join(c.args, " "), code, warnings.String(), c.want)
		}
		if c.args[0] == "export" && !strings.Contains(out, "--num_train_epochs 3") {
			t.Errorf("export --epochs 3: the script does not pass --num_train_epochs 3:\n%s", out)
		}
	}
}

// TestOutputPathControls: an -o file name with a control character (C0,
// DEL, C1), a bidirectional or invisible format character, or a byte that
// is not UTF-8 is refused before anything is written: exit 2, one line
// naming the character as an escape, no file. Plain names (spaces, CJK)
// are written.
func TestOutputPathControls(t *testing.T) {
	export := []string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "aws/g5.2xlarge", "--format", "skypilot"}
	for _, c := range []struct{ name, esc string }{
		{"a\nb.yaml", `\n`}, {"x\x1b[31m.yaml", `\x1b`}, {"cr\r.yaml", `\r`}, {"del\x7f.yaml", `\x7f`},
		{"c1\u009b.yaml", `\u009b`}, {"rlo\u202elmay.txt", `\u202e`}, {"zw\u200b.yaml", `\u200b`}, {"ff\xff.yaml", `\xff`},
	} {
		for _, args := range [][]string{export, {"probe", "export"}} {
			dir := t.TempDir()
			path := filepath.Join(dir, c.name)
			code, out, errs := runCLI(t, append(append([]string{}, args...), "-o", path)...)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "the file name holds "+c.esc+",") {
				t.Errorf("%s -o %q: exit %d, stdout %q, stderr %q; want exit 2 and one line naming %s", args[0], c.name, code, out, errs, c.esc)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("%s -o %q: %d files written", args[0], c.name, len(ents))
			}
		}
	}
	for _, name := range []string{"two words.yaml", "任务.yaml"} {
		path := filepath.Join(t.TempDir(), name)
		if code, _, errs := runCLI(t, append(append([]string{}, export...), "-o", path)...); code != 0 {
			t.Errorf("-o %q: exit %d: %s", name, code, errs)
		} else if _, err := os.Stat(path); err != nil {
			t.Errorf("-o %q: %v", name, err)
		}
	}
}
