package safeio

import "fmt"

// MaxTOMLDepth bounds the nesting of TOML arrays and inline tables
// (brackets counted together, table headers included). gpuplan's files nest
// at most 3 deep (prices = [{ ... }] under [[instance]]). BurntSushi/toml is
// super-linear in inline-table nesting: a 44 KB file of nested inline tables
// took over 6 GB (issue 11), so the depth is checked before decoding.
const MaxTOMLDepth = 16

// CheckTOMLDepth scans b for '[' and '{' outside strings and comments and
// fails when they nest deeper than MaxTOMLDepth. It is a cheap byte scan,
// not a parser: malformed TOML is left for the decoder to report. The error
// gives the line.
func CheckTOMLDepth(b []byte) error {
	depth, line := 0, 1
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '\n':
			line++
		case '#': // comment to end of line
			for i+1 < len(b) && b[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			i, line = skipString(b, i, line)
		case '[', '{':
			depth++
			if depth > MaxTOMLDepth {
				return fmt.Errorf("line %d: arrays and inline tables nest more than %d deep; flatten them into [table] sections", line, MaxTOMLDepth)
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
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
