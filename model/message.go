package model

import (
	"errors"
	"fmt"
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

// IsZero reports whether m is the empty message ("no message").
func (m Message) IsZero() bool { return m.Key == "" }

// ErrMessage is err as a message: the error's own Message when it is one
// (errors.As), else its English text as an untranslated key.
func ErrMessage(err error) Message {
	var m Message
	if errors.As(err, &m) {
		return m
	}
	return Message{Key: "%s", Args: []any{err.Error()}}
}
