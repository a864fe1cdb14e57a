// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c */
int main(void) { return 0; }
