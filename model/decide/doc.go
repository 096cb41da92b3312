// Package decide is the decision math beside an offer's price: the job's
// expected cost on spot with interruptions counted (checkpoint intervals
// after Young 1974 and Daly 2006, restarts, Poisson quantiles of the
// interruption count), each commitment term's break-even against it, and
// the time–cost front of the offers (ParetoFront) that a deadline or a
// budget picks from.
//
// Contract, as model's (model/doc.go): plain Go, no terminal UI, no file or
// network access; every formula cites its source; units are in names or
// field comments. It imports model only: rates come from data (the Spot
// Instance Advisor buckets, data/spotadvisor.go), views from ui/.
package decide
