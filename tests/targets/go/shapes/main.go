// SPDX-License-Identifier: GPL-2.0-or-later

// Command shapes is the Go target of Go's own value shapes: maps (small, empty, nil, larger
// than one bucket), fields promoted through an embedded pointer (set and nil), locals that
// escaped to the heap (DWARF names them "&x"), and, built optimized, a slice whose length
// DWARF marks optimized out where it is indexed (tests/targets/README.md lists the calls).
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Inner is embedded through a pointer in Outer.
type Inner struct {
	S string
	N int
}

// Base is embedded by value in Outer.
type Base struct {
	ID int
}

// Outer promotes S and N through *Inner, ID through Base.
type Outer struct {
	Base
	*Inner
	Tag string
}

// Point is a map value of struct type.
type Point struct {
	X, Y int
}

var sinkp *int
var sinks []string
var sink int

//go:noinline
func promoted(o *Outer) int {
	if o.Inner == nil {
		return o.ID
	}
	return o.ID + o.N + len(o.S)
}

//go:noinline
func maps(ages map[string]int, names map[int]string, pts map[string]Point, big map[int]int,
	empty map[string]int, none map[string]int, at map[Point]string) int {
	return len(ages) + len(names) + len(pts) + len(big) + len(empty) + len(none) + len(at)
}

//go:noinline
func escaped(n int) int {
	i1 := n * 2
	p := &i1
	sinkp = p
	*p += 1
	sink += i1 // main.go:64: i1 lives on the heap, DWARF names it &i1
	return i1
}

//go:noinline
func keep(s []string) { sinks = s }

//go:noinline
func firsts(s1 []string) int {
	n := len(s1[0])
	keep(nil)
	return n + len(s1[0]) // main.go:75: optimized, no s1.len here
}

//go:noinline
func check(name string, src []byte) (int, error) {
	if bytes.HasPrefix(src, []byte("package")) {
		return len(src), nil
	}
	return 0, errors.New(name + ": expected 'package'")
}

// parse is shaped like gofmt's: built optimized by Go 1.19, the DWARF location of src at its
// entry has 32 bytes of pieces (its pointer twice) for a 24-byte slice (golang/go#61700).
//
//go:noinline
func parse(name string, src []byte, ok bool) (n int, adj func(b []byte, i int) []byte, err error) {
	n, err = check(name, src)
	if err == nil || !ok || !strings.Contains(err.Error(), "expected 'package'") {
		return
	}
	psrc := append([]byte("package p;"), src...)
	n, err = check(name, psrc)
	if err == nil {
		adj = func(b []byte, i int) []byte {
			return bytes.TrimSpace(b[i+len("package p\n"):])
		}
	}
	return
}

func main() {
	ages := map[string]int{"alice": 31, "bob": 42, "carol": 27}
	names := map[int]string{1: "one", 2: "two"}
	pts := map[string]Point{"origin": {0, 0}, "corner": {3, 4}}
	big := map[int]int{}
	for i := 0; i < 40; i++ {
		big[i] = i * i
	}
	total := maps(ages, names, pts, big, map[string]int{}, nil, map[Point]string{{1, 2}: "a"})
	total += promoted(&Outer{Base{7}, &Inner{"inner", 5}, "set"})
	total += promoted(&Outer{Base{8}, nil, "nil"})
	total += escaped(20)
	total += firsts([]string{"one", "two", "three", "four", "five"})
	n, _, _ := parse("a.go", []byte("package a\n"), true)
	total += n
	n, adj, _ := parse("b.go", []byte("func g() {}\n"), true)
	if adj != nil {
		total += n
	}
	fmt.Fprintln(os.Stdout, "shapes", total)
}
