package cli

import (
	"bytes"
	"io"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// stdinPath is the --config value that means standard input, as in most
// Unix tools (`gpuplan export ... -o - | gpuplan estimate --config -`).
const stdinPath = "-"

// readConfigStdin decodes a configuration piped on standard input, with
// the limits a file gets (size of a config, TOML nesting); its relative
// paths (hf_config) are taken from the working directory.
func readConfigStdin(in io.Reader) (config.Config, error) {
	if in == nil {
		return config.Config{}, usage(model.Msg("--config -: standard input is not available here; give a file"))
	}
	b, err := io.ReadAll(io.LimitReader(in, safeio.Config.MaxBytes+1))
	if err != nil {
		return config.Config{}, usage(model.Msg("--config -: reading standard input: %v", err))
	}
	if int64(len(b)) > safeio.Config.MaxBytes {
		return config.Config{}, usage(model.Msg("--config -: standard input is above the %d KiB limit for a config", safeio.Config.MaxBytes>>10))
	}
	if err := safeio.CheckTOMLDepth(b); err != nil {
		return config.Config{}, usage(model.Msg("--config -: %v", err))
	}
	c, err := config.Decode(b)
	if err != nil {
		return config.Config{}, usage(model.Msg("standard input: %v", err))
	}
	return c, nil
}

// rereadableStdin returns the command's standard input such that a
// second reader (loadWorkload after loadServe declined) reads the same
// bytes: a config piped with --config - is read once, kept whole up to
// the config size limit (plus one byte, so the limit is still seen).
func rereadableStdin(cmd *cobra.Command, path string) io.Reader {
	if path != stdinPath || cmd.InOrStdin() == nil {
		return cmd.InOrStdin()
	}
	b, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), safeio.Config.MaxBytes+1))
	if err != nil {
		return cmd.InOrStdin()
	}
	cmd.SetIn(bytes.NewReader(b))
	return bytes.NewReader(b)
}

// readFromFileIn is readFromFile where "-" reads in (standard input).
func readFromFileIn(path string, in io.Reader) (fromFile, error) {
	if path != stdinPath {
		return readFromFile(path)
	}
	c, err := readConfigStdin(in)
	if err != nil {
		return fromFile{}, err
	}
	return fromFile{path: path, cfg: &c}, nil
}
