package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPhaseAgrees: for one phase of a plan, gpuplan plan (the reference:
// plan.PhaseScenarioFor, model.OnInstance, plan.PinnedServing), estimate
// --phase and export --phase name the same offer (provider, instance
// type, instances, region, pricing), the same strategy, and the same
// verdict and reason (walk36b). testdata/phase36.toml's phases, with what
// gpuplan plan says of each:
//   - cfgtune: config = a file exported for aws g5.xlarge (A10G); the phase
//     rents gcp g2-standard-4 (one L4), which wins: estimate said A10G and
//     export wrote g5.xlarge;
//   - cfgserve: a serving file exported for g5.48xlarge on a phase that
//     rents 2 × g5.12xlarge: a Ray cluster, refused (export wrote
//     g5.48xlarge TP 8, exit 0);
//   - tune: Llama 3.1 70B QLoRA on 8 A100 40GB, no strategy answered: DDP
//     needs 47.3 GiB per GPU of the 37.6 usable, FSDP fits (estimate said
//     DDP ✗ does not fit);
//   - gpus16: the answers say 16 GPUs on one 8-GPU p4d: the offer's 8,
//     FSDP (DDP 47.1 GiB), borderline (~) at 36.6 of 37.6 GiB (export
//     wrote 2 nodes; plan gave no mark);
//   - serve: carries its load on 2 instances, the plan rents 1: written,
//     with plan's verdict on stderr and in the file;
//   - serve2, serve1: a Ray cluster, and does not fit: refused, and
//     estimate --json's exportable is false with export's reason.
func TestPhaseAgrees(t *testing.T) {
	const file = "testdata/phase36.toml"
	const ray = "needs more GPUs than one instance of its pinned offer has: one replica spans 2 instances (TP 4 × PP 2 over 4 GPUs each): pipeline parallel across nodes needs a Ray cluster (allow_multi_node)"
	const gpusNote = `phase "gpus16": the answers say 16 GPUs, but its offer aws p4d.24xlarge has 8`
	const cfgNote = `phase "cfg8gpu": its configuration file phase36-cfg8.toml is for 1 GPU (strategy single), but its offer aws p4d.24xlarge has 8; the phase is estimated on the offer's 8 GPUs as ddp`
	const noReserved = "aws/g5.xlarge has no reserved-1y price in us-east-1; try --pricing on-demand or --pricing spot"
	tests := []struct {
		phase                               string
		provider, instance, region, pricing string
		nodes, gpusPerNode                  int
		gpu                                 string
		strategy                            string // training's; "" for serving
		mark, verdict                       string // plan's mark ("✗", "~" or none) and its words
		refused                             bool   // export --phase writes nothing, exit 2
		warn                                string // a warning all three print on stderr
		refusal                             string // export's line when it is not plan's verdict; "" for verdict's
	}{
		{"cfgtune", "gcp", "g2-standard-4", "us-central1", "on-demand", 1, 1, "l4", "single", "", "", false, "", ""},
		{"cfgserve", "aws", "g5.12xlarge", "us-east-1", "on-demand", 2, 4, "a10g", "", "✗", ray, true, "", ""},
		{"tune", "aws", "p4d.24xlarge", "us-east-1", "spot", 1, 8, "a100-40gb", "fsdp", "", "", false, "", ""},
		{"gpus16", "aws", "p4d.24xlarge", "us-east-1", "on-demand", 1, 8, "a100-40gb", "fsdp", "~", "borderline on its pinned offer", false, gpusNote, ""},
		{"serve", "aws", "g5.12xlarge", "us-east-1", "on-demand", 1, 4, "a10g", "", "✗", "carries the phase's load on 2 instances of its pinned offer; the plan rents 1", false, "", ""},
		{"serve2", "aws", "g5.12xlarge", "us-east-1", "on-demand", 2, 4, "a10g", "", "✗", ray, true, "", ""},
		// 131.4 GiB of bf16 weights and 0.39 GiB of LoRA slots for the
		// adapter phase "tune" trains (plan.LinkTrained): 80 layers ×
		// 2,588,672 elements × 2 B at rank 16 (serve.LoRABytes).
		{"serve1", "aws", "g5.xlarge", "us-east-1", "on-demand", 1, 1, "a10g", "", "✗", "does not fit its pinned offer: TP 1 × PP 1: weights 131.8 GiB", true, "", ""},
		{"rtrain", "aws", "g5.xlarge", "us-east-1", "reserved-1y", 1, 1, "a10g", "single", "", "", true, "", noReserved},
		{"rserve", "aws", "g5.xlarge", "us-east-1", "reserved-1y", 1, 1, "a10g", "", "", "", true, "", noReserved},
		{"spotcase", "aws", "g5.xlarge", "us-east-1", "spot", 1, 1, "a10g", "", "", "", false, "", ""},
		{"ft1big", "aws", "g5.xlarge", "us-east-1", "on-demand", 1, 1, "a10g", "single", "✗", "does not fit its pinned offer: needs 1335.4 GiB per GPU, has 21.0 GiB usable", true, "", ""},
		{"cfg8gpu", "aws", "p4d.24xlarge", "us-east-1", "on-demand", 1, 8, "a100-40gb", "ddp", "", "", false, cfgNote, ""},
		{"ft8", "aws", "p5en.48xlarge", "us-east-1", "on-demand", 1, 8, "h200", "fsdp", "", "", false, "", ""},
		{"ft8a4", "aws", "p5en.48xlarge", "us-east-1", "on-demand", 1, 8, "h200", "fsdp", "", "", false, "", ""},
		{"auto2", "shadeform", "scaleway_L40Sx2", "warsaw-poland-1", "on-demand", 1, 2, "l40s", "ddp", "", "", false, "", ""},
	}
	// The micro-batch and accumulation plan runs the phase's global batch
	// at on its offer's GPUs (plan.JobOnOffer, Workload.OnGPUs): what
	// estimate --phase estimates and export --phase writes (walk37: the
	// answers' batch 4 × accumulation 2 was written per GPU on 8 H200s,
	// 8 times the batch plan priced, and refused; batch 1 × 2 on two
	// L40S was written with accumulation 2).
	batch := map[string][2]int{"ft8": {1, 1}, "ft8a4": {2, 1}, "auto2": {1, 1}}
	// The phases marked ✗ that export refuses cannot run: plan prints its
	// table, then exits 1 naming them (those that run, if short of their
	// targets, and those refused only for a price are not named).
	code, planOut, planErr := runCLI(t, "plan", file, "--no-savings")
	const cannot = `gpuplan: testdata/phase36.toml: 4 of 15 phases cannot run on their pinned offers (marked ✗: "cfgserve", "serve2", "serve1" and "ft1big")`
	if code != ExitError || !strings.Contains(planErr, cannot) {
		t.Fatalf("plan: exit %d, want %d and %q: %s", code, ExitError, cannot, planErr)
	}
	for _, tt := range tests {
		t.Run(tt.phase, func(t *testing.T) {
			// gpuplan plan: the mark and the verdict, or none.
			line := ` phase "` + tt.phase + `": `
			for _, m := range []string{"✗", "~"} {
				if has := strings.Contains(planOut, m+line); has != (m == tt.mark) {
					t.Errorf("plan: %q marked: %v, want mark %q:\n%s", m+line, has, tt.mark, planOut)
				}
			}
			if tt.mark != "" && !strings.Contains(planOut, tt.mark+line+tt.verdict) {
				t.Errorf("plan: want %q in:\n%s", tt.mark+line+tt.verdict, planOut)
			}
			if tt.warn != "" && !strings.Contains(planErr, tt.warn) {
				t.Errorf("plan: want warning %q in:\n%s", tt.warn, planErr)
			}

			// estimate --phase --json: the same offer, strategy and verdict.
			code, out, errOut := runCLI(t, "estimate", "--config", file, "--phase", tt.phase, "--json")
			if code != 0 {
				t.Fatalf("estimate --phase: exit %d: %s", code, errOut)
			}
			if tt.warn != "" && !strings.Contains(errOut, tt.warn) {
				t.Errorf("estimate --phase: want warning %q in:\n%s", tt.warn, errOut)
			}
			// A phase export refuses for its price is said on stderr, the
			// training one as the serving one (walk37: rtrain said nothing).
			if tt.refusal != "" && !strings.Contains(errOut, "export --phase writes nothing for it: "+tt.refusal) {
				t.Errorf("estimate --phase: want the warning that export writes nothing (%q) in:\n%s", tt.refusal, errOut)
			}
			if tt.strategy != "" {
				var e struct {
					Exportable  *bool  `json:"exportable"`
					NotExported string `json:"not_exported"`
					Workload    struct {
						GPUs      int    `json:"gpus"`
						Strategy  string `json:"strategy"`
						Micro     int    `json:"batch_size"`
						GradAccum int    `json:"grad_accum"`
					} `json:"workload"`
					GPU struct {
						Key     string `json:"key"`
						Verdict string `json:"verdict"`
					} `json:"gpu"`
					Time struct {
						Hours float64 `json:"hours"`
						Band  struct {
							Low  float64 `json:"low"`
							High float64 `json:"high"`
						} `json:"band"`
					} `json:"time"`
				}
				if err := json.Unmarshal([]byte(out), &e); err != nil {
					t.Fatal(err)
				}
				verdict := map[string]string{"": "fits", "~": "borderline", "✗": "does not fit"}[tt.mark]
				if e.Workload.GPUs != tt.nodes*tt.gpusPerNode || e.Workload.Strategy != tt.strategy || e.GPU.Key != tt.gpu || e.GPU.Verdict != verdict {
					t.Errorf("estimate --phase: %d GPUs %s on %s, %s; want %d %s on %s, %s",
						e.Workload.GPUs, e.Workload.Strategy, e.GPU.Key, e.GPU.Verdict, tt.nodes*tt.gpusPerNode, tt.strategy, tt.gpu, verdict)
				}
				if b, ok := batch[tt.phase]; ok && (e.Workload.Micro != b[0] || e.Workload.GradAccum != b[1]) {
					t.Errorf("estimate --phase: micro-batch %d × accumulation %d, want %d × %d", e.Workload.Micro, e.Workload.GradAccum, b[0], b[1])
				}
				// Whether export --phase writes it, and why not in its words.
				if e.Exportable == nil || *e.Exportable == tt.refused || tt.refused && !strings.Contains(e.NotExported, cmp.Or(tt.refusal, tt.verdict)) {
					t.Errorf("estimate --phase --json: exportable %v (%q), want %v with %q", e.Exportable, e.NotExported, !tt.refused, cmp.Or(tt.refusal, tt.verdict))
				}
				// The time and its range, where plan prints them (job_hours
				// far from the estimate): the same, as plan words them.
				if i := strings.Index(planErr, `phase "`+tt.phase+`": job_hours = `); i >= 0 {
					want := fmt.Sprintf("is %.3g h (90%% range %.3g–%.3g h)", e.Time.Hours, e.Time.Band.Low, e.Time.Band.High)
					if line, _, _ := strings.Cut(planErr[i:], "\n"); !strings.Contains(line, want) {
						t.Errorf("estimate --phase: %s, where plan says:\n%s", want, line)
					}
				} else if tt.phase == "tune" {
					t.Errorf("plan: no job_hours warning for tune:\n%s", planErr)
				}
			} else {
				var e struct {
					Plan struct {
						Provider     string `json:"provider"`
						InstanceType string `json:"instance_type"`
						Region       string `json:"region"`
						Pricing      string `json:"pricing"`
						GPU          string `json:"gpu"`
						Nodes        int    `json:"nodes"`
						GPUsPerNode  int    `json:"gpus_per_node"`
						Exportable   bool   `json:"exportable"`
						NotExported  string `json:"not_exported"`
					} `json:"plan"`
				}
				if err := json.Unmarshal([]byte(out), &e); err != nil {
					t.Fatal(err)
				}
				p := e.Plan
				if p.Provider != tt.provider || p.InstanceType != tt.instance || p.Region != tt.region || p.Pricing != tt.pricing ||
					p.GPU != tt.gpu || p.GPUsPerNode != tt.gpusPerNode {
					t.Errorf("estimate --phase: %s %s %s %s %s × %d, want %s %s %s %s %s × %d", p.Provider, p.InstanceType, p.Region, p.Pricing, p.GPU, p.GPUsPerNode,
						tt.provider, tt.instance, tt.region, tt.pricing, tt.gpu, tt.gpusPerNode)
				}
				if p.Exportable == tt.refused || tt.refused && !strings.Contains(p.NotExported, cmp.Or(tt.refusal, tt.verdict)) {
					t.Errorf("estimate --phase --json: exportable %v (%q), want %v with %q", p.Exportable, p.NotExported, !tt.refused, cmp.Or(tt.refusal, tt.verdict))
				}
			}

			// export --phase: the same offer and strategy, or plan's refusal.
			dst := filepath.Join(t.TempDir(), "out.toml")
			code, out, errOut = runCLI(t, "export", "--config", file, "--phase", tt.phase, "--format", "toml", "-o", dst, "--json")
			if tt.refused {
				want := `phase "` + tt.phase + `" ` + tt.verdict
				if tt.refusal != "" {
					want = "gpuplan: " + tt.refusal + "\n"
				}
				if code != 2 || !strings.Contains(errOut, want) {
					t.Errorf("export --phase: exit %d, want 2 and %q in:\n%s", code, want, errOut)
				}
				return
			}
			if code != 0 {
				t.Fatalf("export --phase: exit %d: %s", code, errOut)
			}
			var x exportJSON
			if err := json.Unmarshal([]byte(out), &x); err != nil {
				t.Fatal(err)
			}
			want := exportOfferJSON{Provider: tt.provider, InstanceType: tt.instance, Region: tt.region, Pricing: tt.pricing,
				Nodes: tt.nodes, GPUsPerNode: tt.gpusPerNode, GPU: tt.gpu}
			if o := x.Offer; o.Provider != want.Provider || o.InstanceType != want.InstanceType || o.Region != want.Region ||
				o.Pricing != want.Pricing || o.Nodes != want.Nodes || o.GPUsPerNode != want.GPUsPerNode || o.GPU != want.GPU {
				t.Errorf("export --phase: offer %+v, want %+v", o, want)
			}
			b, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			if tt.strategy != "" && !strings.Contains(string(b), "\nstrategy = \""+tt.strategy+"\"") {
				t.Errorf("export --phase: want strategy %q in:\n%s", tt.strategy, b)
			}
			if mb, ok := batch[tt.phase]; ok {
				// The launch file's Trainer flags are the job's batch.
				want := fmt.Sprintf(`"--per_device_train_batch_size", "%d", "--gradient_accumulation_steps", "%d"`, mb[0], mb[1])
				if !strings.Contains(string(b), want) {
					t.Errorf("export --phase: want %s in the launch file:\n%s", want, b)
				}
				// torchrun's script: the same flags, on the offer's GPUs.
				code, script, errOut := runCLI(t, "export", "--config", file, "--phase", tt.phase, "--format", "torchrun")
				want = fmt.Sprintf("--nproc-per-node=%d \\\n", tt.gpusPerNode)
				flags := fmt.Sprintf("--per_device_train_batch_size %d \\\n  --gradient_accumulation_steps %d\n", mb[0], mb[1])
				if code != 0 || !strings.Contains(script, want) || !strings.Contains(script, flags) {
					t.Errorf("export --phase --format torchrun: exit %d, want %q and %q in:\n%s%s", code, want, flags, script, errOut)
				}
			}
			// Said once on stderr, and in the file's notes (walk37: a
			// borderline verdict was said twice; the file's GPUs replaced
			// silently).
			if tt.warn != "" && (strings.Count(errOut, tt.warn) != 1 || !strings.Contains(string(b), "# note: "+tt.warn)) {
				t.Errorf("export --phase: want warning %q once on stderr and in the file's notes:\n%s\n%s", tt.warn, errOut, b)
			}
			if tt.verdict != "" {
				if strings.Count(errOut, `phase "`+tt.phase+`" `+tt.verdict)+strings.Count(errOut, `phase "`+tt.phase+`": `+tt.verdict) != 1 {
					t.Errorf("export --phase: want plan's verdict %q once on stderr:\n%s", tt.verdict, errOut)
				}
				if !strings.Contains(string(b), tt.verdict) {
					t.Errorf("export --phase: want plan's verdict %q in the file's notes:\n%s", tt.verdict, b)
				}
			}
		})
	}
}

// TestPhaseFlagsAgree: --gpus (or --gpu) on a phase, estimate --phase and
// export --phase resolve the strategy alike, as plan resolves it (FSDP
// where DDP does not fit, no strategy asked), and both say when the flag
// departs from the phase's offer (walk36c: --phase tune --gpus 8 said
// "8 GPUs ddp ✗ does not fit" where export wrote fsdp; --phase gpus16
// --gpus 16 said 16 GPUs ddp ✗ while export wrote 2 nodes fsdp without a
// word that the plan rents one instance).
func TestPhaseFlagsAgree(t *testing.T) {
	const file = "testdata/phase36.toml"
	tests := []struct {
		phase    string
		args     []string
		gpus     int
		strategy string
		nodes    int    // export's; 0: export not run (--gpu another GPU)
		departs  string // the note both print; "" for none
	}{
		// --gpus 8 is the offer's own count: the phase as plan checks it.
		{"tune", []string{"--gpus", "8"}, 8, "fsdp", 1, ""},
		{"gpus16", []string{"--gpus", "16"}, 16, "fsdp", 2, `phase "gpus16" rents aws p4d.24xlarge (8 × a100-40gb); --gpus 16 departs from it`},
		{"gpus16", []string{"--gpus", "8"}, 8, "fsdp", 1, ""},
		// On an 80 GB GPU DDP fits: resolved there, not on the offer's.
		{"gpus16", []string{"--gpu", "h100-sxm"}, 8, "ddp", 0, `phase "gpus16" rents aws p4d.24xlarge (8 × a100-40gb); --gpu h100-sxm departs from it`},
		// A serving phase: the estimate says so too (strategy "": serving).
		{"serve", []string{"--gpus", "8"}, 8, "", 0, `phase "serve" rents aws g5.12xlarge (4 × a10g); --gpus 8 departs from it`},
		{"serve", []string{"--gpu", "h100-sxm"}, 0, "", 0, `phase "serve" rents aws g5.12xlarge (4 × a10g); --gpu h100-sxm departs from it`},
		// A flag equal to what the phase has is the phase itself: no note,
		// the pinned offer kept (walk37: --gpus 4 on serve left its
		// offer and price, --gpu a10g planned one A10G).
		{"serve", []string{"--gpus", "4"}, 4, "", 0, ""},
		{"serve", []string{"--gpu", "a10g"}, 4, "", 0, ""},
		{"serve", []string{"--gpu", "a10g", "--gpus", "4"}, 4, "", 0, ""},
		{"gpus16", []string{"--gpu", "a100-40gb"}, 8, "fsdp", 1, ""},
		{"gpus16", []string{"--gpu", "a100-40gb", "--gpus", "8"}, 8, "fsdp", 1, ""},
		// --gpus 8 on the answers' batch 4 × accumulation 2 renting 8
		// H200s: the phase itself, its global batch split as plan splits
		// it (walk37: 4 × 2 on each GPU, ddp ✗, where plan said it fits).
		{"ft8", []string{"--gpus", "8"}, 8, "fsdp", 1, ""},
		{"auto2", []string{"--gpus", "2"}, 2, "ddp", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.phase+strings.Join(tt.args, ""), func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"estimate", "--config", file, "--phase", tt.phase, "--json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("estimate: exit %d: %s", code, errOut)
			}
			var e struct {
				Workload struct {
					GPUs     int    `json:"gpus"`
					Strategy string `json:"strategy"`
				} `json:"workload"`
				Plan *struct {
					GPUs         int    `json:"gpus"`
					InstanceType string `json:"instance_type"`
				} `json:"plan"` // serving's
			}
			if err := json.Unmarshal([]byte(out), &e); err != nil {
				t.Fatal(err)
			}
			if e.Plan != nil { // serving: its plan's GPUs (0: any), no strategy
				if tt.gpus > 0 && e.Plan.GPUs != tt.gpus {
					t.Errorf("estimate %v: %d GPUs, want %d", tt.args, e.Plan.GPUs, tt.gpus)
				}
				if tt.departs == "" && e.Plan.InstanceType != "g5.12xlarge" {
					t.Errorf("estimate %v: on %q, want the phase's own g5.12xlarge", tt.args, e.Plan.InstanceType)
				}
			} else if e.Workload.GPUs != tt.gpus || e.Workload.Strategy != tt.strategy {
				t.Errorf("estimate %v: %d GPUs %s, want %d %s", tt.args, e.Workload.GPUs, e.Workload.Strategy, tt.gpus, tt.strategy)
			}
			if has := strings.Contains(errOut, "departs from it"); has != (tt.departs != "") || tt.departs != "" && !strings.Contains(errOut, tt.departs) {
				t.Errorf("estimate %v: want departure note %q in:\n%s", tt.args, tt.departs, errOut)
			}
			if tt.nodes == 0 {
				return
			}
			dst := filepath.Join(t.TempDir(), "out.toml")
			code, out, errOut = runCLI(t, append([]string{"export", "--config", file, "--phase", tt.phase, "--format", "toml", "-o", dst, "--json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("export: exit %d: %s", code, errOut)
			}
			var x exportJSON
			if err := json.Unmarshal([]byte(out), &x); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			if x.Offer.Nodes != tt.nodes || x.Offer.Nodes*x.Offer.GPUsPerNode != tt.gpus || !strings.Contains(string(b), "\nstrategy = \""+tt.strategy+"\"") {
				t.Errorf("export %v: %d nodes × %d, want %d GPUs on %d nodes, strategy %s:\n%s", tt.args, x.Offer.Nodes, x.Offer.GPUsPerNode, tt.gpus, tt.nodes, tt.strategy, b)
			}
			if has := strings.Contains(errOut, "departs from it"); has != (tt.departs != "") || tt.departs != "" && !strings.Contains(errOut, tt.departs) {
				t.Errorf("export %v: want departure note %q in:\n%s", tt.args, tt.departs, errOut)
			}
			if has := strings.Contains(string(b), "departs from it"); has != (tt.departs != "") || tt.departs != "" && !strings.Contains(string(b), "# note: "+tt.departs) {
				t.Errorf("export %v: want the file's note %q:\n%s", tt.args, tt.departs, b)
			}
		})
	}
}

// TestPhasePlanRefusedAlike: a plan gpuplan plan refuses (Plan.Cost: a
// phase without usd_per_hour, or neither job_hours nor months) is refused
// by estimate --phase, export --phase and recommend --phase too, exit 2
// with plan's line, and export writes nothing (walk36c: estimate and
// export exited 0 and export wrote a file).
func TestPhasePlanRefusedAlike(t *testing.T) {
	const head = "schema_version = 1\nname = \"bad\"\n[[phase]]\nname = \"serve\"\nprovider = \"aws\"\ninstance = \"g5.xlarge\"\nregion = \"us-east-1\"\ninstances = 1\n"
	const answers = "[phase.answers]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n"
	tests := []struct{ name, body, want string }{
		{"no usd_per_hour", "months = 1\n", `phase "serve": usd_per_hour is missing`},
		{"no duration", "usd_per_hour = 1.006\n", `phase "serve": give job_hours (a job) or months (a service), not both or neither`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "plan.toml")
			if err := os.WriteFile(file, []byte(head+tt.body+answers), 0o644); err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(dir, "out.toml")
			for _, args := range [][]string{
				{"plan", file, "--no-savings"},
				{"estimate", "--config", file, "--phase", "serve"},
				{"export", "--config", file, "--phase", "serve", "--format", "toml", "-o", dst},
				{"recommend", "--config", file, "--phase", "serve"},
			} {
				code, _, errOut := runCLI(t, args...)
				if code != 2 || !strings.Contains(errOut, file+": invalid plan: "+tt.want) {
					t.Errorf("%s: exit %d, want 2 and %q in:\n%s", args[0], code, tt.want, errOut)
				}
			}
			if _, err := os.Stat(dst); err == nil {
				t.Errorf("export wrote %s", dst)
			}
		})
	}
}
