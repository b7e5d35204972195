# mmpreempt: the only entry point. Each target is thin and delegates to a
# script under guest/ (or a sub-Makefile); `make help` lists them.
CACHE ?= $(HOME)/.cache/mmpreempt
CMD ?= uname -a
export CACHE

BUILD := $(CURDIR)/build
# The debug kernel's artifacts (its mmpreempt.ko, test modules, a copy of the
# workloads): what a debug boot mounts at /mnt/art.
DBUILD := $(BUILD)/debug

# record and view read WORKLOAD ARGS EVENTS BPF NAME OUT RUN from the
# environment: make puts variables given on its command line there.
.PHONY: help deps kernel module module-only workloads report-tool rootfs guest run record view test demo bisect clean distclean \
	kernel-debug module-debug guest-debug test-debug sparc64 sparc64-stock bench-sparc64 \
	kernel-stock kernel-lockstat bench

help:
	@echo 'mmpreempt: trace the mm locks of the "mm: preemptibility" series in a QEMU guest'
	@echo ''
	@echo 'Start here:'
	@echo '  demo            - everything a first trace needs, then make record WORKLOAD=mix'
	@echo '                    into results/demo/ with its report, summary and plots'
	@echo '  test            - the suite on the normal, debug and sparc64 kernels (what CI runs);'
	@echo '                    ends "N passed, N failed, N skipped" (T="name ..." only those'
	@echo '                    tests; KERNELS=normal one kernel; DEBUG_SUITE=full every debug test)'
	@echo ''
	@echo 'Guest (cached by content in CACHE):'
	@echo '  deps            - install the Debian packages the kit needs (apt-get, idempotent)'
	@echo '  guest           - kernel, rootfs, workloads, report-tool and module: all a boot needs'
	@echo '  kernel          - the patched linux-source-6.1 bzImage and its in-tree modules'
	@echo '  module          - mmpreempt.ko and the test modules against that kernel'
	@echo '  module-only     - the same without checking the kernel first'
	@echo '  workloads       - the guest'"'"'s static C workloads, into build/bin/'
	@echo '  rootfs          - the Debian bookworm guest image'
	@echo '  report-tool     - mmreport, the host-side trace.dat analyser, into build/host/'
	@echo ''
	@echo 'Tracing:'
	@echo '  run CMD=...     - boot the guest and run CMD there (results/run/)'
	@echo '  record          - trace-cmd + mmpreempt.ko + bpftrace around one workload, then the'
	@echo '                    report: WORKLOAD=mix ARGS=... EVENTS=... BPF="tool ..."|none'
	@echo '                    NAME=... OUT=... (results/<workload>-<timestamp>/)'
	@echo '  view            - kernelshark on the newest trace.dat (RUN=results/... for another)'
	@echo ''
	@echo 'Other kernels:'
	@echo '  kernel-debug    - the debug kernel (lockdep, KASAN, kmemleak, no KSM)'
	@echo '  module-debug    - mmpreempt.ko and the test modules against it'
	@echo '  guest-debug     - all a debug boot needs'
	@echo '  test-debug      - every test on the debug kernel, 1,000 load cycles (slow)'
	@echo '  sparc64         - the series cross-built for sparc64, and its guest'"'"'s programs'
	@echo '  sparc64-stock   - the same config on stock 6.1 (the GUP-fast baseline)'
	@echo '  kernel-stock    - stock linux-source-6.1 with the normal config (off-cost'"'"'s baseline)'
	@echo '  kernel-lockstat - the normal config with CONFIG_LOCK_STAT (workload-cost'"'"'s anchor)'
	@echo '  bisect          - every patch of both series, in order, builds and boots (slow)'
	@echo ''
	@echo 'Benchmarks (results/bench/; bench/README.md, figures in bench/RESULTS.md):'
	@echo '  bench           - every benchmark, then bench/RESULTS.md, summary.json and the plots'
	@echo '                    (SETUP=0: without the cold setup-cost build, about 17 minutes)'
	@echo '  bench-sparc64   - gup_test on sparc64: stock 6.1 against the series'
	@echo ''
	@echo 'Cleaning:'
	@echo '  clean           - remove build/ and results/ (the cache stays)'
	@echo '  distclean       - clean, and remove the cache too ($(CACHE))'
	@echo ''
	@echo 'Variables: CACHE=$(CACHE)  ACCEL=auto|kvm|tcg  SMP=2  NUMA=2  MEM=2048'
	@echo '  PREEMPT=none|voluntary|full  ICOUNT=1 (deterministic guest time)  TIMEOUT=900'

deps:
	@guest/deps.sh

# flock: two makes sharing a cache wait for each other instead of building
# into the same tree at once.
kernel:
	@mkdir -p $(CACHE) && flock $(CACHE)/.kernel.lock guest/kernel.sh >/dev/null
	@mkdir -p $(BUILD)
	@cp $(CACHE)/kernel/current/kernel.release $(BUILD)/kernel.release
	@mkdir -p $(BUILD)/modules && rm -f $(BUILD)/modules/*.ko && \
		cp $(CACHE)/kernel/current/*.ko $(BUILD)/modules/ 2>/dev/null || true
	@mkdir -p $(BUILD)/bin && cp $(CACHE)/kernel/current/gup_test $(BUILD)/bin/

module: kernel module-only

# The debug variant (guest/kernel-debug.config): its own object directory, so
# the module and the test modules build from copies of their sources there,
# and a debug build never touches the normal one's objects.
kernel-debug:
	@mkdir -p $(CACHE) && flock $(CACHE)/.kernel.lock env VARIANT=debug guest/kernel.sh >/dev/null
	@mkdir -p $(DBUILD)/modules $(DBUILD)/bin
	@cp $(CACHE)/kernel/current-debug/kernel.release $(DBUILD)/kernel.release
	@rm -f $(DBUILD)/modules/*.ko && cp $(CACHE)/kernel/current-debug/*.ko $(DBUILD)/modules/ 2>/dev/null || true
	@cp $(CACHE)/kernel/current-debug/gup_test $(DBUILD)/bin/

module-debug:
	@mkdir -p $(DBUILD)/src/module $(DBUILD)/src/testmods $(DBUILD)/src/event_bench
	@cp module/Kbuild module/Makefile module/*.c module/*.h $(DBUILD)/src/module/
	@cp tests/modules/Kbuild tests/modules/Makefile tests/modules/*.c tests/modules/*.h $(DBUILD)/src/testmods/
	@cp bench/event_bench/Kbuild bench/event_bench/*.c $(DBUILD)/src/event_bench/
	@$(MAKE) --no-print-directory -C $(DBUILD)/src/module KDIR=$(CACHE)/obj-debug
	@cp $(DBUILD)/src/module/mmpreempt.ko $(DBUILD)/
	@$(MAKE) --no-print-directory -C $(DBUILD)/src/testmods KDIR=$(CACHE)/obj-debug
	@$(MAKE) --no-print-directory -C $(CACHE)/obj-debug M=$(DBUILD)/src/event_bench W=1 modules
	@cp $(DBUILD)/src/testmods/*.ko $(DBUILD)/src/event_bench/*.ko $(DBUILD)/modules/

module-only:
	@$(MAKE) --no-print-directory -C module KDIR=$(CACHE)/obj
	@mkdir -p $(BUILD) && cp module/mmpreempt.ko $(BUILD)/
	@$(MAKE) --no-print-directory -C tests/modules KDIR=$(CACHE)/obj
	@$(MAKE) --no-print-directory -C $(CACHE)/obj M=$(CURDIR)/bench/event_bench W=1 modules
	@mkdir -p $(BUILD)/modules && cp tests/modules/*.ko bench/event_bench/*.ko $(BUILD)/modules/

workloads:
	@$(MAKE) --no-print-directory -C workloads OUT=$(BUILD)/bin

report-tool:
	@$(MAKE) --no-print-directory -C report OUT=$(BUILD)/host

rootfs:
	@mkdir -p $(CACHE) && flock $(CACHE)/.rootfs.lock guest/rootfs.sh >/dev/null

# Everything a boot needs. The image and the kernel build at the same time:
# debootstrap waits on the network while the compiler has the CPUs.
guest:
	@$(MAKE) --no-print-directory -j2 kernel rootfs workloads report-tool
	@$(MAKE) --no-print-directory module-only

# Needs nothing of the normal kernel, so that make test can boot the debug
# kernel while the normal one builds. gup_test is copied last: build/bin may
# hold the normal kernel's.
guest-debug:
	@$(MAKE) --no-print-directory -j2 kernel-debug rootfs workloads
	@cp $(BUILD)/bin/* $(DBUILD)/bin/ && cp $(CACHE)/kernel/current-debug/gup_test $(DBUILD)/bin/
	@$(MAKE) --no-print-directory module-debug

# The sparc64 guest: the patched tree cross-built (guest/kernel-sparc64.sh)
# and the programs its initramfs runs (tests/sparc64/); sparc64-stock is the
# same kernel config on the unpatched tree, the GUP-fast comparison's baseline.
sparc64 sparc64-stock:
	@mkdir -p $(CACHE) && flock $(CACHE)/.kernel.lock env VARIANT=$@ guest/kernel-sparc64.sh >/dev/null
	@$(MAKE) --no-print-directory -C tests/sparc64 OUT=$(BUILD)/sparc64 KSRC=$(CACHE)/src/linux

# GUP-fast on sparc64, stock 6.1 against the series (bench/gup-fast-sparc64.sh)
bench-sparc64: deps sparc64 sparc64-stock
	@bench/gup-fast-sparc64.sh

# The x86 baseline: the normal config on the unpatched tree.
kernel-stock:
	@mkdir -p $(CACHE) && flock $(CACHE)/.kernel.lock env VARIANT=stock guest/kernel.sh >/dev/null

# The lock-statistics anchor: the normal config with CONFIG_LOCK_STAT.
kernel-lockstat:
	@mkdir -p $(CACHE) && flock $(CACHE)/.kernel.lock env VARIANT=lockstat guest/kernel.sh >/dev/null

# Every benchmark, one after another (each says what it measures in its
# header): the events off against stock 6.1, the probes per event, two CPUs
# on one root, every tracer and LOCK_STAT on workloads, the realtime
# experiment, the setup from a clean clone (SETUP=0: not that one, which
# is a cold build of about 17 minutes); then bench/RESULTS.md with
# results/bench/summary.md and summary.json (bench/summary.sh, which alone
# rewrites them from results/bench/), and the plots.
bench: deps guest kernel-stock kernel-lockstat
	@bench/off-cost.sh
	@bench/module-cost.sh
	@bench/root-contention.sh
	@bench/workload-cost.sh
	@bench/preempt-latency.sh
	@if [ "$(SETUP)" != 0 ]; then bench/setup-cost.sh; fi
	@bench/summary.sh
	@bench/plots.sh

# $(value CMD): the command exactly as given, "$" and all, quoted for sh.
run: guest
	@guest/run.sh -- '$(subst ','\'',$(value CMD))'

record: guest
	@record/record.sh

view:
	@record/view.sh

# The suite on the kernels of KERNELS (normal, debug, sparc64; CI runs all).
# tests/test.sh makes each kernel's guest itself: the debug one first, so its
# suite (the longer) runs while the normal kernel builds on the core it
# leaves. On the debug kernel `make test` runs CI's share of the suite:
# the tests marked "# debug-ci: skip" are skipped, each saying why, 50 load
# cycles stand for 1,000 and two proofs run fewer rounds (tests/README.md,
# DEBUG_SUITE).
KERNELS ?= normal debug sparc64
DEBUG_SUITE ?= ci
test: deps
	@T='$(T)' KERNELS='$(KERNELS)' DEBUG_SUITE='$(DEBUG_SUITE)' tests/test.sh

# The whole suite on the debug kernel alone: every test, 1,000 load cycles
# (the host checks read the normal kernel's boot, so they are skipped).
test-debug: deps
	@T='$(T)' KERNELS=debug DEBUG_SUITE=full tests/test.sh

demo: deps guest
	@record/demo.sh

bisect: kernel rootfs
	@tests/bisect.sh

clean:
	rm -rf build results
	@if [ -d $(CACHE)/obj ]; then \
		$(MAKE) --no-print-directory -C module KDIR=$(CACHE)/obj clean; \
		$(MAKE) --no-print-directory -C tests/modules KDIR=$(CACHE)/obj clean; \
		$(MAKE) --no-print-directory -C $(CACHE)/obj M=$(CURDIR)/bench/event_bench clean; fi

distclean: clean
	rm -rf $(CACHE)
