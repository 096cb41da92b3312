package model

import "testing"

// TestShapeTwins: a shape is the catalog model's twin when every field
// the count reads agrees, KV heads and head size written or left to the
// attention's own; a different vocabulary, layer count or model type is
// not, nor a model without a shape.
func TestShapeTwins(t *testing.T) {
	base := Architecture{Key: "l8", Family: FamilyDecoder, ModelType: "llama", Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8,
		FFN: 14336, GatedMLP: true, Vocab: 128256, Norm: "rmsnorm", DefaultBatch: 4, DefaultSeqLen: 4096}
	inst := base
	inst.Key = "l8-instruct"
	other := base
	other.Key, other.Vocab = "l8-v32k", 32000
	cat := &Catalog{Models: []Architecture{base, inst, other}}
	cat.Index()
	imp := base
	imp.Key, imp.HeadDim, imp.DefaultBatch, imp.DefaultSeqLen = "", 128, 0, 0 // config.json's head_dim written out
	twins := cat.ShapeTwins(&imp)
	if len(twins) != 2 || twins[0].Key != "l8" || twins[1].Key != "l8-instruct" {
		t.Fatalf("twins of the imported shape: %v", keysOf(twins))
	}
	for name, f := range map[string]func(a *Architecture){
		"layers":     func(a *Architecture) { a.Layers = 16 },
		"model type": func(a *Architecture) { a.ModelType = "mistral" },
		"kv heads":   func(a *Architecture) { a.KVHeads = 32 },
		"no shape":   func(a *Architecture) { *a = Architecture{Params: 8e9} },
	} {
		a := imp
		f(&a)
		if got := cat.ShapeTwins(&a); len(got) != 0 {
			t.Errorf("%s changed: twins %v", name, keysOf(got))
		}
	}
}

func keysOf(as []*Architecture) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Key)
	}
	return out
}
