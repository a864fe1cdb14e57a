/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsonread.h - a small JSON reader for the lines upfront writes (replay.h) */
#ifndef UPF_JSONREAD_H
#define UPF_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

/* One value; members of an object keep their order. */
struct json {
	enum json_type type;
	bool b;
	bool is_int;		/* a number written without fraction or exponent */
	bool negative;
	uint64_t u;		/* is_int: the magnitude */
	double num;
	char *str;		/* JSON_STRING: decoded UTF-8, NUL-terminated (may hold NULs) */
	size_t len;
	const char *raw;	/* the value's text in the input (borrowed) */
	size_t raw_len;
	char **keys;		/* JSON_OBJECT */
	struct json *kids;	/* JSON_ARRAY, JSON_OBJECT */
	size_t nr;
};

/**
 * json_parse() - parse @len bytes of @text, one value and blanks around it
 * @out: filled; its raw pointers borrow @text
 * Return: 0, or -EINVAL with *@err_at set to the offset of the first bad byte.
 */
int json_parse(const char *text, size_t len, struct json *out, size_t *err_at);

/**
 * json_release() - free what json_parse() allocated in @v
 */
void json_release(struct json *v);

/**
 * json_get() - member @key of object @v, or NULL
 */
const struct json *json_get(const struct json *v, const char *key);

#endif
