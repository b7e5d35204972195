// SPDX-License-Identifier: GPL-2.0
/*
 * lock_order.ko: test only, loaded by the guest test lockdep-traced.
 *
 * Takes an i_mmap or anon_vma lock the way a caller of the kernel's lock
 * helpers does, so that a test can see what lockdep and might_sleep() make
 * of it with the lock events off and on. Writes to
 * /sys/kernel/debug/lock_order:
 *   "order i_mmap|anon_vma off|on"  take this module's mutex for that lock
 *                                   and label, then the lock for write:
 *                                   lockdep records the order "mutex ->
 *                                   lock", which /proc/lockdep lists under
 *                                   the mutex lock_order_<lock>_events_<label>
 *   "atomic i_mmap|anon_vma"         take the lock for read with preemption
 *                                   disabled: might_sleep() must complain
 * Each label has a mutex (a lockdep class) of its own, so that the events
 * off and on leave separate records in one boot. The i_mmap lock is that
 * of this file's mapping; the anon_vma lock that of the first vma of the
 * writer's mm that has an anon_vma (the mmap_lock keeps it alive), taken
 * through its root. Nothing here is ever held past the write.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rmap.h>
#include <linux/uaccess.h>

static DEFINE_MUTEX(lock_order_i_mmap_events_off);
static DEFINE_MUTEX(lock_order_i_mmap_events_on);
static DEFINE_MUTEX(lock_order_anon_vma_events_off);
static DEFINE_MUTEX(lock_order_anon_vma_events_on);
static struct dentry *file;

/* The first anon_vma of current's mm; the caller holds its mmap_lock. */
static struct anon_vma *some_anon_vma(struct mm_struct *mm)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;

	for_each_vma(vmi, vma)
		if (vma->anon_vma)
			return vma->anon_vma;
	return NULL;
}

static int take(struct file *f, bool anon, bool atomic, struct mutex *m)
{
	struct mm_struct *mm = current->mm;
	struct anon_vma *av = NULL;

	if (anon) {
		mmap_read_lock(mm);
		av = some_anon_vma(mm);
		if (!av) {
			mmap_read_unlock(mm);
			return -ENOENT;
		}
	}
	if (atomic) {
		preempt_disable();
		if (anon) {
			anon_vma_lock_read(av);
			anon_vma_unlock_read(av);
		} else {
			i_mmap_lock_read(f->f_mapping);
			i_mmap_unlock_read(f->f_mapping);
		}
		preempt_enable();
	} else {
		mutex_lock(m);
		if (anon) {
			anon_vma_lock_write(av);
			anon_vma_unlock_write(av);
		} else {
			i_mmap_lock_write(f->f_mapping);
			i_mmap_unlock_write(f->f_mapping);
		}
		mutex_unlock(m);
	}
	if (anon)
		mmap_read_unlock(mm);
	return 0;
}

static ssize_t order_write(struct file *f, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[40], what[8], lock[10], label[4] = "";
	struct mutex *m = NULL;
	bool anon, atomic;
	int n, ret;

	if (count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	n = sscanf(buf, "%7s %9s %3s", what, lock, label);
	if (n < 2 || (strcmp(lock, "i_mmap") && strcmp(lock, "anon_vma")))
		return -EINVAL;
	anon = !strcmp(lock, "anon_vma");
	atomic = !strcmp(what, "atomic");
	if (atomic) {
		if (n != 2)
			return -EINVAL;
	} else if (!strcmp(what, "order") && n == 3) {
		if (!strcmp(label, "off"))
			m = anon ? &lock_order_anon_vma_events_off :
				   &lock_order_i_mmap_events_off;
		else if (!strcmp(label, "on"))
			m = anon ? &lock_order_anon_vma_events_on :
				   &lock_order_i_mmap_events_on;
		else
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	ret = take(f, anon, atomic, m);
	return ret ? ret : count;
}

static const struct file_operations order_fops = {
	.owner = THIS_MODULE,
	.write = order_write,
	.llseek = noop_llseek,
};

static int __init order_init(void)
{
	file = debugfs_create_file("lock_order", 0200, NULL, NULL, &order_fops);
	return 0;
}

static void __exit order_exit(void)
{
	debugfs_remove(file);
}

module_init(order_init);
module_exit(order_exit);
MODULE_DESCRIPTION("test only: take the mm locks in a known order, or atomically");
MODULE_LICENSE("GPL");
