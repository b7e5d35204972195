// SPDX-License-Identifier: GPL-2.0
/*
 * test_hold_i_mmap: a deterministic trigger for tests. Writing N holds the
 * i_mmap lock (write) of this file's own mapping for N milliseconds, asleep,
 * through the traced i_mmap_lock_write() helpers, so the hold the probes
 * measure must be at least N ms.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>

#include "mmpreempt.h"

static ssize_t hold_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct address_space *mapping = file->f_mapping;
	unsigned int ms;
	int ret = mmp_parse_uint(ubuf, count, 10000, &ms);

	if (ret)
		return ret;
	if (!ms)
		return -EINVAL;
	i_mmap_lock_write(mapping);
	msleep(ms);
	i_mmap_unlock_write(mapping);
	return count;
}

static const struct file_operations hold_fops = {
	.owner = THIS_MODULE,
	.write = hold_write,
	.llseek = noop_llseek,
};

void mmp_testhook_debugfs(struct dentry *dir)
{
	mmp_debugfs_file("test_hold_i_mmap", 0200, dir, NULL, &hold_fops);
}
