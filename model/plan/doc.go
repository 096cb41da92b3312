// Package plan prices work in phases, each on its own offer ("fine-tune on
// an A100, then serve on a T4 for 6 months"): the plan file's codec
// ([[phase]] tables), each phase's cost and the total, a check of the
// phases' prices against the catalog, and what saves the most over the
// whole plan. A phase holds its workload as answers or names a
// configuration file; the configuration package reads both.
//
// "Plan" here means phases. A serving layout (TP × PP × replicas) is
// serve's, the files that launch one offer are model/launch's.
//
// It imports model, model/config and model/serve (a service phase of a
// served LLM is priced by serve's ranking, as recommend ranks it; nothing
// else in the module). Like
// model it is plain Go: no terminal UI, no file or network access. Errors
// of the plan file are the configuration file's *Error, with the key and
// line.
package plan
