# Turns a file into a C source defining `const char NAME[]` (NUL-terminated),
# `const unsigned long NAME_len` and `const char NAME_hash[]` (the first 12
# hex digits of its SHA-256, for cache-busting asset URLs). Usage:
#   cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ "${IN}" hex HEX)
file(SHA256 "${IN}" sha)
string(SUBSTRING "${sha}" 0 12 short)
string(LENGTH "${hex}" hexlen)
math(EXPR len "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}" "/* generated from ${IN}; do not edit */\nconst char ${NAME}[] = {\n${body}0x00};\nconst unsigned long ${NAME}_len = ${len};\nconst char ${NAME}_hash[] = \"${short}\";\n")
