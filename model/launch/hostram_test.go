package launch

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestLoadDtypeMatchesHostRAMCheck holds the dtype the exported script
// loads the weights in (TRL's --dtype) to the bytes per parameter the
// host-RAM check counts (model.LoadBytesPerParam), for every precision
// and training task: the walk that found a 70B FSDP export loading
// float32 while the check counted a 16-bit copy.
func TestLoadDtypeMatchesHostRAMCheck(t *testing.T) {
	bytes := map[string]float64{"float32": 4, "bfloat16": 2, "float16": 2}
	for _, task := range []model.Task{model.TaskTrain, model.TaskFinetune, model.TaskLoRA, model.TaskQLoRA} {
		for _, prec := range []model.Precision{model.FP32, model.TF32, model.AMPFP16, model.AMPBF16, model.BF16, model.FP16, model.FP8} {
			p := &Plan{Task: task, Precision: prec}
			w := &model.Workload{Settings: model.Settings{Task: task, Precision: prec}}
			got, ok := bytes[p.LoadDtype()]
			if !ok {
				t.Fatalf("%s %s: LoadDtype %q has no size here", task, prec, p.LoadDtype())
			}
			if want := model.LoadBytesPerParam(w); got != want {
				t.Errorf("%s %s: the script loads %s (%g B), the host-RAM check counts %g B", task, prec, p.LoadDtype(), got, want)
			}
		}
	}
}

// TestFSDPArgsLoadOnRankZero: every FSDP export asks the Trainer for
// cpu_ram_efficient_loading with sync_module_states, so one process per
// node reads the checkpoint (what model.HostRAMNeed counts); DDP and
// ZeRO exports do not carry the FSDP config.
func TestFSDPArgsLoadOnRankZero(t *testing.T) {
	for _, tt := range []struct {
		s       model.Strategy
		offload bool
		want    bool
	}{
		{model.FSDP, false, true},
		{model.FSDP, true, true},
		{model.DDP, false, false},
		{model.ZeRO3, false, false},
	} {
		p := &Plan{Task: model.TaskFinetune, Precision: model.AMPBF16, Strategy: tt.s, MicroBatch: 1, GradAccum: 1}
		p.OffloadParams = tt.offload
		args := p.derivedArgs(DeepSpeedFile)
		i := indexOf(args, "--fsdp_config")
		if got := i >= 0; got != tt.want {
			t.Fatalf("%s offload=%v: --fsdp_config present %v, want %v: %q", tt.s, tt.offload, got, tt.want, args)
		}
		if i >= 0 && (i+1 >= len(args) || args[i+1] != `{"cpu_ram_efficient_loading": true, "sync_module_states": true}`) {
			t.Errorf("%s: --fsdp_config value %q", tt.s, args[i+1:])
		}
	}
}

// TestK8sMemoryMeetsHostRAMNeed: the pod's memory limit is at least the
// host RAM the check counted (rounded up), and a need above the pod's
// share of the node is refused with one line. p5.48xlarge: 2048 GiB, 8
// GPUs; ¾ of it is 1536 Gi.
func TestK8sMemoryMeetsHostRAMNeed(t *testing.T) {
	for _, tt := range []struct {
		name        string
		procs       int
		need        float64
		wantMem     string
		wantRefusal bool
	}{
		{"70B FSDP fp32 on rank 0: 282.4 GB = 263.0 GiB, under ¾ of 2048", 8, 282.4e9 / model.GiB, "1536Gi", false},
		{"need above ¾ of the node: raised to 1800 Gi", 8, 1800, "1800Gi", false},
		{"need 1800.2 GiB rounds up to 1801 Gi", 8, 1800.2, "1801Gi", false},
		{"4 of 8 GPUs: share 1024 GiB, need 1100 GiB refused", 4, 1100, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &Plan{HostMemoryGiB: 2048, HostVCPUs: 192, GPUsPerInstance: 8, ProcsPerNode: tt.procs, HostRAMNeedGiB: tt.need, InstanceType: "p5.48xlarge"}
			err := p.checkHostRAM()
			if (err != nil) != tt.wantRefusal {
				t.Fatalf("checkHostRAM() = %v, want refusal %v", err, tt.wantRefusal)
			}
			if err != nil {
				if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "1100 GiB") {
					t.Errorf("refusal not one line naming the need: %q", err)
				}
				return
			}
			b, err := encodeYAML(nil, p.resources())
			if err != nil {
				t.Fatal(err)
			}
			out := string(b)
			if !strings.Contains(out, "memory: "+tt.wantMem) {
				t.Errorf("resources:\n%s\nwant memory %s", out, tt.wantMem)
			}
		})
	}
}

// TestFSDPLoadNoteQLoRA (walk55): the FSDP note says what the host-RAM
// check counted. A full fine-tune loads one copy on local rank 0; QLoRA's
// quantized load is not rank-0-only (transformers load_shard_file skips
// the other ranks only when not quantized): every process quantizes its
// shards onto its GPU and rank 0 keeps the 4-bit weights on the CPU.
func TestFSDPLoadNoteQLoRA(t *testing.T) {
	for _, tt := range []struct {
		task       model.Task
		want, miss string
	}{
		{model.TaskFinetune, "makes local rank 0 of each node read the checkpoint (float32) and broadcast it, so a node needs 263 GiB", "QLoRA"},
		{model.TaskQLoRA, "FSDP QLoRA loading: every process quantizes the checkpoint onto its GPU one shard at a time, and local rank 0 keeps the 4-bit weights on the CPU for FSDP to broadcast, so a node needs 74 GiB", "cpu_ram_efficient_loading makes"},
	} {
		p := &Plan{Task: tt.task, Precision: model.AMPBF16, Strategy: model.FSDP, HostRAMNeedGiB: 263}
		if tt.task == model.TaskQLoRA {
			p.HostRAMNeedGiB = 74
		}
		notes := strings.Join(p.Notes(), "\n")
		if !strings.Contains(notes, tt.want) || strings.Contains(notes, tt.miss) {
			t.Errorf("%s: notes\n%s\nwant %q, not %q", tt.task, notes, tt.want, tt.miss)
		}
	}
}
