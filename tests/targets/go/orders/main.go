// SPDX-License-Identifier: GPL-2.0-or-later

// Command orders is the Go test target of upfront: it calls its probed functions a known
// number of times with known values (tests/targets/README.md lists them) and exits.
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"example.com/orders/store"
)

// Meta is embedded in Order.
type Meta struct {
	Created int64
	Source  string
}

// Customer is held by value in Order.
type Customer struct {
	Name string
	Tier uint8
}

// Item is an element of Order.Items.
type Item struct {
	Name  string
	Qty   int
	Price float64
}

// Label implements fmt.Stringer; Order.Note holds a *Label.
type Label struct {
	Text string
}

func (l *Label) String() string { return l.Text }

// Kind is an integer type with names.
type Kind int

const (
	KindRetail Kind = iota
	KindWholesale
)

// Order is what Store.Add receives.
type Order struct {
	Meta
	ID       int
	Customer Customer
	Referrer *Customer
	Items    []Item
	Note     fmt.Stringer
	Err      error
	Paid     bool
	Kind     Kind
	Weight   float64
}

// Store collects orders.
type Store struct {
	Name   string
	Count  int
	Orders []*Order
}

var sink int

// Add is called twice: with order 1 (alice) and order 2 (bob).
//
//go:noinline
func (s *Store) Add(o *Order) {
	s.Orders = append(s.Orders, o)
	s.Count++
	sink += o.ID + len(o.Items)
}

// process takes a string and a slice in registers; called once: ("batch-7", [10 20 30], 3).
//
//go:noinline
func process(name string, ids []int, n int) int {
	sum := len(name) + n
	for _, id := range ids {
		sum += id
	}
	return sum
}

// total returns an int; called for order 1 and order 2 (returns 3*Qty sums: 5, 9).
//
//go:noinline
func total(o *Order) int {
	t := 0
	for _, it := range o.Items {
		t += it.Qty
	}
	return t
}

// label returns a string; called once with order 1 ("alice#1").
//
//go:noinline
func label(o *Order) string {
	return o.Customer.Name + "#" + strconv.Itoa(o.ID)
}

// names returns a slice; called once with order 1 (["pen" "ink" "pad"]).
//
//go:noinline
func names(o *Order) []Item {
	return o.Items
}

var errNotFound = errors.New("order not found")

// find returns two results; called with 1 (1, nil) then 99 (0, errNotFound).
//
//go:noinline
func find(id int) (int, error) {
	if id == 1 {
		return 1, nil
	}
	return 0, errNotFound
}

// hot is the goroutine-churn function: returns x*2+1.
//
//go:noinline
func hot(x int) int {
	return x*2 + 1
}

// touched keeps prefault's reads alive.
var touched int

// prefault reads every string an Order points to. The kernel reads a probe's memory without
// faulting pages in: a string literal on a page of read-only data the process has not
// touched yet cannot be read at the probe (a number read there is not even marked as failed).
// The tests trace values, not this kernel limit (see upfront(1), BUGS), so touch them first.
func prefault(o *Order) {
	strs := []string{o.Meta.Source, o.Customer.Name}
	for _, it := range o.Items {
		strs = append(strs, it.Name)
	}
	if o.Referrer != nil {
		strs = append(strs, o.Referrer.Name)
	}
	if l, ok := o.Note.(*Label); ok {
		strs = append(strs, l.Text)
	}
	for _, str := range strs {
		for i := 0; i < len(str); i++ {
			touched += int(str[i])
		}
	}
}

func runOnce(s *Store, l *store.Ledger) {
	ref := &Customer{Name: "carol", Tier: 9}
	o1 := &Order{
		Meta:     Meta{Created: 1700000000, Source: "web"},
		ID:       1,
		Customer: Customer{Name: "alice", Tier: 2},
		Referrer: ref,
		Items: []Item{
			{Name: "pen", Qty: 1, Price: 1.5},
			{Name: "ink", Qty: 3, Price: 2.25},
			{Name: "pad", Qty: 1, Price: 0.5},
		},
		Note:   &Label{Text: "rush"},
		Paid:   true,
		Kind:   KindWholesale,
		Weight: 0.75,
	}
	o2 := &Order{
		Meta:     Meta{Created: 1700000100, Source: "phone"},
		ID:       2,
		Customer: Customer{Name: "bob", Tier: 1},
		Referrer: nil,
		Items: []Item{
			{Name: "cable", Qty: 4, Price: 3.0},
			{Name: "plug", Qty: 5, Price: 4.5},
		},
		Err:    errNotFound,
		Paid:   false,
		Kind:   KindRetail,
		Weight: -2.5,
	}
	prefault(o1)
	prefault(o2)
	s.Add(o1)
	s.Add(o2)
	sink += process("batch-7", []int{10, 20, 30}, 3)
	sink += total(o1)
	sink += total(o2)
	sink += len(label(o1))
	sink += len(names(o1))
	n, err := find(1)
	sink += n
	if err != nil {
		sink++
	}
	n, err = find(99)
	sink += n
	if err != nil {
		sink++
	}
	sink += l.Record("alice", 3)
	sink += l.Record("bob", 5)
	sink += int(store.Lookup(l, "bob"))
	sink += growMany(20)
}

// bigframe has an 8 KB frame: called first thing in a new goroutine (whose stack starts
// smaller), its stack check fails and runtime.morestack runs it again from its entry.
//
//go:noinline
func bigframe(n int) int {
	var buf [8192]byte
	buf[n%len(buf)] = byte(n)
	return int(buf[(n*7)%len(buf)]) + n
}

// growMany calls bigframe(0..n-1) once each, each in a fresh goroutine, in order.
func growMany(n int) int {
	total := 0
	for i := 0; i < n; i++ {
		done := make(chan int)
		go func(i int) { done <- bigframe(i) }(i)
		total += <-done
	}
	return total
}

// churn calls hot from many short-lived goroutines for the given duration.
func churn(d time.Duration) {
	deadline := time.Now().Add(d)
	var mu sync.Mutex
	total := 0
	for time.Now().Before(deadline) {
		var wg sync.WaitGroup
		for g := 0; g < 64; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				buf := make([]byte, 1024*(g%8+1)) // grow stacks now and then
				v := hot(g) + int(buf[0])
				mu.Lock()
				total += v
				mu.Unlock()
			}(g)
		}
		wg.Wait()
	}
	fmt.Println("churn:", total > 0)
}

// usage: orders [REPEAT [INTERVAL_MS]] | orders churn SECONDS
// REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start.
func main() {
	if ms, err := strconv.Atoi(os.Getenv("UPFT_TARGET_DELAY_MS")); err == nil {
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	if len(os.Args) > 2 && os.Args[1] == "churn" {
		secs, _ := strconv.ParseFloat(os.Args[2], 64)
		churn(time.Duration(secs * float64(time.Second)))
		return
	}
	repeat, interval := 1, 0
	if len(os.Args) > 1 {
		repeat, _ = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) > 2 {
		interval, _ = strconv.Atoi(os.Args[2])
	}
	s := &Store{Name: "main"}
	l := &store.Ledger{Owner: "ledger-1"}
	for i := 0; repeat == 0 || i < repeat; i++ {
		runOnce(s, l)
		if interval > 0 {
			time.Sleep(time.Duration(interval) * time.Millisecond)
		}
	}
	fmt.Println("orders: sink", sink, "count", s.Count)
}
