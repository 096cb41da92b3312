package model

import "testing"

// TestHeldCountSingular: one held overlay price reads "1 region price
// looks fake", not "1 region prices look fake" (a new user's walk), and
// --trust-overlay's rewrite (Trusted) keeps the number: one to one, many
// to many.
func TestHeldCountSingular(t *testing.T) {
	for _, tt := range []struct {
		key  string
		n    int
		want string
	}{
		{HeldPrices, 1, "catalog f.toml: 1 region price looks fake or mistyped (the lines below say why) and is not ranked; pass --trust-overlay to rank it"},
		{HeldPrices, 2, "catalog f.toml: 2 region prices look fake or mistyped (the lines below say why) and are not ranked; pass --trust-overlay to rank them"},
		{HeldPricesEmbedded, 1, "catalog f.toml: 1 region price looks fake or mistyped (the lines below say why): the embedded catalog's price for that type and region is used instead; pass --trust-overlay to rank the file's"},
		{HeldPricesEmbedded, 2, "catalog f.toml: 2 region prices look fake or mistyped (the lines below say why): the embedded catalog's prices for those types and regions are used instead; pass --trust-overlay to rank the file's"},
		{HeldDiscounts, 1, "catalog f.toml: 1 reserved price its discount gives looks fake or mistyped (the lines below say why) and is not ranked; pass --trust-overlay to rank it"},
		{HeldDiscounts, 2, "catalog f.toml: 2 reserved prices its discount gives look fake or mistyped (the lines below say why) and are not ranked; pass --trust-overlay to rank them"},
	} {
		if got := HeldCount(tt.key, "f.toml", tt.n).String(); got != tt.want {
			t.Errorf("HeldCount(%d):\n got %q\nwant %q", tt.n, got, tt.want)
		}
	}
	for _, tt := range []struct {
		key  string
		n    int
		want string
	}{
		{HeldPrices, 1, HeldPriceTrusted},
		{HeldPricesEmbedded, 1, HeldPriceTrusted},
		{HeldPrices, 2, HeldPricesTrusted},
		{HeldPricesEmbedded, 2, HeldPricesTrusted},
		{HeldDiscounts, 1, HeldDiscountTrusted},
		{HeldDiscounts, 2, HeldDiscountsTrusted},
	} {
		if got := Trusted([]Message{HeldCount(tt.key, "f.toml", tt.n)})[0].Key; got != tt.want {
			t.Errorf("Trusted(%q, %d) = %q, want %q", tt.key, tt.n, got, tt.want)
		}
	}
}
