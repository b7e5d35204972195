/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's headers for module/clock.c and
 * module/mmpreempt.h to compile in user space (tests/host/module-clock.sh):
 * the arithmetic under test is the module's own, only its surroundings
 * are stubbed. Included first (gcc -include); the <linux/...> headers the
 * sources name are empty files.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef unsigned short umode_t;

#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#ifndef __always_inline
#define __always_inline	inline __attribute__((always_inline))
#endif
#define __read_mostly
#define __percpu
#define __user
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define BUILD_BUG_ON(c)	_Static_assert(!(c), #c)
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define READ_ONCE(x)	(*(volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define cmpxchg(p, o, n)	__sync_val_compare_and_swap(p, o, n)
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define this_cpu_ptr(p)	(p)
#define GOLDEN_RATIO_64	0x61C8864680B583EBull
#define current		((void *)&stub_task)

static int stub_task;

static inline unsigned int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline unsigned long __fls(unsigned long x) { return 63 - __builtin_clzl(x); }
static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int s)
{
	return (u64)(((unsigned __int128)a * b) >> s);
}

struct static_key { int enabled; };
struct static_key_true { struct static_key key; };
struct static_key_false { struct static_key key; };
#define DECLARE_STATIC_KEY_FALSE(n)	extern struct static_key_false n
#define DECLARE_STATIC_KEY_TRUE(n)	extern struct static_key_true n
#define DEFINE_STATIC_KEY_FALSE(n)	struct static_key_false n = { { 0 } }
#define static_branch_likely(k)		((k)->key.enabled)
#define static_key_enabled(k)		((k)->key.enabled)

typedef struct { unsigned int sequence; } seqcount_t;
#define raw_read_seqcount(s)	READ_ONCE((s)->sequence)
struct mutex { int locked; };
struct dentry;
struct file_operations;

/* the clock the module would read: set by the model */
static u64 stub_now;
static inline u64 ktime_get_mono_fast_ns(void) { return stub_now; }
