// SPDX-License-Identifier: GPL-2.0-or-later

// Command nums is the Go target of upfront's numbers: complex numbers, infinities and NaN,
// a pointer into unmapped memory, and float64 arguments and results that arrive in xmm
// registers (a gauge shaped like Prometheus client_golang's, whose Set and Add store the
// value's bits atomically). tests/targets/README.md lists the calls.
package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"
)

// gauge is client_golang's prometheus.gauge, cut to what Set, Add and Value touch.
type gauge struct {
	valBits uint64
	name    string
}

// Set is client_golang's (*gauge).Set.
//
//go:noinline
func (g *gauge) Set(val float64) {
	atomic.StoreUint64(&g.valBits, math.Float64bits(val))
}

// Add is client_golang's (*gauge).Add.
//
//go:noinline
func (g *gauge) Add(val float64) {
	for {
		oldBits := atomic.LoadUint64(&g.valBits)
		newBits := math.Float64bits(math.Float64frombits(oldBits) + val)
		if atomic.CompareAndSwapUint64(&g.valBits, oldBits, newBits) {
			return
		}
	}
}

// Value returns the gauge's value (a float64 result, in X0).
//
//go:noinline
func (g *gauge) Value() float64 {
	return math.Float64frombits(atomic.LoadUint64(&g.valBits))
}

// scale takes a float it only multiplies: the value never leaves xmm registers.
//
//go:noinline
func scale(x float64, n int) float64 {
	return x * float64(n)
}

// Nums holds values that are easy to show wrong.
type Nums struct {
	C64    complex64
	C128   complex128
	PInf   float64
	NInf   float64
	NaN    float64
	F32Inf float32
	Unread *int
	Nil    *int
	Name   string
}

var sink int

//go:noinline
func check(n *Nums, c complex128, f float32) int {
	if n.Nil != nil {
		sink++
	}
	return len(n.Name) + int(real(c)) + int(f)
}

// usage: nums [REPEAT [INTERVAL_MS]]; REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start.
func main() {
	if ms, err := strconv.Atoi(os.Getenv("UPFT_TARGET_DELAY_MS")); err == nil {
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	repeat, interval := 1, 0
	if len(os.Args) > 1 {
		repeat, _ = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) > 2 {
		interval, _ = strconv.Atoi(os.Args[2])
	}
	g := &gauge{name: "fake_gauge"}
	var total float64
	for i := 0; repeat == 0 || i < repeat; i++ {
		n := &Nums{
			C64:    complex(1, 2),
			C128:   complex(-1.5, 0.25),
			PInf:   math.Inf(1),
			NInf:   math.Inf(-1),
			NaN:    math.NaN(),
			F32Inf: float32(math.Inf(1)),
			Unread: (*int)(unsafe.Pointer(uintptr(12345))),
			Name:   "nums",
		}
		sink += check(n, complex(3, -4), 2.5)
		g.Set(42.5)
		g.Add(5)
		g.Add(-7.25)
		g.Set(math.Inf(-1))
		total += g.Value()
		g.Set(0.1)
		total += g.Value()
		total += scale(1.5, 3)
		if interval > 0 {
			time.Sleep(time.Duration(interval) * time.Millisecond)
		}
	}
	fmt.Println("nums: sink", sink, "total", total)
}
