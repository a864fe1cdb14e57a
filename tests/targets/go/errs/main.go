// SPDX-License-Identifier: GPL-2.0-or-later

// Command errs is the Go target of upfront's dynamic types: it passes errors and other
// interface values of several dynamic types (a pointer to a struct, a struct value, a value
// type, a wrapped error, nil) to its probed functions, on the main goroutine and on new ones
// (tests/targets/README.md lists the calls).
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// OpError is a user error type used through a pointer.
type OpError struct {
	Op   string
	Code int
}

func (e *OpError) Error() string { return e.Op + ": code " + strconv.Itoa(e.Code) }

// ValErr is a user error type used as a struct value (boxed in the interface).
type ValErr struct {
	Field string
	Line  int
}

func (e ValErr) Error() string { return "bad " + e.Field + " at line " + strconv.Itoa(e.Line) }

// Label implements fmt.Stringer.
type Label struct {
	Text string
	Prio int
}

func (l *Label) String() string { return l.Text }

// Celsius implements fmt.Stringer with a value type.
type Celsius float64

func (c Celsius) String() string { return strconv.FormatFloat(float64(c), 'f', 1, 64) + "C" }

// Job carries an error and a Stringer in a struct.
type Job struct {
	ID   int
	Err  error
	Note fmt.Stringer
}

var sink int

// seven is read at run time.
var seven = 7

// touched keeps prefault's reads alive.
var touched int

// prefault reads the bytes of an error's message: the kernel reads a probe's memory without
// faulting pages in, and a literal on an untouched page of read-only data could not be read.
func prefault(err error) {
	if err == nil {
		return
	}
	s := err.Error()
	for i := 0; i < len(s); i++ {
		touched += int(s[i])
	}
	var op *OpError
	if errors.As(err, &op) {
		for i := 0; i < len(op.Op); i++ {
			touched += int(op.Op[i])
		}
	}
	var ve ValErr
	if errors.As(err, &ve) {
		for i := 0; i < len(ve.Field); i++ {
			touched += int(ve.Field[i])
		}
	}
}

//go:noinline
func handle(seq int, err error) int {
	if err == nil {
		return seq
	}
	return seq + len(err.Error())
}

//go:noinline
func inspect(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case string:
		return len(x)
	case *OpError:
		return x.Code
	}
	return -1
}

//go:noinline
func describe(s fmt.Stringer) int {
	return len(s.String())
}

//go:noinline
func runJob(j *Job) int {
	n := j.ID
	if j.Err != nil {
		n += len(j.Err.Error())
	}
	return n
}

//go:noinline
func worker(id int, err error) int {
	return handle(100+id, err)
}

func errorsInOrder() []error {
	base := errors.New("disk full")
	return []error{
		base,
		&OpError{Op: "open", Code: 13},
		ValErr{Field: "name", Line: 42},
		syscall.Errno(2),
		fmt.Errorf("save: %w", base),
		nil,
	}
}

func runOnce() {
	errs := errorsInOrder()
	for _, err := range errs {
		prefault(err)
	}
	for i, err := range errs {
		sink += handle(i+1, err)
	}
	lbl := &Label{Text: "urgent", Prio: 3}
	touched += len(lbl.Text) + int(lbl.Text[0])
	// made at run time, so the values are on the heap (not in read-only data the kernel may
	// find unmapped): 700 is past the runtime's table of small boxed integers
	sink += inspect(seven * 100)
	sink += inspect(strings.Repeat("ab", seven/2))
	sink += inspect(&OpError{Op: "read", Code: 5})
	sink += inspect(nil)
	sink += describe(lbl)
	sink += describe(Celsius(21.5))
	sink += runJob(&Job{ID: 1, Err: errs[1], Note: lbl})
	sink += runJob(&Job{ID: 2})
	// on two new goroutines, one after the other: $goid is not 1
	for i := 0; i < 2; i++ {
		var wg sync.WaitGroup
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			sink += worker(id, errs[0])
		}(i)
		wg.Wait()
	}
}

// usage: errs [REPEAT [INTERVAL_MS]]; REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start.
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
	for i := 0; repeat == 0 || i < repeat; i++ {
		runOnce()
		if interval > 0 {
			time.Sleep(time.Duration(interval) * time.Millisecond)
		}
	}
	fmt.Println("errs: sink", sink, "touched", touched)
}
