// SPDX-License-Identifier: GPL-2.0
/*
 * mmpreempt.ko: counters and histograms for the mm locks that the 2010
 * "mm: preemptibility" series made sleeping (anon_vma, i_mmap), for the
 * preemptible mmu_gather and for mm_take_all_locks(), fed by the mmpreempt
 * trace events. Interface: /sys/kernel/debug/mmpreempt/ (root only):
 *   enable          rw  1 attaches the probes (the default at load), 0
 *                       detaches them: nothing runs while 0
 *   reset           w   1 zeroes every counter and histogram
 *   stats           r   "name value" lines
 *   hist/           r   log2 histograms, in the layout of bpftrace's hist()
 *   top             r   the root anon_vmas with the most hold time (timed
 *                       mode with top=1, the default)
 *   take_all_locks  rw  write a pid: mm_take_all_locks() on its mm
 * Anything else written to a file is refused with -EINVAL.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/string.h>

#include "mmpreempt.h"

static unsigned int hold_slots = 16384;
module_param(hold_slots, uint, 0444);
MODULE_PARM_DESC(hold_slots,
		 "waits and holds tracked at once: a power of two, 16 to 2^20 (default 16384)");

static unsigned int top_slots = 4096;
module_param(top_slots, uint, 0444);
MODULE_PARM_DESC(top_slots,
		 "root anon_vmas tracked for 'top': a power of two, 16 to 2^20 (default 4096)");

static char mode[16] = "timed";
module_param_string(mode, mode, sizeof(mode), 0444);
MODULE_PARM_DESC(mode,
		 "timed (counts, waits, holds, histograms; the default) or counting (counts only, no clock, no hold table)");

static char clock[8] = "auto";
module_param_string(clock, clock, sizeof(clock), 0444);
MODULE_PARM_DESC(clock,
		 "auto (the TSC when invariant and trusted, else ktime; the default), tsc (the TSC when trusted: for CPUs that do not say invariant but are) or ktime");

static const char * const clock_names[] = {
	[MMP_CLOCK_AUTO] = "auto", [MMP_CLOCK_TSC] = "tsc",
	[MMP_CLOCK_KTIME] = "ktime",
};

static bool top = true;
module_param(top, bool, 0444);
MODULE_PARM_DESC(top, "keep per root anon_vma totals for 'top' (default 1)");

static unsigned int top_n = 20;
module_param(top_n, uint, 0444);
MODULE_PARM_DESC(top_n, "rows printed by 'top', 1 to top_slots (default 20)");

/* serialises enable, reset and unload */
DEFINE_MUTEX(mmp_control_lock);
static bool enabled;
static struct dentry *dir;

/* The table sizes: refused at load unless the tables can index them. */
static int check_slots(const char *name, unsigned int slots)
{
	if (slots >= MMP_TABLE_SLOTS_MIN && slots <= MMP_TABLE_SLOTS_MAX &&
	    is_power_of_2(slots))
		return 0;
	pr_err("mmpreempt: %s=%u: must be a power of two from %u to %u\n",
	       name, slots, MMP_TABLE_SLOTS_MIN, MMP_TABLE_SLOTS_MAX);
	return -EINVAL;
}

static int check_params(void)
{
	int ret = check_slots("hold_slots", hold_slots);

	if (!ret && strcmp(mode, "timed") && strcmp(mode, "counting")) {
		pr_err("mmpreempt: mode=%s: must be timed or counting\n", mode);
		ret = -EINVAL;
	}
	if (!ret)
		ret = check_slots("top_slots", top_slots);
	if (!ret && match_string(clock_names, ARRAY_SIZE(clock_names), clock) < 0) {
		pr_err("mmpreempt: clock=%s: must be auto, tsc or ktime\n", clock);
		ret = -EINVAL;
	}
	if (!ret && (top_n < 1 || top_n > top_slots)) {
		pr_err("mmpreempt: top_n=%u: must be from 1 to top_slots (%u)\n",
		       top_n, top_slots);
		ret = -EINVAL;
	}
	return ret;
}

/*
 * The tables' memory, refused at load when it passes half of what is
 * available now: top's sums are per possible CPU and copy, so
 * top_slots=2^20 on 256 possible CPUs would ask for 16 GiB, and vzalloc()
 * could take the last of the memory without failing.
 */
static int check_memory(bool timed, bool with_top)
{
	u64 sums = with_top ? mmp_top_bytes(top_slots) : 0;
	u64 holds = timed ? mmp_flight_bytes(hold_slots) : 0;
	u64 avail = (u64)si_mem_available() << PAGE_SHIFT;

	if (sums + holds <= avail / 2)
		return 0;
	pr_err("mmpreempt: top_slots=%u hold_slots=%u: the tables need %llu MiB (top %llu MiB for %u possible CPUs, holds %llu MiB), more than half the available memory (%llu MiB)\n",
	       top_slots, hold_slots, (sums + holds) >> 20, sums >> 20,
	       num_possible_cpus(), holds >> 20, avail >> 20);
	return -ENOMEM;
}

static int set_enabled(bool on)
{
	int ret = 0;

	if (on == enabled)
		return 0;
	if (on) {
		mmp_flight_clear();	/* intervals begun while off are unknown */
		ret = mmp_probes_attach();
	} else {
		mmp_probes_detach();
	}
	if (!ret)
		enabled = on;
	return ret;
}

static ssize_t enable_read(struct file *file, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	char buf[2] = { READ_ONCE(enabled) ? '1' : '0', '\n' };

	return simple_read_from_buffer(ubuf, count, ppos, buf, sizeof(buf));
}

static ssize_t enable_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	unsigned int v;
	int ret = mmp_parse_uint(ubuf, count, 1, &v);

	if (ret)
		return ret;
	mutex_lock(&mmp_control_lock);
	ret = set_enabled(v);
	mutex_unlock(&mmp_control_lock);
	return ret ? ret : count;
}

static const struct file_operations enable_fops = {
	.owner = THIS_MODULE,
	.read = enable_read,
	.write = enable_write,
	.llseek = default_llseek,
};

static ssize_t reset_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	unsigned int v;
	int ret = mmp_parse_uint(ubuf, count, 1, &v);

	if (ret)
		return ret;
	if (v != 1)
		return -EINVAL;
	mutex_lock(&mmp_control_lock);
	mmp_stats_reset();
	mutex_unlock(&mmp_control_lock);
	return count;
}

static const struct file_operations reset_fops = {
	.owner = THIS_MODULE,
	.write = reset_write,
	.llseek = noop_llseek,
};

static void cleanup(void)
{
	debugfs_remove_recursive(dir);	/* waits for file operations in flight */
	mutex_lock(&mmp_control_lock);
	set_enabled(false);		/* waits for probes in flight */
	mutex_unlock(&mmp_control_lock);
	mmp_top_exit();
	mmp_flight_exit();
	mmp_stats_exit();
}

static int __init mmpreempt_init(void)
{
	const char *what = "checking the parameters", *name;
	bool timed = !!strcmp(mode, "counting");
	int ret = check_params();

	if (!ret)
		ret = check_memory(timed, top && timed);
	if (ret)
		return ret;	/* check_params() or check_memory() said which */
	/* the keys are this module's own: each load starts from their defaults */
	if (!timed)
		static_branch_disable(&mmp_timed);
	if (!top || !timed)	/* nothing to total when counting */
		static_branch_disable(&mmp_top_on);
	if (mmp_clock_init(match_string(clock_names, ARRAY_SIZE(clock_names),
					clock))) {
		pr_err("mmpreempt: clock=tsc: the TSC is absent, unstable or not calibrated\n");
		return -EINVAL;
	}
	ret = mmp_stats_init();
	what = "allocating the statistics";
	if (!ret && timed) {	/* counting mode times nothing */
		ret = mmp_flight_init(hold_slots);
		what = "allocating the hold table";
	}
	if (!ret) {
		ret = mmp_top_init(top_slots);
		what = "allocating the top table";
	}
	if (ret)
		goto fail;
	/*
	 * The probes first, then the files: a file exists only once the load
	 * can no longer fail for want of probes, so none can be open on a
	 * module that a failed attach is freeing.
	 */
	mutex_lock(&mmp_control_lock);
	ret = set_enabled(true);
	mutex_unlock(&mmp_control_lock);
	what = "attaching the probes";
	if (ret)
		goto fail;
	dir = mmp_debugfs_dir("mmpreempt", NULL);
	mmp_debugfs_file("enable", 0600, dir, NULL, &enable_fops);
	mmp_debugfs_file("reset", 0200, dir, NULL, &reset_fops);
	mmp_stats_debugfs(dir);
	mmp_top_debugfs(dir, top_n);
	mmp_alllocks_debugfs(dir);
	/* a file missing would read as a feature missing: refuse to load */
	ret = mmp_debugfs_error(&name);
	if (ret) {
		pr_err("mmpreempt: not loaded: cannot create debugfs entry %s (error %d)\n",
		       name, ret);
		cleanup();
		return ret;
	}
	return 0;
fail:
	pr_err("mmpreempt: not loaded: %s failed (error %d)\n", what, ret);
	cleanup();
	return ret;
}

static void __exit mmpreempt_exit(void)
{
	cleanup();
}

module_init(mmpreempt_init);
module_exit(mmpreempt_exit);
MODULE_DESCRIPTION("counters and histograms for the mm locks made preemptible in 2010");
MODULE_LICENSE("GPL");
