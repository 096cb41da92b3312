package launch

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// FuzzServeInjection puts one string into every text field of a serving
// deployment and checks that the script and docker argv, the SkyPilot and
// Kubernetes YAML and the TOML still carry exactly that string where
// gpuplan put it (seeds: injectSeeds, run as ordinary tests).
func FuzzServeInjection(f *testing.F) {
	for i, s := range injectSeeds {
		f.Add(s, uint8(i))
	}
	f.Add("NVIDIA V100 $(id)\n# `x`; --dtype", uint8(32|2)) // a hostile GPU name in the fallback note
	// Spot on AKS: the spot label, its toleration and the header line.
	f.Add("azure", uint8(16))
	// An MoE model, 4 replicas on the node: one vllm serve each.
	f.Add("org/model $(id)", uint8(64|3))
	// A price region narrowed by the search: any_of, one entry a region.
	f.Add("lambda", uint8(128))
	// A LoRA adapter named, trained and written by hostile text.
	f.Add("ft $(id)=x,y\n# --lora-modules", uint8(8))
	f.Add("qwen3-8b-lora", uint8(64|8|3))
	f.Fuzz(func(t *testing.T, s string, shape uint8) {
		sv := &Serve{Name: "gpuplan-serve", Model: s, ModelID: s, Provider: s, InstanceType: s, CatalogType: s, Region: s,
			Pricing: model.OnDemand, Accelerator: s, GPUsPerInstance: 8, HostVCPUs: 96, HostMemoryGiB: 768, USDPerHour: 10,
			TP: 2, PP: 1, ReplicasPerNode: 1 + int(shape%4), Replicas: 4, Nodes: 1, DiskGB: 200, Image: s,
			Serving: serve.Serving{WeightFormat: serve.WeightFormats[int(shape)%len(serve.WeightFormats)], KVCacheDType: serve.KVAuto,
				MaxModelLen: 8192, GPUMemoryUtilization: 0.9, MaxNumSeqs: 256, MaxNumBatchedTokens: 2048,
				// A YaRN scaling, its type the fuzzed string: the
				// --hf-overrides JSON (encoding/json) must reach vllm
				// serve as one word in every file.
				RopeScaling: serve.RopeScaling{Type: s, Factor: 4, Original: 32768}},
			Arch: &model.Architecture{Key: "qwen3", MaxPositions: 40960, RopeTheta: 1e6}}
		if !slices.Contains(sv.VLLMArgs(), "--hf-overrides") {
			t.Fatalf("no --hf-overrides in %q", sv.VLLMArgs())
		}
		sv.Notes = []model.Message{model.Msg("phase %q: %v", s, s)} // a caller's note (export --phase) is header text
		if shape&16 != 0 {
			sv.Pricing = model.Spot
		}
		if shape&32 != 0 { // a fallback plan: its note carries the GPU's name
			sv.HalfActivations, sv.FallbackFrom, sv.Fallback = true, serve.WeightFP8, s
		}
		if shape&64 != 0 { // an MoE model: one vllm serve per replica (OneServerPerReplica)
			sv.Arch = &model.Architecture{Key: "moe", Experts: 8, ExpertsPerToken: 2, MaxPositions: 40960, RopeTheta: 1e6}
		}
		if shape&128 != 0 { // a price region the search narrowed to some of its regions: any_of names each
			sv.AnyOfRegions, sv.Regions, sv.PriceRegions = 2, []string{s, s}, 17
		}
		if shape&8 != 0 { // a LoRA adapter named s, trained by a phase s writing to s (plan.LinkTrained)
			sv.Serving.LoRA = &serve.LoRA{Name: s, Rank: 16, MaxRank: 16, MaxLoRAs: 1}
			sv.Adapter = newAdapter(&serve.Plan{Serving: sv.Serving}, &ServeAdapter{From: s, OutputDir: s})
		}
		mounted := sv.mounted() // docker, SkyPilot and Kubernetes read the adapter at AdapterMount
		if s == "" {
			return // NewServe never leaves the model id or image empty
		}
		if hasShellTrouble(s) || !utf8.ValidString(s) {
			for _, fm := range []Format{FormatTorchrun, FormatDocker, FormatSkyPilot, FormatK8s, FormatTOML} {
				if _, err := sv.Render(fm); !errors.Is(err, ErrPlan) {
					t.Fatalf("%s rendered %q: err = %v", fm, s, err)
				}
			}
			return
		}
		if sv.OneServerPerReplica() {
			fuzzReplicaServers(t, sv, s)
			return
		}
		want := append([]string{"exec", "vllm", "serve", s}, sv.VLLMArgs()...)
		script, err := sv.Render(FormatTorchrun)
		if err != nil {
			t.Fatal(err)
		}
		cmds := parseScript(t, string(script), syntax.LangPOSIX)
		if got := cmds[len(cmds)-1].argv; !reflect.DeepEqual(got, want) {
			t.Fatalf("script argv %q, want %q\n%s", got, want, script)
		}
		docker, err := sv.Render(FormatDocker)
		if err != nil {
			t.Fatal(err)
		}
		cmds = parseScript(t, string(docker), syntax.LangPOSIX)
		got := cmds[len(cmds)-1].argv
		if i := indexOf(got, "--model"); i < 1 || got[i-1] != s || !reflect.DeepEqual(got[i+1:], append([]string{s}, mounted.VLLMArgs()...)) {
			t.Fatalf("docker argv %q\n%s", got, docker)
		}
		// A provider that is no SkyPilot cloud is refused; the rest of the
		// SkyServe file is checked with one that is.
		cloud := s
		if !skyPilotCloud(s) {
			if _, err := sv.Render(FormatSkyPilot); !errors.Is(err, ErrPlan) {
				t.Fatalf("SkyPilot with provider %q: err = %v, want ErrPlan", s, err)
			}
			aws := *sv
			aws.Provider, cloud = "aws", "aws"
			sv = &aws
		}
		sky, err := sv.Render(FormatSkyPilot)
		if err != nil {
			t.Fatal(err)
		}
		var task struct {
			Name      string   `yaml:"name"`
			Resources skyOffer `yaml:",inline"`
			R         struct {
				skyOffer `yaml:",inline"`
				UseSpot  bool       `yaml:"use_spot"`
				DiskSize int        `yaml:"disk_size"`
				Ports    int        `yaml:"ports"`
				ImageID  string     `yaml:"image_id"`
				AnyOf    []skyOffer `yaml:"any_of"`
			} `yaml:"resources"`
			Secrets    map[string]*string `yaml:"secrets"`
			FileMounts map[string]string  `yaml:"file_mounts"`
			Service    map[string]any     `yaml:"service"`
			Setup      string             `yaml:"setup"`
			Run        string             `yaml:"run"`
		}
		decodeStrict(t, sky, &task)
		offers := []skyOffer{task.R.skyOffer}
		if len(sv.Regions) > 0 {
			if task.R.Cloud != "" || len(task.R.AnyOf) != len(sv.Regions) {
				t.Fatalf("regions: want resources.any_of with %d offers and none inline:\n%s", len(sv.Regions), sky)
			}
			offers = task.R.AnyOf
		}
		for _, o := range offers {
			if o.Cloud != cloud || o.Region != s || o.InstanceType != s || o.Accelerators != s+":8" || task.R.Ports != 8000 {
				t.Fatalf("SkyPilot resources changed: %+v\n%s", task.R, sky)
			}
		}
		wantSky := append([]string{"vllm", "serve", s}, mounted.VLLMArgs()...)
		run := parseScript(t, task.Run, syntax.LangBash)
		if got := run[len(run)-1].argv; !reflect.DeepEqual(got, wantSky) {
			t.Fatalf("SkyPilot run argv %q\n%s", got, task.Run)
		}
		if a := sv.Adapter; a != nil && !reflect.DeepEqual(task.FileMounts, map[string]string{AdapterMount + "/" + a.Name: AdapterDir + "/" + a.Name}) || a == nil && task.FileMounts != nil {
			t.Fatalf("SkyPilot file_mounts %v for adapter %+v\n%s", task.FileMounts, a, sky)
		}
		// On a container cloud an AMD GPU's image is the container
		// (PodImage): one image_id scalar, vllm serve in run as above.
		pod := *sv
		pod.Provider, pod.ROCm, pod.PodImage = "runpod", true, s
		podSky, err := pod.Render(FormatSkyPilot)
		if err != nil {
			t.Fatal(err)
		}
		task.R.ImageID, task.Setup, task.Run = "", "", ""
		decodeStrict(t, podSky, &task)
		if task.R.ImageID != "docker:"+s || task.Setup != "" {
			t.Fatalf("pod image_id %q, setup %q:\n%s", task.R.ImageID, task.Setup, podSky)
		}
		run = parseScript(t, task.Run, syntax.LangBash)
		if got := run[len(run)-1].argv; !reflect.DeepEqual(got, wantSky) {
			t.Fatalf("SkyPilot pod run argv %q\n%s", got, task.Run)
		}
		k8s, err := sv.Render(FormatK8s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(k8s), "kind: Deployment") || !strings.Contains(string(k8s), "kind: Service") {
			t.Fatalf("k8s:\n%s", k8s)
		}
		var deploy map[string]any
		if err := yaml.NewDecoder(strings.NewReader(string(k8s))).Decode(&deploy); err != nil {
			t.Fatalf("k8s: %v\n%s", err, k8s)
		}
		spec := get(deploy, "spec", "template", "spec").(map[string]any)
		if a := sv.Adapter; a != nil {
			containers, _ := spec["containers"].([]any)
			c, _ := containers[0].(map[string]any)
			args, _ := c["args"].([]any)
			vols, _ := spec["volumes"].([]any)
			if len(args) < 1 || args[len(args)-1] != a.Name+"="+AdapterMount+"/"+a.Name || !slices.ContainsFunc(vols, func(v any) bool {
				m, _ := v.(map[string]any)
				return m["name"] == "adapter" && get(m, "persistentVolumeClaim", "claimName") == DefaultOutputClaim
			}) {
				t.Fatalf("k8s adapter %+v: args %v, volumes %v\n%s", a, args, vols, k8s)
			}
		}
		sel, _ := spec["nodeSelector"].(map[string]any)
		wantSel := map[string]any{}
		if ValidLabelValue(s) {
			wantSel[instanceTypeLabel] = s
		}
		if sn, ok := spotNodesByProvider[sv.Provider]; ok && sv.Pricing == model.Spot {
			wantSel[sn.label] = sn.value
		}
		if len(wantSel) > 0 && !reflect.DeepEqual(sel, wantSel) || len(wantSel) == 0 && sel != nil {
			t.Fatalf("Deployment nodeSelector = %v for instance type %q and provider %q (%s), want %v", sel, s, sv.Provider, sv.Pricing, wantSel)
		}
		if tol, _ := spec["tolerations"].([]any); len(tol) != 1+map[bool]int{true: 1}[sv.Pricing == model.Spot && sv.Provider == "azure"] {
			t.Fatalf("Deployment tolerations %v on %s (%s)", tol, sv.Provider, sv.Pricing)
		}
		// The Hugging Face cache on a claim named s (--k8s-pvc): refused
		// unless a DNS-1123 subdomain, else the claim document leads and
		// the Deployment's hf-cache volume names it.
		withClaim := *sv
		withClaim.CacheClaim = s
		switch k8s, err := withClaim.Render(FormatK8s); {
		case !ValidSubdomain(s):
			if !errors.Is(err, ErrPlan) {
				t.Fatalf("k8s with claim %q: err = %v, want ErrPlan", s, err)
			}
		case err != nil:
			t.Fatal(err)
		default:
			dec := yaml.NewDecoder(strings.NewReader(string(k8s)))
			var claim, deploy map[string]any
			if err := dec.Decode(&claim); err != nil || get(claim, "metadata", "name") != s {
				t.Fatalf("k8s claim %v (%v):\n%s", claim, err, k8s)
			}
			if err := dec.Decode(&deploy); err != nil {
				t.Fatalf("k8s: %v\n%s", err, k8s)
			}
			vols, _ := get(deploy, "spec", "template", "spec", "volumes").([]any)
			if !slices.ContainsFunc(vols, func(v any) bool {
				m, _ := v.(map[string]any)
				return m["name"] == "hf-cache" && get(m, "persistentVolumeClaim", "claimName") == s
			}) {
				t.Fatalf("hf-cache is not on the claim %q:\n%s", s, k8s)
			}
		}
		tm, err := sv.Render(FormatTOML)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Serve map[string]any `toml:"serve"`
		}
		if _, err := toml.Decode(string(tm), &doc); err != nil || doc.Serve["model_id"] != s || doc.Serve["instance_type"] != s || doc.Serve["image"] != s ||
			doc.Serve["rope_scaling"] != s+":4:32768" {
			t.Fatalf("TOML: %v %v\n%s", err, doc.Serve, tm)
		}
	})
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// fuzzReplicaServers checks an MoE deployment's files for FuzzServeInjection:
// the script and docker start one server per replica whose argv carries s
// exactly where gpuplan put it, SkyPilot refuses, the TOML keeps s.
func fuzzReplicaServers(t *testing.T, sv *Serve, s string) {
	t.Helper()
	for _, f := range []Format{FormatTorchrun, FormatDocker} {
		out, err := sv.Render(f)
		if err != nil {
			t.Fatal(err)
		}
		var jobs []command
		for _, c := range parseScriptJobs(t, string(out), syntax.LangPOSIX, true) {
			if c.background {
				jobs = append(jobs, c)
			}
		}
		if len(jobs) != sv.ReplicasPerNode {
			t.Fatalf("%s: %d servers, want %d\n%s", f, len(jobs), sv.ReplicasPerNode, out)
		}
		for i, j := range jobs {
			args := append(sv.ServerArgs(), "--port", fmt.Sprint(sv.ReplicaPort(i)))
			if f == FormatDocker { // the adapter at its mount (Serve.mounted)
				args = append(sv.mounted().ServerArgs(), "--port", fmt.Sprint(sv.ReplicaPort(i)))
			}
			got, want := j.argv, append([]string{"vllm", "serve", s}, args...)
			if f == FormatDocker {
				m := indexOf(got, "--model")
				if m < 1 || got[m-1] != s {
					t.Fatalf("docker server %d argv %q\n%s", i, got, out)
				}
				got, want = got[m+1:], append([]string{s}, args...)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s server %d argv %q, want %q\n%s", f, i, got, want, out)
			}
		}
	}
	if _, err := sv.Render(FormatSkyPilot); !errors.Is(err, ErrPlan) {
		t.Fatalf("SkyPilot of one server per replica: err = %v, want ErrPlan", err)
	}
	tm, err := sv.Render(FormatTOML)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Serve map[string]any `toml:"serve"`
	}
	if _, err := toml.Decode(string(tm), &doc); err != nil || doc.Serve["model_id"] != s || doc.Serve["image"] != s {
		t.Fatalf("TOML: %v %v\n%s", err, doc.Serve, tm)
	}
}
