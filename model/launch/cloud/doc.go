// Package cloud is what the launch files need to know about a provider's
// instances beyond the catalog: the accelerator name SkyPilot uses for
// them (SkyPilotAccelerator, InstanceAccelerator), the GPU counts and
// attachments SkyPilot's checks would refuse (SkyPilotRefuses,
// SkyPilotGPUCount), and the fabric between nodes (NetworkFor: AWS EFA,
// Azure and other InfiniBand) with the environment and Kubernetes device
// resources NCCL needs on it, and the clouds whose machines are
// containers with no Docker daemon (ContainerCloud).
//
// It imports model only. Like model it is plain Go: no terminal UI, no
// file or network access.
package cloud
