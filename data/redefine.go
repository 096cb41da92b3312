package data

import (
	"fmt"
	"reflect"

	"github.com/gpuplan/gpuplan/model"
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
	for _, f := range files {
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
