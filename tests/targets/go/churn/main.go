// SPDX-License-Identifier: GPL-2.0-or-later
// churn - Go target for %return: results of every shape, and a hot function under heavy
// goroutine churn with stack growth (where a uretprobe would crash the program).
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

type item struct {
	Name string
	Qty  int
}

//go:noinline
func add(a, b int) int {
	return a + b
}

//go:noinline
func greet(name string) string {
	if name == "" {
		return "hello, nobody"
	}
	return "hello, " + name
}

//go:noinline
func evens(n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, 2*i+10)
	}
	return out
}

//go:noinline
func items(n int) []item {
	out := make([]item, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, item{Name: "item" + strconv.Itoa(i), Qty: i + 1})
	}
	return out
}

var errDivZero = errors.New("division by zero")

//go:noinline
func divide(a, b int) (int, error) {
	if b == 0 {
		return 0, errDivZero
	}
	return a / b, nil
}

//go:noinline
func minmax(v []int) (lo int, hi int) {
	lo, hi = v[0], v[0]
	for _, x := range v[1:] {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return
}

// grid returns an array of three: passed on the stack even with the register ABI.
//
//go:noinline
func grid(n int) (cells [3]int, tag string) {
	cells = [3]int{n, n * 2, n * 3}
	tag = "grid" + strconv.Itoa(n)
	return
}

//go:noinline
func ratio(a, b int) (float64, bool) {
	if b == 0 {
		return 0, false
	}
	return float64(a) / float64(b), true
}

// grow recurses with a big frame so the goroutine's stack must be copied to a larger one.
//
//go:noinline
func grow(depth int) int {
	var pad [256]byte
	pad[depth%256] = byte(depth)
	if depth == 0 {
		return int(pad[0])
	}
	return grow(depth-1) + int(pad[depth%256]&1)
}

// hot is the function traced with %return under churn: its result is 3*i+1.
//
//go:noinline
func hot(i int) int {
	if i%7 == 0 {
		grow(64)
	}
	return 3*i + 1
}

func once(n int) {
	fmt.Println("add", add(n, 3))
	fmt.Println("greet", greet("gopher"))
	e := evens(n)
	fmt.Println("evens", len(e), e[0])
	it := items(n)
	fmt.Println("items", len(it), it[0].Name)
	q, err := divide(n*10, 4)
	fmt.Println("divide", q, err)
	q, err = divide(n, 0)
	fmt.Println("divide", q, err)
	lo, hi := minmax([]int{n, 9, -2, 40})
	fmt.Println("minmax", lo, hi)
	cells, tag := grid(n)
	fmt.Println("grid", cells[2], tag)
	r, ok := ratio(n, 2)
	fmt.Println("ratio", r, ok)
}

func churn(d time.Duration) {
	deadline := time.Now().Add(d)
	var calls, bad int64
	var mu sync.Mutex
	for time.Now().Before(deadline) {
		var wg sync.WaitGroup
		for g := 0; g < 64; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				var c, b int64
				for i := g; i < g+50; i++ {
					if hot(i) != 3*i+1 {
						b++
					}
					c++
				}
				mu.Lock()
				calls += c
				bad += b
				mu.Unlock()
			}(g)
		}
		wg.Wait()
	}
	fmt.Println("churn calls", calls, "bad", bad)
	if bad != 0 {
		os.Exit(1)
	}
}

func main() {
	mode, arg := "once", 5
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	if len(os.Args) > 2 {
		arg, _ = strconv.Atoi(os.Args[2])
	}
	switch mode {
	case "once":
		once(arg)
	case "churn":
		churn(time.Duration(arg) * time.Second)
	default:
		fmt.Fprintln(os.Stderr, "usage: churn [once N | churn SECONDS]")
		os.Exit(2)
	}
}
