"""Embeds a file's bytes in a C++ library as `extern const unsigned char SYMBOL_Data[]`."""

def embed_file(name, src, array, size):
    """Writes NAME.cc defining `array` (the bytes of src) and `size` (their count).

    Args:
      name: the generated source's target name (output NAME.cc).
      src: the file to embed.
      array: name of the `extern const unsigned char[]` to define.
      size: name of the `extern const unsigned long` holding the length.
    """
    native.genrule(
        name = name,
        srcs = [src],
        outs = [name + ".cc"],
        cmd = ("(echo 'extern const unsigned char {array}[] = {{'; " +
               "od -An -v -tx1 $< | sed -e 's/ \\([0-9a-f][0-9a-f]\\)/0x\\1,/g'; " +
               "echo '}};'; " +
               "echo \"extern const unsigned long {size} = $$(stat -L -c %s $<);\") > $@").format(
            array = array,
            size = size,
        ),
    )
