// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "event.h"	/* xrealloc */
#include "hmap.h"

static size_t slot(const struct hmap *m, uint64_t k1, uint64_t k2)
{
	uint64_t h = k1 * 0x9e3779b97f4a7c15ull ^
		     (k2 + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;

	return (h ^ (h >> 31)) & (m->cap - 1);
}

static void grow(struct hmap *m)
{
	struct hmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 1024;
	m->n = 0;
	m->e = xrealloc(NULL, m->cap * sizeof(*m->e));
	memset(m->e, 0, m->cap * sizeof(*m->e));
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].used)
			*hmap_get(m, old.e[i].k1, old.e[i].k2, true) = old.e[i].v;
	free(old.e);
}

uint64_t *hmap_get(struct hmap *m, uint64_t k1, uint64_t k2, bool create)
{
	size_t i;

	if (!m->cap) {
		if (!create)
			return NULL;
		grow(m);
	}
	for (i = slot(m, k1, k2); m->e[i].used; i = (i + 1) & (m->cap - 1))
		if (m->e[i].k1 == k1 && m->e[i].k2 == k2)
			return &m->e[i].v;
	if (!create)
		return NULL;
	if (2 * (m->n + 1) > m->cap) {
		grow(m);
		return hmap_get(m, k1, k2, true);
	}
	m->e[i] = (struct hent){ k1, k2, 0, true };
	m->n++;
	return &m->e[i].v;
}

bool hmap_del(struct hmap *m, uint64_t k1, uint64_t k2)
{
	size_t i, j, mask = m->cap - 1;

	if (!m->cap)
		return false;
	for (i = slot(m, k1, k2); m->e[i].used; i = (i + 1) & mask)
		if (m->e[i].k1 == k1 && m->e[i].k2 == k2)
			break;
	if (!m->e[i].used)
		return false;
	/* shift back every later entry of the run that may sit at i */
	for (j = (i + 1) & mask; m->e[j].used; j = (j + 1) & mask) {
		size_t home = slot(m, m->e[j].k1, m->e[j].k2);

		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->e[i] = m->e[j];
			i = j;
		}
	}
	m->e[i].used = false;
	m->n--;
	return true;
}

void hmap_free(struct hmap *m)
{
	free(m->e);
	*m = (struct hmap){ 0 };
}
