/* SPDX-License-Identifier: GPL-2.0 */
/* Growing arrays: the analyses keep every sample and every object seen. */
#ifndef MMREPORT_GROW_H
#define MMREPORT_GROW_H

#include <stddef.h>

#include "event.h"

/* Make room for element n of *p (elements of sz bytes), doubling *cap. */
static inline void grow(void *p, size_t *cap, size_t n, size_t sz)
{
	void **pp = p;

	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 256;
	*pp = xrealloc(*pp, *cap * sz);
}

#endif
