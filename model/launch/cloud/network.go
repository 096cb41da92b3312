package cloud

import (
	"strings"
)

// Network is the fabric between the nodes of a multi-node job and how
// each format asks for it. The zero value is plain TCP (one node, or a
// provider gpuplan knows no fabric for).
type Network struct {
	// Tier is SkyPilot's resources.network_tier: "best" where SkyPilot
	// implements it for the cloud (AWS EFA, GCP GPUDirect, Nebius
	// InfiniBand), else "" (other clouds list CUSTOM_NETWORK_TIER as
	// unsupported and would refuse the task).
	Tier string
	// EFA is the number of AWS Elastic Fabric Adapter devices of one node,
	// 0 for none.
	EFA int
	// InfiniBand is true on nodes with InfiniBand NICs that Kubernetes
	// exposes through the RDMA shared device plugin.
	InfiniBand bool
}

// EFA and RDMA resource names and settings.
const (
	// EFAResource is the extended resource the AWS EFA Kubernetes device
	// plugin advertises (Amazon EKS User Guide, "Manage EFA devices on
	// Amazon EKS"; SkyPilot examples/aws_efa).
	EFAResource = "vpc.amazonaws.com/efa"
	// RDMAResource is the resource the Mellanox k8s-rdma-shared-dev-plugin
	// advertises with its example configuration (resourceName
	// "rdma_shared_device_a", prefix "rdma"), which NVIDIA's Network
	// Operator deploys; clusters may rename it.
	RDMAResource = "rdma/rdma_shared_device_a"
)

// efaDevices is EFA_DEVICE_COUNT of SkyPilot's
// sky/provision/aws/constants.py (from AWS's EFA table): EFA devices per
// instance type; and p6-b200.48xlarge, which SkyPilot's table lacks: 8
// network cards of 400 Gbps, 3,200 Gbps in all (the catalog's network
// figure, AWS EC2 instance type specifications, network specifications),
// one EFA interface per network card as AWS recommends (Amazon EC2 User
// Guide, "Maximize network bandwidth on accelerated computing instances
// with EFA"); AWS's own HyperPod/EKS sample sets EFA_PER_NODE to 8 for it
// (aws-samples/awsome-distributed-training,
// 3.test_cases/megatron/megatron-lm/kubernetes/gpt3/README.md, "EFA
// Interfaces": ml.p6-b200.48xlarge 8, beside p5 32, p5en 16). The catalog's fabric field (model.Instance.Fabric, sourced)
// says which types have EFA but not how many interfaces, so the count
// stays here; TestEFACatalogAgrees checks every catalog type with fabric
// "efa" has a count (p5.4xlarge and p6-b300.48xlarge are still unknown:
// no EFA wiring there).
var efaDevices = map[string]int{
	"p6-b200.48xlarge": 8,
	"p4d.24xlarge":     4, "p4de.24xlarge": 4, "p5.48xlarge": 32, "p5e.48xlarge": 32, "p5en.48xlarge": 16,
	"g5.8xlarge": 1, "g5.12xlarge": 1, "g5.16xlarge": 1, "g5.24xlarge": 1, "g5.48xlarge": 1,
	"g4dn.8xlarge": 1, "g4dn.12xlarge": 1, "g4dn.16xlarge": 1, "g4dn.metal": 1,
	"g6.8xlarge": 1, "g6.12xlarge": 1, "g6.16xlarge": 1, "g6.24xlarge": 1, "g6.48xlarge": 1,
	"g6e.8xlarge": 1, "g6e.12xlarge": 1, "g6e.16xlarge": 1, "g6e.24xlarge": 2, "g6e.48xlarge": 4,
}

// efaEnv are the libfabric settings SkyPilot exports on EFA nodes
// (sky/provision/aws/constants.py, EFA_USER_DATA and EFA_DOCKER_OPTIONS):
// NCCL's aws-ofi-nccl plugin uses the EFA provider with GPUDirect RDMA,
// fork-safe. SkyPilot's NCCL tuning (NCCL_ALGO=Ring, NCCL_PROTO=Simple,
// NCCL_DEBUG=INFO) is left out: it is tuning, not wiring.
var efaEnv = [][2]string{{"FI_PROVIDER", "efa"}, {"FI_EFA_USE_DEVICE_RDMA", "1"}, {"FI_EFA_FORK_SAFE", "1"}}

// NetworkFor returns the fabric of a job on nodes of instanceType (as the
// provider spells it). One node needs none.
//
//   - AWS: the EFA devices of efaDevices; network_tier best when the type
//     has EFA (SkyPilot then attaches the EFA interfaces).
//   - GCP and Nebius: network_tier best (SkyPilot sets up GPUDirect-TCPX/RDMA
//     on GCP, InfiniBand on Nebius: sky/clouds/gcp.py, sky/clouds/nebius.py).
//   - Azure ND-series sizes with the 'r' (RDMA) capability letter
//     ("Standard_ND96asr_v4", "Standard_ND96isr_H100_v5") have InfiniBand
//     (Azure "Virtual machine naming conventions": r = RDMA capable);
//     SkyPilot has no network tier for Azure.
func NetworkFor(provider, instanceType string, nodes int) Network {
	if nodes <= 1 {
		return Network{}
	}
	var n Network
	switch provider {
	case "aws":
		n.EFA = efaDevices[instanceType]
		if n.EFA > 0 {
			n.Tier = "best"
		}
	case "gcp", "nebius":
		n.Tier = "best"
	case "azure":
		n.InfiniBand = azureRDMA(instanceType)
	}
	return n
}

// azureRDMA reports an Azure ND-series size whose additive features
// include 'r' (RDMA): Standard_ND<vCPUs><features>[_<accelerator>]_v<n>.
func azureRDMA(t string) bool {
	rest, ok := strings.CutPrefix(t, "Standard_ND")
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 {
		return false
	}
	feat, _, _ := strings.Cut(rest[i:], "_")
	return strings.Contains(feat, "r")
}

// Env returns the environment variables the fabric needs in the job's
// processes, in a fixed order.
func (n Network) Env() [][2]string {
	if n.EFA > 0 {
		return efaEnv
	}
	return nil
}
