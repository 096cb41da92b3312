package launch_test

import (
	"maps"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/klog/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// placement is where one pod template of an export may run: its node
// selector and tolerations.
type placement struct {
	what        string
	selector    map[string]string
	tolerations []corev1.Toleration
}

// placementsOf returns the placement of every pod template in the decoded
// export: the Job's, the TrainJob's runtime patch, each PyTorchJob replica
// and the Deployment's.
func placementsOf(d k8sDocs) []placement {
	var out []placement
	for _, j := range d.Jobs {
		s := j.Spec.Template.Spec
		out = append(out, placement{"Job", s.NodeSelector, s.Tolerations})
	}
	for _, j := range d.TrainJobs {
		for _, rp := range j.Spec.RuntimePatches {
			for _, rj := range rp.TrainingRuntimeSpec.Template.Spec.ReplicatedJobs {
				s := rj.Template.Spec.Template.Spec
				out = append(out, placement{"TrainJob " + rj.Name, s.NodeSelector, s.Tolerations})
			}
		}
	}
	for _, j := range d.PyTorchJobs {
		for _, k := range []string{"Master", "Worker"} {
			s := j.Spec.PyTorchReplicaSpecs[k].Template.Spec
			out = append(out, placement{"PyTorchJob " + k, s.NodeSelector, s.Tolerations})
		}
	}
	for _, dp := range d.Deployments {
		s := dp.Spec.Template.Spec
		out = append(out, placement{"Deployment", s.NodeSelector, s.Tolerations})
	}
	return out
}

// clusterNode is a node as the scheduler sees it. nodesOf gives how each managed Kubernetes labels and taints its spot
// nodes and its on-demand nodes of the same type, per the sources cited
// beside the launch constants: GKE Spot VMs carry cloud.google.com/gke-spot
// "true" (no taint unless the pool's owner adds one), EKS managed node
// groups eks.amazonaws.com/capacityType SPOT or ON_DEMAND, AKS Spot pools
// kubernetes.azure.com/scalesetpriority spot and the NoSchedule taint of
// that key and value. Every GPU node carries NVIDIA's taint as GKE and AKS
// GPU pools do.
type clusterNode struct {
	labels map[string]string
	taints []corev1.Taint
}

var gpuTaint = corev1.Taint{Key: launch.GPUResource, Value: "present", Effect: corev1.TaintEffectNoSchedule}

func nodesOf(provider, instanceType string) (spot, onDemand clusterNode) {
	it := map[string]string{"node.kubernetes.io/instance-type": instanceType}
	with := func(k, v string) map[string]string { l := maps.Clone(it); l[k] = v; return l }
	spot = clusterNode{labels: it, taints: []corev1.Taint{gpuTaint}}
	onDemand = clusterNode{labels: it, taints: []corev1.Taint{gpuTaint}}
	switch provider {
	case "gcp":
		spot.labels = with("cloud.google.com/gke-spot", "true")
	case "aws":
		spot.labels = with("eks.amazonaws.com/capacityType", "SPOT")
		onDemand.labels = with("eks.amazonaws.com/capacityType", "ON_DEMAND")
	case "azure":
		spot.labels = with("kubernetes.azure.com/scalesetpriority", "spot")
		spot.taints = append(spot.taints, corev1.Taint{Key: "kubernetes.azure.com/scalesetpriority", Value: "spot", Effect: corev1.TaintEffectNoSchedule})
	}
	return spot, onDemand
}

// fits reports whether the scheduler may put a pod with placement pl on
// node n: the node selector matches its labels and every NoSchedule taint
// is tolerated (k8s.io/api Toleration.ToleratesTaint, the scheduler's rule;
// no Lt/Gt operators are written, so their gate is off).
func (pl placement) fits(n clusterNode) bool {
	if !labels.SelectorFromSet(pl.selector).Matches(labels.Set(n.labels)) {
		return false
	}
	for _, taint := range n.taints {
		tolerated := false
		for _, tol := range pl.tolerations {
			if tol.ToleratesTaint(klog.Background(), &taint, false) {
				tolerated = true
			}
		}
		if !tolerated {
			return false
		}
	}
	return true
}

// TestKubernetesSpotNodes: provider × pricing → the spot label in the node
// selector (beside the instance type), the AKS spot toleration, and the
// header line. A spot plan's pods fit the provider's spot nodes and not
// its on-demand nodes where the label tells them apart (EKS: ON_DEMAND;
// GKE and AKS on-demand nodes lack the label); an on-demand plan selects
// the instance type alone, as before. A provider with no sourced spot
// label gets no spot selector and a header line saying the cluster must be
// told.
func TestKubernetesSpotNodes(t *testing.T) {
	oneGPUSpot := cases[0]
	oneGPUSpot.name, oneGPUSpot.q.Pricing = "one_gpu_spot", model.Spot
	tests := []struct {
		provider string
		spot     bool
		selector map[string]string // beside the instance type
		tolerate []corev1.Toleration
		header   string
	}{
		{provider: "gcp", spot: true, selector: map[string]string{"cloud.google.com/gke-spot": "true"},
			header: `# spot: the pods select GKE spot nodes (cloud.google.com/gke-spot: "true")` + "\n"},
		{provider: "aws", spot: true, selector: map[string]string{"eks.amazonaws.com/capacityType": "SPOT"},
			header: "# spot: the pods select EKS spot nodes (eks.amazonaws.com/capacityType: SPOT), as managed node groups label them; on Karpenter or EKS Auto Mode nodes, which carry karpenter.sh/capacity-type: spot, use that label instead\n"},
		{provider: "azure", spot: true, selector: map[string]string{"kubernetes.azure.com/scalesetpriority": "spot"},
			tolerate: []corev1.Toleration{{Key: "kubernetes.azure.com/scalesetpriority", Operator: corev1.TolerationOpEqual, Value: "spot", Effect: corev1.TaintEffectNoSchedule}},
			header:   "# spot: the pods select AKS spot nodes (kubernetes.azure.com/scalesetpriority: spot, tolerating the kubernetes.azure.com/scalesetpriority=spot:NoSchedule taint)\n"},
		{provider: "lambda", spot: true, header: "# spot: gpuplan knows no spot node label for lambda's Kubernetes, so the pods select none: tell the cluster to schedule them on spot nodes (their label in nodeSelector, a toleration for their taint), or they may run on on-demand nodes at other than the priced rate\n"},
		{provider: "gcp"},
		{provider: "aws"},
		{provider: "azure"},
		{provider: "lambda"},
	}
	for _, tt := range tests {
		pricing := "on-demand"
		tcs := []testCase{cases[0]}
		if tt.spot {
			pricing, tcs = "spot", []testCase{oneGPUSpot, cases[2], spotTRL}
		}
		for _, tc := range tcs {
			for _, kind := range []string{launch.KindTrainJob, launch.KindPyTorchJob} {
				t.Run(tt.provider+"/"+pricing+"/"+tc.name+"/"+kind, func(t *testing.T) {
					p := plan(t, tc, launch.Options{Kubernetes: kind})
					p.Provider = tt.provider
					b, err := p.Kubernetes()
					if err != nil {
						t.Fatal(err)
					}
					checkSpotPlacement(t, b, tt.provider, p.InstanceType, tt.spot, tt.selector, tt.tolerate, tt.header)
				})
			}
		}
		t.Run(tt.provider+"/"+pricing+"/serve", func(t *testing.T) {
			sp := serve70BAWQ(t)
			s, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{Region: "us-east-1", Pricing: model.Pricing(pricing)})
			if err != nil {
				t.Fatal(err)
			}
			s.Provider = tt.provider
			b, err := s.Kubernetes()
			if err != nil {
				t.Fatal(err)
			}
			checkSpotPlacement(t, b, tt.provider, s.InstanceType, tt.spot, tt.selector, tt.tolerate, tt.header)
		})
	}
}

func checkSpotPlacement(t *testing.T, b []byte, provider, instanceType string, spot bool, selector map[string]string, tolerate []corev1.Toleration, header string) {
	t.Helper()
	d, bad := validateK8s(t, b)
	for _, m := range bad {
		t.Error(m)
	}
	want := map[string]string{"node.kubernetes.io/instance-type": instanceType}
	maps.Copy(want, selector)
	spotNode, onDemandNode := nodesOf(provider, instanceType)
	pls := placementsOf(d)
	if len(pls) == 0 {
		t.Fatalf("no pod template:\n%s", b)
	}
	for _, pl := range pls {
		if !maps.Equal(pl.selector, want) {
			t.Errorf("%s nodeSelector %v, want %v", pl.what, pl.selector, want)
		}
		for _, w := range tolerate {
			found := false
			for _, got := range pl.tolerations {
				found = found || got.MatchToleration(&w)
			}
			if !found {
				t.Errorf("%s tolerations %+v lack %+v", pl.what, pl.tolerations, w)
			}
		}
		if !pl.fits(spotNode) && (spot || provider != "azure") {
			// An on-demand AKS plan stays off the tainted spot pool, as
			// it did before; every other pod fits a spot node of its type.
			t.Errorf("%s does not fit a %s spot node %+v: %+v", pl.what, provider, spotNode, pl)
		}
		if fitsOnDemand := pl.fits(onDemandNode); fitsOnDemand == (spot && selector != nil) {
			t.Errorf("%s fits an on-demand %s node %v, want %v", pl.what, provider, fitsOnDemand, !(spot && selector != nil))
		}
	}
	out := string(b)
	if header != "" && !strings.Contains(out, header) {
		t.Errorf("header lacks %q:\n%s", header, out)
	}
	if header == "" && strings.Contains(out, "# spot: the pods select") || !spot && strings.Contains(out, "knows no spot node label") {
		t.Errorf("on-demand export says it selects spot nodes:\n%s", out)
	}
}
