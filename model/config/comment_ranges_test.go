package config

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTemplateCommentRanges: a range the written file's comment states
// for a key (mfu's "0.01–1") is the range Decode takes: both ends read
// back, and a value just outside either end is refused (the comment said
// "0–1" while mfu = 0 is refused and the floor is model.MinMFU).
func TestTemplateCommentRanges(t *testing.T) {
	c := fullConfig()
	b, err := Encode(&c)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	rangeRE := regexp.MustCompile(`#.*?\b(\d+(?:\.\d+)?)–(\d+(?:\.\d+)?)\b`)
	keyRE := regexp.MustCompile(`^([a-z_]+) = `)
	found := 0
	for i, line := range lines {
		m, k := rangeRE.FindStringSubmatch(line), keyRE.FindStringSubmatch(line)
		if m == nil || k == nil {
			continue
		}
		found++
		lo, _ := strconv.ParseFloat(m[1], 64)
		hi, _ := strconv.ParseFloat(m[2], 64)
		with := func(v float64) error {
			l := append([]string(nil), lines...)
			l[i] = k[1] + " = " + strconv.FormatFloat(v, 'g', -1, 64)
			_, err := Decode([]byte(strings.Join(l, "\n")))
			return err
		}
		for _, v := range []float64{lo, hi} {
			if err := with(v); err != nil {
				t.Errorf("%s: the comment says %s–%s, but %g is refused: %v", k[1], m[1], m[2], v, err)
			}
		}
		for _, v := range []float64{lo - 0.1*max(lo, 0.01), hi * 1.1} {
			if err := with(v); err == nil {
				t.Errorf("%s: the comment says %s–%s, but %g is taken", k[1], m[1], m[2], v)
			}
		}
	}
	if found == 0 {
		t.Fatalf("no comment with a range in\n%s", b)
	}
}
