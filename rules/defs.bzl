"""snare_test: run an existing test natively and under snare's platforms, the way gVisor's
syscall_test runs its tests under each platform.

    load("@snare//rules:defs.bzl", "snare_test")

    cc_test(name = "my_test", srcs = ["my_test.cc"])

    snare_test(
        name = "my_test_snare",
        test = ":my_test",
        policy = "my_policy.json",   # optional: snare run --policy
    )

makes my_test_snare_native, my_test_snare_systrap, my_test_snare_inproc (and
my_test_snare_systrap_patch when listed) and a test_suite my_test_snare of them
(systrap runs `--no-patch`, every call through the signal; systrap-patch `--patch`). Under
snare each writes the trace and the stats (JSON) into the test's undeclared outputs
(bazel-testlogs/.../test.outputs/outputs.zip: snare-trace.txt, snare-stats.json) and fails
when the guest made a call the policy refused or killed, so that a test that reaches for
what it should not (the network, files outside its tree, a forbidden syscall) shows.
"""

PLATFORMS = ["native", "systrap", "inproc"]

def snare_test(
        name,
        test,
        platforms = PLATFORMS,
        policy = None,
        profile = "trace",
        allow_refused = False,
        args = [],
        **kwargs):
    """Runs `test` natively and under each of snare's platforms.

    Args:
      name: the test_suite; each platform's test is NAME_PLATFORM.
      test: an executable target (a cc_test, a sh_test, a testonly cc_binary).
      platforms: any of "native", "systrap", "inproc", "systrap-patch".
      policy: a `snare run --policy` JSON file (sandbox options and syscall rules).
      profile: snare's profile: "trace" (default: no confinement, runfiles and
        TEST_TMPDIR as Bazel set them up) or "sandbox" (snare's namespaces; the runfiles
        must be readable to the sandbox's user).
      allow_refused: True: refused calls are traced but do not fail the test.
      args: arguments for the test itself.
      **kwargs: passed to each sh_test (size, tags, timeout, env, ...).
    """
    snare = Label("//cmd:snare")
    runner = Label("//rules:snare_test_runner.sh")
    tests = []
    for platform in platforms:
        if platform not in ["native", "systrap", "inproc", "systrap-patch"]:
            fail("snare_test: unknown platform '%s' (native, systrap, inproc, systrap-patch)" % platform)
        test_name = "%s_%s" % (name, platform.replace("-", "_"))
        data = [test, snare]
        runner_args = [
            "$(rootpath %s)" % snare,
            platform,
            profile,
            "$(rootpath %s)" % policy if policy else "-",
            "1" if allow_refused else "0",
            "$(rootpath %s)" % test,
        ]
        if policy:
            data.append(policy)
        native.sh_test(
            name = test_name,
            srcs = [runner],
            args = runner_args + args,
            data = data,
            **kwargs
        )
        tests.append(":" + test_name)
    native.test_suite(
        name = name,
        tests = tests,
        tags = kwargs.get("tags", []),
    )
