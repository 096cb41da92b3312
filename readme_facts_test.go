package main

import (
	"encoding/json"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// catalogFactsFile is the page of the manual that gives the catalog's
// counts and tables.
const catalogFactsFile = "docs/data.md"

// TestREADMECatalogFacts keeps "Where the data comes from" (docs/data.md)
// true of the embedded catalog: the GPU and model counts, the list of GPU
// keys, the instance types and regions per provider, and the snapshot's
// date. Edit the page when the catalog changes; the failure says what it
// should read.
func TestREADMECatalogFacts(t *testing.T) {
	b, err := os.ReadFile(catalogFactsFile)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	number := func(pattern string) int {
		t.Helper()
		m := regexp.MustCompile(pattern).FindStringSubmatch(readme)
		if m == nil {
			t.Fatalf("%s has no %q", catalogFactsFile, pattern)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if got, want := number("\\(`gpus\\.toml`, (\\d+) entries\\)"), len(cat.GPUs); got != want {
		t.Errorf("%s: gpus.toml has %d entries; the catalog has %d", catalogFactsFile, got, want)
	}
	if got, want := number("\\(`models\\.toml`, (\\d+) architectures\\)"), len(cat.Models); got != want {
		t.Errorf("%s: models.toml has %d architectures; the catalog has %d", catalogFactsFile, got, want)
	}

	m := regexp.MustCompile("(?s)GPU keys: `([^`]*)`").FindStringSubmatch(readme)
	if m == nil {
		t.Fatalf("%s has no GPU keys list", catalogFactsFile)
	}
	var want []string
	for _, g := range cat.GPUs {
		want = append(want, g.Key)
	}
	if got := strings.Fields(m[1]); !slices.Equal(got, want) {
		t.Errorf("%s's GPU keys:\n%s\nthe catalog's, in its order:\n%s", catalogFactsFile, strings.Join(got, " "), strings.Join(want, " "))
	}

	// The provider table: "| aws | 62 | 23 | | nebius | 17 | 3 |", a
	// provider's name may be followed by a note, a count by a remark.
	types, regions, asOf := map[string]int{}, map[string]map[string]bool{}, map[string]bool{}
	for _, in := range cat.Instances {
		types[in.Provider]++
		if regions[in.Provider] == nil {
			regions[in.Provider] = map[string]bool{}
		}
		for _, p := range in.Prices {
			regions[in.Provider][p.Region] = true
		}
		asOf[in.AsOf] = true
	}
	lead := regexp.MustCompile(`^([a-z]+|\d+)\b`)
	seen := map[string]bool{}
	for _, line := range strings.Split(readme, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		// Cells in threes (provider, types, regions), an empty cell between.
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, lead.FindString(c))
			}
		}
		for i := 0; i+2 < len(cells); i += 3 {
			p := cells[i]
			if types[p] == 0 {
				break
			}
			seen[p] = true
			if n, _ := strconv.Atoi(cells[i+1]); n != types[p] {
				t.Errorf("%s: %s has %s instance types; the catalog has %d", catalogFactsFile, p, cells[i+1], types[p])
			}
			if n, _ := strconv.Atoi(cells[i+2]); n != len(regions[p]) {
				t.Errorf("%s: %s has %s regions; the catalog has %d", catalogFactsFile, p, cells[i+2], len(regions[p]))
			}
		}
	}
	for p := range types {
		if !seen[p] {
			t.Errorf("%s's provider table has no row for %s", catalogFactsFile, p)
		}
	}

	// Providers were read on different days: the page names each date.
	for d := range asOf {
		if !strings.Contains(readme, "as of "+d+" ") {
			t.Errorf("%s does not say \"as of %s\": an instance row's as_of", catalogFactsFile, d)
		}
	}
}

// TestEstimatesWalkthrough keeps the worked example of docs/estimates.md
// true: it runs the page's first `gpuplan estimate` sample with --json and
// checks the page's table of the phases, byte for byte, and the figures
// the arithmetic arrives at (parameters, overhead parts, torch's totals,
// FLOPs per sample). Redo the arithmetic when the estimator changes; the
// failure says which figure moved.
func TestEstimatesWalkthrough(t *testing.T) {
	const page = "docs/estimates.md"
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	var args []string
	blocks := strings.Split(doc, "```")
	for i := 1; i < len(blocks) && args == nil; i += 2 {
		body := strings.TrimPrefix(strings.TrimPrefix(blocks[i], "console"), "\n")
		if cmds, ok := parseBlock(body); ok && len(cmds[0].args) > 1 && cmds[0].args[1] == "estimate" {
			args = cmds[0].args[1:]
		}
	}
	if args == nil {
		t.Fatalf("%s has no gpuplan estimate sample", page)
	}
	code, stdout, stderr := runArgs(t, append(slices.Clone(args), "--json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	type bytesOf map[string]float64
	var e struct {
		Params          float64
		TrainableParams float64 `json:"trainable_params"`
		Memory          struct {
			Overhead       bytesOf `json:"overhead_bytes"`
			TorchAllocated float64 `json:"torch_allocated_bytes"`
			TorchReserved  float64 `json:"torch_reserved_bytes"`
			Phases         []struct {
				Phase string
				Bytes bytesOf
			}
		}
		Compute struct {
			FLOPsPerSample float64 `json:"flops_per_sample"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &e); err != nil {
		t.Fatal(err)
	}
	if len(e.Memory.Phases) != 3 {
		t.Fatalf("%d phases, want forward, backward and optimizer", len(e.Memory.Phases))
	}
	// The table: | bytes per GPU | forward end | backward | optimizer step |.
	rows := map[string]string{"weights": "weights", "cast cache": "cast_cache", "gradients": "gradients",
		"optimizer states": "optimizer_states", "step temporaries": "temporaries", "activations": "activations",
		"KV cache": "kv_cache", "overhead": "overhead", "total": "total"}
	seen := 0
	inTable := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "| bytes per GPU |") {
			inTable = true
			continue
		}
		if !inTable || strings.HasPrefix(line, "|---") {
			continue
		}
		if !strings.HasPrefix(line, "| ") {
			break
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		key, ok := rows[cells[0]]
		if !ok || len(cells) != 4 {
			t.Errorf("%s: phases table row %q: want one of the parts and three phases", page, line)
			continue
		}
		seen++
		for i, ph := range e.Memory.Phases {
			want := commas(ph.Bytes[key])
			if cells[i+1] != want {
				t.Errorf("%s: %s at the %s phase reads %s; the estimate has %s", page, cells[0], ph.Phase, cells[i+1], want)
			}
		}
	}
	if seen != len(rows) {
		t.Errorf("%s: the phases table has %d of its %d rows", page, seen, len(rows))
	}
	for name, v := range map[string]float64{
		"parameters": e.Params, "trainable parameters": e.TrainableParams,
		"CUDA context": e.Memory.Overhead["cuda_context"], "cuBLAS workspace": e.Memory.Overhead["workspace"],
		"fragmentation": e.Memory.Overhead["fragmentation"], "torch allocated": e.Memory.TorchAllocated,
		"torch reserved": e.Memory.TorchReserved, "FLOPs per sample": e.Compute.FLOPsPerSample,
	} {
		if !strings.Contains(doc, commas(v)) {
			t.Errorf("%s does not give the %s, %s", page, name, commas(v))
		}
	}
}

// commas writes v rounded to a whole number with thousands separators.
func commas(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
