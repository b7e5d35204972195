/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the test modules that act on a page of another process:
 * pinning the page a pid maps at an address, and finding the unexported
 * folio_get_anon_vma().
 */
#ifndef MMPREEMPT_TESTMOD_USER_PAGE_H
#define MMPREEMPT_TESTMOD_USER_PAGE_H

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>

/*
 * The page @pid maps at @addr, pinned (put_page() it); the mm is released
 * again at once, so that the owner's exit never waits for the caller.
 */
static inline int pin_user_page_of(int pid, unsigned long addr,
				   struct page **page)
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *spid;
	long ret;

	spid = find_get_pid(pid);
	task = get_pid_task(spid, PIDTYPE_PID);
	put_pid(spid);
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	put_task_struct(task);
	if (!mm)
		return -ESRCH;
	mmap_read_lock(mm);
	ret = get_user_pages_remote(mm, addr, 1, 0, page, NULL, NULL);
	mmap_read_unlock(mm);
	mmput(mm);
	return ret == 1 ? 0 : -EFAULT;
}

/* An unexported function's address, found the way kprobes find it. */
static inline void *lookup_symbol(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	void *addr;

	if (register_kprobe(&kp))
		return NULL;
	addr = kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

#endif
