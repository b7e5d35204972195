// SPDX-License-Identifier: GPL-2.0
/*
 * clock-model: module/clock.c and mmpreempt.h's mmp_elapsed(), compiled
 * in user space (kstub.h), on the intervals the guest cannot produce: an
 * end before its start (counted in clock_backwards, read as 0), intervals
 * at and past fast_max (the 64-bit product, then the 128-bit one), and
 * ones whose ns pass S64_MAX (capped), for the ktime factor and for TSC
 * factors. Prints "ok:" or "FAIL:" per check; exits 1 on any failure.
 */
#include <stdio.h>

#include "../../../module/clock.c"

static int bad;

static void want(const char *what, u64 got, u64 exp)
{
	printf("%s: %s: got %llu, want %llu\n", got == exp ? "ok" : "FAIL", what,
	       (unsigned long long)got, (unsigned long long)exp);
	bad |= got != exp;
}

/* the factors clock.c computes at load: ktime, or the TSC at @khz */
static void use_clock(u64 khz)
{
	if (!khz) {
		mmp_clock.mult = 1ULL << 32;
		mmp_clock.fast_max = U32_MAX;
		mmp_clock.hi_max = S64_MAX >> 32;
		return;
	}
	mmp_clock.mult = ((1000000ULL << 32) + khz / 2) / khz;
	mmp_clock.fast_max = min_t(u64, U64_MAX / mmp_clock.mult, S64_MAX);
	mmp_clock.hi_max = S64_MAX / mmp_clock.mult;
}

int main(void)
{
	static struct mmp_stat p;

	use_clock(0);
	want("ktime: an end 50 ns before its start reads", mmp_elapsed(&p, 100, 50), 0);
	want("ktime: and is counted in clock_backwards", p.clock_backwards, 1);
	want("ktime: fast_max (2^32 - 1 ns) exactly", mmp_elapsed(&p, 7, 7 + (u64)U32_MAX), U32_MAX);
	want("ktime: 5 s, past fast_max", mmp_elapsed(&p, 1000, 1000 + 5000000000ULL),
	     5000000000ULL);
	want("ktime: 2^62 ns", mmp_elapsed(&p, 0, 1ULL << 62), 1ULL << 62);
	want("ktime: an end 2^63 before its start is backwards",
	     mmp_elapsed(&p, 1ULL << 63, 0), 0);
	want("ktime: clock_backwards after both", p.clock_backwards, 2);

	use_clock(2000000);	/* a 2 GHz TSC: 0.5 ns a tick */
	want("tsc 2 GHz: fast_max", mmp_clock.fast_max, (1ULL << 33) - 1);
	want("tsc 2 GHz: fast_max ticks", mmp_elapsed(&p, 0, (1ULL << 33) - 1),
	     (1ULL << 32) - 1);
	want("tsc 2 GHz: 2^33 ticks, the slow path", mmp_elapsed(&p, 0, 1ULL << 33),
	     1ULL << 32);
	want("tsc 2 GHz: 10^10 ticks = 5 s", mmp_elapsed(&p, 5, 5 + 10000000000ULL),
	     5000000000ULL);
	want("tsc 2 GHz: an end 1 tick early", mmp_elapsed(&p, 10, 9), 0);
	want("tsc 2 GHz: clock_backwards", p.clock_backwards, 3);

	use_clock(250000);	/* 250 MHz: 4 ns a tick */
	want("tsc 250 MHz: 2^62 ticks are 2^64 ns: capped", mmp_elapsed(&p, 0, 1ULL << 62),
	     S64_MAX);
	want("tsc 250 MHz: 2^40 ticks", mmp_elapsed(&p, 0, 1ULL << 40), 1ULL << 42);
	want("tsc 250 MHz: the last ticks below the cap",
	     mmp_elapsed(&p, 0, (S64_MAX >> 2) & ~3ULL), (S64_MAX & ~15ULL));
	want("tsc 250 MHz: 2^61 + 3 ticks", mmp_elapsed(&p, 0, (1ULL << 61) + 3),
	     S64_MAX);
	want("no other backwards count", p.clock_backwards, 3);
	return bad;
}
