"""File-system guest: writes, reads, renames, lists and removes files under a fresh
directory created in the working directory, printing only deterministic results."""

import hashlib
import os
import shutil
import sys


def main():
    root = os.path.join(os.getcwd(), "files_guest_root")
    if os.path.exists(root):
        shutil.rmtree(root)
    os.mkdir(root)
    os.chdir(root)

    # Write a few files of different sizes.
    for i in range(5):
        with open("file%d.txt" % i, "w") as f:
            for line in range(i * 100):
                f.write("line %d of file %d\n" % (line, i))
    with open("binary.bin", "wb") as f:
        f.write(bytes(range(256)) * 64)

    # Read them back.
    for name in sorted(os.listdir(".")):
        with open(name, "rb") as f:
            data = f.read()
        print("%s size=%d sha256=%s" % (name, len(data), hashlib.sha256(data).hexdigest()[:16]))

    # Append, seek and partial reads.
    with open("file1.txt", "a+") as f:
        f.write("appended\n")
        f.seek(0)
        print("file1 first line:", f.readline().rstrip())
        f.seek(0, os.SEEK_END)
        print("file1 size after append:", f.tell())

    # Rename and nested directories.
    os.rename("file0.txt", "empty.txt")
    os.makedirs("a/b/c")
    os.rename("file2.txt", "a/b/c/moved.txt")
    os.symlink("a/b/c/moved.txt", "link.txt")
    with open("link.txt") as f:
        print("via symlink:", f.readline().rstrip())
    print("readlink:", os.readlink("link.txt"))
    os.link("file3.txt", "hardlink.txt")
    print("hardlink nlink:", os.stat("file3.txt").st_nlink)

    # Listing.
    for dirpath, dirnames, filenames in os.walk("."):
        dirnames.sort()
        print("dir %s: %s" % (dirpath, " ".join(sorted(filenames))))

    # Errors are reported the same way.
    try:
        open("missing.txt")
    except FileNotFoundError as e:
        print("missing:", e.errno, e.strerror)
    try:
        os.mkdir("a")
    except FileExistsError as e:
        print("mkdir existing:", e.errno, e.strerror)

    # Remove everything.
    os.remove("link.txt")
    os.remove("hardlink.txt")
    shutil.rmtree("a")
    for name in sorted(os.listdir(".")):
        os.remove(name)
    print("left after cleanup:", os.listdir("."))
    os.chdir("..")
    os.rmdir(root)
    print("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
