package stack

import "testing"

// TestGrowOnStack: Grow's frame is on the stack, not a 40 KB heap
// allocation (which would grow nothing and cost a fresh 40 KB each call).
func TestGrowOnStack(t *testing.T) {
	if n := testing.AllocsPerRun(10, Grow); n != 0 {
		t.Fatalf("Grow allocates %v times a call, want 0: its array escaped to the heap", n)
	}
}
