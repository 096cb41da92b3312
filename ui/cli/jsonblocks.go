package cli

import (
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/gpuplan/gpuplan/ui/report"
)

// elemBlocks is how the elements of a long JSON array are split for
// jsonOut.elemsInBlocks: per elements a block holds, bufCap the starting
// capacity of a block's buffer, min the fewest blocks worth a helper.
type elemBlocks struct {
	per, bufCap, min int
}

var (
	// recommend's offers: ~1.1 KB each, ~1,100 of them over the embedded
	// catalog, laid out on one goroutine: since the runtime's monitor no
	// longer preempts the ranking's goroutines (internal/startup,
	// calmSysmon), a helper laying out their 36 blocks saved no wall time
	// on the 2-core VM and cost 0.3–0.6 ms CPU (recommend --json, one
	// binary with the helper switched, 120–200 interleaved rounds: quiet
	// 7.92 against 8.04 ms and 8.41 against 8.39; beside a busy core
	// 10.50 against 10.79; with other builds running 20.0 against 20.5;
	// docs/speed.md, perf46). A list of 2,048 or more (a large overlay)
	// still has one, as offers' rows do.
	offerBlocks = elemBlocks{per: 32, bufCap: 40 << 10, min: 64}
	// offers' market rows: ~0.8 KB each, up to 100,000 of them.
	marketBlocks = elemBlocks{per: 64, bufCap: 64 << 10, min: 4}
)

// blockBufs is how many block buffers are out at once: one being written,
// the others laid out ahead.
const blockBufs = 4

// laidBlock is one block laid out into its own buffer.
type laidBlock struct {
	i   int
	b   []byte
	err error
}

// elemLayout lays out elements [from, to) of an array into w, each
// starting with w.elem(); one per goroutine (newLayout).
type elemLayout func(w *jsonOut, from, to int) error

// elemsInBlocks appends the n elements of the open array, as
// newLayout's layouts lay them out. Laying them out is most of the
// writing of a long array (recommend's ~900 offers, 1 MB; offers' rows,
// up to 100,000): on a machine with a second core a helper goroutine
// lays out blocks of the array ahead into buffers of their own, which
// this goroutine writes in order between the blocks it lays out straight
// into o's buffer; while the block due next is still the helper's, this
// goroutine lays out one further ahead too. The bytes are one
// goroutine's (TestElemsInBlocksSame); only the pieces written differ.
func (o *jsonOut) elemsInBlocks(n int, bl elemBlocks, newLayout func() elemLayout) error {
	nb := (n + bl.per - 1) / bl.per
	lay := newLayout()
	if nb < bl.min || runtime.GOMAXPROCS(0) < 2 {
		return lay(o, 0, n)
	}
	span := func(i int) (int, int) { return i * bl.per, min(n, (i+1)*bl.per) }
	var (
		claimed atomic.Int64 // the next block no goroutine has taken
		free    = make(chan []byte, blockBufs)
		laid    = make(chan laidBlock, blockBufs) // each holds a buffer: never full
		quit    = make(chan struct{})
		// The blocks laid out ahead and not yet written, by i % len:
		// blocks in [next, claimed) hold a buffer each but for the one
		// this goroutine lays out straight into o.
		pending [blockBufs + 2]laidBlock
		held    [blockBufs + 2]bool
	)
	for range blockBufs {
		free <- make([]byte, 0, bl.bufCap)
	}
	defer func() {
		claimed.Store(int64(nb)) // the helper takes no further block
		close(quit)
	}()
	indent := len(o.indent)
	// aside lays out block i into buf with w and lay, at the open array's
	// depth (no writer: nothing is flushed).
	aside := func(w *jsonOut, lay elemLayout, i int, buf []byte) laidBlock {
		w.b, w.err, w.first, w.indent = buf[:0], nil, i == 0, w.indent[:indent]
		from, to := span(i)
		err := lay(w, from, to)
		return laidBlock{i, w.b, err}
	}
	hw, hlay := jsonOut{indent: slices.Clone(o.indent)}, newLayout()
	mw := jsonOut{indent: slices.Clone(o.indent)} // this goroutine's blocks ahead
	go func() {
		for {
			var buf []byte
			select {
			case buf = <-free: // before the claim: a block taken is laid out
			case <-quit:
				return
			}
			i := int(claimed.Add(1) - 1)
			if i >= nb {
				return
			}
			laid <- aside(&hw, hlay, i, buf)
		}
	}()
	keep := func(b laidBlock) { pending[b.i%len(pending)], held[b.i%len(pending)] = b, true }
	for next := 0; next < nb; {
		if s := next % len(pending); held[s] { // laid out ahead: write it
			b := pending[s]
			held[s], pending[s] = false, laidBlock{}
			if b.err != nil {
				return b.err
			}
			o.flush()
			if o.err == nil {
				_, o.err = o.w.Write(b.b)
			}
			o.first = false
			free <- b.b
			if o.err != nil {
				return o.err
			}
			next++
			continue
		}
		select {
		case b := <-laid:
			keep(b)
			continue
		default:
		}
		if claimed.CompareAndSwap(int64(next), int64(next+1)) { // due next and nobody's: straight into o
			from, to := span(next)
			if err := lay(o, from, to); err != nil {
				return err
			}
			next++
			continue
		}
		// The helper has the block due next: lay out one further ahead
		// meanwhile, when a buffer is free and a block left.
		select {
		case buf := <-free:
			if i := int(claimed.Add(1) - 1); i < nb {
				keep(aside(&mw, lay, i, buf))
				continue
			}
			free <- buf
		default:
		}
		keep(<-laid)
	}
	return nil
}

// offers appends j's offers, each an element of the open array, as
// EachOffer walks them, in blocks (elemsInBlocks).
func (o *jsonOut) offers(j *report.RecommendJSON) error {
	return o.elemsInBlocks(j.OfferCount(), offerBlocks, func() elemLayout {
		l := j.NewOfferLayout()
		return func(w *jsonOut, from, to int) error {
			return l.Each(from, to, func(of *report.OfferJSON) error {
				w.elem()
				w.offer(of)
				return w.err
			})
		}
	})
}
