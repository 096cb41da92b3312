package launch_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/gpuplan/gpuplan/model/launch"
)

// TestKubernetesTrainingCacheSized: a training pod's Hugging Face cache
// (HF_HOME) is an emptyDir sized, as the serving Deployment's is, for
// what lands in it: the checkpoint as downloaded (2 bytes a parameter)
// and the dataset (4 bytes a token), + 20%; and the container requests
// and is limited to that much ephemeral-storage and more, for its
// writable layer. Checkpoints go to the outputs claim, not the cache. It
// was `emptyDir: {}`, unsized and unrequested, in every kind.
func TestKubernetesTrainingCacheSized(t *testing.T) {
	for _, tc := range cases {
		for _, kind := range []string{launch.KindTrainJob, launch.KindPyTorchJob} {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				p := plan(t, tc, launch.Options{Kubernetes: kind})
				b, err := p.Kubernetes()
				if err != nil {
					t.Fatal(err)
				}
				d, bad := validateK8s(t, b)
				for _, m := range bad {
					t.Error(m)
				}
				type pod struct {
					vols []corev1.Volume
					res  corev1.ResourceRequirements
				}
				var pods []pod
				for _, j := range d.Jobs {
					pods = append(pods, pod{j.Spec.Template.Spec.Volumes, j.Spec.Template.Spec.Containers[0].Resources})
				}
				for _, j := range d.TrainJobs {
					ps := j.Spec.RuntimePatches[0].TrainingRuntimeSpec.Template.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec
					pods = append(pods, pod{ps.Volumes, *j.Spec.Trainer.ResourcesPerNode})
				}
				for _, j := range d.PyTorchJobs {
					for _, r := range j.Spec.PyTorchReplicaSpecs {
						pods = append(pods, pod{r.Template.Spec.Volumes, r.Template.Spec.Containers[0].Resources})
					}
				}
				if len(pods) == 0 {
					t.Fatalf("no pod:\n%s", b)
				}
				need := 1.2 * (tc.w.Model.ParamCount()*2 + tc.w.DatasetTokens*4)
				for _, pd := range pods {
					var cache *corev1.Volume
					for i := range pd.vols {
						if pd.vols[i].Name == "hf-cache" {
							cache = &pd.vols[i]
						}
					}
					if cache == nil || cache.EmptyDir == nil || cache.EmptyDir.SizeLimit == nil || cache.EmptyDir.SizeLimit.AsApproximateFloat64() < need {
						t.Fatalf("hf-cache %+v: want an emptyDir with a sizeLimit ≥ %.0f GiB (checkpoint + dataset + 20%%)", cache, need/(1<<30))
					}
					size := cache.EmptyDir.SizeLimit
					req, okReq := pd.res.Requests[corev1.ResourceEphemeralStorage]
					lim, okLim := pd.res.Limits[corev1.ResourceEphemeralStorage]
					if !okReq || !okLim || req.Cmp(*size) <= 0 || req.Cmp(lim) != 0 {
						t.Errorf("ephemeral-storage request %v, limit %v: want both equal and above the cache's sizeLimit %v", req.String(), lim.String(), size.String())
					}
				}
			})
		}
	}
}
