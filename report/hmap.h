/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hash map from a pair of u64 to a u64, open addressing with linear
 * probing and backward-shift deletion: the analyses key on (object, task)
 * and delete on every release, so tombstones would pile up.
 */
#ifndef MMREPORT_HMAP_H
#define MMREPORT_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hent {
	uint64_t k1, k2, v;
	bool used;
};

struct hmap {
	struct hent *e;
	size_t cap, n;
};

/* The value slot for (k1, k2), created as 0 if absent when create is set. */
uint64_t *hmap_get(struct hmap *m, uint64_t k1, uint64_t k2, bool create);
bool hmap_del(struct hmap *m, uint64_t k1, uint64_t k2);
void hmap_free(struct hmap *m);

#define hmap_for_each(m, it) \
	for (struct hent *it = (m)->e; (m)->e && it < (m)->e + (m)->cap; it++) \
		if (it->used)

#endif
