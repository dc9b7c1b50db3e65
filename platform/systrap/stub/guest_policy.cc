#include "platform/systrap/stub/guest_policy.h"

#include "platform/systrap/stub/slot_client.h"
#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::stub {

policy::PolicyContext GuestPolicy() {
  policy::PolicyContext ctx;
  ctx.table = &g_stub.header->policy;
  ctx.protected_ranges = systrap::kProtectedRanges;
  ctx.protected_count = systrap::kProtectedRangeCount;
  ctx.first_reserved_fd = systrap::kFirstReservedFd;
  ctx.last_reserved_fd = systrap::kLastReservedFd;
  return ctx;
}

}  // namespace snare::stub
