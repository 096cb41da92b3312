package launch

import (
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
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
// NVIDIA's device plugin, or on AMD GPUs AMD's (AMDGPUResource instead of
// nvidia.com/gpu, no NVIDIA toleration; the image is the user's ROCm one).
//
// One node: a batch/v1 Job whose pod has restartPolicy Never and a
// podFailurePolicy that ignores pods the cluster disrupted (condition
// DisruptionTarget: preemption, node drain; Kubernetes "Handling retriable
// and non-retriable pod failures with Pod failure policy"), so a preempted
// pod is recreated without spending backoffLimit (0, or 3 on spot).
//
// Several nodes: by default a Kubeflow Trainer v2 TrainJob
// (trainer.kubeflow.org/v1alpha1, kubeflow/trainer
// pkg/apis/trainer/v1alpha1/trainjob_types.go at 8c0f5059) on the
// torch-distributed ClusterTrainingRuntime: trainer {image, command, args,
// env, numNodes, numProcPerNode, resourcesPerNode}, and a runtimePatches
// entry (manager "gpuplan") that patches the runtime's "node" replicated
// job's pod with the node selector, tolerations, volumes and the "node"
// container's mounts. The Trainer's torch plugin sets PET_NNODES,
// PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR and PET_MASTER_PORT
// in every node (pkg/runtime/framework/plugins/torch/torch.go), which
// torchrun is given. Retries after preemption are the runtime's JobSet
// failurePolicy, which a TrainJob cannot patch. With Options.Kubernetes
// KindPyTorchJob: a Kubeflow Training Operator v1 PyTorchJob with one
// Master and nodes−1 Workers, restartPolicy OnFailure and
// runPolicy.backoffLimit 3 on spot.
//
// Every pod: GPUs in limits (Kubernetes "Schedule GPUs": the request
// defaults to the limit), CPU and memory requests of ¾ of the node's share
// (the rest left to the kubelet's reservations and DaemonSets) and a
// memory limit equal to the request, the toleration for the nvidia.com/gpu
// NoSchedule taint GPU node pools carry (GKE, AKS), a memory-backed
// /dev/shm for the data loader, the Hugging Face cache at HF_HOME in an
// emptyDir sized for the checkpoint and dataset it downloads, with
// ephemeral-storage requests and limits that cover it (trainCache),
// HF_TOKEN from the Secret hf-token (key "token", optional so public
// models need none), and on several nodes the fabric: AWS EFA devices
// (vpc.amazonaws.com/efa, with the FI_* variables) or InfiniBand through
// the RDMA shared device plugin (with IPC_LOCK). The node selector is the
// instance-type label when the type is a valid label value; otherwise
// (Fluidstack "A100_PCIE_80GB::1") there is none and the header says so.
// On spot it also selects the spot label of the provider's managed
// Kubernetes (GKE, EKS managed node groups, AKS, with a toleration for the
// AKS spot taint; see spotNodesByProvider), so the job runs on the capacity
// it was priced at; for other providers the header says the cluster must
// be told.
// For ZeRO a ConfigMap with the DeepSpeed config comes first and is
// mounted at /etc/gpuplan.
//
// The image is the NGC PyTorch image for the GPU: build your own FROM it
// with the script and requirements in /workspace, and pass it as the image.
// The error wraps ErrNoStack when no image fits the GPU and Options.Image is
// empty, and ErrPlan when a value cannot be a shell word.
func (p *Plan) Kubernetes() ([]byte, error) {
	if p.OutputClaim == "" { // a Plan built without NewPlan
		c := *p
		c.OutputClaim = DefaultOutputClaim
		p = &c
	}
	if err := p.checkImage(); err != nil {
		return nil, err
	}
	if err := p.checkEntry(); err != nil {
		return nil, err
	}
	if err := p.checkShellWords(); err != nil {
		return nil, err
	}
	if err := p.checkHostRAM(); err != nil {
		return nil, err
	}
	labels := mapping(
		kv{"app.kubernetes.io/name", str(p.Name)},
		kv{"app.kubernetes.io/managed-by", str("gpuplan")},
	)
	docs := []*yaml.Node{p.outputClaim(labels)}
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
	header := append(p.HeaderLines(), p.imageComment())
	if p.Script != "" {
		header = append(header, "the image must hold the script in "+workDir+": build one FROM "+p.Image+" with your code, or pass yours with --image")
	}
	if p.ROCm() {
		header = append(header, "AMD GPU: the pods request "+AMDGPUResource+" from AMD's device plugin (ROCm/k8s-device-plugin) and carry no NVIDIA toleration; add your cluster's if its AMD nodes are tainted")
	}
	header = append(header, "gated models: kubectl create secret generic hf-token --from-literal=token=$HF_TOKEN")
	if h := p.trainCacheHeader(); h != "" {
		header = append(header, h)
	}
	header = append(header, fmt.Sprintf("outputs: --output_dir %s is on the PersistentVolumeClaim %s mounted at %s, so the trained model outlives the pod; "+
		"the claim below is created by kubectl apply (%s, %dGi, the cluster's default StorageClass): drop that document to use an existing claim, or name yours with --k8s-pvc%s",
		p.OutputDir, p.OutputClaim, p.outputMount(), p.claimAccessMode(), p.DiskGB, sharedClassNote(p.claimAccessMode())))
	if !ValidLabelValue(p.InstanceType) {
		header = append(header, fmt.Sprintf("no %s selector: %q is not a valid label value; pods go to any node with free %s (add your cluster's GPU label, e.g. nvidia.com/gpu.product)", p.instanceSelectorWord(), p.InstanceType, p.gpuResource()))
	}
	if h := p.spotHeader(); h != "" {
		header = append(header, h)
	}
	if p.Nodes == 1 && p.K8sKind == KindPyTorchJob {
		// Asked for (--format pytorchjob, --k8s-kind pytorchjob) and not
		// written: a PyTorchJob is the Training Operator's job across
		// nodes; one node runs as a Job (walk36b: "wrote pytorchjob" of
		// a batch/v1 Job, unsaid).
		header = append(header, "one node: a plain Kubernetes Job, not a PyTorchJob (the Training Operator's kind for a job across nodes); it needs no operator")
	}
	switch {
	case p.Nodes == 1:
		backoff := 0
		if p.Spot() {
			backoff = 3
			header = append(header, "spot: a pod the cluster disrupts is recreated (podFailurePolicy); other failures are retried up to 3 times; "+p.resumeClause())
		}
		script := p.k8sScript(rendezvous{nproc: fmt.Sprint(p.ProcsPerNode), standalone: true}, args)
		docs = append(docs, mapping(
			kv{"apiVersion", str("batch/v1")},
			kv{"kind", str("Job")},
			kv{"metadata", mapping(kv{"name", str(p.Name)}, kv{"labels", labels})},
			kv{"spec", mapping(
				kv{"backoffLimit", integer(backoff)},
				kv{"podFailurePolicy", mapping(kv{"rules", seq(mapping(
					kv{"action", str("Ignore")},
					kv{"onPodConditions", seq(mapping(kv{"type", str("DisruptionTarget")}))},
				))})},
				kv{"template", mapping(
					kv{"metadata", mapping(kv{"labels", labels})},
					kv{"spec", p.podSpec("Never", "train", script, nil)},
				)},
			)},
		))
	case p.K8sKind == KindPyTorchJob:
		docs = append(docs, p.pytorchJob(labels, args, &header))
	default:
		docs = append(docs, p.trainJob(labels, args, &header))
	}
	return encodeYAML(header, docs...)
}

// TrainJobRuntime is the ClusterTrainingRuntime the TrainJob runs on, and
// trainJobNode the name of its replicated job and trainer container
// (kubeflow/trainer charts/kubeflow-trainer/files/runtimes/torch-distributed.yaml).
const (
	TrainJobRuntime = "torch-distributed"
	trainJobNode    = "node"
	trainJobManager = "gpuplan"
)

func (p *Plan) trainJob(labels *yaml.Node, args []string, header *[]string) *yaml.Node {
	*header = append(*header, "Kubeflow Trainer v2: needs the "+TrainJobRuntime+" ClusterTrainingRuntime installed (kubeflow/trainer manifests)")
	if p.Spot() {
		*header = append(*header, "spot: restarts after preemption follow the runtime's JobSet failurePolicy; "+p.resumeClause())
	}
	// The trainer has no workingDir field, so the script changes to it.
	script := "cd " + workDir + "\n" + p.k8sScript(rendezvous{
		nnodes: "$PET_NNODES", nproc: "$PET_NPROC_PER_NODE", nodeRank: "$PET_NODE_RANK",
		master: "$PET_MASTER_ADDR", port: "$PET_MASTER_PORT",
	}, args)
	mounts, volumes := p.volumes()
	container := []kv{{"name", str(trainJobNode)}, {"volumeMounts", seq(mounts...)}}
	if sc := p.securityContext(); sc != nil {
		container = append(container, kv{"securityContext", sc})
	}
	podPatch := mapping(
		kv{"nodeSelector", p.nodeSelector()},
		kv{"tolerations", p.tolerations()},
		kv{"volumes", seq(volumes...)},
		kv{"containers", seq(mapping(container...))},
	)
	return mapping(
		kv{"apiVersion", str("trainer.kubeflow.org/v1alpha1")},
		kv{"kind", str("TrainJob")},
		kv{"metadata", mapping(kv{"name", str(p.Name)}, kv{"labels", labels})},
		kv{"spec", mapping(
			kv{"runtimeRef", mapping(kv{"name", str(TrainJobRuntime)})},
			kv{"trainer", mapping(
				kv{"image", str(p.Image)},
				kv{"command", strs("bash", "-c")},
				kv{"args", kubeStrs(script)},
				kv{"env", p.envVars()},
				kv{"numNodes", integer(p.Nodes)},
				kv{"numProcPerNode", integer(p.ProcsPerNode)},
				kv{"resourcesPerNode", p.resources()},
			)},
			kv{"runtimePatches", seq(mapping(
				kv{"manager", str(trainJobManager)},
				kv{"trainingRuntimeSpec", mapping(kv{"template", mapping(kv{"spec", mapping(
					kv{"replicatedJobs", seq(mapping(
						kv{"name", str(trainJobNode)},
						kv{"template", mapping(kv{"spec", mapping(kv{"template", mapping(kv{"spec", podPatch})})})},
					))},
				)})})},
			))},
		)},
	)
}

func (p *Plan) pytorchJob(labels *yaml.Node, args []string, header *[]string) *yaml.Node {
	backoff := 0
	if p.Spot() {
		backoff = 3
		*header = append(*header, "spot: the operator restarts failed pods (restartPolicy OnFailure, backoffLimit 3); "+p.resumeClause())
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
	return mapping(
		kv{"apiVersion", str("kubeflow.org/v1")},
		kv{"kind", str("PyTorchJob")},
		kv{"metadata", mapping(kv{"name", str(p.Name)}, kv{"labels", labels})},
		kv{"spec", mapping(
			kv{"runPolicy", mapping(kv{"backoffLimit", integer(backoff)})},
			kv{"pytorchReplicaSpecs", mapping(
				kv{"Master", replica(1)},
				kv{"Worker", replica(p.Nodes - 1)},
			)},
		)},
	)
}

func (p *Plan) configMapName() string { return p.Name + "-deepspeed" }

// k8sScript is the container's bash script: requirements, DeepSpeed, on
// spot ResumeScript, then exec torchrun (exec so the pod's signals reach
// it).
func (p *Plan) k8sScript(rdzv rendezvous, args []string) string {
	lines := p.setupLines()
	if f := p.resumeFile(); f != "" { // in the working directory, /workspace
		lines = append(lines, strings.TrimSuffix(f, "\n"))
	}
	lines = append(lines, "exec "+continued(p.torchrunWords(rdzv, args), "  "))
	return strings.Join(lines, "\n") + "\n"
}

// Hugging Face wiring in containers.
const (
	hfCacheDir     = "/root/.cache/huggingface" // HF_HOME; huggingface_hub's default for root
	hfTokenSecret  = "hf-token"
	hfTokenKey     = "token"
	k8sRequestFrac = 0.75 // of the node's share of vCPUs and memory; see Kubernetes
)

// envVars are the container's environment: HF_HOME, HF_TOKEN from the
// Secret, and the fabric's variables.
func (p *Plan) envVars() *yaml.Node {
	items := []*yaml.Node{
		mapping(kv{"name", str("HF_HOME")}, kv{"value", str(hfCacheDir)}),
		mapping(kv{"name", str("HF_TOKEN")}, kv{"valueFrom", mapping(kv{"secretKeyRef", mapping(
			kv{"name", str(hfTokenSecret)}, kv{"key", str(hfTokenKey)}, kv{"optional", boolean(true)})})}),
	}
	for _, e := range p.Network.Env() {
		items = append(items, mapping(kv{"name", str(e[0])}, kv{"value", str(e[1])}))
	}
	return seq(items...)
}

// resources are the container's requests and limits (see Kubernetes).
// Extended resources other than GPUs (EFA, RDMA) go in both, equal, as
// Kubernetes requires for extended resources that are requested.
//
// The memory is at least the host RAM the job needs while loading
// (HostRAMNeedGiB, rounded up to a whole Gi), so the limit never
// OOM-kills a pod the host-RAM check let through; checkHostRAM refuses a
// need above the pod's share of the node.
func (p *Plan) resources() *yaml.Node {
	share := p.nodeShare()
	cpu := max(int(float64(p.HostVCPUs)*share*k8sRequestFrac), 1)
	memGi := max(int(p.HostMemoryGiB*share*k8sRequestFrac), int(math.Ceil(p.HostRAMNeedGiB)), 1)
	mem := fmt.Sprintf("%dGi", memGi)
	limits := []kv{{p.gpuResource(), integer(p.ProcsPerNode)}, {"memory", str(mem)}}
	requests := []kv{{"cpu", str(fmt.Sprint(cpu))}, {"memory", str(mem)}}
	if p.Network.EFA > 0 {
		limits = append(limits, kv{cloud.EFAResource, integer(p.Network.EFA)})
		requests = append(requests, kv{cloud.EFAResource, integer(p.Network.EFA)})
	}
	if p.Network.InfiniBand {
		limits = append(limits, kv{cloud.RDMAResource, integer(1)})
		requests = append(requests, kv{cloud.RDMAResource, integer(1)})
	}
	if g := p.ephemeralGiB(); g > 0 {
		limits = append(limits, kv{"ephemeral-storage", str(fmt.Sprintf("%dGi", g))})
		requests = append(requests, kv{"ephemeral-storage", str(fmt.Sprintf("%dGi", g))})
	}
	return mapping(kv{"limits", mapping(limits...)}, kv{"requests", mapping(requests...)})
}

// nodeShare is the fraction of a node's GPUs, and so of its vCPUs and
// memory, one pod takes.
func (p *Plan) nodeShare() float64 {
	return float64(p.ProcsPerNode) / float64(max(p.GPUsPerInstance, 1))
}

// checkHostRAM refuses a pod whose processes need more host RAM while
// loading than its share of the node has (a share below the whole node
// when the job uses fewer GPUs than the instance has).
func (p *Plan) checkHostRAM() error {
	have := p.HostMemoryGiB * p.nodeShare()
	if need := math.Ceil(p.HostRAMNeedGiB); p.HostMemoryGiB > 0 && need > have {
		return model.Errorf(ErrPlan, "the job needs %.0f GiB of host RAM per node while loading its weights, more than its %.0f GiB share of %s's %.0f GiB: use all %d GPUs of the instance or a type with more memory",
			need, have, p.InstanceType, p.HostMemoryGiB, p.GPUsPerInstance)
	}
	return nil
}

// securityContext adds IPC_LOCK for InfiniBand (RDMA pins memory), nil
// otherwise.
func (p *Plan) securityContext() *yaml.Node {
	if !p.Network.InfiniBand {
		return nil
	}
	return mapping(kv{"capabilities", mapping(kv{"add", strs("IPC_LOCK")})})
}

// tolerations are the pod's: NVIDIA's GPU taint (none on AMD GPUs,
// AMDGPUResource), and on spot the taint of the provider's spot nodes where
// its managed Kubernetes puts one (AKS; spotToleration); nil when none.
func (p *Plan) tolerations() *yaml.Node {
	var items []*yaml.Node
	if !p.ROCm() {
		items = append(items, gpuToleration())
	}
	if t := p.spotToleration(); t != nil {
		items = append(items, t)
	}
	if len(items) == 0 {
		return nil
	}
	return seq(items...)
}

func gpuToleration() *yaml.Node {
	return mapping(kv{"key", str(GPUResource)}, kv{"operator", str("Exists")}, kv{"effect", str("NoSchedule")})
}

// nodeSelector selects the instance type when it is a valid label value
// and, on spot, the spot label of the provider's managed Kubernetes
// (spotNodes: GKE, EKS, AKS); nil when it selects neither (see Kubernetes).
func (p *Plan) nodeSelector() *yaml.Node {
	var labels []kv
	if ValidLabelValue(p.InstanceType) {
		labels = append(labels, kv{instanceTypeLabel, str(p.InstanceType)})
	}
	if s, ok := p.spotNodes(); ok {
		labels = append(labels, kv{s.label, str(s.value)})
	}
	if len(labels) == 0 {
		return nil
	}
	return mapping(labels...)
}

// volumes are the pod's volume mounts and volumes: /dev/shm in memory, the
// Hugging Face cache, the PersistentVolumeClaim Plan.OutputClaim at the
// output directory (outputMount), and the DeepSpeed ConfigMap for ZeRO.
func (p *Plan) volumes() (mounts, volumes []*yaml.Node) {
	mounts = []*yaml.Node{
		mapping(kv{"name", str("dshm")}, kv{"mountPath", str("/dev/shm")}),
		mapping(kv{"name", str("hf-cache")}, kv{"mountPath", str(hfCacheDir)}),
	}
	volumes = []*yaml.Node{
		mapping(kv{"name", str("dshm")}, kv{"emptyDir", mapping(kv{"medium", str("Memory")})}),
		p.cacheVolume(),
	}
	if p.OutputClaim != "" { // none for serving (Serve.Kubernetes)
		mounts = append(mounts, mapping(kv{"name", str("outputs")}, kv{"mountPath", str(p.outputMount())}))
		volumes = append(volumes, mapping(kv{"name", str("outputs")}, kv{"persistentVolumeClaim", mapping(kv{"claimName", str(p.OutputClaim)})}))
	}
	if p.ZeRO() > 0 {
		mounts = append(mounts, mapping(kv{"name", str("deepspeed")}, kv{"mountPath", str(configDir)}, kv{"readOnly", boolean(true)}))
		volumes = append(volumes, mapping(kv{"name", str("deepspeed")}, kv{"configMap", mapping(kv{"name", str(p.configMapName())})}))
	}
	return mounts, volumes
}

// cacheVolume is the Hugging Face cache's volume: the claim cacheClaim,
// an emptyDir of cacheGiB (its sizeLimit: the kubelet evicts the pod when
// the volume outgrows it, Kubernetes docs, Volumes, emptyDir,
// https://kubernetes.io/docs/concepts/storage/volumes/#emptydir), or for
// a Plan built without NewPlan an emptyDir without a size.
func (p *Plan) cacheVolume() *yaml.Node {
	switch {
	case p.cacheClaim != "":
		return mapping(kv{"name", str("hf-cache")}, kv{"persistentVolumeClaim", mapping(kv{"claimName", str(p.cacheClaim)})})
	case p.cacheGiB > 0:
		return mapping(kv{"name", str("hf-cache")}, kv{"emptyDir", mapping(kv{"sizeLimit", str(fmt.Sprintf("%dGi", p.cacheGiB))})})
	}
	return mapping(kv{"name", str("hf-cache")}, kv{"emptyDir", mapping()})
}

// ephemeralGiB is the local ephemeral storage a pod (serving or
// training) requests and is limited to with its cache an emptyDir of cacheGiB: the cache plus
// the container's writable layer and logs, which count against the same
// limit (Kubernetes docs, Resource Management for Pods and Containers,
// Local ephemeral storage: disk-backed emptyDir volumes, the writable
// layer and logs are measured against the containers' summed limits, and
// the scheduler places the pod only on a node whose allocatable ephemeral
// storage holds the requests,
// https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/#local-ephemeral-storage);
// 0 without one.
func (p *Plan) ephemeralGiB() int {
	if p.cacheClaim != "" || p.cacheGiB <= 0 {
		return 0
	}
	return p.cacheGiB + writableLayerGiB
}

// writableLayerGiB is the room left for the container's writable layer
// beside its cache: for vllm, vLLM's torch.compile and CUDA graph caches
// (~/.cache/vllm, VLLM_CACHE_ROOT); for training, the packages the script
// pip-installs (TRL, PEFT, DeepSpeed on the image's PyTorch) and
// PyTorch's compile and extension caches; pip's cache and the logs. A few
// GiB; 10 is an assumption with room to spare.
const writableLayerGiB = 10

// trainCache sizes a training pod's Hugging Face cache with the serving
// Deployment's rule (ServeCacheGiB: + 20%, rounded up to 10 Gi) for what
// lands in HF_HOME: the checkpoint as downloaded (weights, from the hub
// into HF_HOME/hub) and the dataset (datasets.load_dataset downloads it
// into HF_HOME/hub and writes its Arrow cache in HF_HOME/datasets:
// huggingface/datasets src/datasets/config.py, HF_DATASETS_CACHE defaults
// to $HF_HOME/datasets), both as DiskSizeGB counts them. Checkpoints are
// not counted: the export writes them to --output_dir, on the
// PersistentVolumeClaim OutputClaim (outputMount), not in the cache.
func (p *Plan) trainCache(w *model.Workload, params float64) {
	p.cacheWeightBytes, p.cacheDataBytes = checkpointBytes(w, params), datasetBytes(w)
	p.cacheGiB = ServeCacheGiB(p.cacheWeightBytes + p.cacheDataBytes)
}

// trainCacheHeader is the training file's line on the Hugging Face
// cache: its emptyDir's size, what it holds, the ephemeral storage asked
// for, and that checkpoints are elsewhere; "" without a sized cache.
func (p *Plan) trainCacheHeader() string {
	if p.cacheGiB <= 0 || p.cacheClaim != "" {
		return ""
	}
	held := fmt.Sprintf("about %.0f GiB of checkpoint", p.cacheWeightBytes/model.GiB)
	switch d := p.cacheDataBytes / model.GiB; {
	case d >= 0.5:
		held += fmt.Sprintf(" and %.0f GiB of dataset", d)
	case d > 0:
		held += " and under 1 GiB of dataset"
	}
	return fmt.Sprintf("cache: HF_HOME is an emptyDir of %dGi (%s + %d%%) and each pod requests %dGi of ephemeral-storage (+%dGi for the container's writable layer and logs), so it is scheduled only on a node with that much local disk and evicted past it (Kubernetes docs: emptyDir sizeLimit; local ephemeral storage); checkpoints go to the outputs claim, not the cache",
		p.cacheGiB, held, diskHeadroomPercent, p.ephemeralGiB(), writableLayerGiB)
}

// outputMount is where the output claim is mounted: CheckpointDir on spot
// (the output directory is under it), else the output directory under the
// working directory. Without it the pod's restartPolicy Never and the
// container's writable layer would lose the trained model with the pod.
func (p *Plan) outputMount() string {
	if path.IsAbs(p.OutputDir) {
		if p.Spot() {
			return CheckpointDir
		}
		return path.Clean(p.OutputDir)
	}
	return path.Join(workDir, p.OutputDir)
}

// claimAccessMode is ReadWriteOnce for one node (Kubernetes "Persistent
// Volumes", access modes: mounted read-write by one node) and
// ReadWriteMany when the pods of several nodes mount the claim.
func (p *Plan) claimAccessMode() string {
	if p.Nodes > 1 {
		return "ReadWriteMany"
	}
	return "ReadWriteOnce"
}

// outputClaim is the v1 PersistentVolumeClaim for the outputs, sized like
// the root disk (DiskSizeGB counts the checkpoints it holds; as Gi it
// rounds up) on the cluster's default StorageClass.
func (p *Plan) outputClaim(labels *yaml.Node) *yaml.Node {
	return mapping(
		kv{"apiVersion", str("v1")},
		kv{"kind", str("PersistentVolumeClaim")},
		kv{"metadata", mapping(kv{"name", str(p.OutputClaim)}, kv{"labels", labels})},
		kv{"spec", mapping(
			kv{"accessModes", strs(p.claimAccessMode())},
			kv{"resources", mapping(kv{"requests", mapping(kv{"storage", str(fmt.Sprintf("%dGi", max(p.DiskGB, 1)))})})},
		)},
	)
}

// ValidSubdomain reports whether s is a DNS-1123 subdomain, the rule for
// PersistentVolumeClaim names: 1–253 characters of [a-z0-9.-] starting and
// ending with [a-z0-9] (k8s.io/apimachinery pkg/util/validation
// IsDNS1123Subdomain; the tests check the two agree).
func ValidSubdomain(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// podSpec is the pod template spec; restartPolicy "" leaves it to the
// replica spec (PyTorchJob).
func (p *Plan) podSpec(restartPolicy, container, script string, ports *yaml.Node) *yaml.Node {
	mounts, volumes := p.volumes()
	var rp *yaml.Node
	if restartPolicy != "" {
		rp = str(restartPolicy)
	}
	return mapping(
		kv{"restartPolicy", rp},
		kv{"nodeSelector", p.nodeSelector()},
		kv{"tolerations", p.tolerations()},
		kv{"containers", seq(mapping(
			kv{"name", str(container)},
			kv{"image", str(p.Image)},
			kv{"workingDir", str(workDir)},
			kv{"command", strs("bash", "-c")},
			kv{"args", kubeStrs(script)},
			kv{"env", p.envVars()},
			kv{"ports", ports},
			kv{"resources", p.resources()},
			kv{"securityContext", p.securityContext()},
			kv{"volumeMounts", seq(mounts...)},
		))},
		kv{"volumes", seq(volumes...)},
	)
}

// ValidLabelValue reports whether s is a valid Kubernetes label value:
// empty, or at most 63 characters of [A-Za-z0-9_.-] starting and ending
// with a letter or digit (k8s.io/apimachinery
// pkg/util/validation.IsValidLabelValue; the tests check the two agree).
func ValidLabelValue(s string) bool {
	if len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && ((i == 0 || i == len(s)-1) || (c != '-' && c != '_' && c != '.')) {
			return false
		}
	}
	return true
}
