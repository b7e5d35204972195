// SPDX-License-Identifier: GPL-2.0
/*
 * nongpl_locks.ko: test only, loaded by the guest test mod-licence.
 *
 * A module whose licence is not GPL-compatible, as an out-of-tree module
 * of any licence may be, that uses every inline lock and refcount helper
 * the series traces: upstream these were plain rwsem calls and atomics,
 * so tracing must not make them GPL-only. If one of them referenced a
 * GPL-only symbol, modpost would refuse to build this module and the
 * kernel would refuse to load it. Nor can this module use anything else
 * GPL-only (debugfs, the maple tree iterators): writing "run" to its
 * parameter /sys/module/nongpl_locks/parameters/run takes, in the writer's
 * mm (its mmap_lock held, which keeps what it finds alive), the i_mmap lock
 * of the first file-backed vma's file in both modes and by trylock, and
 * the anon_vma lock of the first vma that has one, in both modes and by
 * trylock, with a get_anon_vma() the module takes back by hand:
 * put_anon_vma() needs __put_anon_vma(), which 6.1 exports to no module.
 * This source is GPL-2.0, as the kit's; the licence it declares to the
 * kernel is not, on purpose.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rmap.h>
#include <linux/string.h>

static void use_i_mmap(struct address_space *mapping)
{
	i_mmap_lock_write(mapping);
	i_mmap_unlock_write(mapping);
	i_mmap_lock_read(mapping);
	i_mmap_unlock_read(mapping);
	if (i_mmap_trylock_write(mapping))
		i_mmap_unlock_write(mapping);
	if (i_mmap_trylock_read(mapping))
		i_mmap_unlock_read(mapping);
}

static void use_anon_vma(struct anon_vma *av)
{
	anon_vma_lock_write(av);
	anon_vma_unlock_write(av);
	anon_vma_lock_read(av);
	anon_vma_unlock_read(av);
	if (anon_vma_trylock_read(av))
		anon_vma_unlock_read(av);
	/* the vma's reference stays: never the last one dropped here */
	get_anon_vma(av);
	atomic_dec(&av->refcount);
}

static int run_set(const char *val, const struct kernel_param *kp)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	bool file = false, anon = false;

	if (!sysfs_streq(val, "run") || !mm)
		return -EINVAL;
	mmap_read_lock(mm);
	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end)) {
		if (!file && vma->vm_file) {
			use_i_mmap(vma->vm_file->f_mapping);
			file = true;
		}
		if (!anon && vma->anon_vma) {
			use_anon_vma(vma->anon_vma);
			anon = true;
		}
	}
	mmap_read_unlock(mm);
	return file && anon ? 0 : -ENOENT;
}

static const struct kernel_param_ops run_ops = {
	.set = run_set,
};

module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write \"run\": take each traced lock once in the writer's mm");

MODULE_DESCRIPTION("test only: a non-GPL module using the traced lock helpers");
MODULE_LICENSE("Proprietary");
