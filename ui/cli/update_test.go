package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/data/update"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// runUpdateCLI runs gpuplan catalog update with a fake UpdateCatalog that
// records what it was asked, reports progress as Run does and returns
// summary; stderr is a buffer (not a terminal).
func runUpdateCLI(t *testing.T, summary string, runErr error, args ...string) (code int, asked *CatalogUpdate, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(Env{
		Args:   append([]string{"catalog", "update"}, args...),
		Stdout: &out, Stderr: &errb,
		Getenv:  func(string) string { return "" },
		Version: "test",
		UpdateCatalog: func(_ context.Context, o CatalogUpdate) ([]model.Message, error) {
			asked = &o
			if o.Progress != nil {
				o.Progress(update.Progress{Provider: "lambda", Total: 2})
				o.Progress(update.Progress{Provider: "lambda", Total: 2, Bytes: 21504, Elapsed: 1234 * time.Millisecond, Done: true})
				o.Progress(update.Progress{Provider: "gcp", Index: 1, Total: 2, Bytes: 0, Elapsed: 30 * time.Second, Done: true, Err: update.ErrStalled})
			}
			var lines []model.Message
			for _, l := range strings.Split(strings.TrimSuffix(summary, "\n"), "\n") {
				if l != "" {
					lines = append(lines, model.Msg("%s", l))
				}
			}
			return lines, runErr
		},
	})
	return code, asked, out.String(), errb.String()
}

// Provider names are checked before anything runs: exit 2, one line,
// nothing asked of the updater.
func TestUpdateProviderNames(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"x/../../evil", `gpuplan: --providers: unknown provider "x/../../evil": catalog update fetches aws, azure, daytona, gcp, hyperbolic, hyperstack, jarvislabs, lambda, lium, nebius, oci, primeintellect, runpod, seeweb, shadeform, vast, verda, yotta` + "\n"},
		{"cudo", `gpuplan: --providers: cudo shut down on 2026-03-31: it has no price list to fetch; catalog update fetches aws, azure, daytona, gcp, hyperbolic, hyperstack, jarvislabs, lambda, lium, nebius, oci, primeintellect, runpod, seeweb, shadeform, vast, verda, yotta` + "\n"}, // as offers and recommend say (walk, 2026-12-06; it was "unknown provider")
		{"aws,cudo", `gpuplan: --providers: cudo shut down on 2026-03-31: it has no price list to fetch; catalog update fetches aws, azure, daytona, gcp, hyperbolic, hyperstack, jarvislabs, lambda, lium, nebius, oci, primeintellect, runpod, seeweb, shadeform, vast, verda, yotta` + "\n"},
		{"aws,AWS", "gpuplan: --providers: provider aws given twice\n"},
		// empty is no provider, not all of them (attack test 3, L7)
		{"", "gpuplan: --providers is empty; name the providers to update, or leave the flag out for the defaults\n"},
		// Refused as the value is read, as every list flag's (a line break
		// ended pflag's CSV record and dropped the rest in silence).
		{"lambda\x1b]0;pwned\x07", `gpuplan: --providers "lambda\x1b]0;pwned\a": a control or invisible character (U+001B) in the list; want comma-separated names on one line (a,b)` + "\n"},
	} {
		code, asked, _, errs := runUpdateCLI(t, "", nil, "--providers", tc.arg)
		if code != ExitUsage || asked != nil || errs != tc.want {
			t.Errorf("--providers %q: exit %d, ran %v, stderr %q; want 2, not run, %q", tc.arg, code, asked != nil, errs, tc.want)
		}
	}
}

// --source is a SkyPilot mirror: azure and oci cannot come from it.
func TestUpdateSourceRefusesDirectFetchers(t *testing.T) {
	for _, p := range []string{"azure", "oci", "aws,oci"} {
		code, asked, _, errs := runUpdateCLI(t, "", nil, "--source", "https://mirror.example.com/catalogs", "--providers", p)
		want := "gpuplan: --source serves SkyPilot's files (every provider but azure and oci); " + strings.TrimPrefix(p, "aws,") + " comes from its own price API: leave it out of --providers or drop --source\n"
		if code != ExitUsage || asked != nil || errs != want {
			t.Errorf("--providers %s with --source: exit %d, ran %v, stderr %q; want 2, not run, %q", p, code, asked != nil, errs, want)
		}
	}
	code, asked, _, _ := runUpdateCLI(t, "", nil, "--source", "https://mirror.example.com/catalogs/", "--allow-redirect", "CDN.example.com")
	if code != 0 || asked == nil || asked.Sources[0] != "https://mirror.example.com/catalogs" || asked.AllowRedirects[0] != "cdn.example.com" {
		t.Errorf("a mirror with defaults: exit %d, asked %+v", code, asked)
	}
	// A port out of range is a usage error before any dial, not the
	// network failure (exit 1) it was (attack test 3, L7).
	for _, bad := range []string{"ftp://x/y", "https://", "mirror.example.com", "http://127.0.0.1:99999/ok", "http://127.0.0.1:0/ok", "http://:8080/ok"} {
		if code, asked, _, errs := runUpdateCLI(t, "", nil, "--source", bad); code != ExitUsage || asked != nil || !strings.Contains(errs, "want a base URL such as") {
			t.Errorf("--source %q: exit %d, ran %v, stderr %q; want 2, not run", bad, code, asked != nil, errs)
		}
	}
	if code, asked, _, _ := runUpdateCLI(t, "", nil, "--source", "http://127.0.0.1:65535/ok"); code != 0 || asked == nil {
		t.Errorf("--source with port 65535: exit %d", code)
	}
	if code, _, _, _ := runUpdateCLI(t, "", nil, "--allow-redirect", "evil.example/path"); code != ExitUsage {
		t.Errorf("--allow-redirect with a path: exit %d, want 2", code)
	}
}

// Off a terminal, each provider's end is one line on stderr; the summary
// (names and URLs from a server) reaches stdout through termsafe, and the
// update's errors say their kind.
func TestUpdateSummaryAndProgress(t *testing.T) {
	summary := "lambda: 21 types from http://127.0.0.1/\x1b]0;pwned\x07v8 → /tmp/x\n  note: a\rforged\n"
	code, _, out, errs := runUpdateCLI(t, summary, errors.New("gcp: too slow (previous overlay kept)"))
	if want := "lambda: 21 types from http://127.0.0.1/\\x1b]0;pwned\\av8 → /tmp/x\n  note: a\\rforged\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if want := "gpuplan: catalog update: lambda done (22 kB in 1.2s)\n" +
		"gpuplan: catalog update: gcp failed (0 B in 30s)\n" +
		"gpuplan: catalog update: gcp: too slow (previous overlay kept)\n"; code != ExitError || errs != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errs, want)
	}
}

// An -o path with an escape sequence or a newline is refused before
// anything is written (TestOutputPathControls): it would be created as
// typed. The refusal names the path through termsafe, so the sequence is
// shown, never acted on, and the line is one line.
func TestExportControlPathRefusedSanitised(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "job\x1b]0;pwned\x07\nforged: wrote.yaml")
	code, _, errs := runExportCLI(t, append(small, "--instance", "aws/g5.2xlarge", "--format", "skypilot", "-o", path)...)
	want := "gpuplan: -o " + dir + "/job\\x1b]0;pwned\\a\\nforged: wrote.yaml: the file name holds \\x1b, a control, bidirectional or invisible character; give a name without it\n"
	if code != ExitUsage || errs != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", code, errs, want)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the file was written")
	}
}

// A password in --source is never shown, and a query or fragment (which
// would land in the middle of the file path, and often holds a token) is
// refused with one line that shows neither (issue 29 L2, L3).
func TestUpdateSourceSecrets(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"ftp://user:secret@mirror.example.com/c",
			"gpuplan: --source \"ftp://xxxxx@mirror.example.com/c\": want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		{"https://user:secret@mirror.example.com/c?token=tok3n",
			"gpuplan: --source \"https://xxxxx@mirror.example.com/c\": a mirror's base URL has no query (?…) or fragment (#…); drop them (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		// Attack test 4, N4: a token as the user name was shown whole
		// (url.URL.Redacted hides passwords only), and a URL that does not
		// parse was echoed raw.
		{"ftp://S3CRETPW@mirror.example.com/c",
			"gpuplan: --source \"ftp://xxxxx@mirror.example.com/c\": want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		{"http://u:S3CRETPW@[::1/x",
			"gpuplan: --source \"http://xxxxx@[::1/x\": want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		{"http://u:S3/CRETPW@mirror.example.com:x/c",
			"gpuplan: --source \"http://xxxxx@mirror.example.com:x/c\": want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		// Re-attack 3, finding 4: URLs without "//" parsed with no user
		// information and were echoed with their password.
		{"user:SECRETPW123@127.0.0.1:8795/ok",
			"gpuplan: --source \"xxxxx@127.0.0.1:8795/ok\": want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		{"https:SECRETPW123@127.0.0.1/ok",
			"gpuplan: --source \"xxxxx@127.0.0.1/ok\": want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		{"mirror.example.com:SECRETPW123@x/ok",
			"gpuplan: --source \"xxxxx@x/ok\": want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		{"https://mirror.example.com/c#tok3n",
			"gpuplan: --source \"https://mirror.example.com/c\": a mirror's base URL has no query (?…) or fragment (#…); drop them (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
		{"https://mirror.example.com/c?",
			"gpuplan: --source \"https://mirror.example.com/c\": a mirror's base URL has no query (?…) or fragment (#…); drop them (files are SOURCE/v8/PROVIDER/vms.csv)\n"},
	} {
		code, asked, _, errs := runUpdateCLI(t, "", nil, "--source", tc.arg)
		if code != ExitUsage || asked != nil || errs != tc.want {
			t.Errorf("--source %q: exit %d, ran %v, stderr %q; want 2, not run, %q", tc.arg, code, asked != nil, errs, tc.want)
		}
	}
	code, asked, _, _ := runUpdateCLI(t, "", nil, "--source", "https://user:secret@mirror.example.com/c")
	if code != 0 || asked == nil || asked.Sources[0] != "https://user:secret@mirror.example.com/c" {
		t.Errorf("a mirror with a password: exit %d, asked %+v; want it passed on (the client sends it as basic auth)", code, asked)
	}
}

// --allow-redirect takes one host name or address, optionally with a
// port: a wildcard, an empty label or a URL is refused with one line,
// exit 2, before anything is fetched (issue 29: "*" was taken).
func TestAllowRedirectHostOnly(t *testing.T) {
	for _, bad := range []string{"*", "*.example.com", "", " ", ".", "example..com", ".example.com", "-x.example.com", "x-.example.com",
		"evil.example/path", "user@evil.example", "evil.example:0", "evil.example:65536", "evil.example:+80", "evil.example:", "exa mple.com",
		"ex_ample.com", "例子.中国", "https://evil.example", "evil.example\x1b[2J", strings.Repeat("a", 64) + ".com"} {
		want := "gpuplan: --allow-redirect " + strconv.Quote(strings.ToLower(strings.TrimSpace(bad))) + ": want a host name such as mirror.example.com (or host:port)\n"
		code, asked, out, errs := runUpdateCLI(t, "", nil, "--allow-redirect", bad)
		if code != ExitUsage || asked != nil || out != "" || errs != termsafe.String(strings.TrimSuffix(want, "\n"))+"\n" {
			t.Errorf("--allow-redirect %q: exit %d, ran %v, stderr %q; want 2, not run, %q", bad, code, asked != nil, errs, want)
		}
	}
	for _, ok := range []string{"cdn.example.com", "CDN.Example.com:8443", "127.0.0.1", "[::1]:8080", "::1", "[::1]", "xn--fsqu00a.xn--fiqs8s", "localhost"} {
		if code, asked, _, errs := runUpdateCLI(t, "", nil, "--allow-redirect", ok); code != 0 || asked == nil {
			t.Errorf("--allow-redirect %q: exit %d, stderr %q; want it taken", ok, code, errs)
		}
	}
	// "[::1]" is the address ::1, as a redirect's URL writes it (it was
	// refused while ::1 and [::1]:8080 were taken: attack round 13).
	if _, asked, _, _ := runUpdateCLI(t, "", nil, "--allow-redirect", "[::1]"); asked == nil || asked.AllowRedirects[0] != "::1" {
		t.Errorf("--allow-redirect [::1]: %v, want ::1", asked)
	}
}
