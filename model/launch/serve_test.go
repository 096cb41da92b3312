package launch_test

import (
	"errors"
	corev1 "k8s.io/api/core/v1"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// vllmFlags are flags of the current vLLM CLI with the values they take,
// from vllm-project/vllm vllm/engine/arg_utils.py @
// 99d7eb5d6a512cfcc5a2b104f24ebf2d6cda772b, EngineArgs.add_cli_args
// (model_group: --model, --dtype, --max-model-len, --quantization;
// parallel_group: --pipeline-parallel-size, --tensor-parallel-size,
// --data-parallel-size; cache_group: --gpu-memory-utilization,
// --kv-cache-dtype; scheduler_group: --max-num-batched-tokens,
// --max-num-seqs). Values: "int", "float", or the choices of the config
// field's Literal (ModelConfig.dtype ModelDType, CacheConfig.cache_dtype
// CacheDType, the quantization methods gpuplan writes).
var vllmFlags = map[string][]string{
	"--model":                  {"str"},
	"--dtype":                  {"auto", "half", "float16", "bfloat16", "float", "float32"},
	"--max-model-len":          {"int"},
	"--quantization":           {"fp8", "awq", "awq_marlin", "gptq", "gptq_marlin", "compressed-tensors"},
	"--pipeline-parallel-size": {"int"},
	"--tensor-parallel-size":   {"int"},
	"--data-parallel-size":     {"int"},
	"--gpu-memory-utilization": {"float"},
	"--kv-cache-dtype":         {"auto", "fp8", "fp8_e4m3", "fp8_e5m2"},
	"--max-num-batched-tokens": {"int"},
	"--max-num-seqs":           {"int"},
}

// checkVLLMArgs parses args as vLLM's argparse would with vllmFlags.
func checkVLLMArgs(args []string) []string {
	var bad []string
	for i := 0; i < len(args); i++ {
		kind, ok := vllmFlags[args[i]]
		if !ok || i+1 >= len(args) {
			bad = append(bad, args[i]+": not a vLLM flag with a value")
			continue
		}
		v := args[i+1]
		i++
		switch kind[0] {
		case "str":
		case "int":
			if n, err := strconv.Atoi(v); err != nil || n < 1 {
				bad = append(bad, args[i-1]+" "+v+": want a positive int")
			}
		case "float":
			if f, err := strconv.ParseFloat(v, 64); err != nil || f <= 0 || f > 1 {
				bad = append(bad, args[i-1]+" "+v+": want a fraction in (0, 1]")
			}
		default:
			if !slices.Contains(kind, v) {
				bad = append(bad, args[i-1]+" "+v+": not one of "+strings.Join(kind, ", "))
			}
		}
	}
	return bad
}

// servePlans plans serving the model on every catalog instance (first
// on-demand region) and returns the plans that fit.
func servePlans(t *testing.T, modelKey string, s serve.Serving) (*model.Catalog, *model.Architecture, []serve.Plan, []string) {
	t.Helper()
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model(modelKey)
	if err != nil {
		t.Fatal(err)
	}
	var offers []serve.Offer
	var regions []string
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if _, _, retired := in.Retirement(); retired {
			continue
		}
		g, err := cat.GPU(in.GPU)
		if err != nil {
			continue
		}
		for _, p := range in.Prices {
			if p.OnDemandUSD > 0 {
				offers = append(offers, serve.OfferFor(in, g, p.OnDemandUSD, in.Provider+" "+in.Type))
				regions = append(regions, p.Region)
				break
			}
		}
	}
	var plans []serve.Plan
	var planRegions []string
	for i, o := range offers {
		p, err := serve.PlanServing(a, s, o)
		if err != nil {
			t.Fatal(err)
		}
		if p.Fits {
			plans = append(plans, p)
			planRegions = append(planRegions, regions[i])
		}
	}
	return cat, a, plans, planRegions
}

// TestServeSweep renders every fitting serving plan of two workloads in
// every format and checks each file as the receiving tool would.
func TestServeSweep(t *testing.T) {
	files, refused := 0, 0
	for _, w := range []struct {
		model string
		s     serve.Serving
	}{
		{"llama-3.1-70b", serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 8192, PromptTokens: 6144, OutputTokens: 2048, Concurrency: 32}},
		{"llama-3.1-8b", serve.Serving{WeightFormat: serve.WeightFP8, KVCacheDType: serve.KVFP8, MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256, Concurrency: 64}},
		{"llama-3.1-8b", serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256, Concurrency: 4}},
	} {
		cat, a, plans, regions := servePlans(t, w.model, w.s)
		sc := newSkyCatalog(cat)
		if len(plans) < 20 {
			t.Fatalf("%s: only %d plans fit", w.model, len(plans))
		}
		for i := range plans {
			sp := &plans[i]
			s, err := launch.NewServe(a, sp, launch.ServeOptions{Region: regions[i]})
			if errors.Is(err, launch.ErrPlan) {
				refused++ // a replica across nodes
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			where := sp.Offer.Name
			if bad := checkVLLMArgs(s.VLLMArgs()); len(bad) > 0 {
				t.Errorf("%s: %v", where, bad)
			}
			// vLLM refuses bfloat16 below compute capability 8.0: such GPUs
			// get float16 (same bytes), the others bfloat16.
			if w.s.WeightFormat == serve.WeightBF16 {
				want := "bfloat16"
				if ok, _ := sp.Offer.GPU.Supports(model.BF16); !ok {
					want = "float16"
				}
				if args := strings.Join(s.VLLMArgs(), " "); !strings.Contains(args, "--dtype "+want) {
					t.Errorf("%s (%s): %s, want --dtype %s", where, sp.Offer.GPU.Key, args, want)
				}
			}
			for _, f := range launch.Formats {
				out, err := s.Render(f)
				if errors.Is(err, launch.ErrPlan) {
					refused++
					continue
				}
				if err != nil {
					t.Fatalf("%s %s: %v", where, f, err)
				}
				files++
				for _, m := range checkServeFile(t, s, f, out, sc) {
					t.Errorf("%s %s: %s", where, f, m)
				}
			}
		}
	}
	t.Logf("%d serving files checked, %d refused", files, refused)
}

// vllmCommand finds the vllm serve command in a script and returns its
// argv after expansion.
func vllmCommand(t *testing.T, script string) []string {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatalf("%v\n%s", err, script)
	}
	var argv []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && len(call.Args) > 0 {
			words, err := expand.Fields(&expand.Config{Env: expand.ListEnviron("HOME=/HOME")}, call.Args...)
			if err == nil && len(words) > 1 && (words[0] == "vllm" || words[0] == "exec" && words[1] == "vllm" || words[0] == "docker") {
				argv = words
			}
		}
		return true
	})
	return argv
}

// gpuDocker reports whether a docker argv reaches the GPUs: --gpus on
// NVIDIA's, the ROCm devices of vLLM's ROCm docs on AMD's.
func gpuDocker(s *launch.Serve, argv []string) bool {
	if !s.ROCm {
		return slices.Contains(argv, "--gpus")
	}
	j := strings.Join(argv, " ")
	return !slices.Contains(argv, "--gpus") && strings.Contains(j, "--device /dev/kfd") && strings.Contains(j, "--device /dev/dri") && strings.Contains(j, "--group-add=video")
}

// checkServeFile parses one serving file back and compares it field by
// field with the deployment.
func checkServeFile(t *testing.T, s *launch.Serve, f launch.Format, out []byte, sc skyCatalog) []string {
	t.Helper()
	var bad []string
	want := append([]string{"vllm", "serve", s.ModelID}, s.VLLMArgs()...)
	switch f {
	case launch.FormatTorchrun:
		if got := vllmCommand(t, string(out)); !reflect.DeepEqual(got, append([]string{"exec"}, want...)) {
			bad = append(bad, "script argv "+strings.Join(got, " "))
		}
	case launch.FormatDocker:
		got := vllmCommand(t, string(out))
		i := slices.Index(got, s.Image)
		if i < 0 || !reflect.DeepEqual(got[i+1:], append([]string{"--model", s.ModelID}, s.VLLMArgs()...)) ||
			!gpuDocker(s, got) || !slices.Contains(got, "--ipc=host") || !slices.Contains(got, "8000:8000") {
			bad = append(bad, "docker argv "+strings.Join(got, " "))
		}
	case launch.FormatSkyPilot:
		task, b := validateSkyPilot(t, out, sc)
		bad = append(bad, b...)
		if task.Service == nil || task.Service.ReadinessProbe == nil || task.Service.ReadinessProbe.Path != "/health" ||
			task.Service.Replicas == nil || *task.Service.Replicas != s.Nodes {
			bad = append(bad, "service section")
		}
		image, _ := task.Resources.ImageID.(string)
		switch {
		case s.PodImage != "": // a container cloud: the ROCm image is the container
			if got := vllmCommand(t, task.Run); !reflect.DeepEqual(got, want) || image != "docker:"+s.PodImage ||
				strings.Contains(task.Setup+task.Run, "docker") {
				bad = append(bad, "ROCm pod "+image+" run argv "+strings.Join(got, " "))
			}
		case image != "":
			bad = append(bad, "image_id "+image+" on a VM")
		case s.ROCm: // vLLM's ROCm image on the node: PyPI's vllm is CUDA's
			got := vllmCommand(t, task.Run)
			i := slices.Index(got, s.Image)
			if i < 0 || !reflect.DeepEqual(got[i+1:], append([]string{"--model", s.ModelID}, s.VLLMArgs()...)) || !gpuDocker(s, got) ||
				strings.Contains(task.Setup, "pip install vllm") {
				bad = append(bad, "ROCm run argv "+strings.Join(got, " "))
			}
		default:
			if got := vllmCommand(t, task.Run); !reflect.DeepEqual(got, want) {
				bad = append(bad, "run argv "+strings.Join(got, " "))
			}
		}
	case launch.FormatK8s:
		d, b := validateK8s(t, out)
		bad = append(bad, b...)
		if len(d.Deployments) != 1 || len(d.Services) != 1 {
			return append(bad, "want one Deployment and one Service")
		}
		dp := d.Deployments[0]
		c := dp.Spec.Template.Spec.Containers[0]
		res := corev1.ResourceName(launch.GPUResource)
		if s.ROCm {
			res = launch.AMDGPUResource
		}
		gpus := c.Resources.Limits[res]
		one := *s
		one.ReplicasPerNode = 1
		if *dp.Spec.Replicas != int32(s.Replicas) || gpus.Value() != int64(s.TP*s.PP) ||
			!reflect.DeepEqual(c.Args, append([]string{"--model", s.ModelID}, one.VLLMArgs()...)) {
			bad = append(bad, "Deployment replicas, GPUs or args")
		}
		if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/health" || c.ReadinessProbe.HTTPGet.Port.IntValue() != 8000 {
			bad = append(bad, "readiness probe")
		}
		if s.ROCm { // AMD documents no GPU taint: no NVIDIA toleration
			if len(dp.Spec.Template.Spec.Tolerations) != 0 || hasLimit(c.Resources.Limits, launch.GPUResource) {
				bad = append(bad, "NVIDIA toleration or resource on an AMD GPU")
			}
		} else {
			checkPodBasics(t, dp.Spec.Template.Spec.Tolerations, dp.Spec.Template.Spec.Volumes, c.VolumeMounts)
		}
		checkHFEnv(t, c.Env)
		if sv := d.Services[0]; sv.Spec.Ports[0].Port != 8000 || sv.Spec.Selector["app.kubernetes.io/name"] != s.Name {
			bad = append(bad, "Service port or selector")
		}
	case launch.FormatTOML:
		var d struct {
			Serve struct {
				TensorParallelSize   int      `toml:"tensor_parallel_size"`
				PipelineParallelSize int      `toml:"pipeline_parallel_size"`
				Replicas             int      `toml:"replicas"`
				ModelID              string   `toml:"model_id"`
				MaxModelLen          int      `toml:"max_model_len"`
				KVCacheDType         string   `toml:"kv_cache_dtype"`
				VLLMArgs             []string `toml:"vllm_args"`
			} `toml:"serve"`
		}
		if _, err := toml.Decode(string(out), &d); err != nil {
			return append(bad, err.Error())
		}
		v := d.Serve
		if v.TensorParallelSize != s.TP || v.PipelineParallelSize != s.PP || v.Replicas != s.Replicas || v.ModelID != s.ModelID ||
			v.MaxModelLen != s.Serving.MaxModelLen || v.KVCacheDType != string(s.Serving.KVCacheDType) || !reflect.DeepEqual(v.VLLMArgs, s.VLLMArgs()) {
			bad = append(bad, "TOML fields")
		}
	}
	return bad
}

// TestServe70BAWQ is the headline case on a catalog node with two
// H100s: Llama 3.1 70B AWQ at 8k context with TP 2. The flags are worked
// by hand: TP 2, PP 1, one engine, --max-model-len 8192, vLLM's default
// memory fraction 0.9, auto KV cache, no --quantization (an AWQ checkpoint
// declares it), and vLLM's defaults for an H100 (≥ 70 GiB, not an A100):
// 1024 sequences, 8192 batched tokens (EngineArgs.get_batch_defaults).
func TestServe70BAWQ(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	var in *model.Instance
	for i := range cat.Instances {
		c := &cat.Instances[i]
		if _, _, retired := c.Retirement(); !retired && c.GPU == "h100-sxm" && c.GPUCount == 2 && len(c.Prices) > 0 {
			in = c
			break
		}
	}
	if in == nil {
		t.Skip("no 2 × H100 SXM instance in the catalog")
	}
	g, _ := cat.GPU(in.GPU)
	sp, err := serve.PlanServing(a, serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 8192, PromptTokens: 6144, OutputTokens: 2048, TP: 2, Replicas: 1},
		serve.OfferFor(in, g, in.Prices[0].OnDemandUSD, in.Type))
	if err != nil || !sp.Fits {
		t.Fatalf("%v %v", err, sp.Reasons)
	}
	s, err := launch.NewServe(a, &sp, launch.ServeOptions{Region: in.Prices[0].Region})
	if err != nil {
		t.Fatal(err)
	}
	want := "--tensor-parallel-size 2 --pipeline-parallel-size 1 --max-model-len 8192 --gpu-memory-utilization 0.9 --kv-cache-dtype auto --max-num-seqs 1024 --max-num-batched-tokens 8192"
	if got := strings.Join(s.VLLMArgs(), " "); got != want {
		t.Errorf("vllm args\n got %s\nwant %s", got, want)
	}
	// The catalog's repo ids are the 16-bit base, which AWQ serving cannot
	// load as such: the placeholder makes the file fail loudly.
	if s.ModelID != launch.PlaceholderModelID {
		t.Errorf("AWQ model id %s: a base checkpoint, want %s", s.ModelID, launch.PlaceholderModelID)
	}
	if s2, err := launch.NewServe(a, &sp, launch.ServeOptions{ModelID: "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4"}); err != nil || s2.ModelID != "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4" {
		t.Errorf("a given --model-id is kept: %v %v", s2, err)
	}
}

func hasLimit(l corev1.ResourceList, name corev1.ResourceName) bool { _, ok := l[name]; return ok }
