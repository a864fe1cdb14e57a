// SPDX-License-Identifier: GPL-2.0-or-later

// whole: whole values for the e2e cases (tests/e2e/cases/whole.cases): a nested struct with
// strings, a slice of structs, a slice of numbers, a 2-D array, an embedded struct, a pointer
// member, a func value. Each probed function is called once; the values were checked with
// delve ("print o", "print o.Items") at each function's entry, with -N -l and optimized.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

type Point struct {
	X, Y int
}

type Item struct {
	Sku string
	Qty int32
}

type Base struct {
	ID int
}

type Order struct {
	Base
	Name   string
	Where  Point
	Items  []Item
	Counts []int
	Grid   [2][3]int8
	Owner  *Point
	Paid   bool
	Hook   func(int) int
	Note   string
	Spare  *Point
}

// Node is a tree: a struct that holds itself through a slice, shown 8 levels deep at most
type Node struct {
	Name string
	Kids []Node
}

var sink int

func double(x int) int { return 2 * x }

//go:noinline
func submit(o Order) int {
	sink += o.Where.X
	return len(o.Items)
}

//go:noinline
func check(o *Order) int {
	sink += o.ID
	return o.ID
}

//go:noinline
func maybe(o *Point) int {
	if o == nil {
		return 0
	}
	return o.X
}

//go:noinline
func count(m map[string]int, c chan int) int {
	return len(m) + cap(c)
}

// Reg has a map, which takes more of the record than the budget left for it in a test
type Reg struct {
	Tags map[string]int
	Size int
}

//go:noinline
func register(r Reg) int {
	return len(r.Tags) + r.Size
}

//go:noinline
func walk(n Node) int {
	sink += len(n.Kids)
	return len(n.Name)
}

//go:noinline
func apply(f func(int) int, xs []int) int {
	sink += len(xs)
	return f(len(xs))
}

func main() {
	repeat := 1
	interval := 0
	if len(os.Args) > 1 {
		repeat, _ = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) > 2 {
		interval, _ = strconv.Atoi(os.Args[2])
	}
	if d := os.Getenv("UPFT_TARGET_DELAY_MS"); d != "" {
		ms, _ := strconv.Atoi(d)
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	owner := &Point{X: 5, Y: 6}
	o := Order{
		Base:   Base{ID: 7},
		Name:   "alice",
		Where:  Point{X: 1, Y: -2},
		Items:  []Item{{Sku: "sku-a", Qty: 2}, {Sku: "sku-b", Qty: 3}},
		Counts: make([]int, 3, 5),
		Grid:   [2][3]int8{{1, 2, 3}, {4, 5, 6}},
		Owner:  owner,
		Paid:   true,
		Hook:   double,
		Note:   "",
	}
	o.Counts[0], o.Counts[1], o.Counts[2] = 10, 20, 30
	tree := Node{Name: "root"}
	at := &tree
	for i := 1; i <= 12; i++ {
		at.Kids = []Node{{Name: "n" + strconv.Itoa(i)}, {Name: "leaf"}}
		at = &at.Kids[0]
	}
	total := 0
	for r := 0; repeat == 0 || r < repeat; r++ {
		if r > 0 && interval > 0 {
			time.Sleep(time.Duration(interval) * time.Millisecond)
		}
		total += submit(o)
		total += check(&o)
		total += apply(double, o.Counts)
		total += walk(tree)
		total += maybe(nil)
		total += maybe(owner)
		total += count(map[string]int{"a": 1}, make(chan int, 3))
		total += register(Reg{Tags: map[string]int{"x": 1}, Size: 3})
	}
	fmt.Println("whole:", total, sink)
}
