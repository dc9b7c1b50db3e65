"""Offline shim for @rules_cc//cc:defs.bzl: re-exports Bazel's native C++ rules.

Bazel 4.2.3's @bazel_tools//tools/cpp loads this file. The real rules_cc (and Debian's
bazel-rules-cc) is too new for Bazel 4, so the native rules are used directly.
"""

cc_binary = native.cc_binary
cc_import = native.cc_import
cc_library = native.cc_library
cc_proto_library = native.cc_proto_library
cc_shared_library = getattr(native, "cc_shared_library", None)
cc_test = native.cc_test
cc_toolchain = native.cc_toolchain
cc_toolchain_suite = native.cc_toolchain_suite
fdo_prefetch_hints = native.fdo_prefetch_hints
fdo_profile = native.fdo_profile
objc_import = native.objc_import
objc_library = native.objc_library
