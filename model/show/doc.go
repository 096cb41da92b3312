// Package show is how gpuplan writes a value for a person to read, in one
// place for every package that writes one: text made safe for a terminal,
// a comment line or a table cell (Printable escapes control, line-break
// and bidirectional-formatting characters; Unprintable and Invisible say
// which runes those are), and prices as the tables write them
// (USDPerHour, SmallUSD), so a warning and a table say a price alike.
//
// It imports nothing of gpuplan's, so model, its sub-packages and data all
// use it. Like model it is plain Go: no terminal UI, no file or network
// access.
package show
