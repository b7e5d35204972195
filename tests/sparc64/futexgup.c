// SPDX-License-Identifier: GPL-2.0
/*
 * futexgup: the futex calls that reach get_user_pages_fast() with addresses
 * the lockless walk must refuse, on a sparc64 guest. Shared futexes
 * (no FUTEX_PRIVATE_FLAG) look their key up with get_user_pages_fast(),
 * write first, then read-only for FUTEX_WAIT. One KTAP subtest each:
 *  - the 2019 reproducer (strace's futex.test, Dmitry V. Levin): FUTEX_WAIT
 *    on an unmapped page between two mapped ones fails with EFAULT; with
 *    sparc64's old pud_huge() the read-only retry took the PUD's table
 *    pointer for a huge page and oopsed;
 *  - the VA-hole alias: an address in the hole with the page-table indices
 *    of a mapped page (same low 53 bits): FUTEX_WAKE fails with EFAULT
 *    instead of keying on the mapped page (FUTEX_WAIT would fail anyway,
 *    reading the value at the hole address);
 *  - the wrap: the last page of the address space (start + length
 *    overflows) fails with EOVERFLOW, where stock 6.1 returned 0 pages as
 *    success to get_futex_key().
 * Needs: a 64-bit task (sparc64 user space above the VA hole).
 * Overhead: none to speak of.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int nt, failed;

static long futex(void *addr, int op, uint32_t val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

/* One case: the call must fail with errno want. */
static void expect(const char *name, void *addr, int op, uint32_t val, int want)
{
	long r;

	errno = 0;
	r = futex(addr, op, val);
	nt++;
	if (r == -1 && errno == want) {
		printf("    ok %d %s\n", nt, name);
		return;
	}
	failed++;
	printf("    not ok %d %s\n", nt, name);
	printf("    # %s: futex(%p) returned %ld, errno %d (%s), want -1 %s\n", name, addr,
	       r, errno, strerror(errno), strerrorname_np(want));
}

int main(void)
{
	long psz = sysconf(_SC_PAGESIZE);
	unsigned long alias;
	char *p;

	/* line-buffered: what was printed before an oops kills us stays */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* 2019: mmap three pages, unmap the middle one, wait on it */
	p = mmap(NULL, 3 * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		printf("# mmap: %s\n", strerror(errno));
		return 1;
	}
	p[0] = p[2 * psz] = 1;
	munmap(p + psz, psz);
	printf("# pages at %p and %p, hole page at %p\n", (void *)p, (void *)(p + 2 * psz),
	       (void *)(p + psz));
	expect("FUTEX_WAIT on an unmapped page between two mapped ones: EFAULT (2019 oops)",
	       p + psz, FUTEX_WAIT, 0, EFAULT);

	/*
	 * The alias: sparc64 page tables keep 53 bits of address. Mapped pages
	 * live above the hole; clearing the top 11 bits lands inside it.
	 */
	alias = (unsigned long)p & ((1UL << 53) - 1);
	printf("# %p aliases %p in the page tables\n", (void *)alias, (void *)p);
	if (alias == (unsigned long)p) {
		nt++;
		printf("    ok %d VA-hole alias # SKIP the mapping is below the hole (%p)\n", nt, (void *)p);
	} else {
		expect("FUTEX_WAKE on a VA-hole alias of a mapped page: EFAULT", (void *)alias,
		       FUTEX_WAKE, 1, EFAULT);
	}

	expect("FUTEX_WAKE on the last page (start + length wraps): EOVERFLOW",
	       (void *)(-(unsigned long)psz), FUTEX_WAKE, 1, EOVERFLOW);
	return failed ? 1 : 0;
}
