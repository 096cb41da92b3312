package cli

import (
	"strings"
	"testing"
)

// TestOffersEmptyHints (a new user's walk): `offers H100:9` and `offers
// MI300X:8 --nvlink` printed "0 offers" and nothing more; they now say
// why on stderr, exit 0, as an empty listing does.
func TestOffersEmptyHints(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"offers", "H100:9"}, "no H100 instance type has 9 GPUs; the catalog's have 1, 2"},
		{[]string{"offers", "MI300X:8", "--nvlink"}, "Infinity Fabric (xGMI), never NVLink"},
		{[]string{"offers", "--pricing", "capacity-block"}, "the catalog has no capacity-block prices from any provider"},
		{[]string{"offers", "--pricing", "flex-start", "--providers", "aws"}, "no flex-start prices in the catalog for aws; providers with them: gcp"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 0 and %q", tc.args, code, errs, tc.want)
		}
	}
	if _, _, errs := runCLI(t, "offers", "H100:8"); strings.Contains(errs, "has 8 GPUs") {
		t.Errorf("offers H100:8 lists offers yet says: %q", errs)
	}
}
