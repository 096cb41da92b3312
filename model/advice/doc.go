// Package advice is what to change when a workload does not fit or costs
// too much: whether an estimate fits a GPU type (CheckFit: the verdict
// against the memory band, the largest micro-batch that fits, the changes
// that make it fit), the single changes that save the most memory or
// money on one GPU type (Tips), and the changes to a workload and query
// ranked by what they save on the cheapest offer's job (Savings,
// RankSavings over Scenarios; model/plan ranks a whole plan with the same
// loop).
//
// Contract, as model's (model/doc.go): plain Go, no terminal UI, no file or
// network access; every figure comes from model's estimate and matching
// (Compute, Recommend), none is its own, and a spot job's expected cost
// with interruptions from the caller (SpotJobCost: the spot estimate of
// model/decide, which this package does not import). It imports model only; model/plan
// builds on it, views come from ui/.
package advice
