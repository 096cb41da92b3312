package cli

import "testing"

// TestEmptyListFlagsRefused: a list flag given with no names (--country
// ',,,', --regions "", --providers ,) is refused the same way by offers
// and recommend, in one line with the fix, exit 2, as kubectl and gh
// refuse an empty flag value. A new user's walk: offers --country ',,,'
// exited 0 with the filter ignored, recommend --country ',,,' said no
// instance matched "countries ,,,," and recommend --regions "" ranked
// every region.
func TestEmptyListFlagsRefused(t *testing.T) {
	for _, tt := range []struct{ flag, val, want string }{
		{"--country", ",,,", `gpuplan: --country ",,," names no country; give ISO codes or English names such as de,fr, or leave the flag out for any country` + "\n"},
		{"--country", "", `gpuplan: --country "" names no country; give ISO codes or English names such as de,fr, or leave the flag out for any country` + "\n"},
		{"--regions", "", `gpuplan: --regions "" names no region; give regions, prefixes or continents such as us-east-1,europe, or leave the flag out for every region` + "\n"},
		{"--regions", " , ", `gpuplan: --regions " , " names no region; give regions, prefixes or continents such as us-east-1,europe, or leave the flag out for every region` + "\n"},
		{"--providers", ",", `gpuplan: --providers "," names no provider; give provider keys such as aws,gcp, or leave the flag out for every provider` + "\n"},
	} {
		for _, cmd := range [][]string{{"offers"}, {"recommend", "--model", "llama-3.1-8b"}} {
			args := append(cmd, tt.flag+"="+tt.val)
			code, out, errOut := runCLI(t, args...)
			if code != 2 || errOut != tt.want || out != "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, out, errOut, tt.want)
			}
		}
	}
	// A list with a name and a stray comma keeps working.
	if code, _, errOut := runCLI(t, "offers", "H100", "--country", "de,"); code != 0 {
		t.Errorf("offers --country de,: exit %d, %q", code, errOut)
	}
	code, _, errOut := runCLI(t, "--lang", "zh-CN", "offers", "--country", ",,,")
	if want := "gpuplan：--country \",,,\" 没有写任何国家；请写 ISO 代码或英文名称，例如 de,fr，或省略该参数以不限国家\n"; code != 2 || errOut != want {
		t.Errorf("zh-CN: exit %d, %q; want %q", code, errOut, want)
	}
}
