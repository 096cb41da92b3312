// Package stack grows a goroutine's stack ahead of deep work.
package stack

// Grow grows the calling goroutine's stack to 64 KB in one step, while it
// holds a few frames. A goroutine starts with 2 KB and the runtime
// doubles its stack each time a call overflows it, copying the whole
// stack and walking every frame's tables: a ranking's calls (cobra,
// recommend, the matcher) took the main goroutine from 2 KB to 4, 8, 16, 32
// and 64 KB, and the savings' goroutine likewise (perf probe on
// runtime.copystack: 14 copies in one recommend --json, ~4% of its CPU
// time with the pages of the stacks thrown away). The runtime sizes the
// new stack to the frame that asks for it, so one large frame makes one
// copy of a shallow stack; no collection runs in a short command to
// shrink it back.
func Grow() { frame(0) }

// frameBytes is over half of 64 KB and under it less the frames below,
// so the first growth goes straight to 64 KB.
const frameBytes = 40 << 10

//go:noinline
func frame(i int) byte {
	var b [frameBytes]byte
	return touch(&b, i)
}

// touch keeps frame's array, and so its frame, from being optimised
// away.
//
//go:noinline
func touch(b *[frameBytes]byte, i int) byte {
	b[i]++
	return b[i]
}
