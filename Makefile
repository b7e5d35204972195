# mmpreempt: the only entry point. Each target is thin and delegates to a
# script under guest/ (or a sub-Makefile); `make help` lists them.
CACHE ?= $(HOME)/.cache/mmpreempt
CMD ?= uname -a
export CACHE

BUILD := $(CURDIR)/build

# record and view read WORKLOAD ARGS EVENTS BPF NAME OUT RUN from the
# environment: make puts variables given on its command line there.
.PHONY: help deps kernel module module-only workloads report-tool rootfs guest run record view test demo bisect clean distclean

help:
	@echo "mmpreempt: trace the mm locks of the 'mm: preemptibility' series in a QEMU guest"
	@echo
	@echo "  make deps       install the Debian packages the kit needs (apt-get, idempotent)"
	@echo "  make kernel     patched linux-source-6.1 bzImage, cached by content in CACHE"
	@echo "  make module     mmpreempt.ko against that kernel"
	@echo "  make workloads  the guest's C workloads, into build/bin"
	@echo "  make rootfs     the Debian bookworm guest image, cached by recipe in CACHE"
	@echo "  make report-tool  mmreport, the host-side trace.dat analyzer (build/host/)"
	@echo "  make run CMD='...'  boot the guest and run CMD there (results/run/)"
	@echo "  make record WORKLOAD=mix [ARGS='...'] [EVENTS='...'] [BPF='tool ...'|none]"
	@echo "                  trace-cmd + mmpreempt.ko + bpftrace around one workload,"
	@echo "                  then the report: results/<workload>-<timestamp>/"
	@echo "  make view [RUN=results/...]  kernelshark on the newest (or that) trace.dat"
	@echo "  make demo       make record WORKLOAD=mix into results/demo/, with its summary"
	@echo "  make test       the whole suite in one guest boot; ends 'N passed, N failed'"
	@echo "                  (T='name ...' runs only those guest tests)"
	@echo "  make bisect     every patch of both series, in order, builds and boots (slow)"
	@echo "  make clean      remove build/ and results/ (the cache stays)"
	@echo "  make distclean  clean, and remove the cache too ($(CACHE))"
	@echo
	@echo "Variables: CACHE=$(CACHE)  ACCEL=auto|kvm|tcg  SMP=2  NUMA=2  MEM=2048"
	@echo "  PREEMPT=none|voluntary|full  ICOUNT=1 (deterministic guest time)  TIMEOUT=900"

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

module-only:
	@$(MAKE) --no-print-directory -C module KDIR=$(CACHE)/obj
	@cp module/mmpreempt.ko $(BUILD)/
	@$(MAKE) --no-print-directory -C guest/testmods KDIR=$(CACHE)/obj
	@mkdir -p $(BUILD)/modules && cp guest/testmods/*.ko $(BUILD)/modules/

workloads:
	@$(MAKE) --no-print-directory -C guest/workloads OUT=$(BUILD)/bin

report-tool:
	@$(MAKE) --no-print-directory -C report OUT=$(BUILD)/host

rootfs:
	@mkdir -p $(CACHE) && flock $(CACHE)/.rootfs.lock guest/rootfs.sh >/dev/null

# Everything a boot needs. The image and the kernel build at the same time:
# debootstrap waits on the network while the compiler has the CPUs.
guest:
	@$(MAKE) --no-print-directory -j2 kernel rootfs workloads report-tool
	@$(MAKE) --no-print-directory module-only

# $(value CMD): the command exactly as given, "$" and all, quoted for sh.
run: guest
	@guest/run.sh -- '$(subst ','\'',$(value CMD))'

record: guest
	@guest/record.sh

view:
	@guest/view.sh

test: deps guest
	@T='$(T)' guest/test.sh

demo: deps guest
	@guest/demo.sh

bisect: kernel rootfs
	@guest/bisect.sh

clean:
	rm -rf build results
	@if [ -d $(CACHE)/obj ]; then \
		$(MAKE) --no-print-directory -C module KDIR=$(CACHE)/obj clean; \
		$(MAKE) --no-print-directory -C guest/testmods KDIR=$(CACHE)/obj clean; fi

distclean: clean
	rm -rf $(CACHE)
