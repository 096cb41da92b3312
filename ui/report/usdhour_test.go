package report

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestOfferRowHourlyCents (a new user's walk): the recommend table's $/h
// column printed "$101" for an offer whose JSON says 100.13, beside near
// misses at "$120.00/h"; a price per hour keeps its cents at any size,
// while $/month and the job's cost stay whole dollars from $100.
func TestOfferRowHourlyCents(t *testing.T) {
	in := &model.Instance{Provider: "aws", Type: "p5.48xlarge", GPU: "h100", GPUCount: 8}
	for _, tt := range []struct {
		name                 string
		usdPerHour, jobHours float64
		hour, month, job     string
	}{
		{"$100.13/h × 730 h = $73,094.90/month", 100.13, 2, "$100.13", "$73,095", "$200"},
		{"$1,113.59/h", 1113.59, 0, "$1,113.59", "$812,921", "—"},
		{"$99.99/h below $100 unchanged", 99.99, 0, "$99.99", "$72,993", "—"},
		{"$0.14/h unchanged, its $102.20 month whole", 0.14, 0, "$0.14", "$102", "—"},
	} {
		o := &model.Offer{Instance: in, Region: "us-east-1", GPU: &model.GPU{Key: "h100"}, GPUs: 8, Instances: 1, Pricing: model.OnDemand,
			USDPerHour: tt.usdPerHour, MonthlyUSD: tt.usdPerHour * model.HoursPerMonth}
		if tt.jobHours > 0 {
			o.HasJob, o.JobHours, o.JobUSD = true, tt.jobHours, tt.jobHours*tt.usdPerHour
		}
		row := OfferRow(o)
		if row[4] != tt.hour || row[5] != tt.month || row[7] != tt.job {
			t.Errorf("%s: $/h %q, $/month %q, job cost %q; want %q, %q, %q", tt.name, row[4], row[5], row[7], tt.hour, tt.month, tt.job)
		}
	}
}
