package model

import (
	"errors"
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

// TestErrMessage: an error that is a Message, or gives one, keeps its key
// for translation; any other error is the one argument of a message that
// reads as its English text (a UI renders the error itself), never a
// part of it.
func TestErrMessage(t *testing.T) {
	m := Msg("needs %d GPUs", 8)
	if got := ErrMessage(m); got.Key != m.Key || got.String() != "needs 8 GPUs" {
		t.Errorf("ErrMessage(Message) = %#v", got)
	}
	kind := Errorf(ErrNotFound, "unknown %s %q", "gpu", "h10")
	if got := ErrMessage(kind); got.Key != "%s: %s" || got.String() != `not found: unknown gpu "h10"` {
		t.Errorf("ErrMessage(KindError) = %#v %q", got, got.String())
	}
	wrapped := fmt.Errorf("wrapped: %w", m)
	if got := ErrMessage(wrapped); got.String() != "wrapped: needs 8 GPUs" || !errors.Is(got, wrapped) {
		t.Errorf("ErrMessage(wrapped Message) = %#v: want the whole text, the error its argument", got)
	}
}

// TestMessageUnwrap: errors.Is and errors.As see through a message that
// names an error, and through a kind error to its kind and sentence.
func TestMessageUnwrap(t *testing.T) {
	kind := Errorf(ErrBadQuantity, "%q is not a number", "7Q")
	err := error(Msg("--params: %v", kind))
	if !errors.Is(err, ErrBadQuantity) {
		t.Error("errors.Is does not reach the kind through the message")
	}
	var ke *KindError
	if !errors.As(err, &ke) || ke.Msg.Key != "%q is not a number" {
		t.Errorf("errors.As finds %#v", ke)
	}
	if got := err.Error(); got != `--params: bad quantity: "7Q" is not a number` {
		t.Errorf("English %q", got)
	}
	if Msg("no error %d", 1).Unwrap() != nil {
		t.Error("a message without error arguments unwraps to some")
	}
}
