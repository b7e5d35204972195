// SPDX-License-Identifier: GPL-2.0
/*
 * The clock, chosen once at load. A hold may begin on one CPU and end on
 * another, so the clock must be comparable between CPUs: the TSC while the
 * kernel trusts it (it marks it unstable when the CPUs' TSCs are out of
 * sync, when it drifts against the watchdog clocksource, when cpufreq
 * changes a non-constant one or idle stops a non-nonstop one), read raw and
 * scaled to ns only when an interval ends; otherwise
 * ktime_get_mono_fast_ns(), which is also safe in any context. Should the
 * kernel give the TSC up after the load, the stats file says so
 * (clock.tsc_unstable): intervals timed since may be off.
 */
#include <linux/clocksource.h>
#include <linux/time64.h>

#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "mmpreempt.h"

DEFINE_STATIC_KEY_FALSE(mmp_clock_tsc);
u32 mmp_tsc_mult, mmp_tsc_shift;

void mmp_clock_init(void)
{
#ifdef CONFIG_X86
	if (!boot_cpu_has(X86_FEATURE_TSC) || check_tsc_unstable() || !tsc_khz)
		return;
	/* cycles -> ns exact to the scale's rounding for intervals to 1 h */
	clocks_calc_mult_shift(&mmp_tsc_mult, &mmp_tsc_shift, tsc_khz,
			       NSEC_PER_MSEC, 3600 * MSEC_PER_SEC);
	static_branch_enable(&mmp_clock_tsc);
#endif
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
