package data

import (
	"cmp"
	"fmt"
	"reflect"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
)

// redefinitions returns, in file order, the overlay entries of files
// that change the figures of one of base's (the embedded catalog's) GPUs
// or models under its key: a T4 made 800 GiB, a 70B model given a
// 2-layer shape (attack round 10, S2). Names, aliases, sources and dates
// are not figures. model.Catalog.Redefined; the command line refuses
// them unless --trust-overlay.
func redefinitions(base *model.Catalog, files []catalogFile) []model.Redefinition {
	var out []model.Redefinition
	gpus, models := map[string]*model.GPU{}, map[string]*model.Architecture{}
	for i := range base.GPUs {
		gpus[base.GPUs[i].Key] = &base.GPUs[i]
	}
	for i := range base.Models {
		models[base.Models[i].Key] = &base.Models[i]
	}
	gpuNames, modelNames := embeddedNames(base.GPUs, func(g *model.GPU) (string, string, []string) { return g.Key, g.Name, g.Aliases }),
		embeddedNames(base.Models, func(m *model.Architecture) (string, string, []string) { return m.Key, m.Name, m.Aliases })
	insts := make(map[[2]string]*model.Instance, len(base.Instances))
	for i := range base.Instances {
		insts[[2]string{base.Instances[i].Provider, base.Instances[i].Type}] = &base.Instances[i]
	}
	for _, f := range files {
		for i := range f.gpus {
			g := &f.gpus[i]
			if name, takes := gpuNames.takes(g.Key, g.Name, g.Aliases); takes != "" {
				out = append(out, model.Redefinition{Origin: f.name, Kind: "gpu", Key: g.Key, Name: name, Takes: takes})
			}
		}
		for i := range f.models {
			m := &f.models[i]
			if name, takes := modelNames.takes(m.Key, m.Name, m.Aliases); takes != "" {
				out = append(out, model.Redefinition{Origin: f.name, Kind: "model", Key: m.Key, Name: name, Takes: takes})
			}
		}
		for i := range f.instances {
			in := &f.instances[i]
			if old, ok := insts[[2]string{in.Provider, in.Type}]; ok {
				if ch := hardwareChanges(old, in, gpus[old.GPU]); len(ch) > 0 {
					out = append(out, model.Redefinition{Origin: f.name, Kind: "instance", Key: old.Provider + "/" + old.Type, Changes: ch})
				}
			}
		}
		for i := range f.gpus {
			if old, ok := gpus[f.gpus[i].Key]; ok {
				if ch := figureChanges(old, &f.gpus[i], rawGPU{}); len(ch) > 0 {
					out = append(out, model.Redefinition{Origin: f.name, Kind: "gpu", Key: old.Key, Changes: ch})
				}
			}
		}
		for i := range f.models {
			if old, ok := models[f.models[i].Key]; ok {
				if ch := figureChanges(old, &f.models[i], rawModel{}); len(ch) > 0 {
					out = append(out, model.Redefinition{Origin: f.name, Kind: "model", Key: old.Key, Changes: ch})
				}
			}
		}
	}
	return out
}

// notFigures are the fields an overlay may change without redefining
// the entry: what it is called and where its figures come from.
var notFigures = map[string]bool{"Key": true, "Name": true, "Aliases": true, "Source": true, "ParamsSource": true,
	"OptimizerSource": true, "AsOf": true}

// figureChanges lists the fields of *old and *now (the same struct type)
// that differ, each as "toml_key old → new", named by raw's TOML tags
// (the keys the user wrote; the Go name when raw has none).
func figureChanges[T any](old, now *T, raw any) []string {
	tags := map[string]string{}
	rt := reflect.TypeOf(raw)
	for i := range rt.NumField() {
		if tag := rt.Field(i).Tag.Get("toml"); tag != "" {
			tags[rt.Field(i).Name] = tag
		}
	}
	a, b := reflect.ValueOf(old).Elem(), reflect.ValueOf(now).Elem()
	var out []string
	for i := range a.NumField() {
		f := a.Type().Field(i)
		if !f.IsExported() || notFigures[f.Name] {
			continue
		}
		x, y := a.Field(i).Interface(), b.Field(i).Interface()
		if reflect.DeepEqual(x, y) {
			continue
		}
		name := f.Name
		if tag, ok := tags[f.Name]; ok {
			name = tag
		}
		if _, ok := x.(string); ok { // "" shows as ""
			out = append(out, fmt.Sprintf("%s %q → %q", name, x, y))
			continue
		}
		out = append(out, fmt.Sprintf("%s %v → %v", name, x, y))
	}
	return out
}

// names are the embedded entries' keys, names and aliases, each by the
// key the catalog looks it up by (model.NormKey) and by its look-alike
// key (LookKey), to the entry's key.
type names map[string]string

func embeddedNames[T any](items []T, of func(*T) (key, name string, aliases []string)) names {
	n := names{}
	for i := range items {
		key, name, aliases := of(&items[i])
		all := append([]string{key, name}, aliases...)
		for _, s := range all {
			if _, after, ok := strings.Cut(s, "/"); ok { // a Hugging Face id matches by its part after the slash too (Catalog.Index)
				all = append(all, after)
			}
		}
		for _, s := range all {
			if s == "" {
				continue
			}
			for _, k := range [2]string{"=" + model.NormKey(s), "~" + LookKey(s)} {
				if _, ok := n[k]; !ok {
					n[k] = key
				}
			}
		}
	}
	return n
}

// takes returns the first of an overlay entry's key, name and aliases
// that reads as another embedded entry's (case aside, or as a look-alike),
// and that entry's key: the overlay's entry, indexed later, would answer
// lookups by that name (attack round 11, S2). An entry under an embedded
// key may keep that entry's names.
func (n names) takes(key, name string, aliases []string) (string, string) {
	for _, s := range append([]string{key, name}, aliases...) {
		if s == "" {
			continue
		}
		for _, k := range [2]string{"=" + model.NormKey(s), "~" + LookKey(s)} {
			if owner, ok := n[k]; ok && owner != key {
				return s, owner
			}
		}
	}
	return "", ""
}

// hardwareChanges lists the host figures an overlay entry changes on an
// embedded type, "vcpus 208 → 64" by their TOML keys: a reshaped type
// would be sized and launched as another (attack round 11, S4). A figure
// the catalog has as unknown (0 or empty) may be filled in; one the entry
// leaves out stays the catalog's (patchInstance). The GPU and GPU count
// are kept by patchInstance, with a warning (skyPilotKept.gpusDiffer).
// skypilot_accelerator is the GPU export writes (accelerators: H100:1):
// changing it on an embedded type is a redefinition too (attack round 12,
// F3: aws/g6e.xlarge, an L40S, exported as an H100); a row without one
// exports cloud.SkyPilotAccelerator of its GPU (g, nil when unknown),
// so that is the name an overlay's is compared with. SkyPilot reads
// accelerator names case-insensitively, so case alone is no change.
func hardwareChanges(old *model.Instance, in *instanceEntry, g *model.GPU) []string {
	var out []string
	if in.SkyPilotAccelerator != "" {
		was := old.SkyPilotAccelerator
		if was == "" && g != nil {
			was = cloud.SkyPilotAccelerator(g, old.Provider, old.Type)
		}
		if was != "" && !strings.EqualFold(was, in.SkyPilotAccelerator) {
			out = append(out, fmt.Sprintf("skypilot_accelerator %q → %q", was, in.SkyPilotAccelerator))
		}
	}
	if in.complete {
		if in.VCPUs != old.VCPUs {
			out = append(out, fmt.Sprintf("vcpus %d → %d", old.VCPUs, in.VCPUs))
		}
		if in.MemoryGiB != old.MemoryGiB {
			out = append(out, fmt.Sprintf("memory_gib %v → %v", old.MemoryGiB, in.MemoryGiB))
		}
	}
	arch := func(s string) string { return cmp.Or(s, "x86_64") }
	if in.CPUArch != "" && arch(in.CPUArch) != arch(old.CPUArch) {
		out = append(out, fmt.Sprintf("cpu_arch %q → %q", arch(old.CPUArch), in.CPUArch))
	}
	if in.Interconnect != "" && old.Interconnect != "" && in.Interconnect != old.Interconnect {
		out = append(out, fmt.Sprintf("interconnect %q → %q", old.Interconnect, in.Interconnect))
	}
	if in.Fabric != "" && old.Fabric != "" && in.Fabric != old.Fabric {
		out = append(out, fmt.Sprintf("fabric %q → %q", old.Fabric, in.Fabric))
	}
	if in.NetworkGbps > 0 && old.NetworkGbps > 0 && in.NetworkGbps != old.NetworkGbps {
		out = append(out, fmt.Sprintf("network_gbps %v → %v", old.NetworkGbps, in.NetworkGbps))
	}
	if in.LocalNVMeGB > 0 && old.LocalNVMeGB > 0 && in.LocalNVMeGB != old.LocalNVMeGB {
		out = append(out, fmt.Sprintf("local_nvme_gb %v → %v", old.LocalNVMeGB, in.LocalNVMeGB))
	}
	return out
}

// retirements says, one line per overlay file, which types the embedded
// catalog offers the file retires: recommend and offers stop ranking them
// (Instance.Offered), and a line in a catalog.d file must not make a type
// vanish without a word (attack round 11, S4). A type marked missing_since
// is named by the commands that hide it (ui/cli hiddenTypes).
func retirements(base *model.Catalog, files []catalogFile) []model.Message {
	offered := make(map[[2]string]bool, len(base.Instances))
	for i := range base.Instances {
		if in := &base.Instances[i]; in.Retired == "" {
			offered[[2]string{in.Provider, in.Type}] = true
		}
	}
	var out []model.Message
	for _, f := range files {
		var types []string
		for i := range f.instances {
			if in := &f.instances[i]; in.Retired != "" && offered[[2]string{in.Provider, in.Type}] {
				types = append(types, in.Provider+"/"+in.Type)
			}
		}
		if len(types) == 0 {
			continue
		}
		shown := model.Msg("%s", strings.Join(types, ", "))
		if len(types) > shownPerKind {
			shown = model.Msg("%s and %s more", strings.Join(types[:shownPerKind], ", "), model.Grouped(len(types)-shownPerKind))
		}
		out = append(out, model.Msg("catalog %s: retires %v the embedded catalog offers (%v); recommend and offers do not rank retired types: remove retired from the file to rank them again",
			f.name, countMsg(len(types), "type"), shown))
	}
	return out
}
