/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the test modules that hold a window open inside a probe, where
 * nothing may sleep.
 */
#ifndef MMPREEMPT_TESTMOD_SPIN_MS_H
#define MMPREEMPT_TESTMOD_SPIN_MS_H

#include <linux/ktime.h>
#include <linux/processor.h>

/*
 * Busy for @ms by the clock, not by mdelay()'s calibrated loops: under
 * QEMU's TCG those were seen to end 1,500 ms early (2 ms).
 */
static inline void spin_ms(unsigned int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (ktime_get_ns() < end)
		cpu_relax();
}

#endif
