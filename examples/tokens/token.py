#!/usr/bin/env python3
"""A POS -> service token (interface §5): HS256 with the partner's non-prod key, the standard library only.

Usage: SANDBOX_PARTNER=<POS name> SANDBOX_NONPROD_KEY=<key> python3 token.py <location id>
"""
import base64
import hashlib
import hmac
import json
import os
import sys
import time
import uuid


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def pos_token(pos_name: str, location_id: str, key: str, ttl_s: int = 300) -> str:
    now = int(time.time())  # whole seconds: exp in milliseconds is refused
    header = {"alg": "HS256", "typ": "JWT"}
    claims = {
        "sub": location_id,  # the location of the call, as in x-service-locationid
        "jti": str(uuid.uuid4()),  # a new one for every token
        "nbf": now,
        "exp": now + ttl_s,
        "iss": pos_name,
        "aud": "io.service.pos.brokers.openapi",
    }
    compact = lambda value: json.dumps(value, separators=(",", ":")).encode("utf-8")
    signing_input = b64url(compact(header)) + "." + b64url(compact(claims))
    signature = hmac.new(key.encode("utf-8"), signing_input.encode("ascii"), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: SANDBOX_PARTNER=<POS name> SANDBOX_NONPROD_KEY=<key> python3 token.py <location id>")
    print(pos_token(os.environ["SANDBOX_PARTNER"], sys.argv[1], os.environ["SANDBOX_NONPROD_KEY"]))
