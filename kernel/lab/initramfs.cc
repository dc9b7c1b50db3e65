#include "kernel/lab/initramfs.h"

#include <cstdio>
#include <set>

#include "util/atomic_file.h"

extern const unsigned char kLabInitData[];
extern const unsigned long kLabInitSize;

namespace snare::lab {
namespace {

void Hex8(std::string* out, uint32_t v) {
  char buf[9];
  snprintf(buf, sizeof(buf), "%08X", v);
  out->append(buf, 8);
}

void Pad4(std::string* out) {
  while (out->size() % 4) out->push_back('\0');
}

// One newc entry: header, name, padding, data, padding.
void Entry(std::string* out, uint32_t ino, const std::string& name, uint32_t mode,
           std::span<const uint8_t> data, uint32_t rdev_major = 0, uint32_t rdev_minor = 0) {
  out->append("070701");
  Hex8(out, ino);
  Hex8(out, mode);
  Hex8(out, 0);                                    // uid
  Hex8(out, 0);                                    // gid
  Hex8(out, (mode & 0170000) == 0040000 ? 2 : 1);  // nlink
  Hex8(out, 0);                                    // mtime
  Hex8(out, static_cast<uint32_t>(data.size()));
  Hex8(out, 0);  // dev major
  Hex8(out, 0);  // dev minor
  Hex8(out, rdev_major);
  Hex8(out, rdev_minor);
  Hex8(out, static_cast<uint32_t>(name.size() + 1));
  Hex8(out, 0);  // check
  out->append(name);
  out->push_back('\0');
  Pad4(out);
  out->append(reinterpret_cast<const char*>(data.data()), data.size());
  Pad4(out);
}

}  // namespace

std::span<const uint8_t> LabInitBytes() { return {kLabInitData, kLabInitSize}; }

std::string BuildInitramfs(std::span<const uint8_t> init_binary,
                           const std::vector<InitramfsFile>& extra) {
  std::string out;
  uint32_t ino = 1;
  Entry(&out, ino++, "dev", 0040755, {});
  Entry(&out, ino++, "dev/console", 0020600, {}, 5, 1);
  Entry(&out, ino++, "proc", 0040755, {});
  Entry(&out, ino++, "tmp", 0041777, {});
  Entry(&out, ino++, "init", 0100755, init_binary);
  std::set<std::string> folders;
  for (const InitramfsFile& file : extra) {
    for (size_t slash = file.path.find('/'); slash != std::string::npos;
         slash = file.path.find('/', slash + 1)) {
      std::string folder = file.path.substr(0, slash);
      if (folders.insert(folder).second) Entry(&out, ino++, folder, 0040755, {});
    }
    Entry(&out, ino++, file.path, file.mode,
          {reinterpret_cast<const uint8_t*>(file.data.data()), file.data.size()});
  }
  Entry(&out, 0, "TRAILER!!!", 0, {});
  while (out.size() % 512) out.push_back('\0');
  return out;
}

std::expected<void, std::string> WriteLabInitramfs(const std::string& path,
                                                   const std::vector<InitramfsFile>& extra) {
  return util::WriteFileAtomically(path, BuildInitramfs(LabInitBytes(), extra));
}

}  // namespace snare::lab
