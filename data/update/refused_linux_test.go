//go:build linux

package update

import (
	"fmt"
	"syscall"
	"testing"
)

// refusedURL is an http:// URL on 127.0.0.1 whose connections are
// refused, for the "network down" fixtures. A closed httptest server's
// port can be handed to the next server the test starts (the walk-50 CI
// flake: "HTTP 404 Not Found" where "connection refused" was wanted), so
// the port is held by a socket that is bound but never listens: Linux
// answers a SYN to it with a reset (tcp_v4_rcv finds no listener), and no
// other socket can bind it until the test ends.
func refusedURL(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
}
