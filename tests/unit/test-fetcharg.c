// SPDX-License-Identifier: GPL-2.0-or-later
#include "unittest.h"
int main(void) { return TEST_DONE(); }
