// Package config is gpuplan's configuration file: the answers a user
// gives (workload, search, [serve], custom model), decoded strictly from
// TOML (unknown keys refused with did-you-mean, typed values, ranges
// checked) and validated, resolved against the catalog into a
// model.Workload and model.Query (a checkpoint's stored format picks the
// task and precision: FromCheckpoint), and encoded back; with the estimate
// snapshot, the picked offer and the [launch] section an export writes.
// Plan phases hold the same answers (AnswersTOML, PhaseAnswers).
//
// It imports model and model/serve only. Like model it is plain Go: no
// terminal UI, no file or network access; what must be read (a Hugging
// Face config.json, safetensors headers) comes in through Readers, whose
// functions the caller supplies. Errors are *Error {Key, Line, Msg}
// wrapping ErrInvalid.
package config
