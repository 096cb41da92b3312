package model

import (
	"fmt"
	"sync"
)

// Message is a user-facing sentence the model produces (a warning, a
// verdict, advice, an error) kept as its English format string and its
// values, so a UI can translate it without the model knowing languages:
// ui/i18n looks Key up in its catalogue and formats Args into the
// translation, falling back to the English Key. Key is a fmt format
// string; Args must be plain values (numbers, strings, model enums), not
// already formatted sentences, so the translation controls the wording.
type Message struct {
	Key  string
	Args []any
}

// Msg builds a Message; it reads like fmt.Sprintf at the call site.
func Msg(key string, args ...any) Message { return Message{Key: key, Args: args} }

// Verbatim is s as a message that reads the same in every language: a
// configuration key or flag value ("task", "zero-grad") that the user
// types as it is written, where Msg(s) would be translated as a word.
func Verbatim(s string) Message { return Msg("%s", s) }

// String is the English sentence.
// A Key is always a format string: write a literal percent as %%.
func (m Message) String() string { return fmt.Sprintf(m.Key, m.Args...) }

// Error makes a Message usable as an error; errors.As finds it for
// translation.
func (m Message) Error() string { return m.String() }

// Strings renders messages in English, for callers (JSON, logs) that keep
// the English text.
func Strings(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// JoinMsgs is ms as one message, "a; b; c" (each join "%v; %v", which
// the UI's catalogue translates), the zero Message for none: a list of
// reasons put in one line translates item by item, where joining their
// English strings left English inside a translated line (walk36: a
// serving refusal under --lang zh-CN).
func JoinMsgs(ms []Message) Message {
	if len(ms) == 0 {
		return Message{}
	}
	m := ms[0]
	for _, n := range ms[1:] {
		m = Msg("%v; %v", m, n)
	}
	return m
}

// IsZero reports whether m is the empty message ("no message").
func (m Message) IsZero() bool { return m.Key == "" }

// Unwrap returns m's arguments that are errors, so errors.Is and errors.As
// see through a message that names an error: Msg("--config %s: %v",
// path, err). An error argument takes %v (fmt.Sprintf has no %w); a UI
// renders it in its language too (ui/i18n Printer.Error).
func (m Message) Unwrap() []error {
	var out []error
	for _, a := range m.Args {
		if err, ok := a.(error); ok {
			out = append(out, err)
		}
	}
	return out
}

// ErrMessage is err as a message: err itself when it is a Message, the
// message it gives (Message() Message, as a *KindError or a
// *FieldError does), else a message whose only argument is err, which
// reads as err.Error() in English and which a UI renders as it renders
// errors (ui/i18n Printer.Error).
func ErrMessage(err error) Message {
	switch e := err.(type) {
	case Message:
		return e
	case interface{ Message() Message }:
		return e.Message()
	}
	return Msg("%v", err)
}

// KindError is an error of a kind callers branch on (errors.Is(err,
// Kind): ErrInvalidWorkload, ErrNotFound, ErrBadQuantity, ...) with the
// sentence a user reads. It reads "kind: sentence", as fmt.Errorf("%w:
// %s", kind, sentence) did, and gives both as one message (Message) for
// translation.
type KindError struct {
	Kind error
	Msg  Message
}

// Errorf returns a *KindError of kind whose sentence is Msg(key, args...).
func Errorf(kind error, key string, args ...any) error {
	return &KindError{Kind: kind, Msg: Msg(key, args...)}
}

func (e *KindError) Error() string { return e.Kind.Error() + ": " + e.Msg.String() }

// Unwrap makes errors.Is(err, e.Kind) hold and lets errors.As find the
// sentence.
func (e *KindError) Unwrap() []error { return []error{e.Kind, e.Msg} }

// Message is the error as one message: the kind's words, then the
// sentence.
func (e *KindError) Message() Message { return Msg("%s: %s", e.Kind, e.Msg) }

// RememberMessage records m by its English text and returns it: the TOML
// library keeps only the text of an UnmarshalTOML error, so a decoder
// that words a value's error (an enum's: `task "qlorra": did you mean
// "qlora"? …`) finds the message again with RememberedMessage to
// translate it (model/config ValueMessage; walk37: it was printed in
// English under --lang zh-CN). A decode stops at its first error, so a
// few are kept.
func RememberMessage(m Message) Message {
	remembered.Lock()
	defer remembered.Unlock()
	if remembered.m == nil || len(remembered.m) >= maxRemembered {
		remembered.m = map[string]Message{}
	}
	remembered.m[m.String()] = m
	return m
}

// RememberedMessage is the message RememberMessage recorded with the
// English text text.
func RememberedMessage(text string) (Message, bool) {
	remembered.Lock()
	defer remembered.Unlock()
	m, ok := remembered.m[text]
	return m, ok
}

var remembered struct {
	sync.Mutex
	m map[string]Message
}

const maxRemembered = 64
