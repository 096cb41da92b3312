package update

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestHostileFirstSourceRefusedSaysSo: when the first --source serves
// invalid data (a truncated file) and the second is used, the provider's
// summary and its last progress report carry one line naming the first
// source, its user information redacted, and why it was refused (issue
// 29: the refusal was dropped once the second source served).
func TestHostileFirstSourceRefusedSaysSo(t *testing.T) {
	s := server(t, map[string]http.HandlerFunc{
		"/bad/": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("Instance,Price\nx,1")) },
	})
	bad, _ := url.Parse(s.URL + "/bad")
	bad.User = url.UserPassword("user", "S3CRET")
	var last Progress
	sum, err, _ := hostileRun(t, Options{Sources: []string{bad.String(), s.URL + "/good"}, Providers: []string{"lambda"},
		Progress: func(p Progress) {
			if p.Done {
				last = p
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	ps := sum.Providers[0]
	if !strings.HasSuffix(ps.URL, "/good/v8/lambda/vms.csv") {
		t.Fatalf("used %s, want the second source", ps.URL)
	}
	want := "http://xxxxx@" + strings.TrimPrefix(s.URL, "http://") + "/bad/v8/lambda/vms.csv: truncated file: the last line has no newline"
	if len(ps.Refused) != 1 || ps.Refused[0].String() != want {
		t.Errorf("Refused = %v\nwant [%s]", ps.Refused, want)
	}
	if len(last.Refused) != 1 || last.Refused[0].String() != want {
		t.Errorf("the last progress report's Refused = %v\nwant [%s]", last.Refused, want)
	}
	if strings.Contains(sum.Text(), "S3CRET") {
		t.Errorf("the password was shown:\n%s", sum.Text())
	}
	// The first source serving: nothing refused.
	sum, err, _ = hostileRun(t, Options{Sources: []string{s.URL + "/good"}, Providers: []string{"lambda"}})
	if err != nil || len(sum.Providers[0].Refused) != 0 {
		t.Errorf("one good source: err %v, Refused %v", err, sum.Providers[0].Refused)
	}
}
