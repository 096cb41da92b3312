package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuplan/gpuplan/ui/report"
)

// jsonIndentOpts are encoding/json's semantics (DefaultOptionsV1: field
// names, omitempty, nil slices as null, HTML escaping, sorted map keys,
// float formatting) with the indentation written as the tokens are, in
// one pass. encoding/json's Encoder.SetIndent marshals compact and then
// re-scans the whole output byte by byte (json.appendIndent): for the
// ~300 KB of `recommend --json` that second pass cost ~4× the marshal.
// The bytes are the same as writeJSON's (TestWriteJSONStreamSame).
var jsonIndentOpts = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  "),
	jsonv2.WithMarshalers(jsonv2.MarshalToFunc(invalidUTF8String)))

// invalidUTF8String writes a string with invalid UTF-8 as encoding/json
// does, each bad byte as the escape \ufffd (jsontext writes the character
// U+FFFD itself); valid strings take the usual path.
func invalidUTF8String(enc *jsontext.Encoder, s string) error {
	if utf8.ValidString(s) {
		return errors.ErrUnsupported // the default string marshaler
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return enc.WriteValue(b)
}

// writeJSONStream is writeJSON (two-space indent, newline after the value)
// for large documents: no second indentation pass, no copy of the whole
// document, written through a buffer. One difference remains: a map key
// with invalid UTF-8 gets the character U+FFFD, not the escape \ufffd
// (report.RecommendJSON, the document it writes, has no maps). The long
// row lists are appended: recommend's document by writeRecommendJSON,
// offers' by writeMarketJSON; offers elsewhere write themselves as tokens
// (report.OfferJSON.MarshalJSONTo).
func writeJSONStream(w io.Writer, v any) error {
	switch v := v.(type) {
	case report.RecommendJSON:
		return nonFiniteJSON(writeRecommendJSON(w, &v, nil, false))
	case recommendProbeJSON:
		return nonFiniteJSON(writeRecommendJSON(w, &v.RecommendJSON, v.ProbeCorrections, true))
	case report.MarketStreamJSON:
		return nonFiniteJSON(writeMarketJSON(w, &v))
	}
	return nonFiniteJSON(writeJSONEncoder(w, v))
}

// nonFiniteJSON turns the encoders' refusal of an infinite or NaN figure
// (JSON has no such number) into an error that says what happened: the
// inputs are bounded so that none is computed (--mfu has a floor, a job
// at most model.MaxDataset × model.MaxEpochs), so one reaching a writer
// is a bug to report, not something the user typed (attack round 13:
// "json: unsupported value: +Inf").
func nonFiniteJSON(err error) error {
	var e1 *json.UnsupportedValueError
	var e2 *jsonv1.UnsupportedValueError
	var e3 *jsontext.SyntacticError
	if errors.As(err, &e1) || errors.As(err, &e2) || (errors.As(err, &e3) && (strings.Contains(err.Error(), "Inf") || strings.Contains(err.Error(), "NaN"))) {
		return fmt.Errorf("internal error: a figure of the JSON document is not a finite number (%w), so no valid JSON can be written; please report the command line", err)
	}
	return err
}

// writeJSONEncoder is writeJSONStream through go-json-experiment's
// encoder, for any document.
func writeJSONEncoder(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := jsonv2.MarshalWrite(bw, v, jsonIndentOpts); err != nil {
		return err
	}
	if err := bw.WriteByte('\n'); err != nil {
		return err
	}
	return bw.Flush()
}
