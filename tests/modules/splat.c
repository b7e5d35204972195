// SPDX-License-Identifier: GPL-2.0
/*
 * splat.ko: test only, loaded by the host tests runner-warn and
 * runner-panic, which check that guest/run.sh fails on a guest kernel
 * that warns or panics, each with its own message.
 *
 *   insmod splat.ko action=warn    one WARN at load (a splat in the kernel
 *                                  log); the module loads and unloads
 *   insmod splat.ko action=panic   panic() at load: the guest dies
 *                                  (panic=-1 and QEMU's -no-reboot end it)
 *
 * Any other action, or none, refuses to load with -EINVAL.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

static char *action = "";
module_param(action, charp, 0444);
MODULE_PARM_DESC(action, "warn: WARN at load; panic: panic at load");

static int __init splat_init(void)
{
	if (!strcmp(action, "warn")) {
		WARN(1, "splat: a warning on request\n");
		return 0;
	}
	if (!strcmp(action, "panic"))
		panic("splat: a panic on request\n");
	pr_err("splat: action=%s: want warn or panic\n", action);
	return -EINVAL;
}

static void __exit splat_exit(void)
{
}

module_init(splat_init);
module_exit(splat_exit);
MODULE_DESCRIPTION("WARN or panic on request, to test the guest runner");
MODULE_LICENSE("GPL");
