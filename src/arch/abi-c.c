// SPDX-License-Identifier: GPL-2.0-or-later
/* abi-c.c - what the C ABIs of every machine share (System V on x86-64, AAPCS64): which
 * functions their rules answer, C++ classes passed and returned in memory, alignment, the
 * walk over a function's parameters */
#define LOG_DOMAIN "abi"

#include <dwarf.h>
#include <errno.h>
#include <string.h>

#include "arch/abi-c.h"
#include "util.h"

/* Names of a C++ class's constructors: the class name up to its template arguments. */
static bool cxx_is_ctor_name(const char *fn, const char *cls)
{
	size_t n = strcspn(cls, "<");

	return fn && !strncmp(fn, cls, n) && (fn[n] == '\0' || fn[n] == '<');
}

static bool die_flag(Dwarf_Die *die, unsigned int at)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_attr(die, at, &attr) && dwarf_formflag(&attr, &flag) == 0 && flag;
}

/* The member function is defaulted in its class (trivial unless its members are not). */
static bool defaulted_in_class(Dwarf_Die *fn)
{
	Dwarf_Attribute attr;
	Dwarf_Word v = 0;

	return dwarf_attr(fn, DW_AT_defaulted, &attr) && dwarf_formudata(&attr, &v) == 0 &&
	       v == DW_DEFAULTED_in_class;
}

/* A copy or move constructor: its first parameter after this is a reference to @cls. */
static bool is_copy_ctor(Dwarf_Die *fn, Dwarf_Die *cls)
{
	Dwarf_Die p, t, to;

	if (dwarf_child(fn, &p) != 0)
		return false;
	do {
		int tag;

		if (dwarf_tag(&p) != DW_TAG_formal_parameter || die_flag(&p, DW_AT_artificial))
			continue;
		if (!lang_type_of(&p, &t))
			return false;
		tag = lang_strip(&t, &t);
		if (tag != DW_TAG_reference_type && tag != DW_TAG_rvalue_reference_type)
			return false;
		if (!lang_type_of(&t, &to) || !lang_strip(&to, &to))
			return false;
		return dwarf_dieoffset(&to) == dwarf_dieoffset(cls) ||
		       (dwarf_diename(&to) && dwarf_diename(cls) &&
			!strcmp(dwarf_diename(&to), dwarf_diename(cls)));
	} while (dwarf_siblingof(&p, &p) == 0);
	return false;
}

/*
 * cxx_nontrivial() - the Itanium C++ ABI returns a class in memory when it has a non-trivial
 * copy or move constructor or destructor: user-provided ones, virtual functions or bases,
 * or any base or member that has them.
 */
static bool cxx_nontrivial(Dwarf_Die *type, int depth)
{
	const char *cls = dwarf_diename(type);
	Dwarf_Die child, t;

	if (depth > 8 || dwarf_child(type, &child) != 0)
		return false;
	do {
		const char *n = dwarf_diename(&child);
		int tag = dwarf_tag(&child);

		switch (tag) {
		case DW_TAG_subprogram:
			if (die_flag(&child, DW_AT_artificial) || defaulted_in_class(&child))
				break;
			if (dwarf_hasattr(&child, DW_AT_virtuality))
				return true;
			if (n && n[0] == '~')
				return true;
			if (cls && cxx_is_ctor_name(n, cls) && is_copy_ctor(&child, type))
				return true;
			break;
		case DW_TAG_inheritance:
			if (dwarf_hasattr(&child, DW_AT_virtuality))
				return true;
			/* fallthrough */
		case DW_TAG_member:
			if (tag == DW_TAG_member && n && !strncmp(n, "_vptr", 5))
				return true;
			if (tag == DW_TAG_member &&
			    !dwarf_hasattr(&child, DW_AT_data_member_location))
				break;	/* static */
			if (!lang_type_of(&child, &t))
				break;
			tag = lang_strip(&t, &t);
			while (tag == DW_TAG_array_type && lang_type_of(&t, &t))
				tag = lang_strip(&t, &t);
			if ((tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
			     tag == DW_TAG_union_type) && cxx_nontrivial(&t, depth + 1))
				return true;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

bool abi_cxx_nontrivial(Dwarf_Die *type)
{
	return cxx_nontrivial(type, 0);
}

/* c_align() - the alignment of @type, for its slot on the stack */
static int64_t c_align(Dwarf_Die *type, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Word al = 0;
	Dwarf_Die t, child, mt;
	int64_t a = 1, size;
	int tag = lang_strip(type, &t);

	if (dwarf_attr(&t, DW_AT_alignment, &attr) && dwarf_formudata(&attr, &al) == 0 && al)
		return (int64_t)al;
	if (depth > 16)
		return 8;
	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_child(&t, &child) == 0) {
			do {
				int64_t ma;

				if ((dwarf_tag(&child) == DW_TAG_member ||
				     dwarf_tag(&child) == DW_TAG_inheritance) &&
				    lang_type_of(&child, &mt) && (ma = c_align(&mt, depth + 1)) > a)
					a = ma;
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		return a;
	case DW_TAG_array_type:
		return lang_type_of(&t, &mt) ? c_align(&mt, depth + 1) : 8;
	default:
		size = lang_type_size(&t);
		return size > 16 ? 16 : size < 1 ? 1 : size;
	}
}

int64_t abi_c_align(Dwarf_Die *type)
{
	return c_align(type, 0);
}

/* The CU of @func is C (lang_c also stands for languages upfront knows nothing of). */
static bool is_c(Dwarf_Die *func)
{
	Dwarf_Die cu;

	if (!dwarf_diecu(func, &cu, NULL, NULL))
		return false;
	switch (dwarf_srclang(&cu)) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
	case 0x2c:	/* DW_LANG_C17 */
		return true;
	default:
		return false;
	}
}

/* A C++ constructor or destructor, by its Itanium mangled name (C1-C4, D0-D4). */
static bool cxx_is_structor(Dwarf_Die *func)
{
	Dwarf_Attribute attr;
	const char *ln = NULL, *name;

	if (dwarf_attr_integrate(func, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(func, DW_AT_MIPS_linkage_name, &attr))
		ln = dwarf_formstring(&attr);
	if (ln) {
		for (const char *p = ln; (p = strpbrk(p, "CD")); p++)
			if (p[1] >= '0' && p[1] <= '4' && (p[2] == 'E' || p[2] == 'I'))
				return true;
		return false;
	}
	/* no linkage name: a destructor is named ~X; a constructor cannot be told */
	name = dwarf_diename(func);
	return !name || name[0] == '~' || !dwarf_attr_integrate(func, DW_AT_name, &attr);
}

bool abi_c_refused(Dwarf_Die *func, const struct lang_ops *lang, const char **why)
{
	Dwarf_Attribute pattr;
	Dwarf_Word cc = 0;
	bool proto = false;
	Dwarf_Die child;

	if ((lang != &lang_c && lang != &lang_cxx) || (lang == &lang_c && !is_c(func))) {
		*why = "not C or C++: no rules for its own ABI";
		return true;
	}
	if (lang == &lang_c && (!dwarf_attr_integrate(func, DW_AT_prototyped, &pattr) ||
				dwarf_formflag(&pattr, &proto) || !proto) &&
	    dwarf_child(func, &child) == 0) {
		*why = "a K&R definition (arguments promoted)";
		return true;
	}
	/* DW_CC_nocall: gcc changed the signature (IPA-SRA, a clone); any other: not the C ABI */
	if (dwarf_attr_integrate(func, DW_AT_calling_convention, &pattr) &&
	    (dwarf_formudata(&pattr, &cc) || cc != DW_CC_normal)) {
		*why = "not the normal calling convention (DW_AT_calling_convention)";
		return true;
	}
	if (lang == &lang_cxx && cxx_is_structor(func)) {
		*why = "a C++ constructor or destructor (hidden parameters)";
		return true;
	}
	return false;
}

int abi_c_params(Dwarf_Die *func, const struct lang_ops *lang, abi_c_place_fn place,
		 void *state, struct abi_value **out, size_t *nr, const char **why)
{
	struct abi_value *v = NULL;
	size_t n = 0, alloc = 0;
	Dwarf_Die child;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (dwarf_child(func, &child) != 0)
		return 0;
	do {
		struct abi_value *a;

		if (dwarf_tag(&child) == DW_TAG_unspecified_parameters) {
			*why = "variadic";
			ret = -ENOTSUP;
			break;
		}
		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		ALLOC_GROW(v, n + 1, alloc);
		a = &v[n++];
		memset(a, 0, sizeof(*a));
		a->name = xstrdup(dwarf_diename(&child) ? dwarf_diename(&child) : "");
		a->die = child;
		if (!(a->has_type = lang_type_of(&child, &a->type))) {
			*why = "a parameter without a type";
			ret = -ENOTSUP;
			break;
		}
		ret = place(&a->type, lang, state, &a->loc, why);
	} while (!ret && dwarf_siblingof(&child, &child) == 0);
	if (ret) {
		abi_values_free(v, n);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}
