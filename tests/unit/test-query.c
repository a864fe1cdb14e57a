// SPDX-License-Identifier: GPL-2.0-or-later
/* test-query.c - query_vars()/query_fields() on the real test targets in C, C++, Go and Rust */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/arch/arch.h"
#include "../../src/debuginfo.h"
#include "../../src/parse.h"
#include "../../src/query.h"
#include "../../src/resolve.h"
#include "targets.h"
#include "unittest.h"

/* "name:type" for each variable of each site (with " (optimized out)" or " (unreadable)"
 * when it cannot be read there), sites separated by " | "; or "error: MSG" */
static char *vars_text(struct debuginfo *dbg, const char *place)
{
	struct resolve_opts o = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct probe_spec spec = { 0 };
	struct query_site *qs = NULL;
	size_t nr = 0;
	struct diag d;

	strbuf_init(&sb);
	diag_init(&d, place);
	if (parse_probe(place, &spec, &d) || query_vars(&spec, dbg, &o, &qs, &nr, &d)) {
		strbuf_addf(&sb, "error: %s", d.msg ? d.msg : "?");
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strbuf_addstr(&sb, " | ");
		for (size_t k = 0; k < qs[i].nr; k++) {
			const struct query_var *v = &qs[i].vars[k];

			strbuf_addf(&sb, "%s%s:%s", k ? ", " : "", v->name, v->type);
			if (v->state == QUERY_OPTIMIZED_OUT)
				strbuf_addstr(&sb, " (optimized out)");
			else if (v->state == QUERY_UNREADABLE)
				strbuf_addstr(&sb, " (unreadable)");
		}
	}
out:
	query_sites_free(qs, nr);
	probe_spec_release(&spec);
	diag_release(&d);
	return strbuf_detach(&sb);
}

/* the field names, ", "-separated, or "error: MSG" */
static char *fields_text(struct debuginfo *dbg, const char *place, const char *expr)
{
	struct resolve_opts o = { 0 };
	struct strlist names = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct probe_spec spec = { 0 };
	struct diag d;

	strbuf_init(&sb);
	diag_init(&d, place);
	if (parse_probe(place, &spec, &d) ||
	    query_fields(&spec, expr, dbg, &o, &names, &d)) {
		strbuf_addf(&sb, "error: %s", d.msg ? d.msg : "?");
	} else {
		for (size_t i = 0; i < names.nr; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", names.v[i]);
	}
	strlist_release(&names);
	probe_spec_release(&spec);
	diag_release(&d);
	return strbuf_detach(&sb);
}

#define VARS(dbg, place, want)                                                      \
	do {                                                                        \
		char *_s = vars_text(dbg, place);                                   \
		TEST_STREQ(_s, want);                                               \
		free(_s);                                                           \
	} while (0)

#define FIELDS(dbg, place, expr, want)                                              \
	do {                                                                        \
		char *_s = fields_text(dbg, place, expr);                           \
		TEST_STREQ(_s, want);                                               \
		free(_s);                                                           \
	} while (0)

/* one site's label and function, and -V's text printed from the same arrays */
static void test_site_and_text(struct debuginfo *dbg)
{
	const char *want = "Available variables at process_order\n"
			   "        @<process_order+0x0>\n"
			   "\t\tstruct order *\to\n"
			   "\t\tint\tsum\t(optimized out here)\n";
	struct resolve_opts o = { 0 };
	struct probe_spec spec = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct query_site *qs = NULL;
	size_t nr = 0;
	struct diag d;

	diag_init(&d, "process_order");
	strbuf_init(&out);
	TEST_EQ(parse_probe("process_order", &spec, &d), 0);
	TEST_EQ(query_vars(&spec, dbg, &o, &qs, &nr, &d), 0);
	TEST_EQ(nr, 1);
	if (nr == 1) {
		TEST_STREQ(qs[0].label, "process_order+0x0");
		TEST_STREQ(qs[0].func, "process_order");
		TEST_TRUE(qs[0].has_dwarf);
	}
	TEST_EQ(resolve_list_vars(&spec, dbg, &o, &out, &d), 0);
	TEST_TRUE(!strcmp(strbuf_cstr(&out), want));
	if (strcmp(strbuf_cstr(&out), want))
		printf("# got:\n%s", strbuf_cstr(&out));
	query_sites_free(qs, nr);
	probe_spec_release(&spec);
	strbuf_release(&out);
	diag_release(&d);
}

static void test_c(void)
{
	struct debuginfo *dbg = open_target("c/orders-O2");
	const char *order = "id, seq, total, prio, grade, paid, tier, customer, items, fl, "
			    "weight, ratio, u, ext_id, ext_ptr, zone, shelf, note";

	if (!dbg)
		return;
	test_site_and_text(dbg);
	VARS(dbg, "process_order", "o:struct order *, sum:int (optimized out)");
	VARS(dbg, "set_limits", "a:int, b:unsigned int, c:long int, d:short int, e:char, "
	     "f:_Bool, t:enum tier");
	/* members of the anonymous union and struct are fields of the order */
	FIELDS(dbg, "process_order", "o", order);
	FIELDS(dbg, "process_order", "*o", order);
	FIELDS(dbg, "process_order", "o->customer", "name, code, age, tier");
	FIELDS(dbg, "process_order", "o.items[1]", "sku, qty, price_cents");
	FIELDS(dbg, "process_order", "o->id", "");
	FIELDS(dbg, "process_order", "o->nope", "error: 'order' has no field 'nope'");
	FIELDS(dbg, "process_order", "nope", "error: no variable 'nope' at process_order+0x0");
	FIELDS(dbg, "process_order", "o->", "error: expected a field name after '->'");
	debuginfo_free(dbg);

	dbg = open_target("c/lines-O2");
	if (!dbg)
		return;
	VARS(dbg, "dispatch", "data:const void *, size:int, buf:unsigned char[64], "
	     "id:long unsigned int (optimized out)");
	debuginfo_free(dbg);
}

static void test_cxx(void)
{
	static const char *const bins[] = { "cpp/actors-O0", "cpp/actors-O2" };
	const char *place = "shop::Derived::describe";

	for (size_t i = 0; i < sizeof(bins) / sizeof(bins[0]); i++) {
		struct debuginfo *dbg = open_target(bins[i]);

		if (!dbg)
			continue;
		VARS(dbg, place, "this:shop::Derived *const, it:const shop::Item &, "
		     "note:std::string");
		/* the base class's members, its vtable pointer as gcc names it */
		FIELDS(dbg, place, "this", "_vptr.Base, id, status, name, qty, level");
		/* a reference is followed */
		FIELDS(dbg, place, "it", "sku, count, price");
		/* a member named without this-> */
		FIELDS(dbg, place, "name", "_M_dataplus, _M_string_length, _M_local_buf, "
		       "_M_allocated_capacity");
		debuginfo_free(dbg);
	}
}

static void test_go(void)
{
	struct debuginfo *dbg = open_target("go/orders");

	if (!dbg)
		return;
	VARS(dbg, "main.process", "name:string, ids:[]int, n:int, sum:int (optimized out)");
	VARS(dbg, "main.(*Store).Add", "s:*main.Store, o:*main.Order");
	/* arm64's Go 1.19 ends o's location list (x1) before the epilogue: 0x94268, the ret at
	 * 0x94284 */
	VARS(dbg, "main.(*Store).Add%return",
	     BY_MACHINE("s:*main.Store (optimized out), o:*main.Order",
			"s:*main.Store (optimized out), o:*main.Order (optimized out)"));
	/* the embedded Meta and its members */
	FIELDS(dbg, "main.(*Store).Add", "o", "Meta, Created, Source, ID, Customer, Referrer, "
	       "Items, Note, Err, Paid, Kind, Weight");
	FIELDS(dbg, "main.(*Store).Add", "o.Customer", "Name, Tier");
	FIELDS(dbg, "main.(*Store).Add", "o.Referrer", "Name, Tier");
	FIELDS(dbg, "main.(*Store).Add", "o.Items[0]", "Name, Qty, Price");
	FIELDS(dbg, "main.(*Store).Add", "s", "Name, Count, Orders");
	/* only types matter: a pointer optimized out at the place still has fields */
	FIELDS(dbg, "main.(*Store).Add%return", "s", "Name, Count, Orders");
	FIELDS(dbg, "main.(*Store).*", "s", "Name, Count, Orders");
	debuginfo_free(dbg);
}

static void test_rust(void)
{
	static const char *const bins[] = { "rust/orders-O0", "rust/orders-O1" };

	for (size_t i = 0; i < sizeof(bins) / sizeof(bins[0]); i++) {
		struct debuginfo *dbg = open_target(bins[i]);

		if (!dbg)
			continue;
		VARS(dbg, "orders::shop::add", "o:&orders::shop::Order");
		if (i == 0)	/* at -O1 the pc is inside inlined iterator code */
			VARS(dbg, "orders::shop::sum", "xs:&[u32]");
		FIELDS(dbg, "orders::shop::add", "o", "id, name, tags, items, kind, paid, weight");
		/* a Vec indexed */
		FIELDS(dbg, "orders::shop::add", "o.items[0]", "name, qty");
		debuginfo_free(dbg);
	}
}

int main(void)
{
	test_c();
	test_cxx();
	test_go();
	test_rust();
	return TEST_DONE();
}
