//go:build !linux

package data

// adviseHugePages does nothing outside Linux (see the Linux version).
func adviseHugePages[T any](s []T) {}
