package report

import "testing"

// TestCutRegion: the "+N" of collapsed regions survives any cut.
func TestCutRegion(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"us-east-1", 18, "us-east-1"},
		{"asia-northeast-1 +16", 18, "asia-northea… +16"},
		{"asia-northeast-1 +16", 30, "asia-northeast-1 +16"},
		{"europe-west4 +2", 10, "europ… +2"},
		{"australia-southeast1", 18, "australia-southea…"},
	} {
		if got := CutRegion(tt.in, tt.n); got != tt.want {
			t.Errorf("CutRegion(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
