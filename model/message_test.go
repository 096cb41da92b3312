package model

import (
	"fmt"
	"testing"
)

// TestMessageEnglish: a message reads exactly as the fmt.Sprintf it
// replaced, so English output does not change when a call site adopts it.
func TestMessageEnglish(t *testing.T) {
	for _, tt := range []struct {
		m    Message
		want string
	}{
		{Msg("turn on activation checkpointing (about 33%% more compute)"), "turn on activation checkpointing (about 33% more compute)"},
		{Msg("uses %d of the %d GPUs you pay for", 6, 8), "uses 6 of the 8 GPUs you pay for"},
		{Msg("recipe %s: %s", RecipeAutocast, Msg("fp32 throughout")), "recipe autocast: fp32 throughout"},
		{CountMsg(1, "sequence"), "1 sequence"},
		{CountMsg(4, "sequence"), "4 sequences"},
		{Message{}, ""},
	} {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.m, got, tt.want)
		}
		if got := tt.m.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	if !(Message{}).IsZero() || Msg("x").IsZero() {
		t.Error("IsZero: only the empty key is zero")
	}
}

// TestErrMessage: an error that is a Message keeps its key for
// translation; any other error keeps its English text.
func TestErrMessage(t *testing.T) {
	m := Msg("needs %d GPUs", 8)
	if got := ErrMessage(fmt.Errorf("wrapped: %w", m)); got.Key != m.Key || got.String() != "needs 8 GPUs" {
		t.Errorf("errMessage(wrapped Message) = %#v", got)
	}
	if got := ErrMessage(fmt.Errorf("bad %s", "x")); got.String() != "bad x" {
		t.Errorf("errMessage(plain) = %q", got.String())
	}
}
