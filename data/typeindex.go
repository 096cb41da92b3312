package data

// byProvider maps a provider, then a name of it (an instance type, a
// GPU), to a V. The guards look up each of an overlay's 100,000 instances
// in a table of the embedded catalog's few hundred: keyed by a struct of
// two strings, each look-up hashed both (the runtime's generic path);
// here the provider's table is found once per run of instances of one
// provider (a file's rows all name one) and the name is looked up in a
// map of strings (the runtime's string fast path). Not safe for
// concurrent use: get remembers the last provider.
type byProvider[V any] struct {
	m map[string]map[string]V
	// provider and names are the last provider get looked up and its
	// table (nil when it has none); cached is false until then, and after
	// a set.
	provider string
	names    map[string]V
	cached   bool
}

// set maps provider and name to v, replacing what they mapped to.
func (b *byProvider[V]) set(provider, name string, v V) {
	if b.m == nil {
		b.m = map[string]map[string]V{}
	}
	names := b.m[provider]
	if names == nil {
		names = map[string]V{}
		b.m[provider] = names
	}
	names[name] = v
	b.cached = false
}

// get returns what provider and name map to, and whether they do.
func (b *byProvider[V]) get(provider, name string) (V, bool) {
	if !b.cached || provider != b.provider {
		b.provider, b.names, b.cached = provider, b.m[provider], true
	}
	v, ok := b.names[name]
	return v, ok
}

// at returns what provider and name map to, or V's zero value.
func (b *byProvider[V]) at(provider, name string) V {
	v, _ := b.get(provider, name)
	return v
}
