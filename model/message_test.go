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

// TestJoinMsgs: reasons joined as one message keep each reason a
// message (walk36: a Chinese refusal held the English reasons).
func TestJoinMsgs(t *testing.T) {
	a, b, c := Msg("TP %d short", 1), Msg("needs %d nodes", 2), Msg("late")
	tests := []struct {
		name string
		ms   []Message
		want string
		args int // the outer message's arguments
	}{
		{"none is the zero message", nil, "", 0},
		{"one is itself", []Message{a}, "TP 1 short", 1},
		{"two: a; b", []Message{a, b}, "TP 1 short; needs 2 nodes", 2},
		{"three: (a; b); c", []Message{a, b, c}, "TP 1 short; needs 2 nodes; late", 2},
	}
	for _, tt := range tests {
		got := JoinMsgs(tt.ms)
		if got.String() != tt.want || len(got.Args) != tt.args {
			t.Errorf("%s: JoinMsgs = %q with %d arguments, want %q with %d", tt.name, got.String(), len(got.Args), tt.want, tt.args)
		}
		for _, arg := range got.Args {
			if _, ok := arg.(Message); !ok && len(tt.ms) > 1 {
				t.Errorf("%s: argument %T, want a Message", tt.name, arg)
			}
		}
	}
}
