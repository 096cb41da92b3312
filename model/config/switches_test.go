package config

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// Every switch is read and written by its tags alone (see Switches): a
// typo suggests its key, `key = true` reads back and writes the line with
// its note, a number is a type error naming the key and line. Training
// under zero3 is valid for each switch.
func TestSwitchesCodec(t *testing.T) {
	const head = "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"finetune\"\nstrategy = \"zero3\"\ngpus = 8\n"
	st := reflect.TypeFor[model.Switches]()
	for i := range st.NumField() {
		f := st.Field(i)
		key, note := f.Tag.Get("toml"), f.Tag.Get("note")
		t.Run(key, func(t *testing.T) {
			if key == "" || note == "" || !strings.HasPrefix(f.Tag.Get("json"), key+",") {
				t.Fatalf("%s: want toml, json and note tags, got %q", f.Name, f.Tag)
			}
			if !slices.Contains(configKeys()["workload"], key) {
				t.Errorf("%q not among the [workload] keys for did-you-mean", key)
			}
			c, err := Decode([]byte(head + key + " = true\n"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.ValueOf(c.Workload.Switches).Field(i).Bool() {
				t.Fatalf("%s = true not read", key)
			}
			b, err := Encode(&c)
			if err != nil {
				t.Fatal(err)
			}
			if line := key + " = true"; !strings.Contains(string(b), line) || !strings.Contains(string(b), "# "+note+"\n") {
				t.Errorf("encoded file lacks %q with its note:\n%s", line, b)
			}
			back, err := Decode(b)
			if err != nil || !reflect.DeepEqual(back.Workload.Switches, c.Workload.Switches) {
				t.Errorf("round trip: %+v, %v; want %+v", back.Workload.Switches, err, c.Workload.Switches)
			}
			var ce *Error
			_, err = Decode([]byte(head + key + " = 1\n"))
			if !errors.As(err, &ce) || ce.Key != "workload."+key || ce.Line != 7 || ce.Msg.String() != "want true or false, got a whole number" {
				t.Errorf("%s = 1: %#v", key, err)
			}
			_, err = Decode([]byte(head + key + "s = true\n"))
			if !errors.As(err, &ce) || !strings.Contains(ce.Msg.String(), "did you mean \""+key+"\"") {
				t.Errorf("%ss: %v, want a did-you-mean of %q", key, err, key)
			}
		})
	}
}
