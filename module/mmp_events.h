/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every event the module attaches to, one MMP_EVENT(name) each. Included
 * several times, with MMP_EVENT defined for what each list needs; no guard.
 * MMP_TIMED_EVENT marks the events whose probe has a counting-only twin
 * (mode=counting); it means MMP_EVENT unless the includer defines it.
 */
#ifndef MMP_TIMED_EVENT
#define MMP_TIMED_EVENT(name) MMP_EVENT(name)
#define MMP_TIMED_EVENT_IS_EVENT
#endif
MMP_TIMED_EVENT(anon_vma_lock_start)
MMP_TIMED_EVENT(anon_vma_lock_acquired)
MMP_TIMED_EVENT(anon_vma_lock_released)
MMP_EVENT(anon_vma_alloc)
MMP_EVENT(anon_vma_attach)
MMP_EVENT(anon_vma_get)
MMP_EVENT(anon_vma_get_failed)
MMP_EVENT(anon_vma_put)
MMP_EVENT(anon_vma_free)
MMP_EVENT(anon_vma_reuse)
MMP_TIMED_EVENT(i_mmap_lock_start)
MMP_TIMED_EVENT(i_mmap_lock_acquired)
MMP_TIMED_EVENT(i_mmap_lock_released)
MMP_TIMED_EVENT(mmu_gather_start)
MMP_TIMED_EVENT(mmu_gather_finish)
MMP_EVENT(mmu_gather_flush)
MMP_EVENT(mmu_gather_batch_alloc)
MMP_EVENT(mmu_gather_resched)
MMP_EVENT(mm_take_all_locks_start)
MMP_EVENT(mm_take_all_locks_acquired)
MMP_EVENT(mm_drop_all_locks)
#ifdef MMP_TIMED_EVENT_IS_EVENT
#undef MMP_TIMED_EVENT
#undef MMP_TIMED_EVENT_IS_EVENT
#endif
