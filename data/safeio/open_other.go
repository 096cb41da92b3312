//go:build !unix

package safeio

// openFlags: outside Unix there are no FIFOs that block open.
const openFlags = 0
