package launch

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"

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
		if yaml11Implicit().MatchString(s) {
			n.Style = yaml.DoubleQuotedStyle
		}
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

// kubeStrs is strs for a container's command and args, which the kubelet
// expands before it runs them: "$(VAR)" becomes the value of the
// container's environment variable VAR and "$$" becomes "$" (Kubernetes
// core/v1 Container.Args: "Variable references $(VAR_NAME) are expanded
// using the container's environment ... Double $$ are reduced to a single
// $, which allows for escaping the $(VAR_NAME) syntax";
// third_party/forked/golang/expansion/expand.go). A value such as a
// dataset "x$(HF_TOKEN)" would otherwise reach the trainer as the token.
// kubeEscape doubles each '$' before a '$' or '(', so the expansion gives
// back the value as written; "$HOME" and "${X:-y}" are left as they are.
func kubeStrs(s ...string) *yaml.Node {
	items := make([]*yaml.Node, len(s))
	for i, v := range s {
		items[i] = str(kubeEscape(v))
	}
	return seq(items...)
}

// kubeEscape escapes s for the kubelet's $(VAR) expansion (kubeStrs).
func kubeEscape(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' && i+1 < len(s) && (s[i+1] == '$' || s[i+1] == '(') {
			b.WriteByte('$')
		}
		b.WriteByte(s[i])
	}
	return b.String()
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

// yaml11Implicit matches a plain scalar a YAML 1.1 reader resolves to
// something other than a string: go-yaml v3 writes `yes`, `off`,
// `0755`, `1:20` or `2026-12-02` unquoted as strings (YAML 1.2), but
// SkyPilot reads its YAML with PyYAML and Kubernetes with
// sigs.k8s.io/yaml (go-yaml v2), both YAML 1.1, which read them as a
// bool, an octal or base-60 int, or a timestamp. The patterns are
// PyYAML's implicit resolvers (lib/yaml/resolver.py: bool, float, int,
// merge, null, timestamp, value), y/n added as YAML 1.1's bool type
// lists them (yaml.org/type/bool.html).
//
// Compiled on first use (a launch file), not at every process's start.
var yaml11Implicit = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:` +
		`y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF` +
		`|[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?` +
		`|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)` +
		`|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+` +
		`|<<|~|null|Null|NULL|` +
		`|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)?` +
		`|=)$`)
})
