// SPDX-License-Identifier: GPL-2.0
/*
 * mmp_inject.ko: test only, loaded by the guest tests mod-top-reset and
 * mod-clock-back after mmpreempt.ko, whose functions it probes.
 *
 * Opens windows inside mmpreempt.ko's probes that no workload opens on
 * demand. Writes to /sys/kernel/debug/mmp_inject:
 *   "pause COMM MS" the first mmp_top_account_slow() of a task named COMM
 *                   (a hold whose root missed this CPU's cache: it may make
 *                   or evict an entry) spins MS ms before it runs, inside
 *                   the tracepoint probe that called it, so that a reset
 *                   can swap the statistics copies under it
 *   "back PID MS"   the next clock read mmpreempt.ko makes in task PID
 *                   (ktime_get_mono_fast_ns(), the clock wherever the TSC
 *                   is not used) returns MS ms less: a clock that went back
 * Reading gives "pause STATE lose_in_pause N" (STATE: off, armed, paused,
 * done; N: calls of mmpreempt.ko's top_lose() inside the paused call, after
 * its pause, i.e. entries it evicted or forgot) and "back STATE" (off,
 * armed, done).
 */
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "spin_ms.h"

static char pause_comm[TASK_COMM_LEN];
static unsigned int pause_ms;
static struct task_struct *paused;	/* the paused call's task, until it returns */
static const char *pause_state = "off";
static atomic_t lose_in_pause = ATOMIC_INIT(0);

static pid_t back_pid;
static u64 back_ns;
static const char *back_state = "off";
static struct dentry *file;

static int slow_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned int ms = READ_ONCE(pause_ms);

	if (!ms || strncmp(current->comm, pause_comm, TASK_COMM_LEN) ||
	    cmpxchg(&pause_ms, ms, 0) != ms)
		return 1;	/* no return probe */
	WRITE_ONCE(paused, current);
	WRITE_ONCE(pause_state, "paused");
	spin_ms(ms);
	return 0;
}

static int slow_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (current == READ_ONCE(paused)) {
		WRITE_ONCE(pause_state, "done");
		WRITE_ONCE(paused, NULL);
	}
	return 0;
}

static struct kretprobe slow_rp = {
	.kp.symbol_name = "mmp_top_account_slow",
	.entry_handler = slow_entry,
	.handler = slow_ret,
	.maxactive = 8,
};

static int lose_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (current == READ_ONCE(paused))
		atomic_inc(&lose_in_pause);
	return 0;
}

static struct kprobe lose_kp = {
	.symbol_name = "top_lose",
	.pre_handler = lose_pre,
};

static int clock_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return current->pid == READ_ONCE(back_pid) ? 0 : 1;
}

static int clock_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	char sym[KSYM_SYMBOL_LEN];
	pid_t pid = READ_ONCE(back_pid);

	if (!pid || current->pid != pid)
		return 0;
	/* only mmpreempt.ko's own reads: "probe_x+0x12/0x80 [mmpreempt]" */
	sprint_symbol(sym, get_kretprobe_retaddr(ri));
	if (!strstr(sym, " [mmpreempt]") || cmpxchg(&back_pid, pid, 0) != pid)
		return 0;
	regs_set_return_value(regs, regs_return_value(regs) - READ_ONCE(back_ns));
	WRITE_ONCE(back_state, "done");
	return 0;
}

static struct kretprobe clock_rp = {
	.kp.symbol_name = "ktime_get_mono_fast_ns",
	.entry_handler = clock_entry,
	.handler = clock_ret,
	.maxactive = 16,
};

static ssize_t inject_write(struct file *f, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[64], what[8], arg[TASK_COMM_LEN];
	unsigned int ms;
	int pid;

	if (count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	if (sscanf(buf, "%7s %15s %u", what, arg, &ms) != 3 || !ms)
		return -EINVAL;
	if (!strcmp(what, "pause")) {
		if (READ_ONCE(paused) || READ_ONCE(pause_ms))
			return -EBUSY;
		strscpy(pause_comm, arg, sizeof(pause_comm));
		atomic_set(&lose_in_pause, 0);
		WRITE_ONCE(pause_state, "armed");
		WRITE_ONCE(pause_ms, ms);
	} else if (!strcmp(what, "back") && !kstrtoint(arg, 10, &pid) && pid > 0) {
		WRITE_ONCE(back_ns, (u64)ms * NSEC_PER_MSEC);
		WRITE_ONCE(back_state, "armed");
		WRITE_ONCE(back_pid, pid);
	} else {
		return -EINVAL;
	}
	return count;
}

static ssize_t inject_read(struct file *f, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	char buf[96];
	int n = scnprintf(buf, sizeof(buf), "pause %s lose_in_pause %d\nback %s\n",
			  READ_ONCE(pause_state), atomic_read(&lose_in_pause),
			  READ_ONCE(back_state));

	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static const struct file_operations inject_fops = {
	.owner = THIS_MODULE,
	.read = inject_read,
	.write = inject_write,
	.llseek = default_llseek,
};

static int __init inject_init(void)
{
	int ret = register_kretprobe(&slow_rp);

	if (ret) {
		pr_err("mmp_inject: mmp_top_account_slow: %d (mmpreempt.ko loaded?)\n", ret);
		return ret;
	}
	ret = register_kprobe(&lose_kp);
	if (ret) {
		pr_err("mmp_inject: top_lose: %d\n", ret);
		goto out_slow;
	}
	ret = register_kretprobe(&clock_rp);
	if (ret) {
		pr_err("mmp_inject: ktime_get_mono_fast_ns: %d\n", ret);
		goto out_lose;
	}
	file = debugfs_create_file("mmp_inject", 0600, NULL, NULL, &inject_fops);
	return 0;
out_lose:
	unregister_kprobe(&lose_kp);
out_slow:
	unregister_kretprobe(&slow_rp);
	return ret;
}

static void __exit inject_exit(void)
{
	debugfs_remove(file);
	unregister_kretprobe(&clock_rp);
	unregister_kprobe(&lose_kp);
	unregister_kretprobe(&slow_rp);
}

module_init(inject_init);
module_exit(inject_exit);
MODULE_DESCRIPTION("test only: pause or skew mmpreempt.ko's probes on demand");
MODULE_LICENSE("GPL");
