package launch

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Kubernetes names used in the manifests.
const (
	// GPUResource is the extended resource NVIDIA's device plugin exposes.
	// Kubernetes "Schedule GPUs": GPUs are only specified in limits (the
	// request defaults to the limit).
	GPUResource = "nvidia.com/gpu"
	// instanceTypeLabel is the well-known node label with the cloud's
	// instance type, so the pods land on the instance type of the plan.
	instanceTypeLabel = "node.kubernetes.io/instance-type"
	// PyTorchJob: the operator looks for the container named "pytorch" and
	// its port named "pytorchjob-port" (kubeflow/training-operator,
	// PytorchJobDefaultContainerName and PytorchJobDefaultPortName) and sets
	// MASTER_ADDR, MASTER_PORT, WORLD_SIZE (pods) and RANK (Master 0,
	// Worker i → i+1) in every pod (pkg/controller.v1/pytorch/envvar.go).
	pytorchJobContainer = "pytorch"
	pytorchJobPortName  = "pytorchjob-port"
	workDir             = "/workspace"
	configDir           = "/etc/gpuplan"
)

// Kubernetes returns the manifests that run the plan on a cluster with
// NVIDIA's device plugin. One node: a batch/v1 Job whose single pod
// requests nvidia.com/gpu in its limits, restartPolicy Never (a Job allows
// only Never or OnFailure) and backoffLimit 0, or 3 on spot so a preempted
// pod is retried. Several nodes: a Kubeflow PyTorchJob (kubeflow.org/v1)
// with one Master and nodes−1 Worker replicas, restartPolicy OnFailure,
// torchrun taking its node rank and master address from the operator's
// RANK, MASTER_ADDR and MASTER_PORT. For ZeRO a ConfigMap with the DeepSpeed
// config comes first and is mounted at /etc/gpuplan. Every pod gets a
// memory-backed /dev/shm for the data loader and a node selector on the
// instance type.
//
// The image is the NGC PyTorch image for the GPU: build your own FROM it
// with the script and requirements in /workspace, and pass it as the image.
// The error wraps ErrNoStack when no image fits the GPU and Options.Image is
// empty, and ErrPlan when a value cannot be a shell word.
func (p *Plan) Kubernetes() ([]byte, error) {
	if p.Image == "" {
		return nil, fmt.Errorf("%w: %s, or name a container image to run", ErrNoStack, p.noImageReason())
	}
	if err := p.checkShellWords(); err != nil {
		return nil, err
	}
	labels := mapping(
		kv{"app.kubernetes.io/name", str(p.Name)},
		kv{"app.kubernetes.io/managed-by", str("gpuplan")},
	)
	var docs []*yaml.Node
	ds := p.DeepSpeedConfig()
	args := p.ScriptArgs
	if ds != nil {
		docs = append(docs, mapping(
			kv{"apiVersion", str("v1")},
			kv{"kind", str("ConfigMap")},
			kv{"metadata", mapping(kv{"name", str(p.configMapName())}, kv{"labels", labels})},
			kv{"data", mapping(kv{DeepSpeedFile, str(string(ds))})},
		))
		args = p.argsWithConfig(configDir + "/" + DeepSpeedFile)
	}
	header := append(p.headerLines(), p.imageComment(),
		"the image must hold the script in "+workDir+": build one FROM "+p.Image+" with your code, or pass yours with --image")
	if p.Nodes == 1 {
		backoff := 0
		if p.Spot() {
			backoff = 3
			header = append(header, "spot: a preempted pod is retried up to 3 times; resume from your last checkpoint")
		}
		script := p.k8sScript(rendezvous{nproc: fmt.Sprint(p.ProcsPerNode), standalone: true}, args)
		docs = append(docs, mapping(
			kv{"apiVersion", str("batch/v1")},
			kv{"kind", str("Job")},
			kv{"metadata", mapping(kv{"name", str(p.Name)}, kv{"labels", labels})},
			kv{"spec", mapping(
				kv{"backoffLimit", integer(backoff)},
				kv{"template", mapping(
					kv{"metadata", mapping(kv{"labels", labels})},
					kv{"spec", p.podSpec("Never", "train", script, nil)},
				)},
			)},
		))
		return encodeYAML(header, docs...)
	}
	if p.Spot() {
		header = append(header, "spot: the operator restarts failed pods (restartPolicy OnFailure); resume from your last checkpoint")
	}
	script := p.k8sScript(rendezvous{
		nnodes: fmt.Sprint(p.Nodes), nproc: fmt.Sprint(p.ProcsPerNode),
		nodeRank: "$RANK", master: "$MASTER_ADDR", port: "$MASTER_PORT",
	}, args)
	ports := seq(mapping(kv{"name", str(pytorchJobPortName)}, kv{"containerPort", integer(p.Port)}))
	replica := func(n int) *yaml.Node {
		return mapping(
			kv{"replicas", integer(n)},
			kv{"restartPolicy", str("OnFailure")},
			kv{"template", mapping(
				kv{"metadata", mapping(kv{"labels", labels})},
				kv{"spec", p.podSpec("", pytorchJobContainer, script, ports)},
			)},
		)
	}
	docs = append(docs, mapping(
		kv{"apiVersion", str("kubeflow.org/v1")},
		kv{"kind", str("PyTorchJob")},
		kv{"metadata", mapping(kv{"name", str(p.Name)}, kv{"labels", labels})},
		kv{"spec", mapping(
			kv{"pytorchReplicaSpecs", mapping(
				kv{"Master", replica(1)},
				kv{"Worker", replica(p.Nodes - 1)},
			)},
		)},
	))
	return encodeYAML(header, docs...)
}

func (p *Plan) configMapName() string { return p.Name + "-deepspeed" }

// k8sScript is the container's bash script: requirements, DeepSpeed, then
// exec torchrun (exec so the pod's signals reach it).
func (p *Plan) k8sScript(rdzv rendezvous, args []string) string {
	lines := append(p.setupLines(), "exec "+continued(p.torchrunWords(rdzv, args), "  "))
	return strings.Join(lines, "\n") + "\n"
}

// podSpec is the pod template spec; restartPolicy "" leaves it to the
// replica spec (PyTorchJob).
func (p *Plan) podSpec(restartPolicy, container, script string, ports *yaml.Node) *yaml.Node {
	mounts := []*yaml.Node{mapping(kv{"name", str("dshm")}, kv{"mountPath", str("/dev/shm")})}
	volumes := []*yaml.Node{mapping(kv{"name", str("dshm")}, kv{"emptyDir", mapping(kv{"medium", str("Memory")})})}
	if p.ZeRO() > 0 {
		mounts = append(mounts, mapping(kv{"name", str("deepspeed")}, kv{"mountPath", str(configDir)}, kv{"readOnly", boolean(true)}))
		volumes = append(volumes, mapping(kv{"name", str("deepspeed")}, kv{"configMap", mapping(kv{"name", str(p.configMapName())})}))
	}
	var rp *yaml.Node
	if restartPolicy != "" {
		rp = str(restartPolicy)
	}
	return mapping(
		kv{"restartPolicy", rp},
		kv{"nodeSelector", mapping(kv{instanceTypeLabel, str(p.InstanceType)})},
		kv{"containers", seq(mapping(
			kv{"name", str(container)},
			kv{"image", str(p.Image)},
			kv{"workingDir", str(workDir)},
			kv{"command", strs("bash", "-c")},
			kv{"args", strs(script)},
			kv{"ports", ports},
			kv{"resources", mapping(kv{"limits", mapping(kv{GPUResource, integer(p.ProcsPerNode)})})},
			kv{"volumeMounts", seq(mounts...)},
		))},
		kv{"volumes", seq(volumes...)},
	)
}
