// SPDX-License-Identifier: GPL-2.0
/*
 * take_all_locks: writing a pid registers (then unregisters) an mmu_notifier
 * on that process's mm. The first registration on an mm is the way into
 * mm_take_all_locks(): the file measures how long the registration took
 * and, from the mm_take_all_locks_acquired event of this very call, how
 * many locks it took. Reading shows the last result.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/mmu_notifier.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>

#include "mmpreempt.h"

struct alllocks_result {
	int pid;		/* the writer, whose context ran the locking */
	unsigned int roots, mappings;
	int ret;
};

/*
 * The call a take_all_locks write is making: the probe records the event
 * of that task only, so a concurrent mm_take_all_locks() elsewhere (another
 * mmu_notifier registration) cannot stand in for it. The probe runs in the
 * writer's own context (mmu_notifier_register() calls mm_take_all_locks()),
 * so only seen_task is shared, and a lock there would be a sleeping lock on
 * PREEMPT_RT, inside a probe. Writers are serialised by last_lock.
 */
static const struct task_struct *seen_task;
static struct alllocks_result seen;

static DEFINE_MUTEX(last_lock);
static struct {
	bool valid;
	pid_t target;
	u64 ns;
	struct alllocks_result r;
} last;

void mmp_alllocks_record(int pid, unsigned int roots, unsigned int mappings,
			 int ret)
{
	if (current == READ_ONCE(seen_task))
		seen = (struct alllocks_result){ pid, roots, mappings, ret };
}

static const struct mmu_notifier_ops mmp_mn_ops = {};

static ssize_t take_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct mmu_notifier mn = { .ops = &mmp_mn_ops };
	struct alllocks_result r;
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *spid;
	unsigned int pid;
	u64 t0, ns;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = mmp_parse_uint(ubuf, count, PID_MAX_LIMIT, &pid);
	if (ret)
		return ret;
	if (!pid)
		return -EINVAL;
	spid = find_get_pid(pid);
	task = get_pid_task(spid, PIDTYPE_PID);
	put_pid(spid);
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	put_task_struct(task);
	if (!mm)
		return -ESRCH;	/* exiting, or a kernel thread */

	/* a writer waiting behind a long call can still be interrupted */
	ret = mutex_lock_interruptible(&last_lock);
	if (ret) {
		mmput(mm);
		return ret;
	}
	seen = (struct alllocks_result){ 0 };
	WRITE_ONCE(seen_task, current);
	t0 = ktime_get_ns();
	ret = mmu_notifier_register(&mn, mm);
	ns = ktime_get_ns() - t0;
	if (!ret)
		mmu_notifier_unregister(&mn, mm);
	mmput(mm);
	WRITE_ONCE(seen_task, NULL);
	r = seen;
	last.valid = true;
	last.target = pid;
	last.ns = ns;
	/* only this call's event was recorded; without probes, none */
	last.r = r.pid == current->pid ? r :
		(struct alllocks_result){ 0, 0, 0, ret };
	last.r.ret = ret;
	mutex_unlock(&last_lock);
	return ret ? ret : count;
}

static int take_show(struct seq_file *m, void *v)
{
	if (mutex_lock_interruptible(&last_lock))
		return -EINTR;
	if (!last.valid)
		seq_puts(m, "none\n");
	else
		seq_printf(m, "pid %d\nret %d\nduration_ns %llu\nanon_vma_roots %u\nmappings %u\nlocks %u\n",
			   last.target, last.r.ret, last.ns, last.r.roots,
			   last.r.mappings, last.r.roots + last.r.mappings);
	mutex_unlock(&last_lock);
	return 0;
}

static int take_open(struct inode *inode, struct file *file)
{
	return single_open(file, take_show, NULL);
}

static const struct file_operations take_fops = {
	.owner = THIS_MODULE,
	.open = take_open,
	.read = seq_read,
	.write = take_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void mmp_alllocks_debugfs(struct dentry *dir)
{
	mmp_debugfs_file("take_all_locks", 0600, dir, NULL, &take_fops);
}
