package launch

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Node labels (and the AKS taint) that mark spot capacity on the managed
// Kubernetes of each provider, so a plan priced at spot rates runs on spot
// nodes rather than on whatever node of the type is free.
const (
	// GKESpotLabel is the label of GKE Spot VM nodes, value "true". GKE
	// "Spot VMs" (cloud.google.com/kubernetes-engine/docs/concepts/spot-vms):
	// "You can request Spot VMs for your workloads in both Standard and
	// Autopilot mode by using ComputeClasses or node selectors"; GKE "Run
	// fault-tolerant workloads at lower costs in Spot Pods"
	// (docs/how-to/autopilot-spot-pods, "Request Spot Pods in your
	// Autopilot workloads") has Pods use the cloud.google.com/gke-spot=true
	// label in a nodeSelector or node affinity. No toleration: on Autopilot
	// "GKE automatically taints nodes that run Spot Pods" (same page) and
	// adds the matching toleration to the workloads that request them; a
	// Standard Spot node pool has a taint only when its owner adds one.
	GKESpotLabel = "cloud.google.com/gke-spot"
	// EKSCapacityTypeLabel is the label EKS managed node groups put on every
	// node, value "SPOT" on Spot node groups. Amazon EKS User Guide,
	// "Managed node groups", Managed node group capacity types › Spot
	// (docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html;
	// awsdocs/amazon-eks-user-guide latest/ug/nodes/managed-node-groups.adoc):
	// "Amazon EKS adds the following Kubernetes label to all nodes in your
	// managed node group that specifies the capacity type:
	// eks.amazonaws.com/capacityType: SPOT. You can use this label to
	// schedule fault tolerant applications on Spot nodes."
	EKSCapacityTypeLabel = "eks.amazonaws.com/capacityType"
	// KarpenterCapacityTypeLabel is the label Karpenter (and EKS Auto Mode,
	// which runs it) puts on the nodes it launches, value "spot"
	// (aws/karpenter-provider-aws examples/v1beta1/spot.yaml: NodePool
	// requirement key karpenter.sh/capacity-type, values ["spot"]; EKS User
	// Guide "Control deployment of workloads into Capacity Reservations with
	// EKS Auto Mode": nodes "will have karpenter.sh/capacity-type: reserved
	// and will be prioritized over on-demand and spot"). Not selected: a
	// nodeSelector ANDs its labels, so one key must be chosen, and the
	// managed node groups' is the one the EKS guide documents for EKS's own
	// capacity types; the header names this key for Karpenter clusters.
	KarpenterCapacityTypeLabel = "karpenter.sh/capacity-type"
	// AKSScaleSetPriorityLabel is the label and taint key of AKS Spot node
	// pools, value "spot". AKS "Add an Azure Spot node pool to an Azure
	// Kubernetes Service (AKS) cluster", Limitations
	// (learn.microsoft.com/azure/aks/spot-node-pool): Spot node pools carry
	// the label kubernetes.azure.com/scalesetpriority:spot and the taint
	// kubernetes.azure.com/scalesetpriority=spot:NoSchedule (system pods have
	// anti-affinity to them), so a workload needs the matching toleration
	// and affinity to be scheduled there.
	AKSScaleSetPriorityLabel = "kubernetes.azure.com/scalesetpriority"
)

// spotNodes is how a provider's managed Kubernetes marks spot nodes.
type spotNodes struct {
	service      string // the managed Kubernetes, for the header
	label, value string // the node label a spot pod selects
	// tainted: the nodes carry the NoSchedule taint label=value, which the
	// pod must tolerate.
	tainted bool
}

// spotNodesByProvider holds the providers whose managed Kubernetes
// documents a spot node label, by catalog provider key; the constants above
// give the sources.
var spotNodesByProvider = map[string]spotNodes{
	"gcp":   {service: "GKE", label: GKESpotLabel, value: "true"},
	"aws":   {service: "EKS", label: EKSCapacityTypeLabel, value: "SPOT"},
	"azure": {service: "AKS", label: AKSScaleSetPriorityLabel, value: "spot", tainted: true},
}

// spotNodes returns the plan's spot node label, ok false when the plan is
// not on spot or its provider documents none.
func (p *Plan) spotNodes() (spotNodes, bool) {
	if !p.Spot() {
		return spotNodes{}, false
	}
	s, ok := spotNodesByProvider[p.Provider]
	return s, ok
}

// spotToleration is the toleration for the spot taint, nil when the spot
// nodes of the plan's provider carry none (or the plan is not on spot).
func (p *Plan) spotToleration() *yaml.Node {
	s, ok := p.spotNodes()
	if !ok || !s.tainted {
		return nil
	}
	return mapping(kv{"key", str(s.label)}, kv{"operator", str("Equal")}, kv{"value", str(s.value)}, kv{"effect", str("NoSchedule")})
}

// spotHeader is the header line of a spot plan's manifest: which label
// selects spot nodes, or that the cluster must be told to schedule on spot
// nodes when the provider is not in spotNodesByProvider (its managed
// Kubernetes, if any, documents no label gpuplan has sourced); "" on other
// pricing.
func (p *Plan) spotHeader() string {
	if !p.Spot() {
		return ""
	}
	s, ok := p.spotNodes()
	if !ok {
		return fmt.Sprintf("spot: gpuplan knows no spot node label for %s's Kubernetes, so the pods select none: tell the cluster to schedule them on spot nodes (their label in nodeSelector, a toleration for their taint), or they may run on on-demand nodes at other than the priced rate", p.Provider)
	}
	v := s.value
	if v == "true" { // as the manifest writes it: a bare true is a YAML boolean
		v = `"true"`
	}
	line := fmt.Sprintf("spot: the pods select %s spot nodes (%s: %s", s.service, s.label, v)
	if s.tainted {
		line += fmt.Sprintf(", tolerating the %s=%s:NoSchedule taint", s.label, s.value)
	}
	line += ")"
	if s.service == "EKS" {
		line += fmt.Sprintf(", as managed node groups label them; on Karpenter or EKS Auto Mode nodes, which carry %s: spot, use that label instead", KarpenterCapacityTypeLabel)
	}
	return line
}

// instanceSelectorWord names what the header says is missing when the
// instance type is no valid label value: the whole node selector, or only
// its instance type when the spot label is still selected.
func (p *Plan) instanceSelectorWord() string {
	if _, ok := p.spotNodes(); ok {
		return "instance-type"
	}
	return "node"
}
