package launch_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// The Kubernetes documents are decoded strictly (sigs.k8s.io/yaml
// UnmarshalStrict: unknown fields fail) into the API's own Go types for
// built-in kinds (k8s.io/api core/v1, batch/v1, apps/v1), and into the
// structs below for the Kubeflow kinds, which mirror only the fields
// gpuplan emits, with the API's types inside. Names, labels and keys then go
// through k8s.io/apimachinery's validators, the rules the API server applies.

// trainJob mirrors trainer.kubeflow.org/v1alpha1 TrainJob
// (kubeflow/trainer pkg/apis/trainer/v1alpha1/trainjob_types.go @ 8c0f5059:
// TrainJobSpec.runtimeRef, trainer, runtimePatches; RuntimePatch.manager,
// trainingRuntimeSpec.template.spec.replicatedJobs[].template.spec.template
// {metadata, spec: PodSpecPatch}).
type trainJob struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ObjectMeta `json:"metadata"`
	Spec            struct {
		RuntimeRef struct {
			Name     string  `json:"name"`
			APIGroup *string `json:"apiGroup,omitempty"`
			Kind     *string `json:"kind,omitempty"`
		} `json:"runtimeRef"`
		Trainer *struct {
			Image            *string                      `json:"image,omitempty"`
			Command          []string                     `json:"command,omitempty"`
			Args             []string                     `json:"args,omitempty"`
			Env              []corev1.EnvVar              `json:"env,omitempty"`
			NumNodes         *int32                       `json:"numNodes,omitempty"`
			ResourcesPerNode *corev1.ResourceRequirements `json:"resourcesPerNode,omitempty"`
			NumProcPerNode   *int32                       `json:"numProcPerNode,omitempty"`
		} `json:"trainer,omitempty"`
		RuntimePatches []struct {
			Manager             string `json:"manager"`
			TrainingRuntimeSpec *struct {
				Template *struct {
					Spec *struct {
						ReplicatedJobs []struct {
							Name     string `json:"name"`
							Template *struct {
								Spec *struct {
									Template *struct {
										Spec *podSpecPatch `json:"spec,omitempty"`
									} `json:"template,omitempty"`
								} `json:"spec,omitempty"`
							} `json:"template,omitempty"`
						} `json:"replicatedJobs,omitempty"`
					} `json:"spec,omitempty"`
				} `json:"template,omitempty"`
			} `json:"trainingRuntimeSpec,omitempty"`
		} `json:"runtimePatches,omitempty"`
	} `json:"spec"`
}

// podSpecPatch and containerPatch mirror PodSpecPatch and ContainerPatch of
// the same file.
type podSpecPatch struct {
	Volumes      []corev1.Volume     `json:"volumes,omitempty"`
	Containers   []containerPatch    `json:"containers,omitempty"`
	NodeSelector map[string]string   `json:"nodeSelector,omitempty"`
	Tolerations  []corev1.Toleration `json:"tolerations,omitempty"`
}

type containerPatch struct {
	Name            string                  `json:"name,omitempty"`
	Env             []corev1.EnvVar         `json:"env,omitempty"`
	VolumeMounts    []corev1.VolumeMount    `json:"volumeMounts,omitempty"`
	SecurityContext *corev1.SecurityContext `json:"securityContext,omitempty"`
}

// pytorchJob mirrors kubeflow.org/v1 PyTorchJob (kubeflow/training-operator
// v1.9 pkg/apis/kubeflow.org/v1: PyTorchJobSpec.runPolicy.backoffLimit,
// pytorchReplicaSpecs keyed Master/Worker with replicas, restartPolicy and
// a core/v1 PodTemplateSpec).
type pytorchJob struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ObjectMeta `json:"metadata"`
	Spec            struct {
		RunPolicy struct {
			BackoffLimit *int32 `json:"backoffLimit,omitempty"`
		} `json:"runPolicy"`
		PyTorchReplicaSpecs map[string]struct {
			Replicas      *int32                 `json:"replicas,omitempty"`
			RestartPolicy string                 `json:"restartPolicy,omitempty"`
			Template      corev1.PodTemplateSpec `json:"template"`
		} `json:"pytorchReplicaSpecs"`
	} `json:"spec"`
}

// k8sDocs is one export decoded by kind.
type k8sDocs struct {
	ConfigMaps  []corev1.ConfigMap
	Jobs        []batchv1.Job
	TrainJobs   []trainJob
	PyTorchJobs []pytorchJob
	Deployments []appsv1.Deployment
	Services    []corev1.Service
	Claims      []corev1.PersistentVolumeClaim
}

// decodeK8s splits the stream and decodes each document strictly into its
// kind's type; an unknown kind or field fails the test.
func decodeK8s(t *testing.T, b []byte) k8sDocs {
	t.Helper()
	var out k8sDocs
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, b)
		}
		doc, err := yaml.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		var tm metav1.TypeMeta
		if err := sigsyaml.Unmarshal(doc, &tm); err != nil {
			t.Fatal(err)
		}
		strict := func(v any) {
			if err := sigsyaml.UnmarshalStrict(doc, v); err != nil {
				t.Fatalf("%s/%s: %v\n%s", tm.APIVersion, tm.Kind, err, doc)
			}
		}
		switch tm.APIVersion + " " + tm.Kind {
		case "v1 ConfigMap":
			var v corev1.ConfigMap
			strict(&v)
			out.ConfigMaps = append(out.ConfigMaps, v)
		case "batch/v1 Job":
			var v batchv1.Job
			strict(&v)
			out.Jobs = append(out.Jobs, v)
		case "trainer.kubeflow.org/v1alpha1 TrainJob":
			var v trainJob
			strict(&v)
			out.TrainJobs = append(out.TrainJobs, v)
		case "kubeflow.org/v1 PyTorchJob":
			var v pytorchJob
			strict(&v)
			out.PyTorchJobs = append(out.PyTorchJobs, v)
		case "apps/v1 Deployment":
			var v appsv1.Deployment
			strict(&v)
			out.Deployments = append(out.Deployments, v)
		case "v1 PersistentVolumeClaim":
			var v corev1.PersistentVolumeClaim
			strict(&v)
			out.Claims = append(out.Claims, v)
		case "v1 Service":
			var v corev1.Service
			strict(&v)
			out.Services = append(out.Services, v)
		default:
			t.Fatalf("unexpected document %s %s", tm.APIVersion, tm.Kind)
		}
	}
}

// errs collects validation messages with the path they concern.
type errs []string

func (e *errs) add(path string, msgs []string) {
	for _, m := range msgs {
		*e = append(*e, path+": "+m)
	}
}

// checkMeta runs the API server's name and label rules on an object:
// names are DNS-1123 subdomains; labelKeys qualified names; label values
// valid. dns1035 adds the Kubeflow webhook rule (TrainJob's CEL rule
// '^[a-z]([-a-z0-9]*[a-z0-9])?$', training-operator's NameIsDNS1035Label).
func checkMeta(e *errs, what string, m metav1.ObjectMeta, dns1035 bool) {
	e.add(what+" name", validation.IsDNS1123Subdomain(m.Name))
	if dns1035 {
		e.add(what+" name", validation.IsDNS1035Label(m.Name))
	}
	checkLabels(e, what+" labels", m.Labels)
}

func checkLabels(e *errs, what string, l map[string]string) {
	for k, v := range l {
		e.add(what+" key "+k, validation.IsQualifiedName(k))
		e.add(what+" value "+v, validation.IsValidLabelValue(v))
	}
}

// checkContainer checks names, env names, resources and mounts.
func checkContainer(e *errs, what string, c corev1.Container, volumes []corev1.Volume) {
	e.add(what+" name", validation.IsDNS1123Label(c.Name))
	for _, env := range c.Env {
		e.add(what+" env", validation.IsEnvVarName(env.Name))
	}
	checkResources(e, what, c.Resources)
	checkMounts(e, what, c.VolumeMounts, volumes)
}

// checkResources: GPUs only in limits or equal in both; other extended
// resources (EFA, RDMA) equal in requests and limits; requests ≤ limits.
func checkResources(e *errs, what string, r corev1.ResourceRequirements) {
	for name, req := range r.Requests {
		lim, ok := r.Limits[name]
		extended := strings.Contains(string(name), "/")
		switch {
		case extended && (!ok || lim.Cmp(req) != 0):
			*e = append(*e, fmt.Sprintf("%s: extended resource %s: request %s must equal the limit", what, name, req.String()))
		case ok && req.Cmp(lim) > 0:
			*e = append(*e, fmt.Sprintf("%s: %s request %s above limit %s", what, name, req.String(), lim.String()))
		}
	}
	for name := range r.Limits {
		e.add(what+" resource", validation.IsQualifiedName(string(name)))
	}
}

func checkMounts(e *errs, what string, mounts []corev1.VolumeMount, volumes []corev1.Volume) {
	have := map[string]bool{}
	for _, v := range volumes {
		e.add(what+" volume", validation.IsDNS1123Label(v.Name))
		have[v.Name] = true
	}
	for _, m := range mounts {
		if !have[m.Name] {
			*e = append(*e, what+": volumeMount "+m.Name+" has no volume")
		}
	}
}

func checkPodSpec(e *errs, what string, s corev1.PodSpec) {
	checkLabels(e, what+" nodeSelector", s.NodeSelector)
	for i, c := range s.Containers {
		checkContainer(e, fmt.Sprintf("%s container %d", what, i), c, s.Volumes)
	}
}

// validateK8s decodes b and returns every rule it breaks.
func validateK8s(t *testing.T, b []byte) (k8sDocs, []string) {
	t.Helper()
	d := decodeK8s(t, b)
	var e errs
	for _, c := range d.ConfigMaps {
		checkMeta(&e, "ConfigMap", c.ObjectMeta, false)
		for k := range c.Data {
			e.add("ConfigMap key", validation.IsConfigMapKey(k))
		}
	}
	for _, c := range d.Claims {
		checkMeta(&e, "PersistentVolumeClaim", c.ObjectMeta, false)
		if len(c.Spec.AccessModes) != 1 || c.Spec.Resources.Requests.Storage().IsZero() {
			e = append(e, fmt.Sprintf("PersistentVolumeClaim %s: want one access mode and a storage request: %+v", c.Name, c.Spec))
		}
	}
	for _, j := range d.Jobs {
		checkMeta(&e, "Job", j.ObjectMeta, false)
		checkLabels(&e, "Job template labels", j.Spec.Template.Labels)
		if rp := j.Spec.Template.Spec.RestartPolicy; rp != corev1.RestartPolicyNever && rp != corev1.RestartPolicyOnFailure {
			e = append(e, "Job restartPolicy "+string(rp)+": a Job allows only Never or OnFailure")
		}
		if j.Spec.PodFailurePolicy != nil && j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			e = append(e, "podFailurePolicy requires restartPolicy Never")
		}
		checkPodSpec(&e, "Job", j.Spec.Template.Spec)
	}
	for _, j := range d.TrainJobs {
		checkMeta(&e, "TrainJob", j.Metadata, true)
		if len(j.Metadata.Name) > 63 {
			e = append(e, "TrainJob name longer than 63")
		}
		tr := j.Spec.Trainer
		if tr == nil || tr.NumNodes == nil || *tr.NumNodes < 1 || tr.NumProcPerNode == nil || *tr.NumProcPerNode < 1 {
			e = append(e, "TrainJob trainer needs numNodes and numProcPerNode ≥ 1")
			continue
		}
		for _, env := range tr.Env {
			e.add("TrainJob env", validation.IsEnvVarName(env.Name))
			if strings.HasPrefix(env.Name, "PET_") {
				e = append(e, "TrainJob env "+env.Name+" is reserved by the torch plugin")
			}
		}
		checkResources(&e, "TrainJob resourcesPerNode", *tr.ResourcesPerNode)
		for _, rp := range j.Spec.RuntimePatches {
			if rp.Manager == "" || len(rp.Manager) > 253 {
				e = append(e, "runtimePatches manager must be 1–253 characters")
			}
			for _, rj := range rp.TrainingRuntimeSpec.Template.Spec.ReplicatedJobs {
				ps := rj.Template.Spec.Template.Spec
				checkLabels(&e, "TrainJob nodeSelector", ps.NodeSelector)
				for _, c := range ps.Containers {
					checkMounts(&e, "TrainJob "+c.Name, c.VolumeMounts, ps.Volumes)
				}
			}
		}
	}
	for _, j := range d.PyTorchJobs {
		checkMeta(&e, "PyTorchJob", j.Metadata, true)
		for k, r := range j.Spec.PyTorchReplicaSpecs {
			if k != "Master" && k != "Worker" {
				e = append(e, "PyTorchJob replica type "+k)
			}
			checkLabels(&e, "PyTorchJob template labels", r.Template.Labels)
			checkPodSpec(&e, "PyTorchJob "+k, r.Template.Spec)
		}
	}
	for _, dp := range d.Deployments {
		checkMeta(&e, "Deployment", dp.ObjectMeta, false)
		checkLabels(&e, "Deployment template labels", dp.Spec.Template.Labels)
		if dp.Spec.Selector == nil {
			e = append(e, "Deployment without selector")
		} else {
			for k, v := range dp.Spec.Selector.MatchLabels {
				if dp.Spec.Template.Labels[k] != v {
					e = append(e, "Deployment selector does not match the template labels")
				}
			}
		}
		checkPodSpec(&e, "Deployment", dp.Spec.Template.Spec)
	}
	for _, s := range d.Services {
		checkMeta(&e, "Service", s.ObjectMeta, false)
		e.add("Service name", validation.IsDNS1035Label(s.Name))
		checkLabels(&e, "Service selector", s.Spec.Selector)
		for _, p := range s.Spec.Ports {
			e.add("Service port", validation.IsValidPortNum(int(p.Port)))
		}
	}
	return d, e
}

// podSpecsOf returns the pod specs a cluster would run for the export, with
// TrainJob patches applied by hand (the runtime's own container plus the
// patch's fields), so the container checks see every pod.
func containersOf(t *testing.T, b []byte) []corev1.Container {
	t.Helper()
	d := decodeK8s(t, b)
	var out []corev1.Container
	for _, j := range d.Jobs {
		out = append(out, j.Spec.Template.Spec.Containers...)
	}
	for _, j := range d.PyTorchJobs {
		for _, k := range []string{"Master", "Worker"} {
			out = append(out, j.Spec.PyTorchReplicaSpecs[k].Template.Spec.Containers...)
		}
	}
	for _, j := range d.TrainJobs {
		out = append(out, corev1.Container{Name: "node", Image: *j.Spec.Trainer.Image, Command: j.Spec.Trainer.Command,
			Args: j.Spec.Trainer.Args, Env: j.Spec.Trainer.Env, Resources: *j.Spec.Trainer.ResourcesPerNode})
	}
	for _, dp := range d.Deployments {
		out = append(out, dp.Spec.Template.Spec.Containers...)
	}
	return out
}

func TestKubernetesSchema(t *testing.T) {
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
				if (p.ZeRO() > 0) != (len(d.ConfigMaps) == 1) {
					t.Errorf("%d ConfigMaps for ZeRO stage %d", len(d.ConfigMaps), p.ZeRO())
				}
				cs := containersOf(t, b)
				for _, c := range cs {
					if got := c.Resources.Limits[launch.GPUResource]; got.Value() != int64(p.ProcsPerNode) {
						t.Errorf("GPU limit %s, want %d", got.String(), p.ProcsPerNode)
					}
					if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
						t.Errorf("container %s lacks CPU/memory requests or a memory limit: %+v", c.Name, c.Resources)
					}
					checkHFEnv(t, c.Env)
				}
				switch {
				case p.Nodes == 1:
					if len(d.Jobs) != 1 || len(d.TrainJobs)+len(d.PyTorchJobs) != 0 {
						t.Fatalf("one node: %+v", d)
					}
					j := d.Jobs[0]
					checkPodBasics(t, j.Spec.Template.Spec.Tolerations, j.Spec.Template.Spec.Volumes, j.Spec.Template.Spec.Containers[0].VolumeMounts)
					checkOutputs(t, p, d, j.Spec.Template.Spec.Volumes, j.Spec.Template.Spec.Containers[0].VolumeMounts)
					if *j.Spec.BackoffLimit != map[bool]int32{true: 3, false: 0}[p.Spot()] || j.Spec.PodFailurePolicy == nil ||
						j.Spec.PodFailurePolicy.Rules[0].Action != batchv1.PodFailurePolicyActionIgnore ||
						j.Spec.PodFailurePolicy.Rules[0].OnPodConditions[0].Type != corev1.DisruptionTarget {
						t.Errorf("Job retry policy: backoffLimit %d, podFailurePolicy %+v", *j.Spec.BackoffLimit, j.Spec.PodFailurePolicy)
					}
				case kind == launch.KindTrainJob:
					if len(d.TrainJobs) != 1 || len(d.PyTorchJobs)+len(d.Jobs) != 0 {
						t.Fatalf("%d nodes: want one TrainJob: %+v", p.Nodes, d)
					}
					j := d.TrainJobs[0]
					if j.APIVersion != "trainer.kubeflow.org/v1alpha1" || j.Spec.RuntimeRef.Name != launch.TrainJobRuntime ||
						*j.Spec.Trainer.NumNodes != int32(p.Nodes) || *j.Spec.Trainer.NumProcPerNode != int32(p.ProcsPerNode) {
						t.Errorf("TrainJob %s runtime %s nodes %d procs %d", j.APIVersion, j.Spec.RuntimeRef.Name, *j.Spec.Trainer.NumNodes, *j.Spec.Trainer.NumProcPerNode)
					}
					rj := j.Spec.RuntimePatches[0].TrainingRuntimeSpec.Template.Spec.ReplicatedJobs[0]
					ps := rj.Template.Spec.Template.Spec
					if rj.Name != "node" || ps.Containers[0].Name != "node" {
						t.Errorf("patch targets %s/%s, want the runtime's node job and container", rj.Name, ps.Containers[0].Name)
					}
					checkPodBasics(t, ps.Tolerations, ps.Volumes, ps.Containers[0].VolumeMounts)
					checkOutputs(t, p, d, ps.Volumes, ps.Containers[0].VolumeMounts)
					for _, want := range []string{"--nnodes=$PET_NNODES", "--nproc-per-node=$PET_NPROC_PER_NODE", "--node-rank=$PET_NODE_RANK", "--master-addr=$PET_MASTER_ADDR", "--master-port=$PET_MASTER_PORT"} {
						if !strings.Contains(j.Spec.Trainer.Args[0], want) {
							t.Errorf("TrainJob script lacks %s:\n%s", want, j.Spec.Trainer.Args[0])
						}
					}
				default:
					if len(d.PyTorchJobs) != 1 {
						t.Fatalf("%d nodes: want one PyTorchJob: %+v", p.Nodes, d)
					}
					j := d.PyTorchJobs[0]
					total := int32(0)
					for k, r := range j.Spec.PyTorchReplicaSpecs {
						total += *r.Replicas
						c := r.Template.Spec.Containers[0]
						if c.Name != "pytorch" || len(c.Ports) != 1 || c.Ports[0].Name != "pytorchjob-port" {
							t.Errorf("%s container %s ports %+v", k, c.Name, c.Ports)
						}
						checkPodBasics(t, r.Template.Spec.Tolerations, r.Template.Spec.Volumes, c.VolumeMounts)
						checkOutputs(t, p, d, r.Template.Spec.Volumes, c.VolumeMounts)
					}
					if total != int32(p.Nodes) || *j.Spec.PyTorchReplicaSpecs["Master"].Replicas != 1 {
						t.Errorf("replicas total %d, want %d with one Master", total, p.Nodes)
					}
					if p.Spot() && (j.Spec.RunPolicy.BackoffLimit == nil || *j.Spec.RunPolicy.BackoffLimit != 3) {
						t.Errorf("spot PyTorchJob backoffLimit %v, want 3", j.Spec.RunPolicy.BackoffLimit)
					}
				}
			})
		}
	}
}

// checkHFEnv: HF_HOME set, HF_TOKEN only from a Secret, never a literal.
func checkHFEnv(t *testing.T, env []corev1.EnvVar) {
	t.Helper()
	var home, token bool
	for _, e := range env {
		switch e.Name {
		case "HF_HOME":
			home = e.Value != ""
		case "HF_TOKEN":
			token = e.Value == "" && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name != ""
		}
	}
	if !home || !token {
		t.Errorf("HF_HOME set %v, HF_TOKEN from a Secret %v: %+v", home, token, env)
	}
}

// checkPodBasics: the nvidia.com/gpu NoSchedule toleration, /dev/shm in
// memory and the HF cache mounted.
func checkPodBasics(t *testing.T, tol []corev1.Toleration, vols []corev1.Volume, mounts []corev1.VolumeMount) {
	t.Helper()
	if !slices.ContainsFunc(tol, func(x corev1.Toleration) bool {
		return x.Key == launch.GPUResource && x.Effect == corev1.TaintEffectNoSchedule && x.Operator == corev1.TolerationOpExists
	}) {
		t.Errorf("no toleration for the %s NoSchedule taint: %+v", launch.GPUResource, tol)
	}
	if !slices.ContainsFunc(vols, func(v corev1.Volume) bool {
		return v.Name == "dshm" && v.EmptyDir != nil && v.EmptyDir.Medium == corev1.StorageMediumMemory
	}) || !slices.ContainsFunc(mounts, func(m corev1.VolumeMount) bool { return m.MountPath == "/dev/shm" }) {
		t.Errorf("no memory-backed /dev/shm: %+v %+v", vols, mounts)
	}
}

// checkOutputs: the script's --output_dir is on a mounted
// PersistentVolumeClaim the export declares, with ReadWriteMany across
// nodes; a pod with restartPolicy Never otherwise loses the trained model
// with its writable layer.
func checkOutputs(t *testing.T, p *launch.Plan, d k8sDocs, vols []corev1.Volume, mounts []corev1.VolumeMount) {
	t.Helper()
	out := p.OutputDir
	if !path.IsAbs(out) {
		out = path.Join("/workspace", out)
	}
	var claim string
	for _, m := range mounts {
		if out != m.MountPath && !strings.HasPrefix(out, m.MountPath+"/") {
			continue
		}
		for _, v := range vols {
			if v.Name == m.Name && v.PersistentVolumeClaim != nil && !m.ReadOnly {
				claim = v.PersistentVolumeClaim.ClaimName
			}
		}
	}
	if claim == "" {
		t.Fatalf("--output_dir %s is on no PersistentVolumeClaim: mounts %+v volumes %+v", out, mounts, vols)
	}
	want := corev1.ReadWriteOnce
	if p.Nodes > 1 {
		want = corev1.ReadWriteMany
	}
	if !slices.ContainsFunc(d.Claims, func(c corev1.PersistentVolumeClaim) bool {
		return c.Name == claim && slices.Equal(c.Spec.AccessModes, []corev1.PersistentVolumeAccessMode{want})
	}) {
		t.Errorf("claim %s (%s) is not declared in the export: %+v", claim, want, d.Claims)
	}
}

// TestValidSubdomainAgreesWithApimachinery: launch.ValidSubdomain checks
// --k8s-pvc; it must match the API server's rule for claim names.
func TestValidSubdomainAgreesWithApimachinery(t *testing.T) {
	for _, s := range []string{"", "gpuplan-outputs", "a", "a.b", "a..b", "a.-b", "-a", "a-", "A", "a_b", "a.b-c.d",
		strings.Repeat("a", 253), strings.Repeat("a", 254), "1x", "é", "a b"} {
		want := len(validation.IsDNS1123Subdomain(s)) == 0
		if got := launch.ValidSubdomain(s); got != want {
			t.Errorf("ValidSubdomain(%q) = %v, apimachinery says %v", s, got, want)
		}
	}
}

// TestKubernetesOutputClaim: --k8s-pvc names the claim; a name the API
// server would refuse is refused at plan time.
func TestKubernetesOutputClaim(t *testing.T) {
	p := plan(t, cases[0], launch.Options{OutputClaim: "team-a.runs"})
	b, err := p.Kubernetes()
	if err != nil {
		t.Fatal(err)
	}
	d, bad := validateK8s(t, b)
	if len(bad) > 0 || len(d.Claims) != 1 || d.Claims[0].Name != "team-a.runs" {
		t.Fatalf("claims %+v, problems %v", d.Claims, bad)
	}
	rec, err := model.Recommend(cases[0].w, testCatalog(), cases[0].q)
	if err != nil || len(rec.Offers) == 0 {
		t.Fatal(err)
	}
	if _, err := launch.NewPlan(cases[0].w, &rec.Offers[0], launch.Options{OutputClaim: "Bad_Name"}); !errors.Is(err, launch.ErrPlan) {
		t.Errorf("claim Bad_Name: err = %v, want ErrPlan", err)
	}
}

// TestKubernetesZeROMultiNode covers the combination the three cases leave
// out: several nodes with the DeepSpeed ConfigMap mounted in every pod.
func TestKubernetesZeROMultiNode(t *testing.T) {
	tc := cases[2]
	tc.w.Strategy, tc.w.MicroBatch = model.ZeRO2, 2
	for _, kind := range []string{launch.KindTrainJob, launch.KindPyTorchJob} {
		p := plan(t, tc, launch.Options{Kubernetes: kind})
		b, err := p.Kubernetes()
		if err != nil {
			t.Fatal(err)
		}
		d, bad := validateK8s(t, b)
		if len(bad) > 0 || len(d.ConfigMaps) != 1 {
			t.Fatalf("%s: %v, %d ConfigMaps", kind, bad, len(d.ConfigMaps))
		}
		for _, c := range containersOf(t, b) {
			if !strings.Contains(c.Args[0], "--deepspeed /etc/gpuplan/gpuplan-deepspeed.json") || !strings.Contains(c.Args[0], "pip install deepspeed") {
				t.Errorf("%s: script does not use the mounted config:\n%s", kind, c.Args[0])
			}
		}
		if !strings.Contains(string(b), "name: "+d.ConfigMaps[0].Name) || !strings.Contains(string(b), "mountPath: /etc/gpuplan") {
			t.Errorf("%s: ConfigMap %s not mounted", kind, d.ConfigMaps[0].Name)
		}
	}
}

// TestValidLabelValueAgreesWithApimachinery: launch.ValidLabelValue decides
// whether a node selector is written; it must match the API server's rule.
func TestValidLabelValueAgreesWithApimachinery(t *testing.T) {
	for _, s := range []string{"", "p5.48xlarge", "n1-standard-8", "n1-standard-8+1xT4", "A100_PCIE_80GB::1", "-a", "a-", "a_b.c-d",
		strings.Repeat("a", 63), strings.Repeat("a", 64), "Standard_ND96isr_H100_v5", "1x-A100_PCIE-32-65536", "a b", "é"} {
		want := len(validation.IsValidLabelValue(s)) == 0
		if got := launch.ValidLabelValue(s); got != want {
			t.Errorf("ValidLabelValue(%q) = %v, apimachinery says %v", s, got, want)
		}
	}
}
