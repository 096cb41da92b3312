package i18n

import (
	"regexp"
	"testing"
)

// TestChinesePerHourUnit (walk37): a price the program formats (a
// verb such as $%.4g or %s before the unit) is "/小时" in Chinese, as
// the tables' "$/小时" and every other line: the plan's price check
// read "价格是 $4.931/h" beside "$/小时". Input examples the reader types
// ("$2.50/h", which the parser reads) keep "/h".
func TestChinesePerHourUnit(t *testing.T) {
	msgs, err := zhMessages()
	if err != nil {
		t.Fatal(err)
	}
	perHour := regexp.MustCompile(`%[-+# 0-9.]*[a-z]/h\b`)
	for k, v := range msgs {
		if perHour.MatchString(v) {
			t.Errorf("%q = %q: a formatted price per hour reads /h, not /小时", k, v)
		}
	}
}
