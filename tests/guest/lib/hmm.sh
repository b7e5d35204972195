# Sourced by guest tests that need mm_take_all_locks(): loads the tree's
# test_hmm module, whose device open registers an mmu_notifier on the
# opener's mm (the only way into mm_take_all_locks()). POSIX sh.
load_test_hmm() {
	[ -e /dev/hmm_dmirror0 ] && return 0
	ko=$ART/modules/test_hmm.ko
	[ -f "$ko" ] || fail "no $ko: CONFIG_TEST_HMM=m and make kernel copy it to build/modules"
	insmod "$ko" || fail "insmod test_hmm.ko failed"
	[ -e /dev/hmm_dmirror0 ] || fail "test_hmm loaded but /dev/hmm_dmirror0 did not appear"
}
