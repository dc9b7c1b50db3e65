// Landlock's user-space ABI up to ABI 7 (Linux 6.15): the installed UAPI headers (Linux 6.1)
// stop at ABI 2, so the structures and access bits are spelled out here.
#ifndef SNARE_ABI_LANDLOCK_ABI_H_
#define SNARE_ABI_LANDLOCK_ABI_H_

#include <stdint.h>

namespace snare::abi {

inline constexpr long kSysLandlockCreateRuleset = 444;
inline constexpr long kSysLandlockAddRule = 445;
inline constexpr long kSysLandlockRestrictSelf = 446;

inline constexpr uint32_t kLandlockCreateRulesetVersion = 1u << 0;
inline constexpr int kLandlockRulePathBeneath = 1;
inline constexpr int kLandlockRuleNetPort = 2;

struct LandlockRulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;  // ABI 4
  uint64_t scoped;              // ABI 6
};

struct __attribute__((packed)) LandlockPathBeneathAttr {
  uint64_t allowed_access;
  int32_t parent_fd;
};

struct LandlockNetPortAttr {
  uint64_t allowed_access;
  uint64_t port;
};

// Filesystem access rights and the ABI that introduced them.
inline constexpr uint64_t kLandlockFsExecute = 1ull << 0;
inline constexpr uint64_t kLandlockFsWriteFile = 1ull << 1;
inline constexpr uint64_t kLandlockFsReadFile = 1ull << 2;
inline constexpr uint64_t kLandlockFsReadDir = 1ull << 3;
inline constexpr uint64_t kLandlockFsRemoveDir = 1ull << 4;
inline constexpr uint64_t kLandlockFsRemoveFile = 1ull << 5;
inline constexpr uint64_t kLandlockFsMakeChar = 1ull << 6;
inline constexpr uint64_t kLandlockFsMakeDir = 1ull << 7;
inline constexpr uint64_t kLandlockFsMakeReg = 1ull << 8;
inline constexpr uint64_t kLandlockFsMakeSock = 1ull << 9;
inline constexpr uint64_t kLandlockFsMakeFifo = 1ull << 10;
inline constexpr uint64_t kLandlockFsMakeBlock = 1ull << 11;
inline constexpr uint64_t kLandlockFsMakeSym = 1ull << 12;
inline constexpr uint64_t kLandlockFsRefer = 1ull << 13;     // ABI 2
inline constexpr uint64_t kLandlockFsTruncate = 1ull << 14;  // ABI 3
inline constexpr uint64_t kLandlockFsIoctlDev = 1ull << 15;  // ABI 5

inline constexpr uint64_t kLandlockNetBindTcp = 1ull << 0;     // ABI 4
inline constexpr uint64_t kLandlockNetConnectTcp = 1ull << 1;  // ABI 4

inline constexpr uint64_t kLandlockScopeAbstractUnixSocket = 1ull << 0;  // ABI 6
inline constexpr uint64_t kLandlockScopeSignal = 1ull << 1;              // ABI 6

// Every filesystem right a kernel of Landlock ABI `abi` knows.
constexpr uint64_t LandlockFsRights(int abi) {
  uint64_t rights = (kLandlockFsMakeSym << 1) - 1;  // ABI 1: bits 0..12
  if (abi >= 2) rights |= kLandlockFsRefer;
  if (abi >= 3) rights |= kLandlockFsTruncate;
  if (abi >= 5) rights |= kLandlockFsIoctlDev;
  return rights;
}

}  // namespace snare::abi

#endif  // SNARE_ABI_LANDLOCK_ABI_H_
