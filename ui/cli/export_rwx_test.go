package cli

import (
	"strings"
	"testing"
)

// TestK8sReadWriteManyNamesAClass: a claim shared by several replicas (or
// the pods of several nodes) is ReadWriteMany, which the default
// StorageClass of EKS (EBS), GKE (Persistent Disk) and AKS (Azure Disk)
// cannot provide: block storage, ReadWriteOnce only (Kubernetes docs,
// "Persistent Volumes", access modes table), so the claim stays Pending.
// The file said only "the cluster's default StorageClass" (a new user's
// walk); its note now says a shared-file class is needed, which ones,
// and where to name it. One replica's ReadWriteOnce claim says nothing of
// it.
func TestK8sReadWriteManyNamesAClass(t *testing.T) {
	want := []string{
		"ReadWriteMany needs a shared-file StorageClass",
		"EKS (EBS gp2/gp3), GKE (Persistent Disk) and AKS (Azure Disk) are block storage, ReadWriteOnce only",
		"set storageClassName in the claim's spec",
		"EFS on EKS, Filestore on GKE, Azure Files on AKS, or NFS or CephFS",
		"kubectl get storageclass",
	}
	for _, tc := range []struct {
		name string
		args []string
		rwx  bool
	}{
		{"3 replicas share the weights cache", []string{"--model", "llama-3.1-8b", "--task", "serve", "--replicas", "3", "--instance", "lambda/gpu_1x_h100_pcie", "--format", "k8s", "--k8s-pvc", "cache", "-o", "-"}, true},
		{"1 replica", []string{"--model", "llama-3.1-8b", "--task", "serve", "--instance", "lambda/gpu_1x_h100_pcie", "--format", "k8s", "--k8s-pvc", "cache", "-o", "-"}, false},
		{"2 nodes share the outputs", []string{"--params", "1B", "--task", "finetune", "--gpus", "16", "--strategy", "fsdp", "--batch-size", "1", "--seq-len", "512", "--instance", "aws/p5.48xlarge", "--format", "k8s", "-o", "-"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"export"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var note string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "# ") && strings.Contains(l, "the claim below is created by kubectl apply") {
					note = l
				}
			}
			if note == "" {
				t.Fatalf("no note on the claim:\n%s", out)
			}
			for _, w := range want {
				if got := strings.Contains(note, w); got != tc.rwx {
					t.Errorf("%q in the note: %v, want %v:\n%s", w, got, tc.rwx, note)
				}
			}
		})
	}
}
