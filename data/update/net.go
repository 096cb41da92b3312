package update

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

// Limits bound what one update may take from the network. They follow
// curl's --connect-timeout, --max-time and --speed-limit/--speed-time
// (curl(1)): a connection must open in Connect, each provider finishes in
// Provider (every source and page included), and a transfer that moves
// fewer than MinRate bytes a second over any Window — a server that
// accepts and never answers, or drips a byte at a time — is aborted.
type Limits struct {
	Connect  time.Duration // TCP connect and TLS handshake
	Provider time.Duration // one provider's whole update
	Total    time.Duration // the whole update, every provider; the ones not reached are skipped
	Window   time.Duration // the span MinRate is averaged over
	MinRate  int64         // bytes per second, at least
}

// DefaultLimits: 15 s to connect; 5 minutes a provider (the Azure API's
// hundreds of pages take one to two); 10 minutes in all (13 providers one
// after another, each a second or two but Azure's one to two minutes);
// at least 1 KiB/s over 30 s (curl's default --speed-time; the smallest
// real file, SkyPilot's nebius, is 20 KB, so a live server passes the
// first window).
var DefaultLimits = Limits{Connect: 15 * time.Second, Provider: 5 * time.Minute, Total: 10 * time.Minute, Window: 30 * time.Second, MinRate: 1 << 10}

// withDefaults fills l's zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Connect > 0 {
		d.Connect = l.Connect
	}
	if l.Provider > 0 {
		d.Provider = l.Provider
	}
	if l.Total > 0 {
		d.Total = l.Total
	}
	if l.Window > 0 {
		d.Window = l.Window
	}
	if l.MinRate > 0 {
		d.MinRate = l.MinRate
	}
	return d
}

// ErrStalled is wrapped when a transfer moved fewer than Limits.MinRate
// bytes a second over a Limits.Window (no answer, or a drip).
var ErrStalled = errors.New("too slow")

// ErrDeadline is wrapped when a provider's update ran past
// Limits.Provider.
var ErrDeadline = errors.New("took too long")

// ErrSkipped is wrapped when a provider is not fetched at all: the update
// ran past Limits.Total, or every source it would be fetched from failed
// to answer for an earlier provider.
var ErrSkipped = errors.New("skipped")

// noAnswer reports whether err means the server did not answer (it was
// silent, dripped, could not be reached or ran past the deadline), as
// against answering with a status, a redirect elsewhere or a bad file:
// a source that did not answer for one provider is not asked for the
// next.
func noAnswer(err error) bool {
	if errors.Is(err, ErrRedirect) {
		return false
	}
	var se *statusError
	if errors.As(err, &se) {
		return false
	}
	var ne net.Error
	return errors.Is(err, ErrStalled) || errors.Is(err, ErrDeadline) || errors.As(err, &ne)
}

// ErrRedirect is wrapped when a server redirects to another host than the
// one asked (and not one of Options.AllowRedirects), or from https to http.
var ErrRedirect = errors.New("redirect refused")

// newClient returns the client update fetches with: o.Client, or one on a
// copy of http.DefaultTransport (which honours HTTPS_PROXY) with the
// connect and TLS handshake bounded by l.Connect. Either way redirects
// follow redirectPolicy.
func newClient(o *Options, l Limits) *http.Client {
	var c http.Client
	if o.Client != nil {
		c = *o.Client
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = (&net.Dialer{Timeout: l.Connect, KeepAlive: 30 * time.Second}).DialContext
		t.TLSHandshakeTimeout = l.Connect
		c.Transport = t
	}
	c.CheckRedirect = redirectPolicy(o.AllowRedirects)
	return &c
}

// redirectPolicy follows a redirect only to the host first asked (the
// same host and port) or to one of allow (a host, or host:port), never
// from https to http, at most 10 times (net/http's own limit).
func redirectPolicy(allow []string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return model.Errorf(ErrRedirect, "more than 10 redirects")
		}
		first := via[0].URL
		// by is the host whose answer redirected: on a second hop not the
		// host first asked, which the message blamed (attack round 13).
		by := via[len(via)-1].URL
		to := req.URL
		if first.Scheme == "https" && to.Scheme != "https" {
			return model.Errorf(ErrRedirect, "%s redirects from https to %.200q", by.Host, redactURL(to))
		}
		if to.Scheme != "http" && to.Scheme != "https" || to.Hostname() == "" {
			// file:, data: and the like: no host to allow, so no
			// --allow-redirect to suggest (it read "--allow-redirect " with
			// nothing after).
			return model.Errorf(ErrRedirect, "%s redirects to %.200q, not an http(s) URL with a host; a mirror serves its files over http(s)", by.Host, redactURL(to))
		}
		if strings.EqualFold(to.Host, first.Host) ||
			slices.ContainsFunc(allow, func(h string) bool { return strings.EqualFold(h, to.Host) || strings.EqualFold(h, to.Hostname()) }) {
			return nil
		}
		return model.Errorf(ErrRedirect, "%s redirects to another host, %.200q (allow it with --allow-redirect %s)", by.Host, redactURL(to), to.Hostname())
	}
}

// getter fetches over one client within one provider's limits, counting
// the bytes for progress.
type getter struct {
	client *http.Client
	limits Limits
	// received is called with the bytes read so far by this getter; nil
	// when nobody asks.
	received func(total int64)
	total    int64
}

// get GETs u and returns its body (at most limit bytes) and the URL it
// finally came from (after redirects). Any status but 200 is an error
// (429 and 5xx send the caller to its next source). A transfer slower
// than the limits' MinRate over a Window is cut off with ErrStalled;
// ctx's end (the provider's deadline) ends it too, with ctx's cause.
func (g *getter) get(ctx context.Context, u string, limit int64) ([]byte, string, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var got atomic.Int64
	stop := g.watch(&got, cancel)
	defer stop()
	ctx, stopConnect := g.connectLimit(ctx, cancel)
	defer stopConnect()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("User-Agent", "gpuplan-catalog-update")
	resp, err := g.client.Do(req)
	if err != nil {
		if ue, ok := errors.AsType[*url.Error](err); ok {
			ue.URL = Redact(ue.URL) // net/http leaves a redirect target's password in
		}
		return nil, "", g.cause(ctx, err)
	}
	defer resp.Body.Close()
	final := resp.Request.URL.String()
	if resp.StatusCode != http.StatusOK {
		return nil, final, &statusError{resp.StatusCode, resp.Status}
	}
	b, err := io.ReadAll(&countReader{r: io.LimitReader(resp.Body, limit+1), got: &got, g: g})
	if err != nil {
		return nil, final, model.Msg("reading the response: %v", g.cause(ctx, err))
	}
	if int64(len(b)) > limit {
		return nil, final, model.Msg("response larger than %d MiB", limit>>20)
	}
	if resp.ContentLength >= 0 && int64(len(b)) != resp.ContentLength {
		return nil, final, model.Msg("truncated response: %d of %d bytes", len(b), resp.ContentLength)
	}
	return b, final, nil
}

// connectLimit bounds each connection's opening by Limits.Connect, from
// the moment the transport asks for a connection (httptrace GetConn) to
// the moment it has one ready to send on (GotConn): DNS, the TCP connect,
// a proxy's answer to CONNECT and the TLS handshake together. The
// transport's own bounds miss the CONNECT: the Dialer's timeout ends at
// the TCP connect and TLSHandshakeTimeout starts after the proxy's
// answer, which net/http waits for up to a fixed minute (Go's
// net/http/transport.go, dialConn: "Set a (long) timeout here"), so a
// proxy that never answers CONNECT was cut off by the stall window
// (30 s), not Connect (15 s). A connection taken from
// the idle pool arrives at once; each redirect asks anew.
func (g *getter) connectLimit(ctx context.Context, cancel context.CancelCauseFunc) (context.Context, func()) {
	var mu sync.Mutex
	var timer *time.Timer
	set := func(t *time.Timer) {
		mu.Lock()
		defer mu.Unlock()
		if timer != nil {
			timer.Stop()
		}
		timer = t
	}
	limit := g.limits.Connect
	trace := &httptrace.ClientTrace{
		GetConn: func(hostPort string) {
			set(time.AfterFunc(limit, func() {
				cancel(model.Errorf(ErrStalled, "no connection to %s within %v (connect, proxy CONNECT and TLS handshake): the server or proxy does not answer; try again later or another source", hostPort, limit))
			}))
		},
		GotConn: func(httptrace.GotConnInfo) { set(nil) },
	}
	return httptrace.WithClientTrace(ctx, trace), func() { set(nil) }
}

// cause is err, or the reason ctx was cancelled (a stall, the provider's
// deadline) when it was.
func (g *getter) cause(ctx context.Context, err error) error {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
		return c
	}
	return err
}

// watch cancels the request with ErrStalled when fewer than MinRate ×
// Window bytes arrived in a Window (waiting for the answer included). The
// returned func stops it.
func (g *getter) watch(got *atomic.Int64, cancel context.CancelCauseFunc) func() {
	l := g.limits
	least := l.MinRate * int64(l.Window/time.Millisecond) / 1000
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(l.Window)
		defer t.Stop()
		last := int64(0)
		for {
			select {
			case <-done:
				return
			case <-t.C:
				n := got.Load()
				if n-last < max(least, 1) {
					cancel(model.Errorf(ErrStalled, "%d bytes in %v, under %d bytes/s: the server does not answer or drips; try again later or another source", n-last, l.Window, l.MinRate))
					return
				}
				last = n
			}
		}
	}()
	return func() { close(done) }
}

// countReader counts what passes for the stall watch and for progress.
type countReader struct {
	r   io.Reader
	got *atomic.Int64
	g   *getter
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if n > 0 {
		c.got.Add(int64(n))
		c.g.total += int64(n)
		if c.g.received != nil {
			c.g.received(c.g.total)
		}
	}
	return n, err
}

// Redact is u as an error or a line on the terminal shows a URL the user
// typed: its user information, name and password alike, replaced by
// "xxxxx" (url.URL.Redacted hides the password only, and a token is often
// given as the name alone: https://TOKEN@host/…). A u that does not parse
// loses everything from after "scheme://" to its last "@" before any ? or
// #, where user information would be: an unparsed URL's secret is never
// echoed.
func Redact(u string) string {
	p, err := url.Parse(u)
	if err == nil && (p.User != nil || !strings.Contains(u, "@")) {
		return redactURL(p)
	}
	// Not parsed, or parsed with no authority ("user:pw@host/x" reads as
	// scheme "user" and an opaque rest; "https:pw@host" too): everything
	// before the last '@' ahead of a query goes, over-hiding a path's '@'
	// rather than showing a secret.
	start := 0
	if i := strings.Index(u, "://"); i >= 0 {
		start = i + 3
	}
	end := len(u)
	if i := strings.IndexAny(u[start:], "?#"); i >= 0 {
		end = start + i
	}
	if at := strings.LastIndexByte(u[start:end], '@'); at >= 0 {
		return u[:start] + "xxxxx@" + u[start+at+1:]
	}
	return u
}

// redactURL is Redact for a parsed URL.
func redactURL(p *url.URL) string {
	if p.User == nil {
		return p.String()
	}
	q := *p
	q.User = url.User("xxxxx")
	return q.String()
}

// sourceURL is u as an overlay's source records it: without its query
// (the Azure filter) and user information.
func sourceURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.RawQuery, p.ForceQuery, p.User, p.Fragment = "", false, nil, ""
	return p.String()
}
