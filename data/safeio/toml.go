package safeio

import "github.com/gpuplan/gpuplan/model"

// MaxTOMLDepth bounds how deep a TOML file nests: arrays and inline tables
// (brackets, table headers included) plus the dots of the dotted key being
// read. gpuplan's own files nest at most 3 deep (prices = [{ ... }] under
// [[instance]], or [workload.custom]). BurntSushi/toml v1.6.0 is
// super-linear in nesting: a 44 KB file of nested inline tables took over
// 6 GB (issue 11), and a 40 KB dotted key inside an inline table
// (a = {b.b.b….c = 1}) took 2m45s, measured on this machine; at depth 8 the
// worst case we found decodes at ~2 µs per byte, so caps in MiB bound it.
const MaxTOMLDepth = 8

// CheckTOMLDepth scans b for '[', '{' and dotted-key dots outside strings
// and comments and fails when they nest deeper than MaxTOMLDepth. It is a
// cheap byte scan, not a parser: malformed TOML is left for the decoder to
// report. A value's dots (1.5, a date's fraction) count 1 at most, so they
// never matter. The error gives the line.
func CheckTOMLDepth(b []byte) error {
	depth, dots, line := 0, 0, 1
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '\n':
			line++
			dots = 0
		case '=', ',':
			dots = 0
		case '.':
			dots++
		case '#': // comment to end of line
			for i+1 < len(b) && b[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			i, line = skipString(b, i, line)
		case '[', '{':
			depth++
			dots = 0
		case ']', '}':
			if depth > 0 {
				depth--
			}
			dots = 0
		}
		if depth+dots > MaxTOMLDepth {
			return model.Msg("line %d: tables, arrays and dotted keys nest more than %d deep; flatten them into [table] sections", line, MaxTOMLDepth)
		}
	}
	return nil
}

// skipString returns the index of the last byte of the string starting at
// b[i] (basic "…", literal '…' or their multi-line triple forms) and the
// line it ends on. An unterminated string runs to the end of b (single-line
// ones to the end of the line).
func skipString(b []byte, i, line int) (int, int) {
	q := b[i]
	triple := i+2 < len(b) && b[i+1] == q && b[i+2] == q
	if triple {
		for j := i + 3; j < len(b); j++ {
			switch {
			case b[j] == '\n':
				line++
			case b[j] == '\\' && q == '"':
				if j+1 < len(b) && b[j+1] == '\n' {
					line++
				}
				j++
			case b[j] == q && j+2 < len(b) && b[j+1] == q && b[j+2] == q:
				// Up to two more quotes may close it ("""a"""" is a + ").
				j += 2
				for k := 0; k < 2 && j+1 < len(b) && b[j+1] == q; k++ {
					j++
				}
				return j, line
			}
		}
		return len(b) - 1, line
	}
	for j := i + 1; j < len(b); j++ {
		switch {
		case b[j] == '\n':
			return j - 1, line // unterminated: the decoder reports it
		case b[j] == '\\' && q == '"':
			j++
		case b[j] == q:
			return j, line
		}
	}
	return len(b) - 1, line
}

// ReadTOML is ReadFile followed by CheckTOMLDepth: the bytes are safe to
// hand to a TOML decoder.
func ReadTOML(path string, k Kind) ([]byte, error) {
	b, err := ReadFile(path, k)
	if err != nil {
		return nil, err
	}
	if err := CheckTOMLDepth(b); err != nil {
		return nil, err
	}
	return b, nil
}
