package model

// JobBand returns the 90% range of the offer's job time and cost: the
// time at the ends of Estimate.TimeBand (the out-of-sample range of the
// time estimate, TimeCalibration), each billed as JobUSD is (jobBill: the
// hours at the deployment's price, a reserved term at least its
// commitment). A job whose time may be ×0.5–×3.4 the estimate costs that
// range too; one figure for its cost read as a promise (new-user trial:
// the time range spanned ~7×, the cost one number). ok is false without
// a job time.
func (o *Offer) JobBand() (hours, usd [2]float64, ok bool) {
	if !o.HasJob || o.Estimate == nil || o.Estimate.TimeBand[1] <= 0 {
		return hours, usd, false
	}
	hours = o.Estimate.TimeBand
	usd[0], _ = jobBill(o.Pricing, o.USDPerHour, hours[0])
	usd[1], _ = jobBill(o.Pricing, o.USDPerHour, hours[1])
	return hours, usd, true
}
