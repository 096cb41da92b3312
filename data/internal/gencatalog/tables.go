package main

import "github.com/gpuplan/gpuplan/model"

// The hand-maintained tables of the generator: where the snapshot files come
// from, the facts the snapshot gets wrong or lacks, and the N1 host prices
// the snapshot left out. Every row names its source.

// provenance identifies one SkyPilot catalog file by the SHA-256 of its
// content, so a source line names a commit only for the file that came from
// it. The files are the filtered extract described in the reference
// snapshot's README (GPU rows of the upstream file at that commit).
type provenance struct {
	repo, path, commit string
	filtered           bool
}

var provenances = map[string]provenance{ // key: SHA-256 of the file
	"b060faec507dc6d14f02841c28e059407c9d8458e89e683a4712d878042e1642": {"skypilot-org/skypilot-catalog", "catalogs/v8/aws/vms.csv", "00148f2af3672e2229b4f7bf8157d5a3f36e3c35", true},
	"fbac3ec4bbd6e35846620b1c4f75f2c6628c4b6c57630331d94dbc878ecb6fe2": {"skypilot-org/skypilot-catalog", "catalogs/v8/gcp/vms.csv", "006059e0f18acb1341e22a27751e9f80df6ba92f", true},
	"1ae0a0f889f8c005fbde4dc8b60a3127b315e2a7e85454d272495cf259ecac5c": {"coopslarhette/skypilot-catalog (fork of skypilot-org/skypilot-catalog)", "catalogs/v8/azure/vms.csv", "20291d7eda23e6f420cd9586558cf0bc4051851c", true},
	"5534bad44f6bcc4160a566fb7119c525db766ddf84fa9cf4c1964ce530b171d8": {"skypilot-org/skypilot-catalog", "catalogs/v6/azure/vms.csv", "098741e70562f65d7af1cceb81e33b284f742604", true},
	"766eb4adfa8177ab7d9ee8240e54ab93026ac3f0a13720645199e69ecf66823f": {"skypilot-org/skypilot-catalog", "catalogs/v8/lambda/vms.csv", "0f4070387edc953d7004cff197940e1918a1d6aa", true},
	"c16a67dc69c4de6009e7c7e1895534a98751bc81db755d7d92d7c6c5cf5d4a91": {"skypilot-org/skypilot-catalog", "catalogs/v8/oci/vms.csv", "0588751183820cf2dab5c8a89447e8aac9f73fd5", true},
	"f24daa3ded6644017f6fe92d89ebb1dd88953bc39e798e37db3e2199c77c9134": {"skypilot-org/skypilot-catalog", "catalogs/v8/nebius/vms.csv", "0082b0435f3912ae4c566856b272455cc78f4f61", true},
	"1f4d267e9566e2634a9d616446eac5c6a7dd196f805c2ac5b5706e110de9f4c3": {"skypilot-org/skypilot-catalog", "catalogs/v8/cudo/vms.csv", "113567a74b2f208af08e0c9236e26cc354a2bf65", false},
	"624753e15439d89e564ec4fd2a3aba519f3cfa21b854a2b6550b89605aeed138": {"skypilot-org/skypilot-catalog", "catalogs/v8/vast/vms.csv", "01b8cdda287814b30ff0acb49746cca19fbd4355", false},
	"cd9340c65a874d375d97c80087098c72622d1f05bfeb0eaa5ef4611e12ac9ef6": {"skypilot-org/skypilot-catalog", "catalogs/v6/paperspace/vms.csv", "e520054145d1bce6748bcf18c9a25ddd6ea9a348", true},
	"eef17d1446c062facdee30c82dee2b233d1690c7a3bf5af95a362080b867616e": {"skypilot-org/skypilot-catalog", "catalogs/v6/fluidstack/vms.csv", "002403bca05e2ab5110637448f3b1654c983d5d5", false},
	"d973e260a01f3175dc677e28146681c05b574b82b5ee02f2c62cf9d8b1264ae2": {"skypilot-org/skypilot-catalog", "catalogs/v6/do/vms.csv", "1fbe7331dd1f13d70ac4f249bb7ee7a659fc6b6a", true},
	// The providers added in 2026-12, read from the stored copy of
	// skypilot-org/skypilot-catalog one file version at a time: the whole
	// file (CRLF line endings written as LF; each size checked equal to the
	// source's less one byte per line) unless filtered. Which stored version
	// is the newest cannot be told from the store; where two were compared
	// (verda) the one whose GpuInfo sizes are per GPU and whose GPU names
	// are normalised (a later fix) was taken.
	"9e522845d942f383e93b239731033c6e9ff4c67a7d01722fc5b1e032f9740a22": {"skypilot-org/skypilot-catalog", "catalogs/v8/hyperstack/vms.csv", "fdc9d908ab0b2af9f468f139fb3f662c8c6b3257", false},
	"15691ff686168e50732e0917a77b25d85097418c4ace41b1a7aac39d3dabd1ad": {"skypilot-org/skypilot-catalog", "catalogs/v8/jarvislabs/vms.csv", "57d65781a544958d7d07014f062f7d1cad8415a7", false},
	"b3bacc16a10216a0dcbccee0be327b392e27373b856c4f1715801d61c6a4ae1c": {"skypilot-org/skypilot-catalog", "catalogs/v8/seeweb/vms.csv", "004a1aef76542bb40d12fcedaaf091551ddf5fb4", false},
	"55fb503033bc310095a8edaf939a6c0b23feced8ee0519c83328803d4dd807ef": {"skypilot-org/skypilot-catalog", "catalogs/v8/verda/vms.csv", "000c1d0bf24621f4ac37cfa585f0897c1aa1d9cf", false},
	"1deed84b1b846a3cd125a2842186e7d73da21f64159d46d3cb18f44382b0b781": {"skypilot-org/skypilot-catalog", "catalogs/v8/yotta/vms.csv", "1f6904890c9bb9408f1d11e2865c3c1ee4d409c0", false},
	"56ea297853fbee2332ed1c7e31731b0c05926f8ef4239ec1b65765b3fa56a212": {"skypilot-org/skypilot-catalog", "catalogs/v8/daytona/vms.csv", "0eb5da57210acb5149367bd2b2f23237591aa2f5", false},
	"7f902e5fd15b3c7bbb77488c7e89d4160a525a694108df2d5c15b1be7afe335f": {"skypilot-org/skypilot-catalog", "catalogs/v8/shadeform/vms.csv", "002363dac75913b446b2d3d564ae795678849dfd", false},
	"1ddf656e58e513b7fb59f25120ab46289793e9ad1ae014db090ce10edf592109": {"skypilot-org/skypilot-catalog", "catalogs/v8/primeintellect/vms.csv", "d9a304ea01e96cd4a043159c60d9326d8de4cf0f", false},
	"50f022641b784123de139ab448359026f97cd8d746efaea0ab975132a2fff66a": {"skypilot-org/skypilot-catalog", "catalogs/v8/lium/vms.csv", "04a03aee12247fb62be7a2ee9d460bbf6dff30b1", false},
	"85ce687bbf9da3618fb88b190a42606d088f7f213dbc385dcf2b834601a72e4c": {"skypilot-org/skypilot-catalog", "catalogs/v8/hyperbolic/vms.csv", "0082b0435f3912ae4c566856b272455cc78f4f61", false},
	"6a26fa75764a172c0f91870d2e9d58842501ace29e2801ae8b0d5c38a8321ff4": {"skypilot-org/skypilot-catalog", "catalogs/v7/simplepod/vms.csv", "1010b7594439e103435466844552cf3580460085", false},
	// RunPod's v8 file is 2,167,070 characters (one row per type and
	// zone): only three type blocks were read whole (1x_A100-80GB_SECURE,
	// 1x_RTX4090_SECURE, 4x_RTX4090_SECURE, 48 zones each); `gpuplan
	// catalog update --providers runpod` fetches the rest. The extract is
	// the header and those three blocks in file order, LF line endings
	// (rebuilt byte for byte on 2026-12-02 from offsets 0, 1,205,000 and
	// 1,241,500 of the file: same SHA-256).
	"ff2060dbf448b5c04c8dbdc1c32d75ab41ccf4345c15ed42345ad6fb0eea8680": {"skypilot-org/skypilot-catalog", "catalogs/v8/runpod/vms.csv", "01acdfd419ce5afae1289ff14825b893ced0c196", true},
	// RunPod's v7 file, 169,061 characters (CRLF line endings kept), read
	// whole in 11 pieces and reassembled byte for byte (size checked against
	// the store's): it supplies the types the v8 extract lacks (olderVersions).
	"6b14c34275ad56bfd119426b16d9fc36ed8a37f8f457ad713487a4ca21f6ff01": {"skypilot-org/skypilot-catalog", "catalogs/v7/runpod/vms.csv", "0727c2bd9e77f91cb1377127c5f793a28cf01384", false},
}

// Sources cited by the fixes below.
const (
	srcNDH100v5       = "Microsoft Learn, ND H100 v5 series (MicrosoftDocs/azure-docs sizes/gpu-accelerated/includes/ndh100v5-series-summary.md and -specs.md): 8 H100 GPUs with NVLink 4.0, 8 × 400 Gb/s InfiniBand (3.2 Tb/s per VM), 28000 GiB local disk"
	srcNCH100v5       = "Microsoft Learn, NCads H100 v5 series (includes/ncadsh100v5-series-summary.md): NVIDIA H100 NVL GPUs, 94 GB each; specs: 3576–7152 GiB local disk, 40,000–80,000 Mbps"
	srcNDA100v4       = "Microsoft Learn, ND A100 v4 series (includes/ndasra100v4-series-specs.md, nd-a100-v4 summary): 8 A100 40GB with NVLink 3.0, 8 × 200 Gb/s HDR InfiniBand (1.6 Tb/s per VM), 6000 GiB local disk"
	srcNDmA100        = "Microsoft Learn, NDm A100 v4 series (includes/ndma100v4-series-summary.md): 8 A100 80GB with NVLink 3.0, 8 × 200 Gb/s HDR InfiniBand (1.6 Tb/s per VM)"
	srcNCA100v4       = "Microsoft Learn, NC A100 v4 series (includes/nca100v4-series-summary.md): up to 4 NVIDIA A100 PCIe GPUs, 80 GB each"
	srcNDv2           = "Microsoft Learn, NDv2 series (includes/ndv2-series-summary.md): 8 V100 32GB NVLINK-connected GPUs, 100 Gb/s InfiniBand EDR"
	srcNCv3Ret        = "Microsoft Learn, 'NCv3 and NC6s NC12s NC24s retirement' (MicrosoftDocs/azure-docs articles/virtual-machines/ncv3-nc6s-nc12s-nc24s-retirement.md): retired September 30, 2025"
	srcNCRet          = "Microsoft Learn, NC-series page (includes/nc-series-summary.md): NC and NC_Promo retired September 6, 2023 (not August 31: the retirement was extended)"
	srcNVRet          = "Microsoft Learn, 'NV series retirement' (sizes/migration-guides/nv-series-retirement.md): NV and NV_Promo retired September 6, 2023 (extended by one year; NVv3/NVv4 not affected)"
	srcP4d            = "AWS Compute Blog, 'Amazon EC2 P4d instances deep dive' (2020): 8 A100 40GB with NVSwitch, 400 Gbps EFA, 8 TB local NVMe"
	srcP4de           = "interconnect: AWS's HPC workshop (aws-samples/aws-hpc-tutorials content/03-Cluster/01-setup-cluster.md @ e10a4f5f1d4b58efd13d69fad17a1a5614a0b2f2), instance table: p4d.24xlarge and p4de.24xlarge, 8 A100 each, 'GPU Peer to Peer' '600 GB/s NVSwitch' (GPU memory 320 GB HBM2 on p4d, 640 GB on p4de)"
	srcP5             = "Hugging Face guide to AWS accelerated instances (as summarised by agenticdaily.ai): p5.48xlarge 8 H100, NVLink, 400 GB/s EFA (3200 Gbps), 30.72 TB local NVMe"
	srcP3             = "AWS News Blog, 'New – Amazon EC2 Instances with Up to 8 NVIDIA Tesla V100 GPUs (P3)' (2017), table: p3.2xlarge up to 10 Gbps, no NVLink; p3.8xlarge 10 Gbps, NVLink 200 GB/s; p3.16xlarge 25 Gbps, NVLink 300 GB/s"
	srcGCPA2          = "Google Cloud GPU table (as quoted in huggingface.co/spaces/Elfsong/gcp_allocator): A100 40GB and 80GB 'NVLink Full Mesh @ 600 GBps' — a full mesh of 8 or 16 A100s at 600 GB/s per GPU is the NVSwitch baseboard"
	srcHGX            = "NVIDIA HGX 8-GPU baseboards (H100/H200/B200/B300 SXM) connect all eight GPUs through NVSwitch chips; an 8-GPU SXM instance is one such board"
	srcLambda         = "Lambda instance type name: *_sxm4/_sxm5/_sxm6 are SXM boards, *_pcie PCIe cards"
	srcLambdaA100     = "very likely A100 40GB PCIe: Lambda names SXM parts _sxm4 and gpu_1x_a100_sxm4 exists separately (catalog audit #9, 'likely'; Lambda's API description not re-read)"
	srcNC24rsRet      = "Microsoft Learn, 'Migrate your Standard_NC24rs_v3 virtual machine size' (MicrosoftDocs/azure-docs nc24rsv3-retirement.md, updated): NCv3-series sizes, including Standard_NC24rs_v3, retired on September 30, 2025 (catalog audit #6)"
	srcP3Ret          = "AWS: 'AWS API no longer describes p3. instances. They are no longer listed as commercially available' (docs.aws.amazon.com/ec2/latest/instancetypes/ec2-instance-regions.html, as quoted in dstackai/gpuhunt PR #233, 2026-05-25); no retirement date published, the date is that PR's (catalog audit #4)"
	srcCudoRet        = "Cudo Compute: 'The public, on-demand CUDO Compute platform was officially shut down on March 31, 2026' (dstackai/dstack PR #4018, 2026-07-09; dstackai/gpuhunt PR #237 'Drop Cudo provider'; catalog audit #3)"
	srcNDmA100Mem     = "Microsoft Learn, NDm A100 v4 specs (includes/ndma100v4-series-specs.md): 'Memory 1900 GiB; Local Storage 6400 GiB' (the Azure SKU API's 1800 is what SkyPilot copied; catalog audit #7)"
	srcAzPriceUnconf  = "price unverified: datareceipts/data-receipts 109-gpu-pricing/hyperscalers.json (third party, from prices.azure.com, retrieved 2026-11-09) lists eastus NC48ads_A100_v4 $9.554, NC96ads_A100_v4 $19.108, NC80adis_H100_v5 $17.64; kept at the snapshot's price until the Azure Retail Prices API confirms (gpuplan catalog update fetches it; catalog audit #11)"
	srcNebiusUnconf   = "price unverified: tgarg01/silybench-data derived/cost.json (third party) quotes nebius.com/prices 'HGX H100' $3.85/GPU-h on 2026-09-25, possibly a different SKU; kept at the snapshot's price (catalog audit #12)"
	srcOCIB300Mem     = "GPU memory: OCI's shape table says 2100 GB per BM.GPU.B300.8 (262.5 GB per GPU, as SkyPilot fetch_oci.py GPU_MEMORY_GB cites docs.oracle.com computeshapes); the GPU entry keeps NVIDIA's HGX B300 datasheet 270 GB (catalog audit #13)"
	srcOCIGB300Mem    = "GPU memory: OCI's shape table gives 278 GB per GB300 (SkyPilot fetch_oci.py GPU_MEMORY_GB, citing docs.oracle.com computeshapes); the GPU entry keeps NVIDIA's Blackwell Ultra datasheet GB300 279 GB (catalog audit #13)"
	srcRunPodA100     = "RunPod's own GPU name in the row's GpuInfo: 'A100 PCIe' (SkyPilot's AcceleratorName A100-80GB does not say the form factor)"
	srcRunPodA100v7   = "RunPod's GpuInfo for the A100-80GB types of catalogs/v8/runpod/vms.csv @ 01acdfd4 (1x and 2x_A100-80GB_SECURE read): 'A100 PCIe'; the SXM part is the separate A100-80GB-SXM type"
	srcRunPodH100v7   = "catalogs/v7/runpod/vms.csv @ 0727c2bd lists H100-SXM and H100-NVL as their own types beside this plain H100 ($2.39 against $2.99 SXM): the plain H100 is RunPod's PCIe card"
	srcPIUpstream     = "Prime Intellect's row names the upstream instance type (UpstreamCloudId)"
	srcHyperstackPCIe = "Hyperstack's own catalog (skypilot-org/skypilot-catalog catalogs/v8/hyperstack/vms.csv @ fdc9d908): n3-A100x*/n3-H100x* are A100-80G-PCIe/H100-80G-PCIe, n3-H100-SXM5x8 is H100-80G-SXM5"
	srcNVLinkBridge   = "interconnect: pcie, for PCIe cards joined by NVLink bridges (the flavor's accelerator, e.g. H100-80G-PCIe-NVLink): a bridge pairs two cards at 600 GB/s (NVIDIA A100 datasheet r4, 'A100 80GB PCIe' column: 'NVIDIA NVLink Bridge for 2 GPUs: 600GB/s'; NVIDIA H100 datasheet 2022, 'H100 PCIe' column: 'NVLink: 600GB/s', the 2-way bridge of gpus.toml's h100-pcie) and there is no NVSwitch, so a collective over all eight GPUs crosses PCIe; the catalog has no value for bridged pairs and the time model uses the GPU's PCIe figure (Hyperstack's own statement of the topology was not found)"
	srcFluidstackH100 = "very likely 8 × H100 PCIe joined by NVLink bridges, not an SXM board (form-factor audit after the new-user walk): Fluidstack's file (catalogs/v6/fluidstack/vms.csv @ 002403bc) gives its A100 and H100 types exactly the vCPUs and memory of Hyperstack's n3 PCIe flavors (A100_PCIE_80GB::1/2/4/8 28/120, 60/240, 124/480, 252/1440 = n3-A100x1/2/4/8; H100_PCIE_80GB::1/2/4 28/180, 60/360, 124/720 = n3-H100x1/2/4), and this type's 252 vCPUs and 1440 GiB are n3-H100x8-NVLink's, whose accelerator is H100-80G-PCIe-NVLink (catalogs/v8/hyperstack/vms.csv @ fdc9d908), while Hyperstack's SXM board n3-H100-SXM5x8 has 192 vCPUs; 'NVLINK' in a name does not make an SXM board; Fluidstack's own description of the type was not read"
	srcScalewayH100   = "Scaleway, 'Choosing the right GPU Instance type' (scaleway/docs-content pages/gpu/reference-content/choosing-gpu-instance-type.mdx @ d1ff0767cf346f88eb53506919da7a487256112c): H100-1-80G is '1x H100 PCIe5' with 24 vCPUs and 240 GB RAM, H100-2-80G '2x H100 PCIe5' with 48 vCPUs and 480 GB, this row's shape; Scaleway's SXM types (H100-SXM-2/4/8-80G) have 32, 64 and 128 vCPUs (form-factor audit after the new-user walk)"
	srcP5EFA          = "AWS EC2 User Guide, 'Maximize network bandwidth on Amazon EC2 instances with multiple network cards' (efa-acc-inst-types, section 'EFA configuration for P5, P5e and P5en instances', docs.amazonaws.cn copy): p5.48xlarge, p5e.48xlarge and p5en.48xlarge have a total network bandwidth of 3200 Gbps (EFA and IP share it; IP up to 800 Gbps)"
	srcGCPNet         = "Google Cloud, 'Networking and GPU machines' (cloud.google.com/compute/docs/gpus/gpu-network-bandwidth)"
	srcEFATypes       = "fabric: SkyPilot's EFA_SUPPORTED_INSTANCE_TYPES (skypilot-org/skypilot sky/provision/aws/constants.py @ e7a2366002a97a21fb82b78552abefa550915652, 'AWS instance types that support EFA networking', from the table in AWS's EFA README) lists p4d.24xlarge, p4de.24xlarge, p5.48xlarge, p5e.48xlarge and p5en.48xlarge"
	srcOFINCCL        = "fabric: AWS's NCCL plugin for EFA (aws/aws-ofi-nccl src/platform-aws.cpp @ 2daf7d303aa139a03140aa530957d10521e4478d, platform_data_map) has entries for p5.4xlarge, 'p5en/p6-b200' ('EFA hardware completion counter (GDAKI) is supported on P5en and P6-B200') and 'p6-b300' ('... supported on P6-B300')"
	srcAWSNetSpecs    = "network: AWS EC2 instance type specifications, accelerated computing, network specifications (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html#ac_network) as aws/karpenter-provider-aws generates them into pkg/providers/instancetype/zz_generated.bandwidth.go @ 1d927085dd81a9df9301e613f371dac5b4d16bfe, in Mbps: p4de.24xlarge 400000, p5.4xlarge 100000, p6-b200.48xlarge 3200000, p6-b300.48xlarge 6400000"
	srcGCPRoCE        = "fabric: the Kubernetes Engine API's GPUDirectStrategy RDMA is 'GPUDirect-RDMA on A3 Ultra, and A4 machine types' (docs.cloud.google.com google-cloud-container-v1beta1 reference), and Google Cloud's RDMA network profiles carry GPU RDMA over RoCE v2 VPC networks ('RDMA network profiles', docs.cloud.google.com/vpc/docs/rdma-network-profiles; Cluster Toolkit release v1.44.1: A3 Ultra's 'dedicated CX-7 networking with RDMA support via RoCE')"
	srcOCIClusterNet  = "fabric: Oracle Cloud Infrastructure, 'Cluster networks with instance pools' (docs.oracle.com/de-de/iaas/Content/Compute/Tasks/managingclusternetworks.htm, German copy): a remote direct memory access (RDMA) network between bare metal nodes; supported shapes BM.HPC2.36, BM.GPU.A100-v2.8, BM.GPU4.8, BM.Optimized3.36 (the protocol is not named there)"
	srcOCIMemFabric   = "interconnect: Oracle Cloud Infrastructure, 'GPU Memory Cluster and Memory Fabric' (Compute/Concepts/gpu-memory-fabric.htm, docs.cloud.sovereigncloud.nz copy): GPU memory clusters on NVIDIA NVLink 72 carry GPU-to-GPU traffic; 'Supported Compute shapes are BM.GPU.GB200.4 and BM.GPU.GB300.4'"
	srcGCPNetRDMA     = srcGCPNet + ": A4 and A3 Ultra have eight ConnectX-7 NICs that 'deliver a total network bandwidth of 3,200 Gbps', dedicated to GPU-to-GPU traffic (GPUDirect RDMA), plus two gVNICs for another 400 Gbps (3,600 Gbps in all)"
	srcGCPNetA3Mega   = srcGCPNet + ": 'A3 Mega (NVIDIA H100): up to 1,600 Gbps' (GPUDirect-TCPXO; another version of the page's overview table gives 1,800 Gbps maximum total: the lower figure is kept)"
	srcGCPNetA3High   = srcGCPNet + ": A3 High (NVIDIA H100 80GB), max total bandwidth 1,000 Gbps, GPUDirect-TCPX (the share of it on the GPU NICs is not given)"
	srcGCPNetA2       = srcGCPNet + ": 'A2 Standard and A2 Ultra' max total bandwidth 100 Gbps; the page's A100 table (German copy, hl=de): a2-highgpu-8g (8 GPUs) 100 Gbit/s; a2-ultragpu-8g, the 8-GPU A2 Ultra, is taken at the same series maximum (its own row was not read)"
	srcNebiusB200Net  = "Nebius's MLPerf Inference v6.0 system description (mlcommons/inference_results_v6.0 closed/Nebius/systems/nebius_b200_n1.json): 8 B200 per node, host_networking '8x ConnectX-7 IB NDR 400Gb/s' (3,200 Gbps InfiniBand per node)"
	srcNebiusH200Net  = "Nebius's MLPerf Training v5.1 system description (mlcommons/training_results_v5.1 Nebius/systems/nebius_h200_n64.json @ 4da2d1cd71eb30c855dad12712480ae5ac90dd89, status 'Available cloud'): 8 H200-SXM5-141GB per node, host_memory_capacity '1.6 TB' (the 8gpu-128vcpu-1600gb preset), host_networking '8x ConnectX-7 IB NDR 400Gb/s + 200Gb/s Ethernet NIC' (3,200 Gbps InfiniBand per node)"
	srcNVv4Win        = "Microsoft Learn, NVv4 series (includes/nvv4-series-summary.md): 'NVv4 virtual machines currently support only Windows guest operating system' — no Linux, no PyTorch (catalog audit #8)"
)

// fix corrects or enriches one instance type. Zero fields keep the
// imported value.
type fix struct {
	gpuCount     int
	gpu          string
	retired      string // YYYY-MM-DD; source says why (written as retired_source too)
	memGiB       float64
	nvmeGB       float64
	netGbps      float64
	interconnect string
	fabric       string // the GPU network between instances (model.Fabrics); source says where it is stated
	note         string // written as a comment above the entry
	source       string // appended to the entry's source
	// onDemand replaces the on-demand price of every region, and asOf
	// (YYYY-MM-DD) is then the date of the source it was read from: a
	// price taken from a dated page carries that page's date, not the day
	// the generator ran (new-user walk: DigitalOcean's H100 rows carried
	// an older SkyPilot file's price stamped with the import date).
	onDemand float64
	asOf     string
}

// gib converts GiB (Azure states disks in GiB) to the catalog's GB (10⁹ B).
func gib(n float64) float64 { return float64(int64(n*1.073741824 + 0.5)) }

// fixes, keyed by provider then instance type.
var fixes = map[string]map[string]fix{
	"azure": {
		"Standard_ND96isr_H100_v5": {gpuCount: 8, gpu: "h100-sxm", nvmeGB: gib(28000), netGbps: 3200, interconnect: "nvswitch", fabric: "infiniband",
			note: "gpu_count: the SkyPilot snapshot says 12; Microsoft Learn says 8 (ND H100 v5 is an HGX H100 8-GPU board)", source: srcNDH100v5 + "; " + srcHGX},
		"Standard_NC40ads_H100_v5":  {gpu: "h100-nvl", nvmeGB: gib(3576), netGbps: 40, note: "H100 NVL (94 GB), not the 80 GB H100 the snapshot's name suggests", source: srcNCH100v5},
		"Standard_NC80adis_H100_v5": {gpu: "h100-nvl", nvmeGB: gib(7152), netGbps: 80, note: "H100 NVL (94 GB), not the 80 GB H100 the snapshot's name suggests", source: srcNCH100v5 + "; " + srcAzPriceUnconf},
		"Standard_ND96asr_v4":       {nvmeGB: gib(6000), netGbps: 1600, interconnect: "nvswitch", fabric: "infiniband", source: srcNDA100v4},
		"Standard_ND96amsr_A100_v4": {netGbps: 1600, interconnect: "nvswitch", fabric: "infiniband", memGiB: 1900, nvmeGB: gib(6400), note: "memory_gib: 1900 per Microsoft Learn, not the SKU API's 1800", source: srcNDmA100 + "; " + srcNDmA100Mem},
		"Standard_NC24rs_v3":        {retired: "2025-09-30", source: srcNC24rsRet},
		"Standard_NC48ads_A100_v4":  {interconnect: "pcie", source: srcNCA100v4 + "; " + srcAzPriceUnconf},
		"Standard_NC96ads_A100_v4":  {interconnect: "pcie", source: srcNCA100v4 + "; " + srcAzPriceUnconf},
		"Standard_ND40rs_v2":        {netGbps: 100, interconnect: "nvlink", fabric: "infiniband", source: srcNDv2},
		"Standard_NC6s_v3":          {retired: "2025-09-30", source: srcNCv3Ret},
		"Standard_NC12s_v3":         {retired: "2025-09-30", source: srcNCv3Ret},
		"Standard_NC24s_v3":         {retired: "2025-09-30", source: srcNCv3Ret},
		"Standard_NC6":              {retired: "2023-09-06", source: srcNCRet},
		"Standard_NC12":             {retired: "2023-09-06", source: srcNCRet},
		"Standard_NC24":             {retired: "2023-09-06", source: srcNCRet},
		"Standard_NC24r":            {retired: "2023-09-06", source: srcNCRet},
		"Standard_NC6_Promo":        {retired: "2023-09-06", source: srcNCRet},
		"Standard_NC12_Promo":       {retired: "2023-09-06", source: srcNCRet},
		"Standard_NC24_Promo":       {retired: "2023-09-06", source: srcNCRet},
		"Standard_NC24r_Promo":      {retired: "2023-09-06", source: srcNCRet},
		"Standard_NV6":              {retired: "2023-09-06", source: srcNVRet},
		"Standard_NV12":             {retired: "2023-09-06", source: srcNVRet},
		"Standard_NV24":             {retired: "2023-09-06", source: srcNVRet},
		"Standard_NV6_Promo":        {retired: "2023-09-06", source: srcNVRet},
		"Standard_NV12_Promo":       {retired: "2023-09-06", source: srcNVRet},
		"Standard_NV24_Promo":       {retired: "2023-09-06", source: srcNVRet},
	},
	"aws": {
		"p4d.24xlarge":     {nvmeGB: 8000, netGbps: 400, interconnect: "nvswitch", fabric: "efa", source: srcP4d},
		"p4de.24xlarge":    {netGbps: 400, interconnect: "nvswitch", fabric: "efa", source: srcEFATypes + "; " + srcAWSNetSpecs + "; " + srcP4de},
		"p5.4xlarge":       {netGbps: 100, fabric: "efa", source: srcOFINCCL + "; " + srcAWSNetSpecs},
		"p5.48xlarge":      {gpu: "h100-sxm", nvmeGB: 30720, netGbps: 3200, interconnect: "nvswitch", fabric: "efa", source: srcP5 + "; " + srcHGX},
		"p5e.48xlarge":     {netGbps: 3200, fabric: "efa", source: srcP5EFA},
		"p5en.48xlarge":    {netGbps: 3200, fabric: "efa", source: srcP5EFA},
		"p6-b200.48xlarge": {netGbps: 3200, fabric: "efa", source: srcOFINCCL + "; " + srcAWSNetSpecs},
		"p6-b300.48xlarge": {netGbps: 6400, fabric: "efa", source: srcOFINCCL + "; " + srcAWSNetSpecs},
		"p3.2xlarge":       {netGbps: 10, retired: "2026-05-25", source: srcP3 + " (up to 10 Gbps burst); retired: " + srcP3Ret},
		"p3.8xlarge":       {netGbps: 10, interconnect: "nvlink", retired: "2026-05-25", source: srcP3 + "; retired: " + srcP3Ret},
		"p3.16xlarge":      {netGbps: 25, interconnect: "nvlink", retired: "2026-05-25", source: srcP3 + "; retired: " + srcP3Ret},
		"p3dn.24xlarge":    {retired: "2026-05-25", source: srcP3Ret},
	},
	"gcp": {
		"a2-highgpu-8g":         {netGbps: 100, interconnect: "nvswitch", source: srcGCPA2 + "; " + srcGCPNetA2},
		"a2-megagpu-16g":        {interconnect: "nvswitch", source: srcGCPA2},
		"a2-ultragpu-8g":        {netGbps: 100, interconnect: "nvswitch", source: srcGCPA2 + "; " + srcGCPNetA2},
		"a3-highgpu-8g":         {netGbps: 1000, fabric: "gpudirect-tcpx", source: srcGCPNetA3High},
		"a3-megagpu-8g":         {netGbps: 1600, fabric: "gpudirect-tcpxo", source: srcGCPNetA3Mega},
		"a3-ultragpu-8g":        {netGbps: 3200, fabric: "roce", source: srcGCPNetRDMA + "; " + srcGCPRoCE},
		"a3-ultragpu-8g-nolssd": {netGbps: 3200, fabric: "roce", source: srcGCPNetRDMA + "; " + srcGCPRoCE},
		"a4-highgpu-8g":         {netGbps: 3200, fabric: "roce", source: srcGCPNetRDMA + "; " + srcGCPRoCE},
	},
	"nebius": {
		"gpu-h100-sxm_1gpu-16vcpu-200gb":   {source: srcNebiusUnconf},
		"gpu-b200-sxm_8gpu-160vcpu-1792gb": {netGbps: 3200, fabric: "infiniband", source: srcNebiusB200Net},
		"gpu-h200-sxm_8gpu-128vcpu-1600gb": {netGbps: 3200, fabric: "infiniband", source: srcNebiusH200Net},
	},
	"do": {
		"gpu-h100x1-80gb":  {onDemand: 3.39, asOf: dateDOPricing, note: "price: DigitalOcean's pricing page ($3.39), not SkyPilot's v6 file ($6.74, an older price)", source: srcDOH100},
		"gpu-h100x8-640gb": {onDemand: 23.92, asOf: dateDOPricing, note: "price: DigitalOcean's pricing page ($23.92), not SkyPilot's v6 file ($47.60, an older price)", source: srcDOH100},
	},
	"oci": {
		"BM.GPU.B300.8":    {source: srcOCIB300Mem},
		"BM.GPU.GB200.4":   {interconnect: "nvlink", source: srcOCIMemFabric},
		"BM.GPU.GB300.4":   {interconnect: "nvlink", source: srcOCIGB300Mem + "; " + srcOCIMemFabric},
		"BM.GPU.A100-v2.8": {fabric: "rdma", source: srcOCIClusterNet},
		"BM.GPU4.8":        {fabric: "rdma", source: srcOCIClusterNet},
	},
	"shadeform": {
		"scaleway_H100":   {gpu: "h100-pcie", source: srcScalewayH100},
		"scaleway_H100x2": {gpu: "h100-pcie", source: srcScalewayH100},
	},
	"hyperstack": {
		// "-NVLink" flavors are PCIe cards with NVLink bridges, not SXM
		// boards (new-user walk: n3-H100x8-NVLink ranked as h100-sxm on
		// NVSwitch).
		"n3-A100x8-NVLink": {interconnect: "pcie", source: srcNVLinkBridge},
		"n3-H100x8-NVLink": {interconnect: "pcie", source: srcNVLinkBridge},
	},
	"lambda": {
		"gpu_8x_a100_80gb_sxm4": {interconnect: "nvswitch", source: srcLambda + "; an 8-GPU A100 SXM4 server is an HGX A100 board (NVSwitch)"},
		"gpu_1x_h100_pcie":      {gpu: "h100-pcie", source: srcLambda},
		"gpu_1x_h100_sxm5":      {gpu: "h100-sxm", source: srcLambda},
		"gpu_2x_h100_sxm5":      {gpu: "h100-sxm", source: srcLambda},
		"gpu_4x_h100_sxm5":      {gpu: "h100-sxm", source: srcLambda},
		"gpu_8x_h100_sxm5":      {gpu: "h100-sxm", source: srcLambda},
		"gpu_1x_a100":           {gpu: "a100-pcie-40gb", source: srcLambdaA100},
		"gpu_2x_a100":           {gpu: "a100-pcie-40gb", source: srcLambdaA100},
		"gpu_4x_a100":           {gpu: "a100-pcie-40gb", source: srcLambdaA100},
	},
	"runpod": {
		"1x_A100-80GB_SECURE": {gpu: "a100-pcie-80gb", source: srcRunPodA100},
		"2x_A100-80GB_SECURE": {gpu: "a100-pcie-80gb", source: srcRunPodA100v7},
		"4x_A100-80GB_SECURE": {gpu: "a100-pcie-80gb", source: srcRunPodA100v7},
		"8x_A100-80GB_SECURE": {gpu: "a100-pcie-80gb", source: srcRunPodA100v7},
		"1x_H100_SECURE":      {gpu: "h100-pcie", source: srcRunPodH100v7},
		"2x_H100_SECURE":      {gpu: "h100-pcie", source: srcRunPodH100v7},
		"4x_H100_SECURE":      {gpu: "h100-pcie", source: srcRunPodH100v7},
		"8x_H100_SECURE":      {gpu: "h100-pcie", source: srcRunPodH100v7},
	},
	"primeintellect": {
		"hyperstack__1xA100_80GB__28__120":           {gpu: "a100-pcie-80gb", source: srcPIUpstream + " n3-A100x1; " + srcHyperstackPCIe},
		"hyperstack__2xA100_80GB__60__240":           {gpu: "a100-pcie-80gb", source: srcPIUpstream + " n3-A100x2; " + srcHyperstackPCIe},
		"hyperstack__4xA100_80GB__124__480":          {gpu: "a100-pcie-80gb", source: srcPIUpstream + " n3-A100x4; " + srcHyperstackPCIe},
		"hyperstack__8xA100_80GB__252__1920__NVLINK": {gpu: "a100-pcie-80gb", interconnect: "pcie", source: srcPIUpstream + " n3-A100x8-NVLink; " + srcHyperstackPCIe + "; " + srcNVLinkBridge},
		"hyperstack__1xH100_80GB__28__180":           {gpu: "h100-pcie", source: srcPIUpstream + " n3-H100x1; " + srcHyperstackPCIe},
		"hyperstack__2xH100_80GB__60__360":           {gpu: "h100-pcie", source: srcPIUpstream + " n3-H100x2; " + srcHyperstackPCIe},
		"hyperstack__4xH100_80GB__124__720":          {gpu: "h100-pcie", source: srcPIUpstream + " n3-H100x4; " + srcHyperstackPCIe},
		"hyperstack__8xH100_80GB__252__1440":         {gpu: "h100-pcie", source: srcPIUpstream + " n3-H100x8; " + srcHyperstackPCIe},
		"hyperstack__8xH100_80GB__192__960":          {gpu: "h100-sxm", source: srcPIUpstream + " n3-H100-SXM5x8; " + srcHyperstackPCIe},
		"oblivus__1xA100_80GB__28__120":              {gpu: "a100-pcie-80gb", source: srcPIUpstream + " A100_PCIE_80GB"},
		"oblivus__2xA100_80GB__60__240":              {gpu: "a100-pcie-80gb", source: srcPIUpstream + " A100_PCIE_80GB"},
		"oblivus__4xA100_80GB__124__480":             {gpu: "a100-pcie-80gb", source: srcPIUpstream + " A100_PCIE_80GB"},
		"oblivus__8xA100_80GB__252__1440":            {gpu: "a100-pcie-80gb", source: srcPIUpstream + " A100_PCIE_80GB"},
	},
	"fluidstack": {
		"H100_NVLINK_80GB::8": {gpu: "h100-pcie", interconnect: "pcie", source: srcFluidstackH100 + "; " + srcNVLinkBridge},
		"H100_PCIE_80GB::1":   {gpu: "h100-pcie", source: "Fluidstack instance type name H100_PCIE_80GB"},
		"H100_PCIE_80GB::2":   {gpu: "h100-pcie", interconnect: "pcie", source: "Fluidstack instance type name H100_PCIE_80GB"},
		"H100_PCIE_80GB::4":   {gpu: "h100-pcie", interconnect: "pcie", source: "Fluidstack instance type name H100_PCIE_80GB"},
	},
}

// olderVersions names the providers whose newest file was read only in part:
// the instance types it lacks are taken from their older files (newest
// first), each with its own source and this note; a type the newer file has
// always comes from the newer file.
var olderVersions = map[string]string{
	"runpod": "an older SkyPilot catalog version than v8, whose file was read for three types only (the v8 file is 2.2 MB); v7 prices and sizes may be stale",
}

// partialGPU lists instance types that rent a fraction of a GPU although
// SkyPilot's catalog counts one whole GPU: gpuplan models whole GPUs only,
// so they are left out (as the importer does for AWS's fractional g6f);
// also types no Linux deep-learning job can use (NVv4 is Windows-only).
var partialGPU = map[string]map[string]string{
	// RunPod's v7 L40S rows put the higher price in SpotPrice (0.86) and the
	// lower in Price (0.43): the columns look swapped (Modal's price table,
	// August 2025, quotes RunPod's L40S on-demand at $0.86/h), so the file's
	// on-demand price cannot be trusted.
	"runpod": {
		"1x_L40S_SECURE": srcRunPodL40S,
		"2x_L40S_SECURE": srcRunPodL40S,
		"4x_L40S_SECURE": srcRunPodL40S,
		"8x_L40S_SECURE": srcRunPodL40S,
	},
	"azure": {
		"Standard_NV4as_v4":  "1/8 of a Radeon Instinct MI25 (2 GiB); " + srcNVv4,
		"Standard_NV8as_v4":  "1/4 of a Radeon Instinct MI25 (4 GiB); " + srcNVv4,
		"Standard_NV16as_v4": "1/2 of a Radeon Instinct MI25 (8 GiB); " + srcNVv4,
		"Standard_NV32as_v4": srcNVv4Win,
	},
}

const srcRunPodL40S = "catalogs/v7/runpod/vms.csv @ 0727c2bd: SpotPrice above Price on every row (0.86 and 0.43 per GPU), the columns swapped; RunPod's L40S on-demand is $0.86/h per modal.com/blog/nvidia-l40s-price-article (August 2025), so the file's Price is not the on-demand price"

const srcNVv4 = "Microsoft Learn, NVv4-series sizes (GPU partition 1/8, 1/4, 1/2 and 1 for NV4as_v4, NV8as_v4, NV16as_v4 and NV32as_v4)"

// hgxGPUs are GPUs sold only as SXM modules on NVIDIA HGX baseboards: an
// instance with eight of them is one board and its GPUs talk over NVSwitch
// (srcHGX).
var hgxGPUs = map[string]bool{"h100-sxm": true, "h200": true, "b200": true, "b300": true}

// n1Standard96 holds the n1-standard-96 rows, on-demand and spot USD per
// hour, of skypilot-org/skypilot-catalog catalogs/v8/gcp/vms.csv at commit
// 006059e0f18acb1341e22a27751e9f80df6ba92f: the same file version the GPU
// rows come from, whose N1 rows the local snapshot left out. N1 standard
// machine types are billed per vCPU and per GiB at a fixed 3.75 GiB per vCPU
// (GCP, "Resource-based pricing"), so n1-standard-N costs N/96 of these
// (n1-standard-8 in us-central1: 4.55998 × 8/96 = 0.380, the file says 0.38).
var n1Standard96 = map[string][2]float64{
	"asia-east1":              {5.27995, 0.85512},
	"asia-east2":              {6.38026, 1.26048},
	"asia-northeast1":         {5.85017, 1.59876},
	"asia-northeast2":         {5.85017, 2.20152},
	"asia-northeast3":         {5.85017, 1.4838},
	"asia-south1":             {5.4768, 0.99504},
	"asia-south2":             {5.4768, 1.42512},
	"asia-southeast1":         {5.62526, 0.92928},
	"asia-southeast2":         {6.13154, 1.13628},
	"australia-southeast1":    {6.47014, 1.70328},
	"australia-southeast2":    {6.47014, 0.93852},
	"europe-central2":         {5.51772, 0.93792},
	"europe-north1":           {5.02042, 1.37064},
	"europe-west1":            {5.01617, 1.50024},
	"europe-west2":            {5.87496, 1.22232},
	"europe-west3":            {5.87496, 1.47864},
	"europe-west4":            {5.02003, 2.00808},
	"europe-west6":            {5.97326, 1.6314},
	"me-west1":                {5.01597, 1.0578},
	"northamerica-northeast1": {5.02003, 2.2998},
	"northamerica-northeast2": {5.02003, 1.68804},
	"southamerica-east1":      {7.23828, 1.20072},
	"us-central1":             {4.55998, 1.25352},
	"us-east1":                {4.55998, 1.25352},
	"us-east4":                {5.13564, 1.08468},
	"us-west1":                {4.55998, 1.25352},
	"us-west2":                {5.47716, 1.83084},
	"us-west3":                {5.47716, 1.58664},
	"us-west4":                {5.13564, 1.56192},
}

const srcN1 = "N1 host: n1-standard-96 rows of skypilot-org/skypilot-catalog catalogs/v8/gcp/vms.csv @ 006059e0f18acb1341e22a27751e9f80df6ba92f (not in the local snapshot), scaled by vCPUs/96 (GCP 'Resource-based pricing': N1 is billed per vCPU and GiB); GPU: the GPU rows of the same file"

// n1HostSizes are the vCPU counts of the N1 hosts the importer pairs with
// attached GPUs (data.n1Hosts: 4 or 8 vCPUs per GPU, 1–8 GPUs).
var n1HostSizes = []int{4, 8, 16, 32, 64}

// providerSources are appended to the source of every type of a provider:
// what holds for all its rows.
var providerSources = map[string]string{
	"oci":    srcOCIRegions,
	"lambda": srcLambdaRegions,
}

// srcLambdaRegions: SkyPilot's Lambda file puts every type in each of 17
// regions at one price (walk49: "asia-northeast-1 +16" read as Tokyo), and
// its fetcher says why: it loops over a hard-coded list, not over where
// Lambda offers a type.
const srcLambdaRegions = "regions: where the price applies, not where the type is offered: SkyPilot's Lambda fetcher " +
	"(skypilot-org/skypilot sky/catalog/data_fetchers/fetch_lambda_cloud.py @ 115eca47b7399a0eb0006da29149c0ef4f32e2bc) writes every instance type " +
	"once for each region of its hard-coded REGIONS, 'List of all possible regions', at the type's one price from Lambda's instance-types API, " +
	"so the file does not state which regions offer a type"

// srcOCIRegions: SkyPilot's OCI file puts every GPU shape in every region
// (the walk saw GB300 and MI355X "in" af-casablanca-1), and its fetcher says
// why: the regions are where OCI's one global price applies, not where a
// shape is offered.
const srcOCIRegions = "regions: where the price applies, not where the shape is offered: SkyPilot's OCI fetcher " +
	"(skypilot-org/skypilot sky/catalog/data_fetchers/fetch_oci.py @ 14cffac437b10b86e3b6c21b82eacc08288bd259) says 'OCI prices are the same in every commercial region' " +
	"and 'Regional availability of shapes is not published by Oracle ... By default the catalog therefore lists every shape in every commercial region'; " +
	"the three regions here are the AD blocks of that file that were read, so a shape's availability in them is not stated"

// retiredProviders retire every type of a provider that is gone.
var retiredProviders = map[string]fix{
	"cudo": {retired: "2026-03-31", source: srcCudoRet},
}

// handRows are instance types no SkyPilot file carries, transcribed from
// the provider's published price list; each names its sources and carries
// the date of the price list as AsOf. They are appended to the provider's
// imported types.
var handRows = map[string][]model.Instance{
	"do": {
		{Type: "gpu-mi300x1-192gb", GPU: "mi300x", GPUCount: 1, VCPUs: 20, MemoryGiB: 240, AsOf: dateDOPricing,
			Prices: []model.RegionPrice{{Region: "atl1", OnDemandUSD: 1.99}}, SkyPilotAccelerator: "MI300X", Source: srcDOMI300X},
		{Type: "gpu-mi300x8-1536gb", GPU: "mi300x", GPUCount: 8, VCPUs: 160, MemoryGiB: 1920, Interconnect: "infinity-fabric", AsOf: dateDOPricing,
			Prices: []model.RegionPrice{{Region: "atl1", OnDemandUSD: 15.92}}, SkyPilotAccelerator: "MI300X",
			Source: srcDOMI300X + "; interconnect: the GPU catalog's infinity-fabric (8 OAM GPUs on one baseboard)"},
	},
}

// dateDOPricing is the "Validated on" date of DigitalOcean's Droplet
// pricing page (docs.digitalocean.com/products/droplets/details/pricing:
// "Validated on 28 May 2026 • Last edited on 29 May 2026"), the as_of of
// every price read from it.
const dateDOPricing = "2026-05-28"

const srcDOH100 = "price: DigitalOcean Droplet pricing (docs.digitalocean.com/products/droplets/details/pricing, validated 28 May 2026), " +
	"'NVIDIA H100 $3.39 per hour', 'NVIDIA H100 (8x) $23.92 per hour' (the page validated 22 Apr 2025 gives the same two prices); " +
	"SkyPilot has no DigitalOcean file in v7 or v8, and its v6 file's $6.74 and $47.60 are an older price; type, sizes and region tor1 from that v6 file"

const srcDOMI300X = "price: DigitalOcean Droplet pricing (docs.digitalocean.com/products/droplets/details/pricing, validated 28 May 2026), " +
	"'AMD MI300X $1.99 per hour', 'AMD MI300X (8x) $15.92 per hour'; slugs: DigitalOcean Droplets release notes, 12 June 2025 " +
	"('gpu-mi300x1-192gb (1 GPU) and gpu-mi300x8-1536gb (8 GPUs)'); vCPUs, memory (245760 and 1966080 MiB) and region atl1: " +
	"DigitalOcean's /v2/sizes answer as transcribed in third-party client code (stored public code, repository not named by the index), unconfirmed by DigitalOcean's pages"
