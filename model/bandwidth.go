package model

// needsBandwidth reports whether timing w reads the GPU's memory
// bandwidth: decoding (each token reads the weights and KV cache; Pope et
// al., 2022, §2), the CNN roofline (Williams et al., 2009) and QLoRA's
// dequantization, which are all bound by memory traffic. Without the
// figure these terms would take no time at all, an infinitely fast memory,
// so an estimate on a GPU lacking it has no time (Estimate.NoBandwidth)
// rather than a compute-only one that ranks it ahead of faster GPUs.
func needsBandwidth(w *Workload) bool {
	switch {
	case w.Task == TaskInference:
		return w.Model.Family.Generative()
	case w.MFU > 0: // FLOPs / (peak × MFU): no other term
		return false
	case !w.Model.Family.Transformer() && w.tuning().CNNTrafficFactor > 0:
		return true
	}
	return DequantPasses(w) > 0
}
