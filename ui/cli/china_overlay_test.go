package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pricedExample is data/catalog/examples/NAME with each "# prices = [{
// region = R, on_demand = 0.0 }]" line made a price in region (R when
// region is ""), as docs/data.md tells the user to do.
func pricedExample(t *testing.T, name, region, extra string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "data", "catalog", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^# prices = \[\{ region = "([^"]*)", on_demand = 0\.0 \}\]`)
	s := re.ReplaceAllStringFunc(string(b), func(m string) string {
		r := re.FindStringSubmatch(m)[1]
		if region != "" {
			r = region
		}
		return `prices = [{ region = "` + r + `", on_demand = 60.0 }]`
	})
	return s + extra
}

// TestChinaOverlayGeography (a new user's walk): the Alibaba Cloud example
// overlay, priced as docs/data.md says, answered --country cn and
// --regions asia with 0 offers and a note telling the user to copy the
// overlay they had copied; its rows' JSON had no country. Its regions are
// in the region table now (Alibaba's published list), and an overlay's
// [[region]] tables place regions of its own (AutoDL's 西北B区, in Chinese).
func TestChinaOverlayGeography(t *testing.T) {
	const copyOne = "come as example overlays"
	t.Run("alibaba", func(t *testing.T) {
		p := writeFile(t, "alibaba.toml", pricedExample(t, "alibaba.toml", "", ""))
		for _, args := range [][]string{{"--country", "cn"}, {"--country", "China"}, {"--regions", "asia"}, {"--regions", "CN"}} {
			a := append([]string{"offers", "--catalog", p, "--usd-cny", "7.1", "--providers", "alibaba", "--json"}, args...)
			code, out, errs := runCLI(t, a...)
			var doc struct {
				Rows []struct {
					Region, Country, City, Continent string
				} `json:"rows"`
			}
			if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Rows) != 3 || strings.Contains(errs, copyOne) {
				t.Fatalf("%v: exit %d, %d rows, stderr %q; want 0, the 3 rows and no note to copy an overlay", args, code, len(doc.Rows), errs)
			}
			for _, r := range doc.Rows {
				if r.Country != "CN" || r.Continent != "asia" || r.City == "" {
					t.Errorf("%v: row in %s: country %q, continent %q, city %q; want CN, asia and its city", args, r.Region, r.Country, r.Continent, r.City)
				}
			}
		}
		code, _, errs := runCLI(t, "recommend", "--model", "qwen3-8b", "--task", "qlora", "--catalog", p, "--usd-cny", "7.1", "--country", "cn", "--trust-overlay")
		if code != 0 || strings.Contains(errs, copyOne) {
			t.Errorf("recommend --country cn: exit %d, stderr %q; want 0", code, errs)
		}
	})
	t.Run("autodl in Chinese", func(t *testing.T) {
		p := writeFile(t, "autodl.toml", pricedExample(t, "autodl.toml", "西北B区", "\n[[region]]\nregion = \"西北B区\"\ncountry = \"cn\"\n"))
		code, out, errs := runCLI(t, "offers", "--catalog", p, "--usd-cny", "7.1", "--country", "cn", "--trust-overlay")
		if code != 0 || !strings.Contains(out, "西北B区 (CN)") || strings.Contains(errs, copyOne) {
			t.Fatalf("autodl --country cn: exit %d, stdout %q, stderr %q", code, out, errs)
		}
		// East Asian width: the column after the region starts at one
		// cell on every line (a wide character is two cells).
		lines := strings.Split(out, "\n")
		at := cellIndex(lines[0], "as of")
		for _, l := range lines[1:4] {
			if got := cellIndex(l, "2026-"); got != at {
				t.Errorf("date at cell %d, header at %d:\n%s", got, at, out)
			}
		}
	})
	t.Run("unplaced CNY rows", func(t *testing.T) {
		p := writeFile(t, "autodl.toml", pricedExample(t, "autodl.toml", "", ""))
		code, _, errs := runCLI(t, "offers", "--catalog", p, "--usd-cny", "7.1", "--country", "cn")
		if code != 0 || strings.Contains(errs, copyOne) || !strings.Contains(errs, `place them with a [[region]] table in the overlay (region = "autodl", country = "CN"`) {
			t.Errorf("unplaced: exit %d, stderr %q; want the note naming [[region]]", code, errs)
		}
	})
}

// cellIndex is the terminal cell at which sub starts in line, -1 if absent.
func cellIndex(line, sub string) int {
	i := strings.Index(line, sub)
	if i < 0 {
		return -1
	}
	n := 0
	for _, r := range line[:i] {
		n++
		if r >= 0x3400 && r <= 0x9fff {
			n++
		}
	}
	return n
}
