#include "bench/workload_catalog.h"

#include <gtest/gtest.h>

namespace snare::bench {
namespace {

TEST(WorkloadCatalogTest, TheWorkloadExecutableLiesBesideSnare) {
  EXPECT_EQ(WorkloadExecutableBeside("/opt/snare/bin/snare"), "/opt/snare/bin/snare-workload");
  EXPECT_EQ(WorkloadExecutableBeside("snare"), "snare-workload");
}

}  // namespace
}  // namespace snare::bench
