// SPDX-License-Identifier: GPL-2.0-or-later
// dots: a package whose import path's last element has a dot (yaml.v3, as gopkg.in/yaml.v3):
// Go's linker names its functions upft.test/dots/yaml%2ev3.(*Parser).Parse
// (tests/e2e/placenames.sh)
package main

import (
	"fmt"
	"os"
	"strconv"

	yaml "upft.test/dots/yaml.v3"
)

func main() {
	n := 3
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	p := &yaml.Parser{}
	total := 0
	for i := 0; i < n; i++ {
		total += p.Parse("key: value" + strconv.Itoa(i))
	}
	fmt.Println(total)
}
