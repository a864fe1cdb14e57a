// SPDX-License-Identifier: GPL-2.0-or-later
// calls - Go target for durations (tests/e2e/durations.sh): goroutines that move between
// threads inside the probed function, and recursion that grows (moves) the goroutine's stack.
//
//	calls work G N    G goroutines, N calls each of work(id, ms) (id = g*1000 + call, ms =
//	                  g + 1): it yields (runtime.Gosched) and sleeps ms three times, so the
//	                  goroutine comes back on any thread; returns id
//	calls deep G N    G goroutines, each deep(g, N): N+1 nested calls with 2 KiB frames (the
//	                  8 KiB stack a goroutine starts with is copied several times); deep(id, n)
//	                  returns id*1000 + n
//	calls grow G N    G goroutines, each down(g, N): N+1 nested calls with small frames (the
//	                  stack check's short form, cmp 0x10(%r14),%rsp; jbe), the stack grows
//	                  several times; down(id, n) returns id*100000 + n
//	calls loop N      N calls of down(i, 0) in a loop on one goroutine (bench/go-entry.sh)
//	calls panics N    N times rec(i, 3): rec(i, 0) panics, rec(i, 2) recovers (rec(i, 1)
//	                  and rec(i, 0) never return)
//	calls names N     N calls of handle(name, i), name 200 bytes of "name-0123456789-...",
//	                  on one locked thread whose CPU time (rusage, probes included) it
//	                  prints: "calls: thread cpu ns NS" (bench/string-cost.sh)
//	calls edge        handle(s, len(s)) for strings that end on the last byte before an
//	                  unmapped page, of lengths 1, 5, 8, 13, 64, 100, 127, 128, 131: each is
//	                  "edge" cut or padded with '-' to its length, its last byte '|'; then
//	                  handle(s[len(s):], 0) (empty, pointing at the unmapped page) and
//	                  handle("", 0)
package main

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

var sink int

//go:noinline
func work(id int, ms int) int {
	for i := 0; i < 3; i++ {
		runtime.Gosched()
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	return id
}

//go:noinline
func deep(id, n int) int {
	var buf [2048]byte
	buf[n%len(buf)] = byte(n)
	if n > 0 {
		sink += deep(id, n-1) + int(buf[(n*7)%len(buf)])
	}
	return id*1000 + n
}

//go:noinline
func down(id, n int) int {
	if n > 0 {
		sink += down(id, n-1) & 1
	}
	return id*100000 + n
}

// handle(name, id) returns len(name) + id; it calls on, so it has Go's stack check (probed on
// its jbe, an emulated instruction)
//
//go:noinline
func handle(name string, id int) int {
	return count(name) + id
}

//go:noinline
func count(s string) int {
	return len(s)
}

// edge: strings whose last byte is the last one before an unmapped page (a read past it
// faults), at every alignment the lengths give
func edge() {
	const page = 4096
	b, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calls: mmap:", err)
		os.Exit(1)
	}
	_, _, e := syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&b[page])), page, 0)
	if e != 0 {
		fmt.Fprintln(os.Stderr, "calls: munmap:", e)
		os.Exit(1)
	}
	for _, n := range []int{1, 5, 8, 13, 64, 100, 127, 128, 131} {
		t := []byte(("edge" + strings.Repeat("-", n))[:n])
		t[n-1] = '|'
		copy(b[page-n:page], t)
		var s string
		h := (*reflect.StringHeader)(unsafe.Pointer(&s))
		h.Data = uintptr(unsafe.Pointer(&b[page-n]))
		h.Len = n
		sink += handle(s, n)
		if n == 131 {
			sink += handle(s[n:], 0) // empty, its data pointer the unmapped page's start
		}
	}
	sink += handle("", 0)
}

// rec(i, n) returns i*1000 + n: rec(i, 0) panics, rec(i, 1) is unwound without returning,
// rec(i, 2) recovers and returns, rec(i, 3) returns as usual.
//
//go:noinline
func rec(i, n int) (r int) {
	if n == 0 {
		panic(fmt.Sprintf("rec %d", i))
	}
	if n == 2 {
		defer func() {
			if recover() != nil {
				r = i*1000 + n
			}
		}()
	}
	sink += rec(i, n-1)
	return i*1000 + n
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "edge" {
		edge()
		fmt.Fprintln(os.Stderr, "calls: edge done", sink)
		return
	}
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: calls work|deep|grow G N | calls panics|loop|names N | calls edge")
		os.Exit(2)
	}
	runtime.GOMAXPROCS(4)
	a, _ := strconv.Atoi(os.Args[2])
	b := 1
	if len(os.Args) > 3 {
		b, _ = strconv.Atoi(os.Args[3])
	}
	var wg sync.WaitGroup
	switch os.Args[1] {
	case "work":
		for g := 0; g < a; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for j := 0; j < b; j++ {
					sink += work(g*1000+j, g+1)
				}
			}(g)
		}
	case "deep":
		for g := 0; g < a; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				sink += deep(g, b)
			}(g)
		}
	case "grow":
		for g := 0; g < a; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				sink += down(g, b)
			}(g)
		}
	case "loop":
		for i := 0; i < a; i++ {
			sink += down(i, 0)
		}
	case "names":
		runtime.LockOSThread()
		name := strings.Repeat("name-0123456789-", 13)[:200]
		for i := 0; i < a; i++ {
			sink += handle(name, i)
		}
		var ru syscall.Rusage
		_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD: this thread's CPU, probes included
		fmt.Fprintln(os.Stderr, "calls: thread cpu ns",
			ru.Utime.Nano()+ru.Stime.Nano())
	case "panics":
		for i := 0; i < a; i++ {
			sink += rec(i, 3)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: calls work|deep|grow G N | calls panics|loop|names N | calls edge")
		os.Exit(2)
	}
	wg.Wait()
	fmt.Fprintln(os.Stderr, "calls:", os.Args[1], "done", sink)
}
