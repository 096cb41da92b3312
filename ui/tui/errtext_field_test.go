package tui

import (
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// A workload's field error reaches the Chinese panel in Chinese, as the
// CLI prints it: TensorFlow with QLoRA showed the English sentence.
func TestErrTextInFieldErrorShows(t *testing.T) {
	err := &model.FieldError{Field: "framework", Msg: model.Msg("qlora quantizes with bitsandbytes, a PyTorch library; with %s use lora (Keras or Flax adapters) or --framework pytorch", "tensorflow")}
	want := "framework：qlora 用 bitsandbytes 量化，这是 PyTorch 的库；使用 tensorflow 时请用 lora（Keras 或 Flax 的适配器）或 --framework pytorch"
	if got := errTextIn(i18n.New(language.SimplifiedChinese), err); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := errTextIn(nil, err); got != err.Error() {
		t.Errorf("English: %q", got)
	}
	// As the panel gets it: a config error keyed "workload.framework".
	if got := errTextIn(i18n.New(language.SimplifiedChinese), config.AsError(err)); got != want {
		t.Errorf("config error:\ngot  %q\nwant %q", got, want)
	}
}
