package config

import (
	"strings"
	"testing"
)

// TestConfigLang: the top-level lang key (issue 20) is read as written,
// written back after schema_version, and a typo of it is suggested.
func TestConfigLang(t *testing.T) {
	for _, tc := range []struct {
		name, src, lang, err string
	}{
		{"zh-CN", "schema_version = 1\nlang = \"zh-CN\"\n[workload]\nmodel = \"x\"\n", "zh-CN", ""},
		{"absent", "schema_version = 1\n[workload]\nmodel = \"x\"\n", "", ""},
		{"typo", "schema_version = 1\nlnag = \"en\"\n[workload]\nmodel = \"x\"\n", "", `lnag: unknown key "lnag"; did you mean "lang"?`},
		{"not a string", "schema_version = 1\nlang = 3\n[workload]\nmodel = \"x\"\n", "", "lang"},
	} {
		c, err := Decode([]byte(tc.src))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || c.Lang != tc.lang {
			t.Fatalf("%s: lang %q, %v; want %q", tc.name, c.Lang, err, tc.lang)
		}
		out, err := Encode(&c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(out)
		if err != nil || back.Lang != tc.lang {
			t.Errorf("%s: round trip lang %q, %v\n%s", tc.name, back.Lang, err, out)
		}
		if tc.lang != "" && !strings.Contains(string(out), "schema_version = 1\nlang = \""+tc.lang+"\"") {
			t.Errorf("%s: lang not written after schema_version:\n%s", tc.name, out)
		}
	}
}
