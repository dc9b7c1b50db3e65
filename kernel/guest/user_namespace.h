// One more level of user namespace nesting for the calling process.
#ifndef SNARE_KERNEL_GUEST_USER_NAMESPACE_H_
#define SNARE_KERNEL_GUEST_USER_NAMESPACE_H_

#include <expected>
#include <string>

namespace snare::lab {

// unshare(CLONE_NEWUSER), then setgroups=deny and uid_map/gid_map "0 <outer id> 1"
// (without the maps the next unshare fails with EPERM). Needs /proc.
std::expected<void, std::string> EnterUserNamespace();

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_USER_NAMESPACE_H_
