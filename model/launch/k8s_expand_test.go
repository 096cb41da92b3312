package launch_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/launch"
)

// kubeletExpand expands s as the kubelet expands a container's command
// and args before running them (Kubernetes core/v1 Container.Args:
// "$(VAR_NAME) are expanded using the container's environment ... Double
// $$ are reduced to a single $"; third_party/forked/golang/expansion/
// expand.go): "$$" is "$", "$(NAME)" is resolve(NAME), any other '$'
// stays. Here every name resolves, as if each were set.
func kubeletExpand(s string, resolve func(string) string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch next := s[i+1]; {
		case next == '$':
			b.WriteByte('$')
			i++
		case next == '(':
			if end := strings.IndexByte(s[i+2:], ')'); end >= 0 {
				b.WriteString(resolve(s[i+2 : i+2+end]))
				i += 2 + end
			} else {
				b.WriteString("$(")
				i++
			}
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// TestKubernetesArgsSurviveExpansion (walk50): values in a container's
// command and args reach the process after the kubelet's $(VAR)
// expansion. A dataset "x$(HF_TOKEN)" was written as is, so the trainer
// got the Hugging Face token as its dataset name (and "$$" lost a '$');
// the serving Deployment's --model likewise. Failing before: the expanded
// args held the resolved variable and not the value as given.
func TestKubernetesArgsSurviveExpansion(t *testing.T) {
	const hostile = "x$(HF_TOKEN)$$y"
	resolve := func(name string) string { return "<resolved " + name + ">" }
	check := func(t *testing.T, what string, b []byte) {
		t.Helper()
		for _, c := range containersOf(t, b) {
			got := kubeletExpand(strings.Join(append(c.Command, c.Args...), "\x00"), resolve)
			if strings.Contains(got, "<resolved") || !strings.Contains(got, hostile) {
				t.Errorf("%s: container %s runs, after the kubelet's expansion:\n%s\nwant %q as given", what, c.Name, got, hostile)
			}
		}
	}
	for _, tc := range cases {
		for _, kind := range []string{launch.KindTrainJob, launch.KindPyTorchJob} {
			p := plan(t, tc, launch.Options{Kubernetes: kind, Dataset: hostile})
			b, err := p.Kubernetes()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(p.ScriptArgs, " "), hostile) {
				continue // a user's script with its own arguments
			}
			check(t, tc.name+"/"+kind, b)
		}
	}
	sp := serve70BAWQ(t)
	s, err := launch.NewServe(&llama70B, &sp, launch.ServeOptions{ModelID: "org/" + hostile, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Kubernetes()
	if err != nil {
		t.Fatal(err)
	}
	check(t, "serving", b)
}
