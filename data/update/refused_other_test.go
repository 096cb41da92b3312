//go:build !linux

package update

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// refusedURL is an http:// URL whose connections are refused: a closed
// server's (on Linux the port is held; refused_linux_test.go).
func refusedURL(t testing.TB) string {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	return down.URL
}
