// Package tui is the interactive configurator (Run) and its accessible,
// plain-prompt form.
//
// The configurator is one Bubble Tea program whose root model (app.go)
// routes keys to the focused component: the questions (wizard.go, a huh
// form bound to *answers), the live estimate (panel.go), the table of
// offers and an offer's detail (instances.go), and the export and quit
// dialogs (export.go). Keys, styles and messages have their own files.
// A changed answer starts a recompute in a command, tagged with a
// sequence number so that late results of older answers are dropped.
package tui
