package model

// Byte units. GPU memory is sold in GiB ("80 GB" on an A100 is 80 × 2³⁰
// bytes), disks and network in decimal units; we keep bytes internally and
// say which unit every figure is in.
const (
	KiB = 1 << 10
	MiB = 1 << 20
	GiB = 1 << 30
	GB  = 1e9
)

// HoursPerMonth is the billing month clouds use for monthly figures.
const HoursPerMonth = 730 // 24 × 365 / 12
