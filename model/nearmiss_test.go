package model

import "testing"

// TestKeepNearMiss checks the bounded near-miss list against the order
// worked out by hand: cheapest first, ties by provider then type, at most n.
func TestKeepNearMiss(t *testing.T) {
	in := func(p, typ string) *Instance { return &Instance{Provider: p, Type: typ} }
	xs := []Rejection{
		{Instance: in("aws", "e"), USDPerHour: 5},
		{Instance: in("aws", "c"), USDPerHour: 3},
		{Instance: in("gcp", "i"), USDPerHour: 9},
		{Instance: in("gcp", "a"), USDPerHour: 1},
		{Instance: in("aws", "d"), USDPerHour: 4},
		{Instance: in("aws", "b"), USDPerHour: 3}, // ties aws/c: b first
		{Instance: in("aws", "z"), USDPerHour: 4}, // ties aws/d, beyond n
	}
	var got []Rejection
	for _, x := range xs {
		got = keepNearMiss(got, x, 4)
	}
	want := []string{"gcp/a", "aws/b", "aws/c", "aws/d"}
	if len(got) != len(want) {
		t.Fatalf("kept %d, want %d", len(got), len(want))
	}
	for i, r := range got {
		if k := r.Instance.Provider + "/" + r.Instance.Type; k != want[i] {
			t.Errorf("near miss %d = %s, want %s", i, k, want[i])
		}
	}
}
