// Package safeio is gpuplan's one input boundary: every file the program
// reads (a --config, catalog overlays and catalog.d, SkyPilot CSVs, a
// Hugging Face config.json, safetensors headers and indexes) is opened here.
//
// A file is accepted only when, after symlinks are resolved, it is a regular
// file: FIFOs, sockets, devices such as /dev/zero and directories get one
// error saying so. Opening never blocks (O_NONBLOCK, then fstat), reading
// is capped per Kind, TOML is checked for bracket nesting before a decoder
// sees it, and the name-like values the files carry are checked by
// CheckName. Sanitize makes any string safe to show on a terminal.
package safeio
