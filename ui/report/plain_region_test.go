package report

import (
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// Plain output (a pipe or a file) writes regions whole, and in the
// reader's language: Daytona's placeholder "earth" is "未说明地点" in
// Chinese, as on a terminal (new-user walk: the Chinese interface showed
// "location not stated").
func TestPlainOfferRowsRegionInLanguage(t *testing.T) {
	offers := []model.Offer{{Instance: &model.Instance{Type: "cpu-gpu"}, Region: "earth"}, {Instance: &model.Instance{Type: "g5.xlarge"}, Region: "us-east-1"}}
	for _, tt := range []struct {
		p    *i18n.Printer
		want [2]string
	}{
		{nil, [2]string{"location not stated", "us-east-1"}},
		{i18n.New(language.SimplifiedChinese), [2]string{"未说明地点", "us-east-1"}},
	} {
		rows := [][]string{make([]string, 3), make([]string, 3)}
		plainOfferRows(tt.p, rows, offers, 2)
		if rows[0][2] != tt.want[0] || rows[1][2] != tt.want[1] {
			t.Errorf("regions %q, %q; want %q", rows[0][2], rows[1][2], tt.want)
		}
	}
}
