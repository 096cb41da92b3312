package launch

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model/show"
	"go.yaml.in/yaml/v3"
)

// YAML is built as yaml.Node trees so keys keep a readable order and
// multi-line scripts become literal blocks; the library does all quoting.

// kv is one key and value of a mapping; values are *yaml.Node.
type kv struct {
	k string
	v *yaml.Node
}

func mapping(pairs ...kv) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, p := range pairs {
		if p.v == nil {
			continue
		}
		n.Content = append(n.Content, str(p.k), p.v)
	}
	return n
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

// str is a string scalar; multi-line strings are literal blocks, unless
// they hold a character a literal block cannot carry as text: go-yaml's
// parser reads NEL, U+2028 and U+2029 as line breaks (YAML 1.1), and
// other control characters need escapes. Those are left to the encoder,
// which double-quotes and escapes them.
func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if !strings.Contains(s, "\n") {
		return n
	}
	switch {
	case strings.Contains(s, "\t"):
		// go-yaml writes a tab-led line into a block scalar as it is and
		// then refuses to read it back ("found a tab character where an
		// indentation space is expected"; FuzzYAMLInjection found it), and
		// it picks a block for multi-line text by itself: quoted, a tab
		// is \t.
		n.Style = yaml.DoubleQuotedStyle
	case !strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && show.Unprintable(r) }):
		n.Style = yaml.LiteralStyle
	}
	return n
}

func strs(s ...string) *yaml.Node {
	items := make([]*yaml.Node, len(s))
	for i, v := range s {
		items[i] = str(v)
	}
	return seq(items...)
}

func integer(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

// null is a YAML null: a key declared without a value (SkyPilot secrets).
func null() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

// encodeYAML writes the documents, separated by "---", with 2-space indents
// and the comment lines at the top of the first.
func encodeYAML(comment []string, docs ...*yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(CommentBlock(comment))
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return nil, err
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
