/* SPDX-License-Identifier: GPL-2.0-or-later */
/* demangle.h - C++ and Rust symbol names as the language spells them (libiberty) */
#ifndef UPF_DEMANGLE_H
#define UPF_DEMANGLE_H

#include <stdbool.h>

/**
 * demangle() - a symbol name as its language spells it
 * @sym: the symbol as in the ELF symbol table ("_ZN2ns1C1mEi", "_ZN5crate3mod4func17h...E",
 *       "_RNv...", "main.(*server).handleRequest", "getaddrinfo")
 * @params: C++: keep the parameter list ("ns::C::m(int)"); without it "ns::C::m"
 * Return: a new string (free()): demangled C++ / Rust (legacy hash dropped, v0), or a copy
 * of @sym when it is not mangled (C, Go).
 */
char *demangle(const char *sym, bool params);

/**
 * is_mangled() - @sym looks like a C++ or Rust mangled name (_Z..., _R...)
 */
bool is_mangled(const char *sym);

#endif
