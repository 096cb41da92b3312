package cli

import (
	"strings"
	"testing"
)

// TestQLoRAHostRAMShards (walk55): QLoRA of Llama 3.1 70B rejected every
// host under 131 GiB of RAM ("host RAM 120 GiB, needs 131 GiB": one
// 16-bit copy), but transformers quantizes a bitsandbytes load onto the
// GPU shard by shard (model.HostRAMNeed, qloraLoad), so seeweb's
// ECS1GPU3 (one A100 80GB, 120 GiB of RAM) is offered and no offer is
// rejected for host RAM.
func TestQLoRAHostRAMShards(t *testing.T) {
	type row struct {
		Provider     string `json:"provider"`
		InstanceType string `json:"instance_type"`
		Reason       string `json:"reason"`
	}
	rec, _ := runCLIJSON[struct {
		Offers   []row `json:"offers"`
		Rejected []row `json:"rejected"`
	}](t, []string{"recommend", "--model", "llama-3.1-70b", "--task", "qlora", "--dataset-tokens", "50M", "--json", "--limit", "0"})
	for _, r := range rec.Rejected {
		if strings.Contains(r.Reason, "host RAM") {
			t.Errorf("%s %s rejected: %s", r.Provider, r.InstanceType, r.Reason)
		}
	}
	found := false
	for _, o := range rec.Offers {
		found = found || o.Provider == "seeweb" && o.InstanceType == "ECS1GPU3"
	}
	if !found {
		t.Error("seeweb ECS1GPU3 (1 × A100 80GB, 120 GiB host RAM) not offered")
	}
	// The summary counts every offer that did not pass, by reason.
	code, out, errs := runCLI(t, "recommend", "--model", "llama-3.1-70b", "--task", "qlora", "--dataset-tokens", "50M")
	if code != 0 || strings.Contains(out, "host RAM") {
		t.Errorf("exit %d (%s), host RAM among the reasons:\n%s", code, errs, out)
	}
}
