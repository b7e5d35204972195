// SPDX-License-Identifier: GPL-2.0
/*
 * lock_hold.ko: test only, loaded by the guest test contention-exact.
 *
 * Holds an i_mmap or anon_vma lock, in either mode, for a given time,
 * through the kernel's own traced lock helpers, so that a test can make
 * exactly N acquisitions wait behind a holder and check that N, and only
 * N, are reported as contended. Writes to /sys/kernel/debug/lock_hold:
 *   "i_mmap read|write MS"            the i_mmap lock of this file's mapping
 *   "anon_vma read|write PID ADDR MS" the anon_vma lock of the page PID maps
 *                                     at ADDR (hex), held through its root
 * The write returns once the lock has been held MS ms and released. Modes
 * tryread and trywrite (i_mmap) and tryread (anon_vma) make one traced
 * trylock instead, released at once: the write fails with EBUSY when the
 * trylock failed, so that a test can make exactly N trylocks fail.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/rmap.h>
#include <linux/uaccess.h>

#include "user_page.h"

static struct anon_vma *(*get_anon_vma_fn)(struct folio *folio);
/* put_anon_vma() out of line, traced: not exported (nor is __put_anon_vma) */
static void (*put_anon_vma_fn)(struct anon_vma *anon_vma);
static struct dentry *file;

static int try_i_mmap(struct address_space *mapping, bool write)
{
	if (write ? !i_mmap_trylock_write(mapping) :
		    !i_mmap_trylock_read(mapping))
		return -EBUSY;
	if (write)
		i_mmap_unlock_write(mapping);
	else
		i_mmap_unlock_read(mapping);
	return 0;
}

static void hold_i_mmap(struct address_space *mapping, bool write,
			unsigned int ms)
{
	if (write)
		i_mmap_lock_write(mapping);
	else
		i_mmap_lock_read(mapping);
	msleep(ms);
	if (write)
		i_mmap_unlock_write(mapping);
	else
		i_mmap_unlock_read(mapping);
}

/* ms < 0: one read trylock instead of a hold (anon_vma has no write one) */
static int hold_anon_vma(int pid, unsigned long addr, bool write, int ms)
{
	struct anon_vma *av;
	struct page *page;
	int ret = pin_user_page_of(pid, addr, &page);

	if (ret)
		return ret;
	av = get_anon_vma_fn(page_folio(page));
	put_page(page);
	if (!av)
		return -ENOENT;
	if (ms < 0) {
		ret = anon_vma_trylock_read(av) ? 0 : -EBUSY;
		if (!ret)
			anon_vma_unlock_read(av);
		put_anon_vma_fn(av);
		return ret;
	}
	if (write)
		anon_vma_lock_write(av);
	else
		anon_vma_lock_read(av);
	msleep(ms);
	if (write)
		anon_vma_unlock_write(av);
	else
		anon_vma_unlock_read(av);
	put_anon_vma_fn(av);
	return 0;
}

static ssize_t hold_write(struct file *f, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char buf[80], kind[16], mode[12];
	unsigned long addr;
	unsigned int ms;
	bool write, try = false;
	int pid, ret;

	if (count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	if (sscanf(buf, "%15s %11s", kind, mode) != 2)
		return -EINVAL;
	if (!strncmp(mode, "try", 3)) {
		try = true;
		memmove(mode, mode + 3, strlen(mode + 3) + 1);
	}
	if (!strcmp(mode, "write"))
		write = true;
	else if (!strcmp(mode, "read"))
		write = false;
	else
		return -EINVAL;
	if (!strcmp(kind, "i_mmap")) {
		if (sscanf(buf, "%*s %*s %u", &ms) != 1 || ms > 10000)
			return -EINVAL;
		if (try) {
			ret = try_i_mmap(f->f_mapping, write);
			return ret ? ret : count;
		}
		hold_i_mmap(f->f_mapping, write, ms);
		return count;
	}
	if (strcmp(kind, "anon_vma") ||
	    sscanf(buf, "%*s %*s %d %lx %u", &pid, &addr, &ms) != 3 ||
	    ms > 10000 || (try && write))
		return -EINVAL;
	ret = hold_anon_vma(pid, addr, write, try ? -1 : (int)ms);
	return ret ? ret : count;
}

static const struct file_operations hold_fops = {
	.owner = THIS_MODULE,
	.write = hold_write,
	.llseek = noop_llseek,
};

static int __init hold_init(void)
{
	get_anon_vma_fn = lookup_symbol("folio_get_anon_vma");
	put_anon_vma_fn = lookup_symbol("__put_anon_vma_traced");
	if (!get_anon_vma_fn || !put_anon_vma_fn)
		return -ENOENT;
	file = debugfs_create_file("lock_hold", 0200, NULL, NULL, &hold_fops);
	return 0;
}

static void __exit hold_exit(void)
{
	debugfs_remove(file);
}

module_init(hold_init);
module_exit(hold_exit);
MODULE_DESCRIPTION("test only: hold an i_mmap or anon_vma lock on demand");
MODULE_LICENSE("GPL");
