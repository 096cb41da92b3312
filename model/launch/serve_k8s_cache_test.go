package launch_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// serve70BOnP4de is a new user's walk: Llama 3.1 70B in bf16 served on
// aws p4de.24xlarge (8 × A100 80GB), about 131 GiB of weights.
func serve70BOnP4de(t *testing.T, opt launch.ServeOptions) *launch.Serve {
	t.Helper()
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
		if c := &cat.Instances[i]; c.Provider == "aws" && c.Type == "p4de.24xlarge" && len(c.Prices) > 0 {
			in = c
		}
	}
	if in == nil {
		t.Skip("no aws p4de.24xlarge in the catalog")
	}
	g, _ := cat.GPU(in.GPU)
	sp, err := serve.PlanServing(a, serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 8192, PromptTokens: 6144, OutputTokens: 2048, TP: 8, Replicas: 1},
		serve.OfferFor(in, g, in.Prices[0].OnDemandUSD, in.Type))
	if err != nil || !sp.Fits {
		t.Fatalf("%v %v", err, sp.Reasons)
	}
	opt.Region = in.Prices[0].Region
	s, err := launch.NewServe(a, &sp, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// k8sDeployment renders s as Kubernetes, checks it against the
// Kubernetes types (validateK8s) and returns its documents, its one
// Deployment's vllm container and its hf-cache volume.
func k8sDeployment(t *testing.T, s *launch.Serve) (k8sDocs, appsv1.Deployment, corev1.Container, corev1.Volume) {
	t.Helper()
	out, err := s.Render(launch.FormatK8s)
	if err != nil {
		t.Fatal(err)
	}
	d, bad := validateK8s(t, out)
	if len(bad) > 0 || len(d.Deployments) != 1 {
		t.Fatalf("%v, %d Deployments:\n%s", bad, len(d.Deployments), out)
	}
	dp := d.Deployments[0]
	c := dp.Spec.Template.Spec.Containers[0]
	for _, v := range dp.Spec.Template.Spec.Volumes {
		if v.Name == "hf-cache" {
			return d, dp, c, v
		}
	}
	t.Fatalf("no hf-cache volume:\n%s", out)
	return d, dp, c, corev1.Volume{}
}

// TestServeK8sCacheSized: the Deployment's Hugging Face cache holds the
// weights: an emptyDir whose sizeLimit is the weights plus headroom, and
// ephemeral-storage requests and limits that cover it, so the scheduler
// places the pod on a node with that much local disk (new user's walk:
// `emptyDir: {}` with no size for ~131 GiB of weights, where the SkyPilot
// file of the same plan sets disk_size 250).
func TestServeK8sCacheSized(t *testing.T) {
	s := serve70BOnP4de(t, launch.ServeOptions{})
	_, _, c, v := k8sDeployment(t, s)
	weights := float64(131 * model.GiB)
	if v.EmptyDir == nil || v.EmptyDir.SizeLimit == nil || v.EmptyDir.SizeLimit.AsApproximateFloat64() < 1.2*weights {
		t.Fatalf("hf-cache %+v: want an emptyDir with a sizeLimit of the weights' ~131 GiB + 20%%", v)
	}
	size := v.EmptyDir.SizeLimit
	req, okReq := c.Resources.Requests[corev1.ResourceEphemeralStorage]
	lim, okLim := c.Resources.Limits[corev1.ResourceEphemeralStorage]
	if !okReq || !okLim || req.Cmp(*size) <= 0 || req.Cmp(lim) != 0 {
		t.Errorf("ephemeral-storage request %v, limit %v: want both equal and above the cache's sizeLimit %v (the container's writable layer and logs count too)", req.String(), lim.String(), size.String())
	}
}

// TestServeK8sCacheClaim: --k8s-pvc NAME puts the Hugging Face cache on a
// PersistentVolumeClaim, as training's outputs are, so the weights are
// downloaded once, not on every pod restart: the claim is written sized
// for the weights, ReadWriteOnce for one replica (with the Recreate
// strategy, so a new pod never waits on the old one's claim), and the
// pod asks for no ephemeral storage for it.
func TestServeK8sCacheClaim(t *testing.T) {
	s := serve70BOnP4de(t, launch.ServeOptions{CacheClaim: "llama-70b-cache"})
	d, dp, c, v := k8sDeployment(t, s)
	if v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != "llama-70b-cache" {
		t.Fatalf("hf-cache %+v: want the claim llama-70b-cache", v)
	}
	if len(d.Claims) != 1 || d.Claims[0].Name != "llama-70b-cache" || d.Claims[0].Spec.AccessModes[0] != corev1.ReadWriteOnce ||
		d.Claims[0].Spec.Resources.Requests.Storage().AsApproximateFloat64() < 1.2*float64(131*model.GiB) {
		t.Errorf("claims %+v: want llama-70b-cache, ReadWriteOnce, for the weights + 20%%", d.Claims)
	}
	if dp.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("strategy %q: want Recreate with a ReadWriteOnce claim", dp.Spec.Strategy.Type)
	}
	if _, ok := c.Resources.Requests[corev1.ResourceEphemeralStorage]; ok {
		t.Errorf("ephemeral-storage requested with the cache on a claim")
	}
	if _, err := launch.NewServe(s.Arch, s.Plan, launch.ServeOptions{CacheClaim: "Bad_Name"}); err == nil {
		t.Error("claim name Bad_Name accepted: want a DNS-1123 subdomain")
	}
}
