package tui

import (
	"slices"
	"testing"
)

// TestGiveBack: the cells a GPUs column cut by whole words leaves over go
// to the names cut beside it, the first in order first, each no more than
// it lacks; a dropped column (width 0) stays dropped. Hand-worked: the
// GPUs column is 16 cells, its widest cell after the cut "8×rtx… FSDP" 11
// (header "GPU" 3), so 5 are over; the instance type (10 cells of its 18)
// takes 5 (15), the provider (6 of "primeintellect", 14) none is left.
func TestGiveBack(t *testing.T) {
	rows := [][]string{
		{"primeintellect", "8x_RTXA4000_SECURE", "", "8×rtx… FSDP"},
		{"seeweb", "ECS1GPU11", "", "1×a30"},
	}
	for _, c := range []struct {
		name   string
		widths []int
		order  []int
		want   []int
	}{
		{"the instance first", []int{6, 10, 5, 16}, []int{1, 0}, []int{6, 15, 5, 11}},
		{"the provider takes what the instance leaves", []int{6, 16, 5, 16}, []int{1, 0}, []int{9, 18, 5, 11}},
		{"a dropped column stays dropped", []int{6, 0, 5, 16}, []int{1, 0}, []int{11, 0, 5, 11}},
		{"nothing over", []int{6, 10, 5, 11}, []int{1, 0}, []int{6, 10, 5, 11}},
	} {
		w := slices.Clone(c.widths)
		giveBack(rows, w, 3, c.order, 3)
		if !slices.Equal(w, c.want) {
			t.Errorf("%s: widths %v, want %v", c.name, w, c.want)
		}
	}
}
