// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs side shared by every file of the interface: entries whose
 * failure fails the load (a file missing would read as a feature missing),
 * and the one strict parser of what is written to them.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "mmpreempt.h"

/*
 * A decimal number in [0, max] with at most one trailing newline, in at
 * most 16 bytes, as kstrtouint() reads it (an optional leading '+'); a
 * longer write is refused, not cut. Every bad value is -EINVAL, as the
 * interface promises, a bad buffer -EFAULT.
 */
int mmp_parse_uint(const char __user *ubuf, size_t count, unsigned int max,
		   unsigned int *val)
{
	char buf[17];
	unsigned int v;

	if (count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* kstrtouint() would stop at a NUL and take "1\0junk" for 1 */
	if (strlen(buf) != count || kstrtouint(buf, 10, &v))
		return -EINVAL;
	if (v > max)
		return -EINVAL;
	*val = v;
	return 0;
}

/* The first debugfs entry that could not be made: the load fails with it. */
static int debugfs_err;
static const char *debugfs_err_name;

static void debugfs_check(struct dentry *d, const char *name)
{
	if (IS_ERR(d) && !debugfs_err) {
		debugfs_err = PTR_ERR(d);
		debugfs_err_name = name;
	}
}

struct dentry *mmp_debugfs_dir(const char *name, struct dentry *parent)
{
	struct dentry *d = debugfs_create_dir(name, parent);

	debugfs_check(d, name);
	return d;
}

void mmp_debugfs_file(const char *name, umode_t mode, struct dentry *parent,
		      void *data, const struct file_operations *fops)
{
	debugfs_check(debugfs_create_file(name, mode, parent, data, fops), name);
}

/* The first entry that could not be made and its error, or 0. */
int mmp_debugfs_error(const char **name)
{
	*name = debugfs_err_name;
	return debugfs_err;
}
