#!/bin/sh
# pos-sandbox: runs the executable beside it once this machine is seen able to: Linux on x86_64 with glibc 2.28 or
# later. Where it cannot, the executable would fail with the loader's words ("not found", "Exec format error"), so
# this says why in one line instead; a check whose tool is missing is left to the executable.
here=${0%/*}
[ "$here" = "$0" ] && here=.
if command -v readlink >/dev/null 2>&1 && resolved=$(readlink -f "$0" 2>/dev/null); then here=${resolved%/*}; fi
refuse() {
  echo "pos-sandbox: $1; run the npm package with Node 20.19 or later there instead (docs/install.md)." >&2
  exit 126
}
if command -v uname >/dev/null 2>&1; then
  system=$(uname -s)
  machine=$(uname -m)
  [ "$system" = Linux ] || refuse "this executable is for Linux on x86_64, and this machine runs $system"
  case "$machine" in
    x86_64 | amd64) ;;
    *) refuse "this executable is for Linux on x86_64, and this machine is $machine" ;;
  esac
fi
if command -v getconf >/dev/null 2>&1; then
  libc=$(getconf GNU_LIBC_VERSION 2>/dev/null)
  case "$libc" in
    "glibc "*)
      version=${libc#glibc }
      major=${version%%.*}
      minor=${version#*.}
      minor=${minor%%.*}
      if [ "$major" -lt 2 ] 2>/dev/null || { [ "$major" -eq 2 ] && [ "$minor" -lt 28 ]; } 2>/dev/null; then
        refuse "this executable needs glibc 2.28 or later, and this machine has glibc $version"
      fi
      ;;
    *)
      [ -e /lib64/ld-linux-x86-64.so.2 ] || refuse "this executable needs glibc 2.28 or later, and this machine has no glibc (Alpine and other musl systems have none)"
      ;;
  esac
fi
exec "$here/pos-sandbox-linux-x64" "$@"
