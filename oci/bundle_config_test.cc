#include "oci/bundle_config.h"

#include <gtest/gtest.h>

namespace snare::oci {
namespace {

using Json = nlohmann::json;

Json Config() {
  return Json::parse(R"({
    "ociVersion": "1.0.2",
    "process": {"args": ["sh", "-c", "echo hi"], "env": ["PATH=/bin"], "cwd": "/"},
    "root": {"path": "rootfs"},
    "mounts": [{"destination": "/proc", "type": "proc", "source": "proc"}],
    "annotations": {"dev.snare.trace": "true", "dev.snare.stats": "json"},
    "linux": {"seccomp": {"defaultAction": "SCMP_ACT_ERRNO",
                          "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW"}]}}
  })");
}

TEST(RewriteConfigTest, TheProcessRunsUnderSnareWithTheProfileMovedToIt) {
  auto options = ReadSnareOptions(Config());
  ASSERT_TRUE(options.has_value()) << options.error();
  auto r = RewriteConfig(Config(), *options, "/usr/bin/snare-runtime", "/out", "/policy");
  ASSERT_TRUE(r.has_value()) << r.error();
  const Json& args = r->config["process"]["args"];
  EXPECT_EQ(args, Json::array({"/.snare/snare", "run", "--profile=container", "--platform=systrap",
                               "--trace-file=/.snare/out/trace.txt", "--stats=json",
                               "--stats-file=/.snare/out/stats.json",
                               "--seccomp-profile=/.snare/policy/seccomp.json", "--", "sh", "-c",
                               "echo hi"}));
  EXPECT_FALSE(r->config["linux"].contains("seccomp"));
  EXPECT_EQ(r->seccomp["defaultAction"], "SCMP_ACT_ERRNO");
  const Json& mounts = r->config["mounts"];
  ASSERT_EQ(mounts.size(), 4u);
  EXPECT_EQ(mounts[1]["destination"], "/.snare/snare");
  EXPECT_EQ(mounts[1]["source"], "/usr/bin/snare-runtime");
  EXPECT_EQ(mounts[2]["destination"], "/.snare/out");
  EXPECT_EQ(mounts[2]["source"], "/out");
  // The profile is where no process of the container can write it.
  EXPECT_EQ(mounts[3]["destination"], "/.snare/policy");
  EXPECT_EQ(mounts[3]["source"], "/policy");
  EXPECT_EQ(mounts[3]["options"], Json::array({"bind", "ro", "nosuid", "nodev", "noexec"}));
  EXPECT_EQ(r->config["annotations"][kWrappedAnnotation], "true");
}

TEST(SnareCommandTest, AnExecdProcessGetsOutputsOfItsOwn) {
  SnareOptions o;
  o.trace = true;
  EXPECT_EQ(SnareCommand(o, true, "17", Json::array({"ls"})),
            Json::array({"/.snare/snare", "run", "--profile=container", "--platform=systrap",
                         "--trace-file=/.snare/out/exec-17-trace.txt",
                         "--seccomp-profile=/.snare/policy/seccomp.json", "--", "ls"}));
}

TEST(SnareCommandTest, PatchingFollowsSnareRunUnlessAnAnnotationSays) {
  Json c = Config();
  auto unset = ReadSnareOptions(c);
  ASSERT_TRUE(unset.has_value()) << unset.error();
  EXPECT_EQ(unset->patch, std::nullopt);
  c["annotations"]["dev.snare.patch"] = "false";
  auto off = ReadSnareOptions(c);
  ASSERT_TRUE(off.has_value()) << off.error();
  EXPECT_EQ(SnareCommand(*off, false, "", Json::array({"ls"})),
            Json::array({"/.snare/snare", "run", "--profile=container", "--platform=systrap",
                         "--no-patch", "--trace-file=/.snare/out/trace.txt", "--stats=json",
                         "--stats-file=/.snare/out/stats.json", "--", "ls"}));
  // inproc with patching off is fine; asked for, patching needs systrap.
  c["annotations"]["dev.snare.platform"] = "inproc";
  EXPECT_TRUE(ReadSnareOptions(c).has_value());
  c["annotations"]["dev.snare.patch"] = "true";
  EXPECT_FALSE(ReadSnareOptions(c).has_value());
}

TEST(ReadSnareOptionsTest, BadAnnotationsSayWhatTheyTake) {
  auto bad = [](const char* key, const char* value) {
    Json c = Config();
    c["annotations"][key] = value;
    auto o = ReadSnareOptions(c);
    return o ? std::string() : o.error();
  };
  EXPECT_EQ(bad("dev.snare.platform", "ptrace"),
            "annotation dev.snare.platform=ptrace: choose systrap or inproc");
  EXPECT_EQ(bad("dev.snare.trace", "maybe"), "annotation dev.snare.trace=maybe: say true or false");
  EXPECT_EQ(bad("dev.snare.output-dir", "rel"),
            "annotation dev.snare.output-dir=rel: must be an absolute path");
  EXPECT_NE(bad("dev.snare.colour", "x").find("unknown annotation dev.snare.colour"),
            std::string::npos);
  EXPECT_EQ(bad("dev.snare.patch", "true"), "");
  EXPECT_EQ(bad("other.annotation", "x"), "");
}

TEST(OutputDirectoryTest, BundleOrTheConfiguredDirectoryPerContainer) {
  SnareOptions o;
  EXPECT_EQ(OutputDirectory(o, "/b", "c1"), "/b/snare");
  o.output_dir = "/var/log/snare";
  EXPECT_EQ(OutputDirectory(o, "/b", "c1"), "/var/log/snare/c1");
}

}  // namespace
}  // namespace snare::oci
