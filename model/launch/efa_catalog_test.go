package launch_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
)

// efaCountUnknown are AWS types whose catalog fabric is EFA but whose EFA
// interface count gpuplan has no source for yet: a multi-node export
// there gets no EFA devices (cloud.NetworkFor).
var efaCountUnknown = map[string]bool{"p5.4xlarge": true, "p6-b300.48xlarge": true}

// TestEFACatalogAgrees: every AWS type the catalog marks fabric "efa"
// (its sourced field) gets EFA wiring on several nodes, so the hand-kept
// device table cannot fall behind the catalog unnoticed (walk49: p6-b200
// had none). The catalog does not mark the G-series types SkyPilot lists
// (g4dn, g5, g6, g6e), so the converse is not checked.
func TestEFACatalogAgrees(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if in.Provider != "aws" {
			continue
		}
		if n := cloud.NetworkFor("aws", in.Type, 2); in.Fabric == "efa" && n.EFA == 0 && !efaCountUnknown[in.Type] {
			t.Errorf("%s: catalog fabric efa, no EFA devices in cloud.NetworkFor", in.Type)
		}
	}
}
