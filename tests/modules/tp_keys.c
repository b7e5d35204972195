// SPDX-License-Identifier: GPL-2.0
/*
 * tp_keys.ko: test only, loaded by the guest test tp-static-keys-off.
 *
 * Reading /sys/kernel/debug/tp_keys prints, for every mmpreempt trace
 * event, "name 0" or "name 1": whether the event's static branch, as
 * patched into this module's own text, is taken. That is the state a
 * disabled event's callers see (a patched-out branch), not whether the
 * ring buffer would keep an event. Then the same for the three keys the
 * lock helpers in <linux/fs.h> and <linux/rmap.h> test instead (one for the
 * three i_mmap lock events, one for the three anon_vma lock events, one for
 * the three refcount events: on while any of theirs is).
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/rmap.h>
#include <linux/seq_file.h>

#include <trace/events/anon_vma.h>
#include <trace/events/i_mmap.h>
#include <trace/events/mm_all_locks.h>
#include <trace/events/mmu_gather.h>

static struct dentry *file;

#define KEY(name) seq_printf(m, "%s %d\n", #name, trace_##name##_enabled())
#define SHARED_KEY(key) \
	seq_printf(m, "%s %d\n", #key, !!static_branch_unlikely(&(key)))

static int keys_show(struct seq_file *m, void *v)
{
	KEY(anon_vma_lock_start);
	KEY(anon_vma_lock_acquired);
	KEY(anon_vma_lock_released);
	KEY(anon_vma_alloc);
	KEY(anon_vma_attach);
	KEY(anon_vma_get);
	KEY(anon_vma_get_failed);
	KEY(anon_vma_put);
	KEY(anon_vma_free);
	KEY(anon_vma_reuse);
	KEY(i_mmap_lock_start);
	KEY(i_mmap_lock_acquired);
	KEY(i_mmap_lock_released);
	KEY(mmu_gather_start);
	KEY(mmu_gather_finish);
	KEY(mmu_gather_flush);
	KEY(mmu_gather_batch_alloc);
	KEY(mmu_gather_resched);
	KEY(mm_take_all_locks_start);
	KEY(mm_take_all_locks_acquired);
	KEY(mm_drop_all_locks);
	SHARED_KEY(i_mmap_lock_trace_key);
	SHARED_KEY(anon_vma_lock_trace_key);
	SHARED_KEY(anon_vma_ref_trace_key);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(keys);

static int __init keys_init(void)
{
	file = debugfs_create_file("tp_keys", 0400, NULL, NULL, &keys_fops);
	return 0;
}

static void __exit keys_exit(void)
{
	debugfs_remove(file);
}

module_init(keys_init);
module_exit(keys_exit);
MODULE_DESCRIPTION("test only: the mmpreempt trace events' static branches");
MODULE_LICENSE("GPL");
