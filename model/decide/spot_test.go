package decide

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func near(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) < 1e-12
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestParseAdvisorBucket(t *testing.T) {
	tests := []struct {
		label     string
		low, high float64
		err       error
	}{
		{label: "<5%", low: 0, high: 0.05},
		{label: "5-10%", low: 0.05, high: 0.10},
		{label: "10-15%", low: 0.10, high: 0.15},
		{label: "15-20%", low: 0.15, high: 0.20},
		{label: ">20%", low: 0.20, high: 0},
		{label: " <10% ", low: 0, high: 0.10}, // the advisor's global_rate
		{label: "5-10", err: ErrInvalidSpot},
		{label: "10-5%", err: ErrInvalidSpot},
		{label: "<0%", err: ErrInvalidSpot},
		{label: ">100%", err: ErrInvalidSpot},
		{label: "lots%", err: ErrInvalidSpot},
		{label: "", err: ErrInvalidSpot},
	}
	for _, tt := range tests {
		l, h, err := ParseAdvisorBucket(tt.label)
		if !errors.Is(err, tt.err) {
			t.Errorf("ParseAdvisorBucket(%q) error = %v, want %v", tt.label, err, tt.err)
			continue
		}
		if err == nil && (!near(l, tt.low, 1e-12) || !near(h, tt.high, 1e-12)) {
			t.Errorf("ParseAdvisorBucket(%q) = %g, %g; want %g, %g", tt.label, l, h, tt.low, tt.high)
		}
	}
}

func TestRateFromBucket(t *testing.T) {
	tests := []struct {
		name, label string
		want        float64
	}{
		{name: "bounded bucket: middle of 5 and 10", label: "5-10%", want: 0.075},
		{name: "<5%: middle of 0 and 5", label: "<5%", want: 0.025},
		{name: "open bucket: at least 20%", label: ">20%", want: 0.20},
	}
	for _, tt := range tests {
		r, err := RateFromBucket(tt.label, "test")
		if err != nil || !near(r.PerMonth, tt.want, 1e-12) {
			t.Errorf("%s: RateFromBucket(%q).PerMonth = %g (%v), want %g", tt.name, tt.label, r.PerMonth, err, tt.want)
		}
	}
}

func TestInterruptionRatePerHour(t *testing.T) {
	tests := []struct {
		name string
		f    float64
		want float64
	}{
		{name: "none", f: 0, want: 0},
		{name: "f = 1 − e^−0.73 gives λ = 0.73/730 = 0.001/h", f: 1 - math.Exp(-0.73), want: 0.001},
		{name: "10%: −ln 0.9 / 730 = 0.105360516/730", f: 0.10, want: 0.105360515657826 / 730},
		{name: "every instance: +Inf", f: 1, want: math.Inf(1)},
	}
	for _, tt := range tests {
		got := InterruptionRate{PerMonth: tt.f}.PerHour()
		if math.IsInf(tt.want, 1) && math.IsInf(got, 1) {
			continue
		}
		if !near(got, tt.want, 1e-9) {
			t.Errorf("%s: PerHour() = %.10g, want %.10g", tt.name, got, tt.want)
		}
	}
}

// TestDalyInterval checks DalyInterval against the optima J. T. Daly
// reports in FGCS 22(3), 2006, and against Young's √(2δM).
func TestDalyInterval(t *testing.T) {
	const minute = 1.0 / 60 // hours
	tests := []struct {
		name        string
		delta, mtbi float64 // hours
		want        float64 // hours
		tol         float64 // relative; the paper rounds
	}{
		// Fig. 3 caption: "M=24 h, Ts=500 h, R=10 min, and δ=5 min. The new model predicts τopt=117 min."
		{name: "Daly Fig. 3: M=24 h δ=5 min → 117 min", delta: 5 * minute, mtbi: 24, want: 117 * minute, tol: 0.005},
		// Fig. 4 caption: "M=6 h, Ts=500 h, R=10 min, and δ=5 min. The new model predicts τopt=57 min."
		{name: "Daly Fig. 4: M=6 h δ=5 min → 57 min", delta: 5 * minute, mtbi: 6, want: 57 * minute, tol: 0.01},
		// Fig. 5 caption: "M=15 min, Ts=500 h, R=10 min, and δ=5 min. The new model predicts τopt=9.1 min."
		{name: "Daly Fig. 5: M=15 min δ=5 min → 9.1 min", delta: 5 * minute, mtbi: 15 * minute, want: 9.1 * minute, tol: 0.01},
		// √(2·0.02·100) = 2; ξ = 0.02/200 = 1e-4: 2·(1 + 0.01/3 + 1e-4/9) − 0.02 = 1.98668889
		{name: "δ=0.02 h M=100 h: 2·(1+0.01/3+1e-4/9) − 0.02", delta: 0.02, mtbi: 100, want: 1.986688888888889, tol: 1e-12},
		{name: "δ ≥ 2M: checkpoint every M", delta: 3, mtbi: 1, want: 1, tol: 1e-12},
	}
	for _, tt := range tests {
		if got := DalyInterval(tt.delta, tt.mtbi); !near(got, tt.want, tt.tol) {
			t.Errorf("%s: DalyInterval() = %.4g h, want %.4g h", tt.name, got, tt.want)
		}
	}
	if got := YoungInterval(0.02, 100); !near(got, 2, 1e-12) {
		t.Errorf("YoungInterval(0.02, 100) = %g, want √4 = 2", got)
	}
}

func TestCheckpointWriteHours(t *testing.T) {
	// 16 GB of model state at 1 GB/s: 16 s = 16/3600 h.
	got, err := CheckpointWriteHours(16e9, 1e9)
	if err != nil || !near(got, 16.0/3600, 1e-12) {
		t.Errorf("CheckpointWriteHours(16e9, 1e9) = %g, %v; want %g", got, err, 16.0/3600)
	}
	for _, c := range [][2]float64{{0, 1e9}, {1e9, 0}, {math.NaN(), 1}, {1, math.Inf(1)}} {
		if _, err := CheckpointWriteHours(c[0], c[1]); !errors.Is(err, ErrInvalidSpot) {
			t.Errorf("CheckpointWriteHours(%g, %g) error = %v, want ErrInvalidSpot", c[0], c[1], err)
		}
	}
}

func TestPoissonQuantile(t *testing.T) {
	// μ = 1.0228884: P(0) = e^−μ = 0.35955, P(≤1) = 0.72734, P(≤2) = 0.91544.
	tests := []struct {
		mu, q float64
		want  int
	}{
		{1.0228884, 0.10, 0},
		{1.0228884, 0.50, 1},
		{1.0228884, 0.90, 2},
		{1.0228884, 0.95, 3},
		{0, 0.9, 0},
		// μ = 2: P(≤2) = e^−2·(1+2+2) = 0.67668, P(≤3) = 0.85712, P(≤4) = 0.94735
		{2, 0.90, 4},
		// large mean: no underflow; the median of Poisson(1000) is 1000
		{1000, 0.5, 1000},
	}
	for _, tt := range tests {
		if got := PoissonQuantile(tt.mu, tt.q); got != tt.want {
			t.Errorf("PoissonQuantile(%g, %g) = %d, want %d", tt.mu, tt.q, got, tt.want)
		}
	}
}

func TestPoissonQuantileLarge(t *testing.T) {
	// Exact quantiles from the regularized incomplete gamma function,
	// P(N ≤ k) = Q(k+1, μ) (mpmath gammainc(k+1, μ, inf, regularized=True),
	// 40 digits, bisection on k). At μ = 10^4 the sum answers, above it
	// the Cornish–Fisher expansion: for μ = 10^6, z = Φ⁻¹(0.9) =
	// 1.2815516, x = 10^6 + 1281.5516 + 0.1071 − 0.0000 = 1001281.659,
	// ⌈x − ½⌉ = 1001282.
	tests := []struct {
		mu, q float64
		want  int
	}{
		{1e4, 0.10, 9872},
		{1e4, 0.90, 10128},
		{1e4 + 1, 0.10, 9873},
		{1e4 + 1, 0.90, 10129},
		{1e6, 0.10, 998719},
		{1e6, 0.90, 1001282},
		{1e12, 0.10, 999998718449},
		{1e12, 0.90, 1000001281552},
		{1e30, 0.90, maxExactCount}, // capped at 2^53
	}
	for _, tt := range tests {
		if got := PoissonQuantile(tt.mu, tt.q); got != tt.want {
			t.Errorf("PoissonQuantile(%g, %g) = %d, want %d", tt.mu, tt.q, got, tt.want)
		}
	}
	// On both sides of the switch the expansion and the sum agree.
	for _, mu := range []float64{2e3, 5e3, 9e3, 1e4, 2e4} {
		for _, q := range []float64{0.10, 0.90} {
			z := math.Sqrt2 * math.Erfinv(2*q-1)
			x := mu + z*math.Sqrt(mu) + (z*z-1)/6 + (z-z*z*z)/(72*math.Sqrt(mu))
			if cf, sum := int(math.Ceil(x-0.5)), poissonQuantileSum(mu, q); cf != sum {
				t.Errorf("μ = %g, q = %g: Cornish–Fisher %d, exact sum %d", mu, q, cf, sum)
			}
		}
	}
}

// BenchmarkSpotExpectedCost prices spot for a 100-hour job and a 10^12-hour
// one (a 10^18-token job on one small GPU): the same cost.
func BenchmarkSpotExpectedCost(b *testing.B) {
	for _, hours := range []float64{100, 1e12} {
		b.Run(fmt.Sprintf("hours=%g", hours), func(b *testing.B) {
			r, _ := RateFromBucket(">20%", "test")
			in := SpotInput{JobHours: hours, SpotUSDPerHour: 1, Rate: r, CheckpointWriteHours: 0.02, RestartHours: 0.25}
			for b.Loop() {
				if _, err := SpotExpectedCost(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestSpotExpectedCost(t *testing.T) {
	// λ = 0.01/h per instance: f = 1 − e^(−0.01·730) = 1 − e^−7.3.
	lambda01 := InterruptionRate{PerMonth: 1 - math.Exp(-7.3)}
	base := SpotInput{JobHours: 100, SpotUSDPerHour: 1.5, OnDemandUSDPerHour: 4, Nodes: 1, Rate: lambda01,
		CheckpointWriteHours: 0.02, RestartHours: 0.25, CheckpointEveryHours: 2}
	with := func(f func(*SpotInput)) SpotInput { in := base; f(&in); return in }
	tests := []struct {
		name string
		in   SpotInput
		// expected: wall hours, interruptions, USD, P10/P90 hours
		hours, n, usd, p10, p90 float64
		err                     error
	}{
		{
			// n = ⌈100/2⌉ − 1 = 49 writes (the 50th interval ends with the final save);
			// B = 100 + 49·0.02 = 100.98; L = 0.25 + (2+0.02)/2 = 1.26; λL = 0.0126
			// T = 100.98/0.9874 = 102.268584 h; N = 1.0226858; USD = 1.5·T = 153.402876
			// N ~ Poisson(1.0227): P(0) = e^−1.0227 = 0.35963, P(≤1) = 0.72741, P(≤2) = 0.91548:
			// P10 = 0, P90 = 2 → 100.98 h and 100.98 + 2·1.26 = 103.50 h
			name: "100 h, λ=0.01/h, τ=2 h: T = (100 + 49·0.02)/(1 − 0.01·1.26)", in: base,
			hours: 100.98 / 0.9874, n: 0.01 * 100.98 / 0.9874, usd: 1.5 * 100.98 / 0.9874, p10: 100.98, p90: 103.50,
		},
		{
			// two nodes: λ = 0.02; B = 100.98, L = 1.26; T = 100.98/(1 − 0.0252) = 103.590480 h;
			// N = 2.0718096; Poisson(2.0718): P(≤0) = 0.12596, so P10 = 0; P(≤3) = 0.84394,
			// P(≤4) = 0.94064 → P90 = 4: 100.98 h and 100.98 + 4·1.26 = 106.02 h
			name: "2 nodes double λ: T = 100.98/(1 − 0.02·1.26)", in: with(func(in *SpotInput) { in.Nodes = 2 }),
			hours: 100.98 / 0.9748, n: 0.02 * 100.98 / 0.9748, usd: 1.5 * 100.98 / 0.9748, p10: 100.98, p90: 106.02,
		},
		{
			// τ = 0 picks Daly: τ = 1.9866889 (TestDalyInterval); 100/τ = 50.335 → n = 51 − 1 = 50,
			// B = 100 + 50·0.02 = 101; L = 0.25 + (1.9866889+0.02)/2 = 1.25334444;
			// T = 101/(1 − 0.0125334444) = 102.281945 h; N = 1.0228195: P10 = 0, P90 = 2 (as above)
			// → 101 h and 101 + 2·1.25334444 = 103.506689 h
			name: "τ from Daly's optimum", in: with(func(in *SpotInput) { in.CheckpointEveryHours = 0 }),
			hours: 101 / (1 - 0.0125334444444444), n: 0.01 * 101 / (1 - 0.0125334444444444), usd: 1.5 * 101 / (1 - 0.0125334444444444),
			p10: 101, p90: 101 + 2*1.2533444444444444,
		},
		{
			// τ given as long as the job: no checkpoint, δ not paid, B = W = 100; L = 0.25 + 100/2 = 50.25;
			// λL = 0.5025, T = 100/0.4975 = 201.005025 h; N = 2.0100503; USD = 1.5·T = 301.507538
			// Poisson(2.0101): P(≤0) = 0.1340, so P10 = 0; P(≤3) = 0.8553, P(≤4) = 0.9464 → P90 = 4:
			// 100 h and 100 + 4·50.25 = 301 h (a job this long loses far more without checkpoints)
			name: "τ = W: no checkpoint, an interruption loses half the job", in: with(func(in *SpotInput) { in.CheckpointEveryHours = 100 }),
			hours: 201.00502512562815, n: 2.0100502512562817, usd: 301.5075376884422, p10: 100, p90: 301,
		},
		{
			name: "no interruptions: the job as on demand, at the spot price", in: with(func(in *SpotInput) { in.Rate = InterruptionRate{} }),
			hours: 100, n: 0, usd: 150, p10: 100, p90: 100,
		},
		{
			// τ = 200 h ≥ W: no checkpoint, δ not paid, L = R + W/2 = 60 + 50 = 110 h ≥ 1/λ = 100 h
			name: "restart 60 h with λ=0.01: never finishes",
			in:   with(func(in *SpotInput) { in.RestartHours = 60; in.CheckpointEveryHours = 200 }), err: ErrSpotNeverFinishes,
		},
		{name: "no job hours", in: with(func(in *SpotInput) { in.JobHours = 0 }), err: ErrInvalidSpot},
		{name: "negative restart", in: with(func(in *SpotInput) { in.RestartHours = -1 }), err: ErrInvalidSpot},
		{name: "NaN price", in: with(func(in *SpotInput) { in.SpotUSDPerHour = math.NaN() }), err: ErrInvalidSpot},
		{name: "no δ and no τ", in: with(func(in *SpotInput) { in.CheckpointWriteHours, in.CheckpointEveryHours = 0, 0 }), err: ErrInvalidSpot},
		{name: "rate 100%", in: with(func(in *SpotInput) { in.Rate.PerMonth = 1 }), err: ErrSpotNeverFinishes},
	}
	for _, tt := range tests {
		e, err := SpotExpectedCost(tt.in)
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: error = %v, want %v", tt.name, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"hours", e.ExpectedHours, tt.hours}, {"interruptions", e.ExpectedInterruptions, tt.n}, {"USD", e.ExpectedUSD, tt.usd},
			{"P10 hours", e.P10Hours, tt.p10}, {"P90 hours", e.P90Hours, tt.p90}} {
			if !near(c.got, c.want, 1e-8) {
				t.Errorf("%s: %s = %.10g, want %.10g", tt.name, c.what, c.got, c.want)
			}
		}
		if want := 400 - tt.usd; !near(e.SavingUSD, want, 1e-8) {
			t.Errorf("%s: SavingUSD = %.6g, want 100 h × $4 − %.6g = %.6g", tt.name, e.SavingUSD, tt.usd, want)
		}
	}
}

func TestSpotHighRate(t *testing.T) {
	// Bucket 5-10%: estimate at 7.5%, high at 10%.
	r, _ := RateFromBucket("5-10%", "test")
	in := SpotInput{JobHours: 100, SpotUSDPerHour: 1, Rate: r, CheckpointWriteHours: 0.02, RestartHours: 0.25, CheckpointEveryHours: 2}
	e, err := SpotExpectedCost(in)
	if err != nil {
		t.Fatal(err)
	}
	// λ(10%) = 0.105360516/730 = 1.44329e-4; B = 100 + 49·0.02 = 100.98 (τ = 2 h kept);
	// T = 100.98/(1 − 1.44329e-4·1.26) = 100.998367 h at $1/h.
	if want := 100.98 / (1 - 0.105360515657826/730*1.26); !near(e.HighRateExpectedUSD, want, 1e-9) {
		t.Errorf("HighRateExpectedUSD = %.8g, want %.8g", e.HighRateExpectedUSD, want)
	}
	if e.HighRateExpectedUSD <= e.ExpectedUSD {
		t.Errorf("the bucket's upper rate costs %.4g, not more than its middle %.4g", e.HighRateExpectedUSD, e.ExpectedUSD)
	}
}

// TestCheckpointInterval: the τ a launch file checkpoints at is the one
// SpotExpectedCost prices. Hand-worked: the "5-10%" bucket is 7.5% a month,
// λ = 4 nodes × −ln(0.925)/730 = 4.2719e-4 /h, M = 1/λ = 2340.9 h; with
// δ = 0.001 h Young's √(2δM) = 2.16375 h and Daly's
// 2.16375·(1 + √(δ/2M)/3 + δ/(18M)) − δ = 2.16308 h.
func TestCheckpointInterval(t *testing.T) {
	rate, err := RateFromBucket("5-10%", "test")
	if err != nil {
		t.Fatal(err)
	}
	base := SpotInput{JobHours: 100, SpotUSDPerHour: 10, Nodes: 4, Rate: rate, CheckpointWriteHours: 0.001, RestartHours: 0.25}
	for _, tc := range []struct {
		name string
		edit func(*SpotInput)
		want float64
	}{
		{"daly", func(*SpotInput) {}, 2.163079},
		{"capped at the job", func(in *SpotInput) { in.JobHours = 1.5 }, 1.5},
		{"no job length", func(in *SpotInput) { in.JobHours = 0 }, 2.163079},
		{"given τ", func(in *SpotInput) { in.CheckpointEveryHours = 0.5 }, 0.5},
		{"no interruptions", func(in *SpotInput) { in.Rate = InterruptionRate{} }, 0},
		{"no δ", func(in *SpotInput) { in.CheckpointWriteHours = 0 }, 0},
		{"every instance reclaimed", func(in *SpotInput) { in.Rate.PerMonth = 1 }, 0},
	} {
		in := base
		tc.edit(&in)
		got := CheckpointInterval(in)
		if !near(got, tc.want, 1e-6) {
			t.Errorf("%s: τ = %.7g h, want %.7g", tc.name, got, tc.want)
		}
		if in.JobHours == 0 || got == 0 {
			continue
		}
		if e, err := SpotExpectedCost(in); err != nil || e.CheckpointEveryHours != got {
			t.Errorf("%s: SpotExpectedCost's τ = %g (%v), CheckpointInterval's %g", tc.name, e.CheckpointEveryHours, err, got)
		}
	}
}

// TestSpotMedian: SpotExpectedCost gives the median of the job's hours
// and cost beside P10 and P90, from the same Poisson count N ~
// Poisson(λT) (the smallest k with P(N ≤ k) ≥ ½): hours B + k·L. With
// rare interruptions it sits with P10 and P90 at B, below the mean T,
// which one rare long interruption pulls above P90.
func TestSpotMedian(t *testing.T) {
	lambda01 := InterruptionRate{PerMonth: 1 - math.Exp(-7.3)} // λ = 0.01/h, as TestSpotExpectedCost
	base := SpotInput{JobHours: 100, SpotUSDPerHour: 1.5, Nodes: 1, Rate: lambda01,
		CheckpointWriteHours: 0.02, RestartHours: 0.25, CheckpointEveryHours: 2}
	for _, c := range []struct {
		name      string
		in        SpotInput
		n         int     // median count
		hours     float64 // B + n·L
		aboveP90  bool    // mean above P90
		meanHours float64
	}{
		// B = 100 + 49·0.02 = 100.98, L = 1.26, T = 100.98/0.9874 = 102.268584 h, μ = 1.0226858:
		// P(N ≤ 0) = e^−1.0227 = 0.3596, P(N ≤ 1) = 0.3596·2.0227 = 0.7274 ≥ ½ → median 1:
		// 100.98 + 1.26 = 102.24 h.
		{"λ=0.01/h, 100 h", base, 1, 102.24, false, 100.98 / 0.9874},
		// 1 h job, τ = 2 h ≥ W: no checkpoint (δ not paid), B = 1, L = 0.25 + 1/2 = 0.75,
		// T = 1/(1 − 0.0075) = 1.0075567 h, μ = 0.0100756: P(N ≤ 0) = 0.98998 ≥ ½ → median 0
		// = P10 = P90 = 1 h, below the mean 1.00756 h.
		{"1 h job: rare interruptions", func() SpotInput { in := base; in.JobHours = 1; return in }(), 0, 1, true, 1 / (1 - 0.01*0.75)},
	} {
		e, err := SpotExpectedCost(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if e.P50Interruptions != c.n || !near(e.P50Hours, c.hours, 1e-9) || !near(e.P50USD, 1.5*c.hours, 1e-9) {
			t.Errorf("%s: median %d interruptions, %.8g h, $%.8g; want %d, %.8g h, $%.8g", c.name, e.P50Interruptions, e.P50Hours, e.P50USD, c.n, c.hours, 1.5*c.hours)
		}
		if !near(e.ExpectedHours, c.meanHours, 1e-9) {
			t.Errorf("%s: mean %.10g h, want %.10g", c.name, e.ExpectedHours, c.meanHours)
		}
		if got := e.ExpectedHours > e.P90Hours; got != c.aboveP90 {
			t.Errorf("%s: mean %.6g above P90 %.6g = %v, want %v", c.name, e.ExpectedHours, e.P90Hours, got, c.aboveP90)
		}
	}
	// λ = 0: every figure is the job's own.
	in := base
	in.Rate = InterruptionRate{}
	if e, _ := SpotExpectedCost(in); e.P50Hours != 100 || e.P50USD != 150 || e.P50Interruptions != 0 {
		t.Errorf("no interruptions: median %g h, $%g, %d; want 100 h, $150, 0", e.P50Hours, e.P50USD, e.P50Interruptions)
	}
}

// TestSpotLateChance: the chance a spot job misses a deadline D, its
// hours W + n·δ + N·L (SpotExpectedCost's risk range) with N ~
// Poisson(μ) and W's error from the time estimate's calibration, summed
// over N: Σₖ P(N = k)·P(W > D − kL − nδ). The calibration here is
// the fallback band, uniform in log over ×0.75–×1.333 around W = 10 h:
// P(W > h) = 0.95 − 0.9·(ln(h/10) − ln 0.75)/(2 ln(4/3)) inside it,
// 0.95 below (at least 95%) and 0.05 above (at most 5%), as
// Band.Exceedance reports. δ = 0.02 h, τ = 1 h, W = 10 h: n = ⌈10/1⌉ − 1 =
// 9 writes, nδ = 0.18 h, whatever W turns out (the launch file saves every
// so many steps); L = 0.76 h. A job no longer than τ takes none (τ = W,
// n = 0, L = R + W/2), the last case.
func TestSpotLateChance(t *testing.T) {
	var q [19]float64
	for i := range q {
		q[i] = math.Log(0.75) * (1 - 2*float64(i)/18)
	}
	band := model.NewBand("test/uniform", 0, 0, q)
	overrun := func(h float64) float64 { return band.Exceedance(h / 10) }
	spot := func(mu float64) *SpotEstimate {
		return &SpotEstimate{InterruptionsPerHour: 0.01, CheckpointEveryHours: 1, CheckpointWrites: 9, OnDemandHours: 10,
			LostHoursPerInterrupt: 0.76, ExpectedInterruptions: mu}
	}
	for _, c := range []struct {
		name     string
		s        *SpotEstimate
		deadline float64
		chance   float64
		late     bool
	}{
		// λ = 0: the job's own time, no checkpoint overhead: P(W > 12) = 0.95 − 0.9·ln(1.6)/ln(16/9) = 0.214808.
		{"no interruptions: the estimate's own chance", &SpotEstimate{ExpectedInterruptions: 0}, 12, 0.21480773946721587, true},
		// μ = 0.1: P(W > 12 − 0.18 = 11.82) = 0.238449, P(W > 11.06) = 0.342404,
		// P(W > 10.30) = 0.453763, P(W > 9.54) = 0.573662, P(W > 8.78) = 0.703519, …
		// weighted e^−0.1·0.1ᵏ/k! (0.904837, 0.090484, 0.004524, 0.000151, 0.0000038):
		// 0.215757 + 0.030982 + 0.002053 + 0.000087 + 0.000003 = 0.248882 (above the
		// 0.238449 without interruptions).
		{"μ = 0.1, D = 12 h", spot(0.1), 12, 0.2488816456938943, true},
		// μ = 2, same terms weighted e^−2·2ᵏ/k! (0.135335, 0.270671, 0.270671, 0.180447,
		// 0.090224, 0.036089, 0.012030, 0.003437, …): 0.032271 + 0.092679 + 0.122820
		// + 0.103516 + 0.063474 + 0.030501 + 0.011428 (k = 6: 7.26 h, below the band, 0.95)
		// + 0.003265 + … = 0.460995.
		{"μ = 2, D = 12 h", spot(2), 12, 0.4609953863416052, true},
		// D = 14 h: 14 − 0.18 = 13.82 h is past the band's slow end 13.33 h (0.05, at most
		// 5%); only after an interruption is the job in it (13.06 h: 0.0824 at k = 1):
		// e^−0.001·0.001·0.0824 ≈ 8e-5 counted beside at most 5%: not late, as an offer
		// whose range meets the deadline.
		{"μ = 0.001, D = 14 h: rare interruptions", spot(0.001), 14, 0, false},
		// μ = 0.5: past the 5% tail 0.606531·0.5·0.0824 + 0.075816·0.176183 +
		// 0.012636·0.275949 + 0.001580·0.382515 + … = 0.024989 + 0.013358 + 0.003487
		// + 0.000604 + 0.000087 = 0.042525, at most 0.042525 + 0.606531·0.05 = 0.072852:
		// no more than the range's 5% for sure, not late.
		{"μ = 0.5, D = 14 h", spot(0.5), 14, 0, false},
		// D = 3 h: 3 − 0.18 − 0.76k is below the fast end 7.5 h whatever the count (0.95),
		// and 1 once 0.76k + 0.18 ≥ 3 h (k ≥ 4): 0.857123·0.95 + 0.142877 = 0.957144
		// reported as 0.95, at least 95%.
		{"μ = 2, D = 3 h: late at the fast end", spot(2), 3, 0.95, true},
		{"no deadline", spot(2), 0, 0, false},
		// No checkpoint: τ = W = 10 h, n = 0, δ not paid, L = R + W/2 = 0.25 + 5 = 5.25 h,
		// μ = 0.1, D = 12 h. k = 0: P(W > 12) = 0.214808 (not 0.238449: no 0.18 h of writes);
		// k = 1: (12 − 5.25)/10 = 0.675, below the band: 0.95; k = 2: 1.5 h, 0.95; k ≥ 3: 15.75 h ≥ D, 1.
		// e^−0.1·(0.214808 + 0.1·0.95 + 0.005·0.95) + (1 − e^−0.1·1.105) = 0.194366 + 0.085960
		// + 0.004298 + 0.000155 = 0.284778: above μ = 0.1 with checkpoints (0.248882), as one
		// interruption loses half the job.
		{"no checkpoint: τ = W, μ = 0.1, D = 12 h",
			&SpotEstimate{InterruptionsPerHour: 0.01, CheckpointEveryHours: 10, OnDemandHours: 10, LostHoursPerInterrupt: 5.25, ExpectedInterruptions: 0.1},
			12, 0.2847782658730083, true},
	} {
		chance, late := SpotLateChance(c.s, 0.02, c.deadline, overrun)
		if late != c.late || !near(chance, c.chance, 1e-9) {
			t.Errorf("%s: chance %.10g, late %v; want %.10g, %v", c.name, chance, late, c.chance, c.late)
		}
	}
}

// TestSpotCheckpointWrites: W hours of compute saved every τ write n =
// ⌈W/τ⌉ − 1 periodic checkpoints, the last interval ending with the job's
// own final save, which on demand makes too and SpotExpectedCost does not
// charge: B = W + n·δ. Here τ = 2 h, δ = 0.02 h, R = 0.25 h, λ = 0.01/h;
// every job is short enough that P(N = 0) = e^−μ ≥ 0.1 (μ = λT ≤ 0.07,
// far below ln 10 = 2.30), so the P10 count is 0 and P10Hours is B itself. L = R + (τ+δ)/2 = 1.26 h with a write, R + W/2
// without one (τ = W). Young's W·(1 + δ/τ), which SpotExpectedCost used
// before, charged W/τ writes: 1.5 at W = 3 h (B = 3.03 h), 2 at W = 4 h
// (4.04 h).
func TestSpotCheckpointWrites(t *testing.T) {
	lambda01 := InterruptionRate{PerMonth: -math.Expm1(-7.3)} // λ = 0.01/h
	for _, c := range []struct {
		name  string
		w     float64
		n     int
		b, l  float64 // B = W + n·δ; L
		hours float64 // T = B/(1 − λL)
	}{
		{"W = τ/2: none, τ = W", 1, 0, 1, 0.25 + 0.5, 1 / (1 - 0.0075)},
		{"W = τ: none", 2, 0, 2, 0.25 + 1, 2 / (1 - 0.0125)},
		{"W = 1.5τ: one, at τ", 3, 1, 3.02, 1.26, 3.02 / 0.9874},
		{"W = 2τ: one, the second interval ends with the final save", 4, 1, 4.02, 1.26, 4.02 / 0.9874},
		{"W = 2τ + 0.001 h: two", 4.001, 2, 4.041, 1.26, 4.041 / 0.9874},
		{"W = 3τ: two", 6, 2, 6.04, 1.26, 6.04 / 0.9874},
	} {
		in := SpotInput{JobHours: c.w, SpotUSDPerHour: 1, Nodes: 1, Rate: lambda01,
			CheckpointWriteHours: 0.02, RestartHours: 0.25, CheckpointEveryHours: 2}
		e, err := SpotExpectedCost(in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if e.CheckpointWrites != c.n || !near(e.P10Hours, c.b, 1e-12) || !near(e.LostHoursPerInterrupt, c.l, 1e-12) || !near(e.ExpectedHours, c.hours, 1e-12) {
			t.Errorf("%s: %d writes, B = %.6g h, L = %.6g h, T = %.8g h; want %d, %.6g h, %.6g h, %.8g h",
				c.name, e.CheckpointWrites, e.P10Hours, e.LostHoursPerInterrupt, e.ExpectedHours, c.n, c.b, c.l, c.hours)
		}
	}
	// Rounding does not add a write: 0.1 + 0.2 is 0.30000000000000004, three
	// intervals of 0.1 h, two writes.
	tenth := 0.1
	for _, c := range []struct {
		w, tau, want float64
	}{{tenth + 0.2, tenth, 2}, {0.3, tenth, 2}, {0.7, tenth, 6}, {2, 2, 0}, {2.5, 2, 1}, {1e12, 2, 5e11 - 1}, {1, 0, 0}} {
		if got := checkpointWrites(c.w, c.tau); got != c.want {
			t.Errorf("checkpointWrites(%v, %v) = %v, want %v", c.w, c.tau, got, c.want)
		}
	}
}

// TestSpotWritesStep: with τ fixed, B = W + n·δ grows as W between the
// multiples of τ and steps up by δ, the new write, as W passes each one,
// the first (W = τ) included: a job of τ + ε writes once at τ, as the
// launch file does (τ = 2 h, δ = 0.02 h: B(2) = 2, B(2 + ε) = 2.02 + ε).
// The expected time T then never falls as W grows. At W = kτ, k ≥ 2, L
// stays 1.26 h and T steps by (δ + ε)/(1 − λL) = 0.02/0.9874 = 0.020255 h;
// at W = τ the first write also brings δ/2 into L (1.25 → 1.26 h): T
// goes from 2/0.9875 = 2.025316 h to 2.02/0.9874 = 2.045777 h.
func TestSpotWritesStep(t *testing.T) {
	lambda01 := InterruptionRate{PerMonth: -math.Expm1(-7.3)} // λ = 0.01/h
	at := func(w float64) SpotEstimate {
		t.Helper()
		e, err := SpotExpectedCost(SpotInput{JobHours: w, SpotUSDPerHour: 1, Nodes: 1, Rate: lambda01,
			CheckpointWriteHours: 0.02, RestartHours: 0.25, CheckpointEveryHours: 2})
		if err != nil {
			t.Fatalf("W = %g h: %v", w, err)
		}
		return e
	}
	const eps = 1e-9
	if lo, hi := at(2).ExpectedHours, at(2+eps).ExpectedHours; !near(lo, 2/0.9875, 1e-12) || !near(hi, 2.02/0.9874, 1e-8) {
		t.Errorf("T(τ) = %.8g h, T(τ + ε) = %.8g h; want %.8g h, %.8g h", lo, hi, 2/0.9875, 2.02/0.9874)
	}
	for k := 1; k <= 5; k++ {
		kt := 2 * float64(k)
		// B jumps by δ at kτ (P10Hours is B: μ ≤ 0.12 up to W = 11.5 h, e^−μ ≥ 0.1).
		if jump := at(kt+eps).P10Hours - at(kt).P10Hours; !near(jump, 0.02+eps, 1e-6) {
			t.Errorf("B(%gτ + ε) − B(%gτ) = %.9g h, want δ + ε = %.9g h", float64(k), float64(k), jump, 0.02+eps)
		}
		if k >= 2 {
			if jump := at(kt+eps).ExpectedHours - at(kt).ExpectedHours; !near(jump, (0.02+eps)/0.9874, 1e-6) {
				t.Errorf("T(%dτ + ε) − T(%dτ) = %.9g h, want (δ + ε)/(1 − λL) = %.9g h", k, k, jump, (0.02+eps)/0.9874)
			}
		}
		// Inside (kτ, (k+1)τ] no write is added: B grows as W.
		if grow := at(kt+1.5).P10Hours - at(kt+0.5).P10Hours; !near(grow, 1, 1e-9) {
			t.Errorf("B(%dτ + 1.5) − B(%dτ + 0.5) = %.9g h, want 1 h", k, k, grow)
		}
	}
	prev := 0.0
	for w := 0.05; w <= 10.5; w += 0.05 {
		h := at(w).ExpectedHours
		if h < prev {
			t.Errorf("T(%.2f h) = %.8g h, below T(%.2f h) = %.8g h", w, h, w-0.05, prev)
		}
		prev = h
	}
}

// TestSpotNeverFinishesWording: the error names what an interruption
// loses: half the job when it takes no checkpoint (τ ≥ W), half the
// period between checkpoints otherwise. λ = 0.01/h (M = 100 h):
// W = 100 h, τ = 200 h, R = 60 h: L = 60 + 100/2 = 110 h ≥ M; W = 100 h,
// τ = 2 h, R = 99 h: L = 99 + (2 + 0.02)/2 = 100.01 h ≥ M.
func TestSpotNeverFinishesWording(t *testing.T) {
	lambda01 := InterruptionRate{PerMonth: -math.Expm1(-7.3)}
	for _, c := range []struct {
		name      string
		tau, r    float64
		want, not string
	}{
		{"no checkpoint", 200, 60, "half of the 1e+02 h job, which takes no checkpoint", "between checkpoints"},
		{"checkpoints", 2, 99, "half of 2 h between checkpoints", "no checkpoint"},
	} {
		_, err := SpotExpectedCost(SpotInput{JobHours: 100, SpotUSDPerHour: 1, Nodes: 1, Rate: lambda01,
			CheckpointWriteHours: 0.02, RestartHours: c.r, CheckpointEveryHours: c.tau})
		if !errors.Is(err, ErrSpotNeverFinishes) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.not) {
			t.Errorf("%s: %v; want ErrSpotNeverFinishes saying %q", c.name, err, c.want)
		}
	}
}
