// Package probe reads back what the probe script (`gpuplan export --format
// probe`, model/launch) measured on the rented GPU: Parse checks the
// script's JSON line, Compare sets each measured figure beside the
// estimate of the same workload with its error and 90% range, Cases turns
// a measurement into calibration cases of the suite's format
// (data/testdata/calibration/cases.toml), and Correct scales a new
// estimate by the residuals of the user's kept cases that are close to it
// (same GPU, family and recipe).
//
// Like package model it is plain Go: no files, no network. The probe
// script's keys are the calibration suite's workload keys (Settings), so
// one measurement is one or more suite cases without translation.
package probe
