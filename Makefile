# culprit — one non-recursive Makefile.
#   make            build ./culprit
#   make check      build and run every test (unit, batch, screen)
#   make asan       the same tests under AddressSanitizer + UBSan (build in build-asan/)
#   make bench      run the benchmarks under bench/ (they print figures)
#   make demo       build the demo repository and run culprit on it
#   make install    install the binary and man pages under $(PREFIX)

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
LLVM    ?= /usr/lib/llvm-14

PKGS     := libgit2 libpcre2-8 sqlite3 z3 ncursesw
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
            -Wno-unused-parameter
ifdef CI
WARN     += -Werror
endif
OPT      ?= -O2 -g
CPPFLAGS += -I. -D_GNU_SOURCE -DPCRE2_CODE_UNIT_WIDTH=8 $(shell pkg-config --cflags $(PKGS)) \
            -I$(LLVM)/include
CFLAGS   += -std=c11 $(OPT) $(WARN) $(SAN) -MMD -MP -pthread
# libclang is not linked: core/semantic/clang_load.c opens it at its first use
# (linking it makes the loader relocate all of LLVM at every start); it is
# told where the library is, by the name a linked binary would record.
LDLIBS   += $(shell pkg-config --libs $(PKGS) panelw) -ldl -lm
LIBCLANG_SONAME := $(shell readelf -d $(LLVM)/lib/libclang.so 2>/dev/null | sed -n 's/.*soname: \[\(.*\)\]/\1/p')
LDFLAGS  += $(SAN) -pthread

CORE_SRC   := $(sort $(wildcard core/*.c core/*/*.c))
VIEWS_SRC  := $(sort $(wildcard views/*.c))
KEYMAP_SRC := $(sort $(wildcard keymaps/*.c))
TUI_SRC    := $(sort $(wildcard tui/*.c))
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRC  := $(sort $(wildcard bench/*.c))

CORE_OBJ   := $(CORE_SRC:%.c=$(BUILD)/%.o)
UI_OBJ     := $(VIEWS_SRC:%.c=$(BUILD)/%.o) $(KEYMAP_SRC:%.c=$(BUILD)/%.o)
TUI_OBJ    := $(TUI_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_BIN  := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
LIBCORE    := $(BUILD)/libculprit.a
LIBUI      := $(BUILD)/libculprit-ui.a

all: culprit

culprit: $(BUILD)/culprit
	ln -sf $(BUILD)/culprit culprit

$(BUILD)/culprit: $(TUI_OBJ) $(LIBUI) $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $(TUI_OBJ) $(LIBUI) $(LIBCORE) $(LDLIBS)

$(LIBCORE): $(CORE_OBJ)
	rm -f $@ && ar rcs $@ $^

$(LIBUI): $(UI_OBJ)
	rm -f $@ && ar rcs $@ $(UI_OBJ)

# The default bindings are written in the user's keymap syntax and compiled in.
keymaps/defaults.inc: keymaps/default.keymap keymaps/emacs.keymap scripts/embed.sh
	sh scripts/embed.sh keymaps/default.keymap keymap_default_vi > $@.tmp
	sh scripts/embed.sh keymaps/emacs.keymap keymap_default_emacs >> $@.tmp
	mv $@.tmp $@
$(BUILD)/keymaps/keymap.o: keymaps/defaults.inc

# The trace runtime is written next to each instrumented build.
core/semantic/trace_rt.inc: core/semantic/trace_rt.h scripts/embed.sh
	sh scripts/embed.sh core/semantic/trace_rt.h trace_rt > $@.tmp
	mv $@.tmp $@
$(BUILD)/core/semantic/instr.o: core/semantic/trace_rt.inc

$(BUILD)/core/semantic/clang_load.o: CPPFLAGS += -DCLANG_LOAD_DIR='"$(LLVM)/lib"' \
	$(if $(LIBCLANG_SONAME),-DCLANG_LOAD_SONAME='"$(LIBCLANG_SONAME)"')

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIBUI) $(LIBCORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBUI) $(LIBCORE) $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(LIBUI) $(LIBCORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBUI) $(LIBCORE) $(LDLIBS)

tests: $(UNIT_BIN)

check: all tests
	sh tests/run.sh $(BUILD)

# intercept_tls_get_addr=0: up to GCC 13 the runtime's __tls_get_addr
# interceptor takes a dynamic TLS block (libclang's, opened at run time) for
# a pre-2.25 glibc one when its address falls on a given offset by chance,
# and the leak checker's tracer then dies at exit reading it.
asan:
	ASAN_OPTIONS=intercept_tls_get_addr=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 $(MAKE) BUILD=build-asan OPT='-O1 -g -fno-omit-frame-pointer' \
	    SAN='-fsanitize=address,undefined -fno-sanitize-recover=undefined -Wno-format-truncation' check

# libFuzzer targets for the readers of input culprit does not control (the
# keymap, suite, JSON, trace and trace-metadata readers, the instrumenter's
# input), built with clang in build-fuzz/; seed corpora in tests/fuzz/NAME/.
#   make fuzz                          build them
#   make fuzz-run [FUZZ_SECONDS=600]   run each from its seeds (new inputs go to build-fuzz/corpus/)
# tests/batch/fuzz.sh runs each for a fixed number of runs from make check.
FUZZ_CC      ?= $(LLVM)/bin/clang
FUZZ_TARGETS := keymap suite json trace tmeta instr
FUZZ_SECONDS ?= 600
FUZZ_BIN     := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)

fuzz:
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) OPT='-O1 -g -fno-omit-frame-pointer' WARN='-Wall -Wextra -Wno-unused-parameter' \
	    SAN='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined' fuzz-targets

fuzz-targets: $(FUZZ_BIN)

$(BUILD)/fuzz/trace_meta.inc: tests/fuzz/trace.meta scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh tests/fuzz/trace.meta meta_text > $@.tmp
	mv $@.tmp $@
$(BUILD)/fuzz/fuzz_trace: $(BUILD)/fuzz/trace_meta.inc

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(LIBUI) $(LIBCORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -I$(BUILD)/fuzz $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(LIBUI) $(LIBCORE) $(LDLIBS)

fuzz-run: fuzz
	for t in $(FUZZ_TARGETS); do mkdir -p build-fuzz/corpus/$$t && \
	    build-fuzz/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 \
	        -artifact_prefix=build-fuzz/crash-$$t- build-fuzz/corpus/$$t tests/fuzz/$$t || exit 1; done

bench: all $(BENCH_BIN)
	sh bench/bench.sh $(BUILD)

demo: all
	sh scripts/demo.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(BUILD)/culprit $(DESTDIR)$(PREFIX)/bin/culprit
	install -m 644 man/culprit.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	for f in man/*.5; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/man/man5/; done; true

clean:
	rm -rf build build-asan culprit keymaps/defaults.inc core/semantic/trace_rt.inc

.PHONY: all check asan bench demo install clean tests culprit fuzz fuzz-targets fuzz-run

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# For building one piece by hand: cc $$(make -s print-cflags) ... $$(make -s print-libs)
print-cflags:
	@echo $(CPPFLAGS) $(CFLAGS)
print-libs:
	@echo $(LDFLAGS) $(LDLIBS)
.PHONY: print-cflags print-libs
