// SPDX-License-Identifier: GPL-2.0
/*
 * anon_vma_race.ko: test only, loaded by the guest test proof-refcount.
 *
 * Makes the race that folio_get_anon_vma()'s inc-not-zero exists for happen
 * on demand. Writing "PID ADDR" to /sys/kernel/debug/anon_vma_race pins the
 * page that PID maps at ADDR (GUP; the mm itself is released again), then
 * calls folio_get_anon_vma() on it with a pause of delay_ms injected (a
 * kretprobe on folio_mapped()) between its mapped check and its
 * inc-not-zero. A test that kills PID during the pause lets the exit unmap
 * the page and drop the anon_vma's last reference, so the kernel's own
 * inc-not-zero then fails. Reading the file gives "paused" while the pause
 * lasts (a killer waits for it: a kill that lands before the reader's
 * mapped check leaves nothing to race), then "got", "failed", or "unmapped"
 * when the page was no longer mapped at the check and nothing was paused.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rmap.h>
#include <linux/uaccess.h>

#include "user_page.h"

static unsigned int delay_ms = 500;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "pause between the mapped check and the inc-not-zero");

static struct task_struct *armed;
static const char *result = "none";
static struct anon_vma *(*get_anon_vma_fn)(struct folio *folio);
/* put_anon_vma() out of line, traced: not exported (nor is __put_anon_vma) */
static void (*put_anon_vma_fn)(struct anon_vma *anon_vma);
static struct dentry *file;

static int folio_mapped_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (current != READ_ONCE(armed) || !regs_return_value(regs))
		return 0;
	WRITE_ONCE(armed, NULL);
	WRITE_ONCE(result, "paused");
	mdelay(delay_ms);
	return 0;
}

static struct kretprobe rp = {
	.kp.symbol_name = "folio_mapped",
	.handler = folio_mapped_ret,
	.maxactive = 4,
};

static ssize_t race_write(struct file *f, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct anon_vma *av;
	unsigned long addr;
	struct page *page;
	char buf[48];
	int pid, ret;

	if (count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	if (sscanf(buf, "%d %lx", &pid, &addr) != 2)
		return -EINVAL;
	ret = pin_user_page_of(pid, addr, &page);
	if (ret)
		return ret;
	WRITE_ONCE(armed, current);
	av = get_anon_vma_fn(page_folio(page));
	if (READ_ONCE(armed)) {
		/* the probe never fired: the page was unmapped before the check */
		WRITE_ONCE(armed, NULL);
		WRITE_ONCE(result, "unmapped");
	} else {
		WRITE_ONCE(result, av ? "got" : "failed");
	}
	if (av)
		put_anon_vma_fn(av);
	put_page(page);
	return count;
}

static ssize_t race_read(struct file *f, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	char buf[16];
	int n = scnprintf(buf, sizeof(buf), "%s\n", READ_ONCE(result));

	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static const struct file_operations race_fops = {
	.owner = THIS_MODULE,
	.read = race_read,
	.write = race_write,
	.llseek = default_llseek,
};

static int __init race_init(void)
{
	int ret;

	get_anon_vma_fn = lookup_symbol("folio_get_anon_vma");
	put_anon_vma_fn = lookup_symbol("__put_anon_vma_traced");
	if (!get_anon_vma_fn || !put_anon_vma_fn)
		return -ENOENT;
	ret = register_kretprobe(&rp);
	if (ret)
		return ret;
	file = debugfs_create_file("anon_vma_race", 0600, NULL, NULL, &race_fops);
	return 0;
}

static void __exit race_exit(void)
{
	debugfs_remove(file);
	unregister_kretprobe(&rp);
}

module_init(race_init);
module_exit(race_exit);
MODULE_DESCRIPTION("test only: make folio_get_anon_vma() lose its inc-not-zero race");
MODULE_LICENSE("GPL");
