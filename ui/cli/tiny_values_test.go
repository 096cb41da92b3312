package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// Tiny positive values and non-decimal number forms are refused with one
// line and exit 2, by flag and by configuration key alike (attack r29b
// F4: --hours-per-month 1e-300 printed "$/month $2.9e-301", --ttft-ms
// 1e-300 "target 0 ms"; --epochs=0x1p-3 ran 0.125 epochs, --epochs=1_0
// ten).
func TestTinyAndNonDecimalRefused(t *testing.T) {
	const dec = "want a decimal number such as 0.4 or 2.5e-3 (digits, at most one '.', an optional exponent)"
	qlora := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora"}
	serve := []string{"estimate", "--model", "llama-3.1-8b", "--task", "inference", "--gpu", "l4"}
	est := []string{"estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "l4"}
	dir := t.TempDir()
	conf := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("schema_version = 1\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hpm := conf("hpm.toml", "[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"qlora\"\n[search]\nhours_per_month = 1e-300\n")
	ttft := conf("ttft.toml", "[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n[serve]\nttft_ms = 1e-300\n")
	gmu := conf("gmu.toml", "[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"inference\"\n[serve]\ngpu_memory_utilization = 1e-300\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(qlora, "--hours-per-month", "1e-300"), "gpuplan: --hours-per-month must be 0.001–744, got 1e-300\n"},
		{append(serve, "--ttft-ms", "1e-300"), "gpuplan: --ttft-ms must be 0.1–3600000 ms, got 1e-300\n"},
		{append(serve, "--tpot-ms", "1e-300"), "gpuplan: --tpot-ms must be 0.1–3600000 ms, got 1e-300\n"},
		{append(serve, "--gpu-memory-utilization", "1e-300"), "gpuplan: --gpu-memory-utilization must be 0.01–1, got 1e-300 (0.9 is vLLM's default)\n"},
		{append(qlora, "--restart-minutes", "1e-300"), "gpuplan: --restart-minutes must be 0 or 0.1–10080 (a week), got 1e-300\n"},
		{[]string{"recommend", "--config", hpm}, "gpuplan: " + hpm + ": search.hours_per_month: must be 0.001–744, got 1e-300\n"},
		{[]string{"recommend", "--config", ttft}, "gpuplan: " + ttft + ": serve.ttft_ms: must be 0.1–3600000, got 1e-300\n"},
		{[]string{"recommend", "--config", gmu}, "gpuplan: " + gmu + ": serve.gpu_memory_utilization: must be 0.01–1, got 1e-300\n"},
		{append(est, "--epochs=0x1p-3"), `gpuplan: --epochs "0x1p-3": ` + dec + "\n"},
		{append(est, "--epochs=1_0"), `gpuplan: --epochs "1_0": ` + dec + "\n"},
		{append(est, "--epochs=Inf"), `gpuplan: --epochs "Inf": ` + dec + "\n"},
		{append(est, "--epochs=1e"), `gpuplan: --epochs "1e": ` + dec + "\n"},
		{append(qlora, "--hours-per-month=0x1p8"), `gpuplan: --hours-per-month "0x1p8": ` + dec + "\n"},
		{append(serve, "--gpu-memory-utilization=0x1p-1"), `gpuplan: --gpu-memory-utilization "0x1p-1": ` + dec + "\n"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 || errs != tc.want {
			t.Errorf("%v: exit %d, stderr %q\nwant 2, %q", tc.args[len(tc.args)-1], code, errs, tc.want)
		}
	}
	// The forms a user means still pass.
	for _, v := range []string{"2", "0.5", ".5", "5.", "1e0", "2.5E+0", "+1"} {
		if code, _, errs := runCLI(t, append(est, "--epochs", v)...); code != 0 {
			t.Errorf("--epochs %s: exit %d: %s", v, code, errs)
		}
	}
}
