package main

import (
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data/synthcsv"
)

// In-process benchmarks of whole commands: run() with the real arguments,
// output discarded, so a CPU or memory profile shows a command's own work
// without the process start (-cpuprofile, -memprofile):
//
//	go test -run '^$' -bench RunRecommend -benchmem .

// isolate gives the benchmark a private config and data home: no
// catalog.d or update overlay of the user's may change the work measured.
func isolate(b *testing.B) {
	home := b.TempDir()
	b.Setenv("HOME", home)
	b.Setenv("XDG_CONFIG_HOME", home)
	b.Setenv("XDG_DATA_HOME", home)
	b.Setenv("NO_COLOR", "1")
}

func benchRun(b *testing.B, args []string) {
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if code := run(args, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("gpuplan %s: exit %d", strings.Join(args, " "), code)
		}
	}
	// CPU time (user + system, GC workers included) moves far less than
	// wall time on a machine other work loads.
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkRunRecommend is `recommend --json` over the embedded catalog,
// savings section included: the whole catalog ranked, the table's 10 rows
// decided on and written.
func BenchmarkRunRecommend(b *testing.B) {
	isolate(b)
	benchRun(b, recommendArgs)
}

// BenchmarkRunRecommendCSV100k is the same with a generated 100,000-row
// SkyPilot aws/vms.csv overlay and --limit 20.
func BenchmarkRunRecommendCSV100k(b *testing.B) {
	isolate(b)
	p := filepath.Join(b.TempDir(), "aws", "vms.csv")
	if err := synthcsv.WriteFile(p, 100_000, 7); err != nil {
		b.Fatal(err)
	}
	benchRun(b, append(recommendArgs, "--limit", "20", "--catalog", p))
}

// BenchmarkRunOffersCSV100k is `gpuplan offers` (the table) over the same
// generated 100,000-row overlay: every row is printed.
func BenchmarkRunOffersCSV100k(b *testing.B) {
	isolate(b)
	p := filepath.Join(b.TempDir(), "aws", "vms.csv")
	if err := synthcsv.WriteFile(p, 100_000, 7); err != nil {
		b.Fatal(err)
	}
	benchRun(b, []string{"offers", "--catalog", p})
}

// BenchmarkRunOffersJSONCSV100k is `gpuplan offers --json` over it.
func BenchmarkRunOffersJSONCSV100k(b *testing.B) {
	isolate(b)
	p := filepath.Join(b.TempDir(), "aws", "vms.csv")
	if err := synthcsv.WriteFile(p, 100_000, 7); err != nil {
		b.Fatal(err)
	}
	benchRun(b, []string{"offers", "--json", "--catalog", p})
}

// BenchmarkRunRecommendJobLength is `recommend --task qlora` for a job of
// 10^9 and of 10^18 tokens (the largest --dataset-tokens takes): the spot
// risk range of every spot offer is priced in the same time whatever the
// job's length (a Poisson sum from 0 once took 77 s of CPU at 10^17).
func BenchmarkRunRecommendJobLength(b *testing.B) {
	for _, tokens := range []string{"1e9", "1e18"} {
		b.Run("tokens="+tokens, func(b *testing.B) {
			isolate(b)
			benchRun(b, []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", tokens, "--limit", "1"})
		})
	}
}

// BenchmarkRunServeRecommend is `recommend --task inference` over the
// embedded catalog for a request where many offers meet the TPOT target
// only at the estimate (Mistral 7B at 32K tokens × 16 concurrent
// requests: 30 of aws's 52 offers were borderline), so the serving
// planner's work per offer shows, borderline offers included.
func BenchmarkRunServeRecommend(b *testing.B) {
	isolate(b)
	benchRun(b, []string{"recommend", "--task", "inference", "--model", "mistral-7b", "--max-model-len", "32768", "--concurrency", "16", "--limit", "8"})
}

// BenchmarkRunRecommendAll is BenchmarkRunRecommend with --limit 0:
// every one of the ~1,200 offers ranked is decided on and written, as
// --json did before it kept the table's --limit (10 rows, which
// BenchmarkRunRecommend now writes).
func BenchmarkRunRecommendAll(b *testing.B) {
	isolate(b)
	benchRun(b, append(slices.Clone(recommendArgs), "--limit", "0"))
}
