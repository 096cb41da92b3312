package model

// TermMonths is the length of a reserved term in months: 12 or 36; 0 for
// modes without a commitment.
func TermMonths(p Pricing) int {
	switch p {
	case Reserved1y:
		return 12
	case Reserved3y:
		return 36
	}
	return 0
}

// CommitmentHours is the hours a reserved term bills, used or not: the
// term in months × HoursPerMonth (730 = 24 × 365 / 12), so 8,760 h for
// reserved-1y and 26,280 h for reserved-3y; 0 for on-demand and spot. A
// reserved instance (or committed-use discount) is paid for every hour
// of its term whether or not anything runs (AWS EC2 Reserved Instances:
// "you are billed for every hour during the entire Reserved Instance
// term"; GCP committed use discounts: "you are billed for the monthly
// commitment fees for the duration of the term").
func CommitmentHours(p Pricing) float64 {
	return float64(TermMonths(p)) * HoursPerMonth
}

// MonthlyUSD is what a deployment at usdPerHour bills a month under
// pricing p when it is used hoursPerMonth hours of it: those hours on
// demand or on spot; on a reserved term every hour of the month,
// HoursPerMonth (730), since a commitment bills every month in full,
// used or not (CommitmentHours; docs/decisions.md), and more when more
// is used (744 h of a 31-day month are each a committed hour), as
// plan.Phase.Cost bills a service's months and jobBill a job's hours.
// So $0.44/h at 200 h a month is $88 on demand and $321.20 on
// reserved-1y, the "$/month committed" of the commitment break-even
// (decide.CommitmentBreakEven).
func MonthlyUSD(p Pricing, usdPerHour, hoursPerMonth float64) float64 {
	if TermMonths(p) > 0 {
		hoursPerMonth = max(hoursPerMonth, HoursPerMonth)
	}
	return usdPerHour * hoursPerMonth
}

// jobBill is what a job costs under pricing p at usdPerHour for the
// deployment: the hours it runs, or the whole commitment when the term
// bills more (a 5-minute job on a year's reservation costs the year).
// commitment is 0 when p commits to nothing.
func jobBill(p Pricing, usdPerHour, jobHours float64) (bill, commitment float64) {
	bill = jobHours * usdPerHour
	if h := CommitmentHours(p); h > 0 {
		commitment = h * usdPerHour
		bill = max(bill, commitment)
	}
	return bill, commitment
}

// commitmentWarning says what a reservation commits to and what share
// of it the job uses, or "".
func (o *Offer) commitmentWarning() string {
	m, _ := o.commitmentMessage()
	return m.String()
}

// commitmentMessage is commitmentWarning as a message; ok is false when
// the offer commits to nothing.
func (o *Offer) commitmentMessage() (m Message, ok bool) {
	if o.CommitmentUSD <= 0 {
		return Message{}, false
	}
	if o.HasJob {
		return Msg("%s commits to %.0f h: $%.0f whatever the job uses; the job itself runs %.1f h, $%.2f at this rate",
			Msg(string(o.Pricing)), CommitmentHours(o.Pricing), o.CommitmentUSD, o.JobHours, o.JobHours*o.USDPerHour), true
	}
	return Msg("%s commits to %.0f h: $%.0f whatever the job uses", Msg(string(o.Pricing)), CommitmentHours(o.Pricing), o.CommitmentUSD), true
}
