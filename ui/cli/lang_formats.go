package cli

// errorFormats are the English format strings of the errors, warnings and
// notes the command line prints that are matched at print time (localize)
// to translate them; their Chinese is in ui/i18n/zh-CN.toml. Errors made
// elsewhere (model, data/safeio, cobra, pflag) are listed too, as they
// are printed.
var errorFormats = []string{
	// cobra and ui/cli's own wrappers
	"unknown command %q for %q; did you mean %q? (see %s --help)",
	"unknown command %q for %q (see %s --help)",
	"unknown flag --%s; did you mean %s? (see %s --help)",
	"unknown flag --%s (see %s --help)",
	"accepts %d arg(s), received %d",
	"%s (see %s --help)",
	"--lang: %v",
	"%s: lang: %v",
	"--lang %q: give en or zh-CN",
	"unknown language %q: use en or zh-CN",
	"--config %s: %v",
	"%s (line %d): %s",
	"line %d: %s",
	"%s: %s",
	"%s %s: %s",
	"catalog update: %v",
}
