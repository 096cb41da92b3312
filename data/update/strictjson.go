package update

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gpuplan/gpuplan/model"
)

// decodeStrict decodes a price server's JSON body into v, refusing what
// encoding/json reads ambiguously: encoding/json matches a name to a field
// case-insensitively, so an object with both "unitPrice" and "UnitPrice"
// sets the field from whichever comes last, and a repeated name likewise.
// Decoding is go-json-experiment/json's (the encoding/json/v2 proposal;
// Go 1.26's own encoding/json/v2 needs GOEXPERIMENT=jsonv2): names match
// their fields exactly and a repeated name is an error (jsontext's
// default); on top, caseClash refuses two names of one object that differ
// only in case, at any depth.
func decodeStrict(body []byte, v any) error {
	if err := caseClash(body); err != nil {
		return err
	}
	return jsonv2.Unmarshal(body, v)
}

// caseClash walks body's tokens and returns an error naming the first
// object with two names equal under Unicode simple case folding (the
// folding encoding/json matches with), or body's syntax error.
func caseClash(body []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	type object struct {
		names    map[string]string // folded → as written
		wantName bool
	}
	var stack []*object // nil for an array
	for {
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var top *object
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch tok.Kind() {
		case '{':
			stack = append(stack, &object{names: map[string]string{}, wantName: true})
			continue
		case '[':
			stack = append(stack, nil)
			continue
		case '}', ']':
			stack = stack[:len(stack)-1]
		default:
			if top != nil && top.wantName {
				name := tok.String()
				k := foldName(name)
				if prev, ok := top.names[k]; ok {
					return model.Msg("names %q and %q of one object at %q differ only in case: ambiguous, refused", prev, name, string(dec.StackPointer().Parent()))
				}
				top.names[k] = name
				top.wantName = false
				continue
			}
		}
		// A value ended: the next token of an enclosing object is a name.
		if len(stack) > 0 && stack[len(stack)-1] != nil {
			stack[len(stack)-1].wantName = true
		}
	}
}

// foldName maps each rune of s to the smallest rune of its simple case
// folding orbit (unicode.SimpleFold), so names equal under folding ('K',
// 'k' and the Kelvin sign) map to one key.
func foldName(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
