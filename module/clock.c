// SPDX-License-Identifier: GPL-2.0
/*
 * The clock, chosen once at load. A hold may begin on one CPU and end on
 * another, so the clock must be comparable between CPUs: the TSC when it is
 * invariant (constant rate, running in every idle state) and the kernel
 * trusts it (it marks it unstable when the CPUs' TSCs are out of sync or
 * it drifts against the watchdog clocksource), read raw and
 * scaled to ns only when an interval ends; otherwise
 * ktime_get_mono_fast_ns(), which is also safe in any context. Should the
 * kernel give the TSC up after the load, the stats file says so
 * (clock.tsc_unstable): intervals timed since may be off.
 */
#include <linux/clocksource.h>
#include <linux/errno.h>
#include <linux/time64.h>

#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "mmpreempt.h"

DEFINE_STATIC_KEY_FALSE(mmp_clock_tsc);
/* ns already: the product is the identity */
struct mmp_clock mmp_clock __read_mostly = {
	.fast_max = U32_MAX, .mult = 1ULL << 32, .hi_max = S64_MAX >> 32
};

/*
 * @want: MMP_CLOCK_AUTO takes the TSC when it is invariant (constant rate,
 * running in every idle state) and trusted; MMP_CLOCK_TSC takes it when
 * trusted only, for CPUs that do not say invariant but are (QEMU's TCG
 * with icount, many VMs); MMP_CLOCK_KTIME never. -EINVAL when the TSC was
 * asked for and cannot be had.
 */
int mmp_clock_init(enum mmp_clock_want want)
{
#ifdef CONFIG_X86
	bool usable = boot_cpu_has(X86_FEATURE_TSC) && !check_tsc_unstable() &&
		      tsc_khz;

	/*
	 * Only an invariant TSC by default: one that changed rate with
	 * cpufreq or stopped in deep idle would be off until the kernel
	 * noticed, and hold times read before that would be wrong without
	 * anything saying so.
	 */
	if (want == MMP_CLOCK_AUTO)
		usable = usable && boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
			 boot_cpu_has(X86_FEATURE_NONSTOP_TSC);
	if (want == MMP_CLOCK_TSC && !usable)
		return -EINVAL;
	if (want == MMP_CLOCK_KTIME || !usable)
		return 0;
	/* cycles -> ns: NSEC_PER_MSEC / tsc_khz, in 32.32 fixed point */
	mmp_clock.mult = DIV_ROUND_CLOSEST_ULL((u64)NSEC_PER_MSEC << 32, tsc_khz);
	/* no 64-bit overflow, and every backwards interval out of range */
	mmp_clock.fast_max = min_t(u64, div64_u64(U64_MAX, mmp_clock.mult),
				   S64_MAX);
	mmp_clock.hi_max = div64_u64(S64_MAX, mmp_clock.mult);
	static_branch_enable(&mmp_clock_tsc);
	return 0;
#else
	return want == MMP_CLOCK_TSC ? -EINVAL : 0;
#endif
}

/*
 * mmp_elapsed() past the 64-bit product: backwards, or seconds long. The
 * product in two halves, (hi << 32 | lo) * mult >> 32 = hi * mult +
 * (lo * mult >> 32), so that no part of it wraps: a whole 128-bit product
 * shifted back to 64 bits would lose its top bits past 2^64 ns (ticks near
 * 2^63 of a TSC slower than 500 MHz) and read as a short interval. Past
 * S64_MAX (centuries) it is capped.
 */
u64 mmp_elapsed_slow(struct mmp_stat *p, u64 ticks)
{
	u64 hi = ticks >> 32;

	if ((s64)ticks < 0) {
		p->clock_backwards++;
		return 0;
	}
	if (hi > mmp_clock.hi_max)
		return S64_MAX;
	/* at most S64_MAX plus less than mult: no wrap */
	return min_t(u64, hi * mmp_clock.mult +
			  mul_u64_u64_shr(ticks & U32_MAX, mmp_clock.mult, 32),
		     S64_MAX);
}

/* For the stats file: 1 while the TSC is the clock and still trusted. */
bool mmp_clock_tsc_unstable(void)
{
#ifdef CONFIG_X86
	if (static_branch_likely(&mmp_clock_tsc))
		return check_tsc_unstable();
#endif
	return false;
}
