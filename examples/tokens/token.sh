#!/bin/sh
# A POS -> service token (interface §5): HS256 with the partner's non-prod key, with openssl.
#
# Usage: SANDBOX_PARTNER=<POS name> SANDBOX_NONPROD_KEY=<key> sh token.sh <location id>
# The POS name and the location id go into JSON as they are: no quotes or backslashes in them.
# openssl takes the key as an argument, so for the instant it runs the key is in the process list of this
# machine: on a machine others use, prefer token.py or Token.java.
set -eu
[ $# -eq 1 ] || { echo "usage: SANDBOX_PARTNER=<POS name> SANDBOX_NONPROD_KEY=<key> sh token.sh <location id>" >&2; exit 2; }
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
now=$(date +%s)  # whole seconds: exp in milliseconds is refused
jti=$(openssl rand -hex 16)  # a new one for every token
header=$(printf '{"alg":"HS256","typ":"JWT"}' | b64url)
claims=$(printf '{"sub":"%s","jti":"%s","nbf":%s,"exp":%s,"iss":"%s","aud":"io.service.pos.brokers.openapi"}' \
  "$1" "$jti" "$now" "$((now + 300))" "$SANDBOX_PARTNER" | b64url)
signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -hmac "$SANDBOX_NONPROD_KEY" -binary | b64url)
printf '%s.%s.%s\n' "$header" "$claims" "$signature"
