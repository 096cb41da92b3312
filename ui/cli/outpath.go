package cli

import (
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// checkOutputPath refuses an output file name (-o) holding a rune a
// terminal would act on or not show (termsafe.Safe: C0 and C1 controls,
// DEL, bidirectional and other format characters, invisible letters) or
// bytes that are not UTF-8: such a file is created as typed, and every
// line that names it (gpuplan's own "wrote … to", ls, a shell's
// completion) shows another name, a forged line or a moved cursor. The
// error is a usage error (exit 2) naming the first such character as an
// escape (\n, \x1b, \u202e). "-" (standard output) passes.
func checkOutputPath(path string) error {
	for i := 0; i < len(path); {
		r, n := utf8.DecodeRuneInString(path[i:])
		if r == utf8.RuneError && n == 1 {
			return usage(model.Msg("-o %s: the file name holds %s, a byte that is not UTF-8; give a name in UTF-8", termsafe.String(path), termsafe.String(path[i:i+n])))
		}
		if !termsafe.Safe(r) {
			return usage(model.Msg("-o %s: the file name holds %s, a control, bidirectional or invisible character; give a name without it",
				termsafe.String(path), termsafe.String(path[i:i+n])))
		}
		i += n
	}
	return nil
}
