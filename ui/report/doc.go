// Package report draws gpuplan's results for people and scripts: the text
// reports of the scriptable commands (WriteEstimate, WriteRecommend, the
// catalog listings), their JSON forms (the public schema: EstimateJSON,
// RecommendJSON, GPURowJSON, …) and the styles the configurator shares.
package report
