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
