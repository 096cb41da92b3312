package launch

// sharedClassNote is what the note on a claim adds when its access mode
// is ReadWriteMany (several replicas or nodes mount it): the default
// StorageClass of EKS (EBS gp2/gp3), GKE (Persistent Disk) and AKS
// (Azure Disk) is block storage, which Kubernetes' "Persistent Volumes"
// access modes table lists without ReadWriteMany (GCEPersistentDisk;
// AzureFile, CephFS, NFS and Glusterfs have it), so such a claim stays
// Pending there until it names a shared-file class. "" for any other mode.
func sharedClassNote(mode string) string {
	if mode != "ReadWriteMany" {
		return ""
	}
	return "; ReadWriteMany needs a shared-file StorageClass: the defaults of " +
		"EKS (EBS gp2/gp3), GKE (Persistent Disk) and AKS (Azure Disk) are block storage, ReadWriteOnce only, " +
		"and leave the claim Pending (Kubernetes docs: Persistent Volumes, access modes), " +
		"so set storageClassName in the claim's spec to a shared-file class: EFS on EKS, Filestore on GKE, Azure Files on AKS, " +
		"or NFS or CephFS (kubectl get storageclass lists the cluster's)"
}
