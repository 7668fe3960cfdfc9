#!/usr/bin/env sh
# Move a post to the trash with curl, or bring it back from there.
#   BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... sh delete-post.sh <post id>
#   BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... sh delete-post.sh --restore <post id>
# A deleted post's page answers 410 Gone and it leaves lists, feeds and the sitemap; it can be restored
# for 30 days, then it is purged for good. The key needs blog:write and must be the post owner's (or hold blog:admin).
set -eu
base="${BLOGPOST_URL:-http://localhost:3000}"
if [ "${1:-}" = '--restore' ]; then
  method=POST; id="${2:-}"; action=/restore
else
  method=DELETE; id="${1:-}"; action=
fi
if [ -z "$id" ]; then
  echo 'Usage: sh delete-post.sh [--restore] <post id>' >&2
  exit 2
fi
curl --fail-with-body --silent --show-error \
  -X "$method" "$base/api/blog/$id$action" \
  -H "Authorization: Bearer ${BLOGPOST_API_KEY:-}"
echo
