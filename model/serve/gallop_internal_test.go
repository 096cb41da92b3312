package serve

import "testing"

// TestGallop: gallop finds what sort1 finds, the smallest k in [1, n] with
// f true or n+1, for every n up to 70 and every threshold, its last true
// call at that k (ClearingReplicas keeps the plan of that call), and
// calls f at most 1 + 2·⌈log2 min(k, n)⌉ times: once when k is 1, as the
// next node's worth of replicas mostly clears.
func TestGallop(t *testing.T) {
	for n := 1; n <= 70; n++ {
		for th := 1; th <= n+1; th++ {
			f := func(k int) bool { return k >= th }
			calls, lastTrue := 0, 0
			got := gallop(n, func(k int) bool {
				calls++
				if k < 1 || k > n {
					t.Fatalf("n %d: f(%d) out of [1, %d]", n, k, n)
				}
				if f(k) {
					lastTrue = k
				}
				return f(k)
			})
			if want := sort1(n, f); got != want {
				t.Fatalf("n %d, threshold %d: gallop %d, sort1 %d", n, th, got, want)
			}
			if got <= n && lastTrue != got {
				t.Errorf("n %d, threshold %d: last true call at %d, want %d", n, th, lastTrue, got)
			}
			bound := 1
			for k := 1; k < min(th, n); k *= 2 {
				bound += 2
			}
			if calls > bound {
				t.Errorf("n %d, threshold %d: %d calls, want at most %d", n, th, calls, bound)
			}
		}
	}
}
