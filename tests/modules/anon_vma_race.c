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
 *
 * "PID ADDR lock" does the same with folio_lock_anon_vma_read() instead,
 * paused between its mapped check and its read trylock of the root: with
 * the owner killed meanwhile, the trylock takes the freed object's rwsem,
 * the function finds the folio unmapped and lets go ("none"; "locked" if
 * it returned the anon_vma locked), and the trace shows a read lock after
 * the free.
 *
 * birth_delay_ms (test only, 0 = off) holds open a second window: when the
 * anon_vma the paused reader is about to get is allocated again (the slab
 * recycles it: SLAB_TYPESAFE_BY_RCU), a probe on its anon_vma_alloc event,
 * registered before any tracer's, spins that long before the event is
 * recorded. Where the birth is traced before the refcount goes live, the
 * reader's inc-not-zero still meets 0 in that window; where it is traced
 * after, the reader gets the new life and its anon_vma_get comes out
 * before the birth. Reading the file then ends with " reborn PID" (the
 * task that allocated it) when that recycling happened during the pause.
 *
 * "PID ADDR birth" opens that second window alone: no reader, the write
 * returns at once, and the next birth of the page's anon_vma spins
 * (" spinning PID" while it does), so that a test can change what is attached
 * to the anon_vma events between a birth and what follows it (mod-top-forget:
 * fork's anon_vma_attach).
 */
#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rmap.h>
#include <linux/uaccess.h>

#include <trace/events/anon_vma.h>

#include "spin_ms.h"
#include "user_page.h"

static unsigned int delay_ms = 500;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "pause between the mapped check and the inc-not-zero");

static unsigned int birth_delay_ms;
module_param(birth_delay_ms, uint, 0444);
MODULE_PARM_DESC(birth_delay_ms,
		 "spin at the recycled anon_vma's birth event, before it is recorded (0: off)");

/* the anon_vma the armed reader will get, until its next birth is seen */
static struct anon_vma *target;
static bool reborn, spinning;
static pid_t reborn_pid;

static struct task_struct *armed;
static const char *result = "none";
static struct anon_vma *(*get_anon_vma_fn)(struct folio *folio);
static struct anon_vma *(*lock_anon_vma_fn)(struct folio *folio,
					    struct rmap_walk_control *rwc);
/* put_anon_vma() out of line, traced: not exported (nor is __put_anon_vma) */
static void (*put_anon_vma_fn)(struct anon_vma *anon_vma);
static struct dentry *file;

static int folio_mapped_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (current != READ_ONCE(armed) || !regs_return_value(regs))
		return 0;
	WRITE_ONCE(armed, NULL);
	WRITE_ONCE(result, "paused");
	spin_ms(delay_ms);
	return 0;
}

static void on_alloc(void *data, struct anon_vma *av)
{
	if (av != READ_ONCE(target) || cmpxchg(&target, av, NULL) != av)
		return;
	WRITE_ONCE(reborn_pid, task_pid_nr(current));
	WRITE_ONCE(spinning, true);
	spin_ms(birth_delay_ms);
	WRITE_ONCE(spinning, false);
	WRITE_ONCE(reborn, true);
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
	char buf[48], mode[8] = "";
	int pid, ret, n;

	if (count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	n = sscanf(buf, "%d %lx %7s", &pid, &addr, mode);
	if (n < 2 || (n == 3 && strcmp(mode, "lock") && strcmp(mode, "birth")))
		return -EINVAL;
	if (n == 3 && !strcmp(mode, "birth") && !birth_delay_ms)
		return -EINVAL;
	ret = pin_user_page_of(pid, addr, &page);
	if (ret)
		return ret;
	WRITE_ONCE(reborn, false);
	if (PageAnon(page) && !PageKsm(page))
		WRITE_ONCE(target, (struct anon_vma *)((unsigned long)page->mapping -
						      PAGE_MAPPING_ANON));
	if (n == 3 && !strcmp(mode, "birth")) {
		WRITE_ONCE(result, READ_ONCE(target) ? "birth" : "not anon");
		put_page(page);
		return count;
	}
	WRITE_ONCE(armed, current);
	if (n == 3)
		av = lock_anon_vma_fn(page_folio(page), NULL);
	else
		av = get_anon_vma_fn(page_folio(page));
	if (READ_ONCE(armed)) {
		/* the probe never fired: the page was unmapped before the check */
		WRITE_ONCE(armed, NULL);
		WRITE_ONCE(result, "unmapped");
	} else if (n == 3) {
		WRITE_ONCE(result, av ? "locked" : "none");
	} else {
		WRITE_ONCE(result, av ? "got" : "failed");
	}
	WRITE_ONCE(target, NULL);
	if (av && n == 3)
		anon_vma_unlock_read(av);
	else if (av)
		put_anon_vma_fn(av);
	put_page(page);
	return count;
}

static ssize_t race_read(struct file *f, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	char buf[40];
	int n = scnprintf(buf, sizeof(buf), "%s", READ_ONCE(result));

	if (READ_ONCE(spinning))
		n += scnprintf(buf + n, sizeof(buf) - n, " spinning %d",
			       READ_ONCE(reborn_pid));
	else if (READ_ONCE(reborn))
		n += scnprintf(buf + n, sizeof(buf) - n, " reborn %d",
			       READ_ONCE(reborn_pid));
	n += scnprintf(buf + n, sizeof(buf) - n, "\n");

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
	lock_anon_vma_fn = lookup_symbol("folio_lock_anon_vma_read");
	put_anon_vma_fn = lookup_symbol("__put_anon_vma_traced");
	if (!get_anon_vma_fn || !lock_anon_vma_fn || !put_anon_vma_fn)
		return -ENOENT;
	ret = register_kretprobe(&rp);
	if (ret)
		return ret;
	if (birth_delay_ms) {
		ret = register_trace_anon_vma_alloc(on_alloc, NULL);
		if (ret) {
			unregister_kretprobe(&rp);
			return ret;
		}
	}
	file = debugfs_create_file("anon_vma_race", 0600, NULL, NULL, &race_fops);
	return 0;
}

static void __exit race_exit(void)
{
	debugfs_remove(file);
	if (birth_delay_ms) {
		unregister_trace_anon_vma_alloc(on_alloc, NULL);
		tracepoint_synchronize_unregister();
	}
	unregister_kretprobe(&rp);
}

module_init(race_init);
module_exit(race_exit);
MODULE_DESCRIPTION("test only: make folio_get_anon_vma() lose its inc-not-zero race");
MODULE_LICENSE("GPL");
