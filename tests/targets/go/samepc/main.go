// SPDX-License-Identifier: GPL-2.0-or-later
// samepc: a function and another's inlined copy probed at one address (tests/e2e/samepc.sh).
// formatFlag is inlined into flagString; the probe placement puts both on the same emulated
// je, as -a '*' found in docker ((*boolValue).String and strconv.FormatBool).
//
// usage: samepc [N]  - calls flagString N times (default 3), alternating true and false
package main

import (
	"fmt"
	"os"
	"strconv"
)

type flagValue bool

func formatFlag(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

//go:noinline
func (f *flagValue) flagString() string {
	return formatFlag(bool(*f))
}

func main() {
	n := 3
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	for i := 0; i < n; i++ {
		v := flagValue(i%2 == 0)
		fmt.Println(v.flagString())
	}
}
