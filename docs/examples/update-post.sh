#!/usr/bin/env sh
# Change a post with curl: read its ETag, then PATCH the fields to change with If-Match.
#   BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... sh update-post.sh <post id> [etag]
# Without an etag it reads the current one (GET). Pass the ETag of your own earlier read instead, and a post
# that someone changed since is not overwritten: the API answers 412 with what changed, and this stops (exit 1).
# PATCH is a JSON merge patch: fields left out stay as they are; tags (like every list) is replaced whole.
set -eu
base="${BLOGPOST_URL:-http://localhost:3000}"
id="${1:-${BLOGPOST_POST_ID:-}}"
etag="${2:-${BLOGPOST_ETAG:-}}"
if [ -z "$id" ]; then
  echo 'Usage: sh update-post.sh <post id> [etag]   (or set BLOGPOST_POST_ID and BLOGPOST_ETAG)' >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "$etag" ]; then
  status=$(curl --silent --show-error -o "$tmp/post.json" -D "$tmp/headers" -w '%{http_code}' \
    -H "Authorization: Bearer ${BLOGPOST_API_KEY:-}" "$base/api/blog/$id")
  if [ "$status" != 200 ]; then
    echo "Error $status reading the post:" >&2; cat "$tmp/post.json" >&2; echo >&2
    exit 1
  fi
  etag=$(tr -d '\r' < "$tmp/headers" | sed -n 's/^[Ee][Tt][Aa][Gg]: *//p')
fi

status=$(curl --silent --show-error -o "$tmp/answer.json" -w '%{http_code}' \
  -X PATCH "$base/api/blog/$id" \
  -H "Authorization: Bearer ${BLOGPOST_API_KEY:-}" \
  -H 'Content-Type: application/json' \
  -H "If-Match: $etag" \
  -d '{
    "excerpt": "A short introduction to indexed universal life insurance: how its cash value grows, and what protects it from market losses.",
    "tags": ["IUL", "retirement", "cash value"]
  }')
case "$status" in
  200)
    cat "$tmp/answer.json"; echo
    ;;
  412)
    # "changes" lists field by field what changed since your version; current_etag is the version now.
    echo "Not applied: the post changed since the version $etag names. Changed since:" >&2
    grep -o '"field":"[^"]*"' "$tmp/answer.json" | cut -d '"' -f 4 | sed 's/^/  - /' >&2 || true
    cat "$tmp/answer.json" >&2; echo >&2
    echo 'Read the post again, apply your change to it, and send it with the new ETag.' >&2
    exit 1
    ;;
  *)
    echo "Error $status:" >&2; cat "$tmp/answer.json" >&2; echo >&2
    exit 1
    ;;
esac
