package decide

import (
	"errors"
	"fmt"
	"math"
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
			// B = 100·(1 + 0.02/2) = 101; L = 0.25 + (2+0.02)/2 = 1.26; λL = 0.0126
			// T = 101/0.9874 = 102.288839 h; N = 1.0228884; USD = 1.5·T = 153.433259
			// N ~ Poisson(1.0229): P10 = 0, P90 = 2 → 101 h and 101 + 2·1.26 = 103.52 h
			name: "100 h, λ=0.01/h, τ=2 h: T = 101/(1 − 0.01·1.26)", in: base,
			hours: 102.28883937613935, n: 1.0228883937613935, usd: 153.43325906420904, p10: 101, p90: 103.52,
		},
		{
			// two nodes: λ = 0.02; L = 1.26; T = 101/(1 − 0.0252) = 103.610997 h; N = 2.0722199
			// Poisson(2.0722): P(≤0)=0.1259, so P10 = 0; P(≤3)=0.8442, P(≤4)=0.9405 → P90 = 4
			name: "2 nodes double λ: T = 101/(1 − 0.02·1.26)", in: with(func(in *SpotInput) { in.Nodes = 2 }),
			hours: 103.61099712761592, n: 2.0722199425523185, usd: 155.41649569142388, p10: 101, p90: 101 + 4*1.26,
		},
		{
			// τ = 0 picks Daly: τ = 1.9866889; B = 100·(1 + 0.02/1.9866889) = 101.00670;
			// L = 0.25 + (1.9866889+0.02)/2 = 1.25334444; T = B/(1 − 0.0125334444) = 102.288730 h
			name: "τ from Daly's optimum", in: with(func(in *SpotInput) { in.CheckpointEveryHours = 0 }),
			hours: 102.28873026686038, n: 1.0228873026686038, usd: 153.43309540029057, p10: 101.00670014, p90: 101.00670014 + 2*1.2533444444,
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
	// λ(10%) = 0.105360516/730 = 1.44329e-4; T = 101/(1 − 1.44329e-4·1.26) = 101.018369 h at $1/h.
	if want := 101 / (1 - 0.105360515657826/730*1.26); !near(e.HighRateExpectedUSD, want, 1e-9) {
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
		// B = 101, L = 1.26, T = 102.288839 h, μ = 1.0228884: P(N ≤ 0) = e^−1.0229 = 0.3595,
		// P(N ≤ 1) = 0.3595·2.0229 = 0.7273 ≥ ½ → median 1: 101 + 1.26 = 102.26 h.
		{"λ=0.01/h, 100 h", base, 1, 102.26, false, 102.28883937613935},
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
// hours W·(1+δ/τ) + N·L (SpotExpectedCost's risk range) with N ~
// Poisson(μ) and W's error from the time estimate's calibration, summed
// over N: Σₖ P(N = k)·P(W > (D − kL)/(1+δ/τ)). The calibration here is
// the fallback band, uniform in log over ×0.75–×1.333 around W = 10 h:
// P(W > h) = 0.95 − 0.9·(ln(h/10) − ln 0.75)/(2 ln(4/3)) inside it,
// 0.95 below (at least 95%) and 0.05 above (at most 5%), as
// Band.Exceedance reports. δ = 0.02 h, τ = 1 h (1 + δ/τ = 1.02), L = 0.76 h:
// the estimate names W (OnDemandHours = 10 h), as τ < W is what says
// checkpoints are taken. A job no longer than τ takes none (τ = W, 1 + δ/τ
// is 1, L = R + W/2), the last case.
func TestSpotLateChance(t *testing.T) {
	var q [19]float64
	for i := range q {
		q[i] = math.Log(0.75) * (1 - 2*float64(i)/18)
	}
	band := model.NewBand("test/uniform", 0, 0, q)
	overrun := func(h float64) float64 { return band.Exceedance(h / 10) }
	spot := func(mu float64) *SpotEstimate {
		return &SpotEstimate{InterruptionsPerHour: 0.01, CheckpointEveryHours: 1, OnDemandHours: 10, LostHoursPerInterrupt: 0.76, ExpectedInterruptions: mu}
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
		// μ = 0.1: P(W > 12/1.02) = 0.245784, P(W > 11.24/1.02) = 0.348127, P(W > 10.48/1.02) = 0.457639, …
		// weighted e^−0.1·0.1ᵏ/k!: 0.256054 (above the 0.245784 without interruptions).
		{"μ = 0.1, D = 12 h", spot(0.1), 12, 0.2560539520810886, true},
		{"μ = 2, D = 12 h", spot(2), 12, 0.4646952384963675, true},
		// D = 14 h: 14/1.02 = 13.73 h is past the band's slow end (0.05, at most 5%); only
		// after an interruption is the job in it (0.0920 at k = 1): e^−0.001·0.001·0.0920 ≈ 9e-5
		// counted beside at most 5%: not late, as an offer whose range meets the deadline.
		{"μ = 0.001, D = 14 h: rare interruptions", spot(0.001), 14, 0, false},
		// μ = 0.5: at least 0.0461 past the 5% tail, at most 0.0765: no more than the
		// range's 5% for sure, not late.
		{"μ = 0.5, D = 14 h", spot(0.5), 14, 0, false},
		// D = 3 h: below the fast end whatever the count (0.95), and 1 once kL ≥ 3 h
		// (k ≥ 4): 0.957 reported as 0.95, at least 95%.
		{"μ = 2, D = 3 h: late at the fast end", spot(2), 3, 0.95, true},
		{"no deadline", spot(2), 0, 0, false},
		// No checkpoint: τ = W = 10 h, δ not paid (1 + δ/τ = 1), L = R + W/2 = 0.25 + 5 = 5.25 h,
		// μ = 0.1, D = 12 h. k = 0: P(W > 12) = 0.214808 (not 0.245784: no 2% of writes);
		// k = 1: (12 − 5.25)/10 = 0.675, below the band: 0.95; k = 2: 1.5 h, 0.95; k ≥ 3: 15.75 h ≥ D, 1.
		// e^−0.1·(0.214808 + 0.1·0.95 + 0.005·0.95) + (1 − e^−0.1·1.105) = 0.194366 + 0.085960
		// + 0.004298 + 0.000155 = 0.284778: above μ = 0.1 with checkpoints (0.256054), as one
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
