// Package deepspeed writes the DeepSpeed config JSON (ds_config.json) of a
// ZeRO launch: stage, precision, batch identity and ZeRO-Offload, each
// field as DeepSpeed's config reference and Hugging Face's integration
// read it (Config). model/launch passes a plan's settings and ships the
// file with its launch files.
//
// It imports model only. Like model it is plain Go: no terminal UI, no
// file or network access.
package deepspeed
