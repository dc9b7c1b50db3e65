"""Macros every BUILD file of snare uses."""

load("//tools:layers.bzl", "visible_above")

def snare_package():
    """The package's visibility (the layers above it) and its sources for the layer check."""
    name = "//" + native.package_name()
    native.package(default_visibility = visible_above(name))
    native.filegroup(
        name = "layer_sources",
        srcs = native.glob(["**/*.h", "**/*.cc", "**/*.S"]),
        visibility = ["//tools:__pkg__"],
    )

# copts and linkopts of programs that run as guests or as a lab kernel's /init: built without
# the sanitizers of --config=asan/ubsan/tsan (.bazelrc), which are for snare's own code (a
# sanitizer's runtime in a guest would only measure itself, and cannot link statically).
UNSANITIZED = ["-fno-sanitize=all"]

def cc_unit(name, deps = [], test_deps = [], srcs = None, hdrs = None, **kwargs):
    """One concept: NAME.h and NAME.cc as a cc_library, and NAME_test.cc, when there is one,
    as a small cc_test of it with GoogleTest.

    Args:
      name: the concept's file name.
      deps: the library's dependencies.
      test_deps: what the test needs beyond the library and GoogleTest.
      srcs: the library's sources (default NAME.cc where it exists).
      hdrs: its headers (default NAME.h).
      **kwargs: passed to the cc_library.
    """
    native.cc_library(
        name = name,
        srcs = native.glob([name + ".cc"]) if srcs == None else srcs,
        hdrs = [name + ".h"] if hdrs == None else hdrs,
        deps = deps,
        **kwargs
    )
    if native.glob([name + "_test.cc"]):
        native.cc_test(
            name = name + "_test",
            size = "small",
            srcs = [name + "_test.cc"],
            deps = [":" + name, "//third_party:gtest_main", "//third_party:sanitizer_runtime"] +
                   test_deps,
        )

def snare_test(name, size = "medium", data = [], deps = [], **kwargs):
    """An integration test NAME.cc that runs //cmd:snare (tests/): it has the snare binary in
    its runfiles and the runfile, subprocess and GoogleTest helpers in its deps.

    Args:
      name: the test, and its source NAME.cc.
      size: Bazel's size (medium by default).
      data: runfiles beyond //cmd:snare (guests).
      deps: libraries beyond the helpers.
      **kwargs: passed to the cc_test.
    """
    native.cc_test(
        name = name,
        size = size,
        srcs = [name + ".cc"],
        data = ["//cmd:snare"] + data,
        deps = [
            "//tests:snare_paths",
            "//third_party:gtest_main",
            "//third_party:sanitizer_runtime",
            "//util:subprocess",
        ] + deps,
        **kwargs
    )

# --config=fuzz (.bazelrc) links libFuzzer's driver; fuzz/fuzz_main.cc calls it.
LIBFUZZER = "/usr/lib/llvm-16/lib/clang/16/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a"

def snare_fuzzer(name, deps = [], runs = 100000, max_total_time = 20, **kwargs):
    """A fuzz target NAME.cc (LLVMFuzzerTestOneInput) with its seed corpus corpus/NAME/.

    Under the default build it is a test that replays the corpus; under --config=fuzz it
    fuzzes from the corpus for `runs` inputs (or max_total_time seconds) and fails on a crash,
    leak or timeout, printing libFuzzer's final stats (exec/s, coverage) to the test log.

    Args:
      name: the target, its source NAME.cc and its corpus folder.
      deps: what NAME.cc fuzzes.
      runs: libFuzzer's -runs under --config=fuzz.
      max_total_time: libFuzzer's -max_total_time bound, in seconds.
      **kwargs: passed to the cc_test.
    """
    corpus = "corpus/" + name
    native.cc_test(
        name = name,
        size = "small",  # under --config=fuzz, max_total_time bounds it
        srcs = [name + ".cc", "fuzz_main.cc", "fuzz_bytes.h"],
        data = native.glob([corpus + "/**"]),
        args = select({
            "//fuzz:fuzzing": [
                "-runs=%d" % runs,
                "-max_total_time=%d" % max_total_time,
                "-timeout=10",
                "-rss_limit_mb=4096",
            ],
            "//conditions:default": [],
        }) + [native.package_name() + "/" + corpus],
        local_defines = select({
            "//fuzz:fuzzing": ["SNARE_LIBFUZZER"],
            "//conditions:default": [],
        }),
        linkopts = select({
            "//fuzz:fuzzing": [LIBFUZZER],
            "//conditions:default": [],
        }),
        deps = deps + ["//third_party:sanitizer_runtime"],
        **kwargs
    )
