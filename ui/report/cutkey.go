package report

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// A GPU key ("rtx-pro-6000", "h100-sxm") is what the user types back
// (--gpu, a plan's answers, the offers filter), so the tables that fit an
// offers list to a terminal never cut one mid-word: "1×quadro…mp-fp16"
// and "1×a10…80gb" named no GPU and could not be typed. A GPUs cell
// (OfferGPUsIn: "1×quadro-rtx-6000 ↺amp-fp16", "16×h100-sxm (2 nodes)";
// the market's "8× h100-sxm")
// gives way in this order, as gh and k9s shorten a row's free text before
// its identifiers: the words of its precision note go (the "↺" mark
// stays; the note under the table and the row's details say what it
// runs), then other columns are cut or dropped (the callers), and only
// at the last the key loses whole words from its end ("rtx-pro…"), the
// full key still in the row's details, --json and a pipe's plain table.
// Widths are terminal cells (ansi.StringWidth: a CJK rune is two).

// GPUsNoNote is a GPUs cell without the words of its precision note:
// "1×quadro-rtx-6000 ↺amp-fp16" → "1×quadro-rtx-6000 ↺"; what follows the
// note ("… FSDP", "… §") stays. A cell without "↺" is returned as is.
func GPUsNoNote(cell string) string {
	i := strings.Index(cell, "↺")
	if i < 0 {
		return cell
	}
	rest := cell[i+len("↺"):]
	if j := strings.IndexByte(rest, ' '); j >= 0 {
		return cell[:i+len("↺")] + rest[j:]
	}
	return cell[:i+len("↺")]
}

// keySeparators end a word of a key or an instance type: GPU keys join
// words with "-" (rtx-pro-6000-ws); instance types also with "_" and "."
// (gpu_1x_a100_sxm4, p4de.24xlarge).
const keySeparators = "-_."

// CutWords cuts s to at most n cells at a word boundary (keySeparators),
// ending in "…": "rtx-pro-6000-ws" at 9 cells is "rtx-pro…". It keeps at
// least the first word, so the result is wider than n when that word and
// "…" do not fit; s is returned as is when it fits.
func CutWords(s string, n int) string {
	if ansi.StringWidth(s) <= n {
		return s
	}
	best := ""
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(keySeparators, rune(s[i])) || i == 0 {
			continue
		}
		cand := s[:i] + "…"
		if best == "" || ansi.StringWidth(cand) <= n {
			best = cand
			continue
		}
		break
	}
	if best == "" { // one word: nothing shorter names it
		return s
	}
	return best
}

// CutGPUs fits an offer's GPUs cell into n cells, key names the GPU in
// it: first without its precision note's words (GPUsNoNote), then with
// the key cut to whole words (CutWords); the count before the key and the
// nodes and marks after it stay. The result is wider than n when even the
// key's first word does not fit (GPUsLeast is that width): the caller
// makes the column at least that wide.
func CutGPUs(cell, key string, n int) string {
	if ansi.StringWidth(cell) <= n {
		return cell
	}
	cell = GPUsNoNote(cell)
	if ansi.StringWidth(cell) <= n {
		return cell
	}
	i, sep := strings.Index(cell, "×"+key), "×"
	if i < 0 { // the market's tables: "8× h100-sxm"
		i, sep = strings.Index(cell, "× "+key), "× "
	}
	if key == "" || i < 0 {
		return cell
	}
	i += len(sep)
	head, tail := cell[:i], cell[i+len(key):]
	return head + CutWords(key, n-ansi.StringWidth(head)-ansi.StringWidth(tail)) + tail
}

// GPUsWhole is the fewest cells a GPUs cell takes with its key whole:
// its width without the precision note's words.
func GPUsWhole(cell string) int { return ansi.StringWidth(GPUsNoNote(cell)) }

// GPUsLeast is the fewest cells CutGPUs can fit a GPUs cell into: the
// key cut to its first word.
func GPUsLeast(cell, key string) int { return ansi.StringWidth(CutGPUs(cell, key, 0)) }
