"""The layers of snare, bottom first. A package may depend on packages of lower layers only.

Every BUILD file starts with snare_package() (tools/defs.bzl), whose default visibility is
visible_above() of the package, so a dependency on a higher layer fails to build;
//tools:layer_check_test reads this list and fails on an #include that points up or sideways.
"""

LAYERS = [
    # Freestanding Linux ABI data; hosted utilities.
    ["//abi", "//util"],
    # strace-style formatting; the kernel lab's static guest init.
    ["//trace", "//kernel/guest"],
    # Syscall policy; the results store shared by bench and the kernel lab.
    ["//policy", "//results"],
    # Confinement by the kernel: namespaces, mounts, Landlock, capabilities, profiles.
    ["//sandbox"],
    # The platform interface.
    ["//platform"],
    # systrap's memory layout shared by the stub and the sentry side.
    ["//platform/systrap/sysmsg"],
    # The stub executable.
    ["//platform/systrap/stub"],
    # systrap's sentry side (it embeds the stub).
    ["//platform/systrap"],
    ["//platform/inproc"],
    # Platforms by name.
    ["//platform/registry"],
    # The sentry; snare bench; the kernel lab; the OCI runtime.
    ["//sentry", "//bench", "//kernel", "//kernel/lab", "//oci"],
    # The snare command: main and one file per subcommand.
    ["//cmd"],
    # snare_test, the Bazel rule for users' tests (it runs //cmd:snare).
    ["//rules"],
    # Guest programs and the syscall suite the integration tests run.
    ["//tests/guests", "//tests/syscalls"],
    # Fuzzers of the input surfaces: the shared region, the ELF loader, the parsers, trace lines.
    ["//fuzz"],
    # Integration tests.
    ["//tests"],
]

def visible_above(package):
    """Visibility for the packages in layers above `package`'s (and the package itself)."""
    for i, layer in enumerate(LAYERS):
        if package in layer:
            out = [package + ":__pkg__"]
            for upper in LAYERS[i + 1:]:
                out += [p + ":__pkg__" for p in upper]
            return out
    fail("package %s is not in tools/layers.bzl" % package)

def all_layer_sources():
    """Every layered package's layer_sources target (see snare_package)."""
    return [p + ":layer_sources" for layer in LAYERS for p in layer]
