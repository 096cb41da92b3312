package update

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// overlayNames maps each provider update can fetch to the one file name
// its overlay is written under in the update directory: SkyPilot's files
// as skypilot-PROVIDER.toml, the direct fetchers under their source's
// name. Written files come from this table only, never from user text, so
// no provider name can point outside the directory.
var overlayNames = map[string]string{
	"aws":            "skypilot-aws.toml",
	"gcp":            "skypilot-gcp.toml",
	"lambda":         "skypilot-lambda.toml",
	"nebius":         "skypilot-nebius.toml",
	"hyperstack":     "skypilot-hyperstack.toml",
	"jarvislabs":     "skypilot-jarvislabs.toml",
	"seeweb":         "skypilot-seeweb.toml",
	"verda":          "skypilot-verda.toml",
	"daytona":        "skypilot-daytona.toml",
	"shadeform":      "skypilot-shadeform.toml",
	"primeintellect": "skypilot-primeintellect.toml",
	"runpod":         "skypilot-runpod.toml",
	"yotta":          "skypilot-yotta.toml",
	"vast":           "skypilot-vast.toml",
	"lium":           "skypilot-lium.toml",
	"hyperbolic":     "skypilot-hyperbolic.toml",
	"azure":          "azure-retail.toml",
	"oci":            "oci-pricelist.toml",
}

// skyPilotProviders are the providers read from SkyPilot's v8 files (the
// only ones a --source mirror serves); azure and oci have fetchers of
// their own.
var skyPilotProviders = []string{"aws", "gcp", "lambda", "nebius",
	"hyperstack", "jarvislabs", "seeweb", "verda", "daytona", "shadeform", "primeintellect", "runpod", "yotta", "vast", "lium", "hyperbolic"}

// ErrUnknownProvider is wrapped by CheckProviders for a name that is not
// one of DefaultProviders.
var ErrUnknownProvider = errors.New("unknown provider")

// CheckProviders refuses names that are not providers update can fetch
// (DefaultProviders), and a name given twice. It runs before anything
// touches the network or the file system.
func CheckProviders(names []string) error {
	seen := map[string]bool{}
	for _, p := range names {
		if _, ok := overlayNames[p]; !ok {
			return model.Msg("%v %s: catalog update fetches %s", ErrUnknownProvider, quote(p), strings.Join(KnownProviders(), ", "))
		}
		if seen[p] {
			return model.Msg("provider %s given twice", p)
		}
		seen[p] = true
	}
	return nil
}

// MirrorProviders are the providers a SkyPilot mirror (Options.Sources
// from --source) serves: every provider read from SkyPilot's files. Azure and OCI are
// read from their own APIs, which no mirror layout covers.
func MirrorProviders() []string { return slices.Clone(skyPilotProviders) }

// quote quotes a name from the user for an error line: escaped, cut to 60
// bytes.
func quote(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return strconv.Quote(s)
}

// KnownProviders are every provider update can fetch (DefaultProviders
// and the ones left to --providers), sorted: for completion and errors.
func KnownProviders() []string {
	names := make([]string, 0, len(overlayNames))
	for p := range overlayNames {
		names = append(names, p)
	}
	slices.Sort(names)
	return names
}

// OverlayFile is the overlay catalog update writes for provider in dir
// ("skypilot-lambda.toml"); "" for a provider it does not fetch.
func OverlayFile(dir, provider string) string {
	if _, ok := overlayNames[provider]; !ok {
		return ""
	}
	return overlayFile(dir, provider)
}
