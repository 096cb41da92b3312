package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// skyPlaces are the cloud and region of every offer of a SkyPilot file's
// resources: the inline one, or each of any_of or ordered.
func skyPlaces(t *testing.T, sky string) [][2]string {
	t.Helper()
	type offer struct{ Cloud, Region string }
	var doc struct {
		Resources struct {
			offer   `yaml:",inline"`
			AnyOf   []offer `yaml:"any_of"`
			Ordered []offer `yaml:"ordered"`
		}
	}
	if err := yaml.Unmarshal([]byte(sky), &doc); err != nil {
		t.Fatalf("%v\n%s", err, sky)
	}
	r := doc.Resources
	list := append(slices.Clone(r.AnyOf), r.Ordered...)
	if len(list) == 0 {
		list = []offer{r.offer}
	}
	var out [][2]string
	for _, o := range list {
		out = append(out, [2]string{o.Cloud, o.Region})
	}
	return out
}

// TestExportFailoverInSearch (walk54): a SkyPilot file's failover
// candidates were ranked without the user's search, so `--country us`
// (data residency) wrote a file that failed over to seeweb in Italy and
// primeintellect in Finland, --regions and --providers were refused
// outright, and a Lambda offer under --regions us-east-1 or --country us
// named no region, which SkyPilot reads as any of Lambda's 17. Now every
// offer of the file, the first, its regions and its candidates, is in the
// search; and the TOML export keeps that search, so export --config
// writes the same file, and the same TOML back. Failing before: the
// --country cases had offers outside the US, --regions and --providers
// exited 2, and the Lambda files named no region.
func TestExportFailoverInSearch(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	train := []string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--seq-len", "2048"}
	serving := []string{"export", "--model", "qwen3-8b", "--task", "inference"}
	dir := t.TempDir()
	for i, tt := range []struct {
		name     string
		base     []string
		args     []string
		search   model.Query
		failover bool     // candidates follow the offer
		regions  []string // the offer's own regions, when the file must name exactly these (Lambda, OCI)
	}{
		{"--country us", train, []string{"--instance", "aws/g6e.xlarge", "--country", "us"}, model.Query{Countries: []string{"us"}}, true, nil},
		{"--regions europe", train, []string{"--instance", "aws/g6e.xlarge", "--regions", "europe"}, model.Query{Regions: []string{"europe"}}, true, nil},
		{"--providers aws,lambda", train, []string{"--instance", "aws/g6e.xlarge", "--providers", "aws,lambda"}, model.Query{Providers: []string{"aws", "lambda"}}, true, nil},
		{"--country us on spot", train, []string{"--instance", "aws/g6e.xlarge", "--country", "us", "--pricing", "spot"}, model.Query{Countries: []string{"us"}}, true, nil},
		{"lambda, --regions us-east-1: pinned", train, []string{"--instance", "lambda/gpu_1x_a10", "--regions", "us-east-1"}, model.Query{Regions: []string{"us-east-1"}}, false, []string{"us-east-1"}},
		{"lambda, --country us: the US regions, then candidates", train, []string{"--instance", "lambda/gpu_1x_a10", "--country", "us"}, model.Query{Countries: []string{"us"}}, true,
			[]string{"us-east-1", "us-east-2", "us-east-3", "us-midwest-1", "us-south-1", "us-south-2", "us-south-3", "us-west-1", "us-west-2", "us-west-3"}},
		{"oci, --country us", train, []string{"--instance", "oci/VM.GPU.A10.1", "--country", "us"}, model.Query{Countries: []string{"us"}}, true, nil},
		{"serving lambda, --regions us-east-1: pinned", serving, []string{"--instance", "lambda/gpu_1x_a10", "--regions", "us-east-1"}, model.Query{Regions: []string{"us-east-1"}}, false, []string{"us-east-1"}},
		{"serving lambda, --country us", serving, []string{"--instance", "lambda/gpu_1x_a10", "--country", "us"}, model.Query{Countries: []string{"us"}}, false,
			[]string{"us-east-1", "us-east-2", "us-east-3", "us-midwest-1", "us-south-1", "us-south-2", "us-south-3", "us-west-1", "us-west-2", "us-west-3"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append(slices.Clone(tt.base), tt.args...)
			code, sky, errOut := runCLI(t, append(slices.Clone(args), "--format", "skypilot")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			where := tt.search.RegionFilter(cat)
			places := skyPlaces(t, sky)
			for _, p := range places {
				if !tt.search.AllowsProvider(p[0]) || p[1] == "" || !where.Match(p[0], p[1]) {
					t.Errorf("%s in %q is outside the search (%s)", p[0], p[1], strings.Join(tt.args, " "))
				}
			}
			if own := max(len(tt.regions), 1); tt.failover != (len(places) > own) {
				t.Errorf("%d offers in the file, want failover candidates %v\n%s", len(places), tt.failover, sky)
			}
			for j, r := range tt.regions {
				if j >= len(places) || places[j][1] != r {
					t.Errorf("the file's offers %q, want the regions %q first", places, tt.regions)
					break
				}
			}
			// The TOML keeps the search: export --config writes this
			// file, and the TOML back.
			path := filepath.Join(dir, strconv.Itoa(i)+".toml")
			if code, _, errOut := runCLI(t, append(slices.Clone(args), "--format", "toml", "-o", path)...); code != 0 {
				t.Fatalf("--format toml: exit %d: %s", code, errOut)
			}
			written, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if code, got, errOut := runCLI(t, "export", "--config", path, "--format", "skypilot"); code != 0 || got != sky {
				t.Errorf("export --config: exit %d, differs from the export with the flags (stderr %s)\ngot:\n%s\nwant:\n%s\nfile:\n%s", code, errOut, got, sky, written)
			}
			if code, got, errOut := runCLI(t, "export", "--config", path, "--format", "toml"); code != 0 || got != string(written) {
				t.Errorf("export --config --format toml: exit %d, does not write the file back (stderr %s)\ngot:\n%s\nfile:\n%s", code, errOut, got, written)
			}
		})
	}
}

// TestExportSearchOfFile: export --config of a configuration whose
// [search] names providers, regions or countries (as the configurator
// writes its Where page) fails over within them and names the regions of
// a price region they allow, and refuses an instance or region outside
// them in one line naming the key.
func TestExportSearchOfFile(t *testing.T) {
	const head = "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"qlora\"\nseq_len = 2048\ngpus = 1\n"
	for _, tt := range []struct {
		name, search string
		args         []string
		want         []string // substrings of the file
		not          []string
		err          string
	}{
		{"countries", "countries = [\"us\"]", []string{"--instance", "lambda/gpu_1x_a10"}, []string{"region: us-east-1", "region: us-west-3"}, []string{"europe-central-1", "FI", "it-fr2"}, ""},
		{"regions", "regions = [\"us-east-1\"]", []string{"--instance", "lambda/gpu_1x_a10"}, []string{"  region: us-east-1\n"}, []string{"ordered:", "any_of:"}, ""},
		{"providers", "providers = [\"aws\", \"lambda\"]", []string{"--instance", "aws/g6e.xlarge"}, []string{"cloud: aws"}, []string{"cloud: seeweb", "cloud: shadeform", "cloud: primeintellect", "cloud: nebius"}, ""},
		{"instance outside providers", "providers = [\"aws\"]", []string{"--instance", "lambda/gpu_1x_a10"}, nil, nil, "--instance lambda/gpu_1x_a10: lambda is not among the providers of "},
		{"region outside countries", "countries = [\"us\"]", []string{"--instance", "aws/g6e.xlarge", "--region", "eu-central-1"}, nil, nil, "--region eu-central-1: outside the search ("},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "f.toml", head+"[search]\n"+tt.search+"\n")
			code, out, errOut := runCLI(t, append([]string{"export", "--config", path, "--format", "skypilot"}, tt.args...)...)
			if tt.err != "" {
				if code != 2 || !strings.Contains(errOut, tt.err) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
					t.Errorf("exit %d, want 2 and one line with %q; stderr %q", code, tt.err, errOut)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("the file lacks %q:\n%s", w, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("the file has %q, outside the search:\n%s", n, out)
				}
			}
		})
	}
}
