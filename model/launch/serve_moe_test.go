package launch

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// moeServe is a deployment of TP-tp replicas, perNode on each 8-GPU
// instance, of a dense model or of an MoE one (8 experts, top 2).
func moeServe(moe bool, perNode, tp int) *Serve {
	a := &model.Architecture{Key: "dense"}
	if moe {
		a = &model.Architecture{Key: "moe", Experts: 8, ExpertsPerToken: 2}
	}
	return &Serve{Name: "gpuplan-serve", Model: a.Key, ModelID: "org/model", Provider: "aws", InstanceType: "p5.48xlarge",
		CatalogType: "p5.48xlarge", Region: "us-east-1", Pricing: model.OnDemand, Accelerator: "H100", GPUsPerInstance: 8,
		HostVCPUs: 192, HostMemoryGiB: 2048, USDPerHour: 98, TP: tp, PP: 1, ReplicasPerNode: perNode, Replicas: perNode, Nodes: 1,
		DiskGB: 200, Image: DefaultVLLMImage, Arch: a,
		Serving: serve.Serving{WeightFormat: serve.WeightBF16, KVCacheDType: serve.KVAuto, MaxModelLen: 8192,
			GPUMemoryUtilization: 0.9, MaxNumSeqs: 256, MaxNumBatchedTokens: 2048}}
}

// TestServeMoEOneServerPerReplica: replicas sharing an instance run as one
// vllm serve with --data-parallel-size N for a dense model (N independent
// engines, vLLM's "Non-MoE DP ranks are completely independent"), and as N
// vllm serve, each on its own TP GPUs (CUDA_VISIBLE_DEVICES) and port
// 8000+i and without --data-parallel-size, for an MoE model, whose DP
// ranks vLLM ties into one expert-layer group. Hand-worked: TP 2 × 4
// replicas are GPUs 0,1 / 2,3 / 4,5 / 6,7 on ports 8000–8003.
func TestServeMoEOneServerPerReplica(t *testing.T) {
	type server struct{ gpus, port string }
	for _, tc := range []struct {
		moe         bool
		perNode, tp int
		dp          string   // --data-parallel-size of the one vllm serve, "" for none
		servers     []server // MoE: one per replica
		note        string   // in the script's header
	}{
		{moe: false, perNode: 1, tp: 1},
		{moe: false, perNode: 2, tp: 1, dp: "2"},
		{moe: false, perNode: 4, tp: 2, dp: "4"},
		{moe: false, perNode: 2, tp: 2, dp: "2"},
		{moe: true, perNode: 1, tp: 1},
		{moe: true, perNode: 1, tp: 2},
		{moe: true, perNode: 2, tp: 1, servers: []server{{"0", "8000"}, {"1", "8001"}},
			note: "# note: a mixture-of-experts model: this script starts its 2 replicas on an instance as one vllm serve each, on 1 GPU of its own (CUDA_VISIBLE_DEVICES) and port 8000–8001, not one with --data-parallel-size 2, which would tie their expert layers into one group that steps together; put ports 8000–8001 behind a load balancer\n"},
		{moe: true, perNode: 4, tp: 1, servers: []server{{"0", "8000"}, {"1", "8001"}, {"2", "8002"}, {"3", "8003"}}},
		{moe: true, perNode: 2, tp: 2, servers: []server{{"0,1", "8000"}, {"2,3", "8001"}}},
		{moe: true, perNode: 4, tp: 2, servers: []server{{"0,1", "8000"}, {"2,3", "8001"}, {"4,5", "8002"}, {"6,7", "8003"}},
			note: "# note: a mixture-of-experts model: this script starts its 4 replicas on an instance as one vllm serve each, on 2 GPUs of its own (CUDA_VISIBLE_DEVICES) and port 8000–8003, not one with --data-parallel-size 4, which would tie their expert layers into one group that steps together; put ports 8000–8003 behind a load balancer\n"},
	} {
		name := fmt.Sprintf("moe=%v/%d-per-node/TP%d", tc.moe, tc.perNode, tc.tp)
		t.Run(name, func(t *testing.T) {
			s := moeServe(tc.moe, tc.perNode, tc.tp)
			if got := s.OneServerPerReplica(); got != (len(tc.servers) > 0) {
				t.Fatalf("OneServerPerReplica = %v", got)
			}
			args := s.ServerArgs()
			if i := slices.Index(args, "--data-parallel-size"); tc.dp == "" && i >= 0 || tc.dp != "" && (i < 0 || args[i+1] != tc.dp) {
				t.Fatalf("ServerArgs %q, want --data-parallel-size %q", args, tc.dp)
			}
			script, err := s.Render(FormatTorchrun)
			if err != nil {
				t.Fatal(err)
			}
			docker, err := s.Render(FormatDocker)
			if err != nil {
				t.Fatal(err)
			}
			if tc.note != "" && !strings.Contains(string(script), tc.note) {
				t.Errorf("script header lacks %q:\n%s", tc.note, script)
			}
			if strings.Contains(string(script), "engines per node through --data-parallel-size") != (tc.dp != "") {
				t.Errorf("script's --data-parallel-size note wrong:\n%s", script)
			}
			for what, src := range map[string][]byte{"script": script, "docker": docker} {
				cmds := parseScriptJobs(t, string(src), syntax.LangPOSIX, true)
				var jobs []command
				for _, c := range cmds {
					if c.background {
						jobs = append(jobs, c)
					}
				}
				if len(tc.servers) == 0 {
					if len(jobs) != 0 {
						t.Fatalf("%s: %d background commands:\n%s", what, len(jobs), src)
					}
					got := cmds[len(cmds)-1].argv
					want := append([]string{"exec", "vllm", "serve", "org/model"}, args...)
					if what == "docker" {
						got = got[slices.Index(got, "--model")+2:]
						want = args
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s argv %q, want %q", what, got, want)
					}
					continue
				}
				if len(jobs) != len(tc.servers) {
					t.Fatalf("%s: %d servers, want %d:\n%s", what, len(jobs), len(tc.servers), src)
				}
				for i, sv := range tc.servers {
					got := jobs[i].argv
					want := append(append([]string{"vllm", "serve", "org/model"}, args...), "--port", sv.port)
					if what == "script" && !reflect.DeepEqual(jobs[i].env, []string{"CUDA_VISIBLE_DEVICES=" + sv.gpus}) {
						t.Fatalf("script server %d env %q, want GPUs %s", i, jobs[i].env, sv.gpus)
					}
					if what == "docker" {
						want = append([]string{"-p", sv.port + ":" + sv.port}, want[3:]...)
						d := slices.Index(got, "CUDA_VISIBLE_DEVICES="+sv.gpus)
						p := slices.Index(got, "-p")
						m := slices.Index(got, "--model")
						if d < 1 || got[d-1] != "-e" || p < 0 || m < 0 {
							t.Fatalf("docker server %d argv %q, want -e CUDA_VISIBLE_DEVICES=%s", i, got, sv.gpus)
						}
						got = append(got[p:p+2], got[m+2:]...)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s server %d argv %q, want %q", what, i, got, want)
					}
				}
				if last := cmds[len(cmds)-1].argv; !reflect.DeepEqual(last, []string{"<watch>"}) {
					t.Fatalf("%s ends with %q, want the loop that watches the servers", what, last)
				}
				if !strings.Contains(string(src), "\n"+replicaTraps) || strings.Index(string(src), replicaTraps) > strings.Index(string(src), " &\n") {
					t.Fatalf("%s does not stop its servers, or sets its traps after starting them:\n%s", what, src)
				}
			}
			for what, src := range map[string][]byte{"script": script, "docker": docker} {
				if sh, err := exec.LookPath("sh"); err == nil {
					cmd := exec.Command(sh, "-n")
					cmd.Stdin = bytes.NewReader(src)
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Errorf("%s: sh -n: %v %s\n%s", what, err, out, src)
					}
				}
			}
			sky, err := s.Render(FormatSkyPilot)
			switch {
			case len(tc.servers) > 0 && !errors.Is(err, ErrPlan):
				t.Fatalf("SkyPilot of an MoE model's %d replicas per instance: err = %v, want ErrPlan", tc.perNode, err)
			case len(tc.servers) == 0 && err != nil:
				t.Fatal(err)
			case len(tc.servers) == 0:
				if (tc.dp != "") != strings.Contains(string(sky), "--data-parallel-size "+tc.dp+" ") {
					t.Fatalf("SkyPilot run:\n%s", sky)
				}
			}
			tm, err := s.Render(FormatTOML)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Serve struct {
					VLLMArgs []string `toml:"vllm_args"`
				} `toml:"serve"`
			}
			if _, err := toml.Decode(string(tm), &doc); err != nil || !reflect.DeepEqual(doc.Serve.VLLMArgs, args) {
				t.Fatalf("TOML vllm_args %q, want %q (%v)", doc.Serve.VLLMArgs, args, err)
			}
			if len(tc.servers) > 0 && !strings.Contains(string(tm), "CUDA_VISIBLE_DEVICES="+tc.servers[0].gpus+" for the first) and --port 8000–") {
				t.Errorf("TOML header does not say how to run the servers:\n%s", tm)
			}
			k8s, err := s.Render(FormatK8s)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(k8s), "- --data-parallel-size") {
				t.Errorf("Kubernetes pods pass --data-parallel-size:\n%s", k8s)
			}
		})
	}
}
