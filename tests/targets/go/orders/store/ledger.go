// SPDX-License-Identifier: GPL-2.0-or-later

// Package store is the Go test target's sub package: functions probed by their package path.
package store

// Entry is one line of the ledger.
type Entry struct {
	Name   string
	Amount int64
}

// Ledger keeps entries.
type Ledger struct {
	Owner   string
	Entries []Entry
}

// Record is called twice by the orders target: ("alice", 3), ("bob", 5).
//
//go:noinline
func (l *Ledger) Record(name string, qty int) int {
	l.Entries = append(l.Entries, Entry{Name: name, Amount: int64(qty)})
	return len(l.Entries)
}

// Lookup is called once with "bob"; returns its amount.
//
//go:noinline
func Lookup(l *Ledger, name string) int64 {
	for _, e := range l.Entries {
		if e.Name == name {
			return e.Amount
		}
	}
	return -1
}
