// SPDX-License-Identifier: GPL-2.0
/*
 * event_bench.ko: benchmark only, for bench/module-cost.sh. Writing N to
 * /sys/kernel/debug/event_bench fires N rounds of the anon_vma lock events
 * (start, acquired contended, released: 3 events a round, a contended
 * acquisition, so the wait is timed too, on a fake lock owned by
 * nobody) from this module, with preemption disabled, and reads back the
 * elapsed nanoseconds. Run with mmpreempt.ko attached and detached, the
 * difference per event is what the module's probes cost; with the events
 * off, what a patched-out static branch costs. That loop is the probes'
 * best case: one lock, so every lookup finds the slot and the root this
 * CPU used last. /sys/kernel/debug/event_bench_interleaved is a worse
 * one: each round takes two locks on roots not used the round before
 * (64 fake roots in turn), starts both before either acquisition and
 * releases them in the order it took them, so 3 of the 4 slot lookups
 * and both per root sums miss what the CPU used last (6 events a round).
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <trace/events/anon_vma.h>

static u64 last_ns;
static struct dentry *file, *file_interleaved;
static u64 roots[64];	/* fake anon_vmas: 8-byte aligned, never locked */

static void fire_interleaved(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct anon_vma *a = (void *)&roots[2 * i % 64];
		struct anon_vma *b = (void *)&roots[(2 * i + 1) % 64];

		trace_anon_vma_lock_start(a, a, true);
		trace_anon_vma_lock_start(b, b, true);
		trace_anon_vma_lock_acquired(a, a, true, true, true);
		trace_anon_vma_lock_acquired(b, b, true, true, true);
		trace_anon_vma_lock_released(a, a, true);
		trace_anon_vma_lock_released(b, b, true);
	}
}

static ssize_t bench_write(struct file *f, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct anon_vma *fake = (struct anon_vma *)&last_ns;
	unsigned int n, i;
	u64 t0;
	int ret = kstrtouint_from_user(ubuf, count, 10, &n);

	if (ret)
		return ret;
	if (!n || n > 10000000)
		return -EINVAL;
	preempt_disable();
	t0 = ktime_get_ns();
	if (f->private_data) {
		fire_interleaved(n);
	} else {
		for (i = 0; i < n; i++) {
			trace_anon_vma_lock_start(fake, fake, true);
			trace_anon_vma_lock_acquired(fake, fake, true, true, true);
			trace_anon_vma_lock_released(fake, fake, true);
		}
	}
	last_ns = ktime_get_ns() - t0;
	preempt_enable();
	return count;
}

static ssize_t bench_read(struct file *f, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char buf[24];
	int len = scnprintf(buf, sizeof(buf), "%llu\n", last_ns);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations bench_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = bench_read,
	.write = bench_write,
	.llseek = default_llseek,
};

static int __init bench_init(void)
{
	file = debugfs_create_file("event_bench", 0600, NULL, NULL, &bench_fops);
	file_interleaved = debugfs_create_file("event_bench_interleaved", 0600,
					       NULL, roots, &bench_fops);
	return 0;
}

static void __exit bench_exit(void)
{
	debugfs_remove(file);
	debugfs_remove(file_interleaved);
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("test only: fire anon_vma lock events in a loop and time them");
MODULE_LICENSE("GPL");
