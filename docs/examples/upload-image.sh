#!/usr/bin/env sh
# Upload an image with curl, then create a draft post that shows it in its content and as its cover.
#   BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... sh upload-image.sh cash-value-chart.png
# -F file=@... sends multipart form data with the file in the field "file" (curl sets the type);
# --data-binary @photo.jpg -H 'Content-Type: image/jpeg' sends the bytes as the body instead.
# The answer (201, or 200 when the site had the same picture already) gives the image's id and url.
set -eu
if [ "$#" -lt 1 ]; then
  echo "Usage: sh upload-image.sh <image file>" >&2
  exit 2
fi
base="${BLOGPOST_URL:-http://localhost:3000}"

media=$(curl --fail-with-body --silent --show-error \
  -X POST "$base/api/media" \
  -H "Authorization: Bearer ${BLOGPOST_API_KEY}" \
  -F "file=@$1") || { echo "$media"; exit 1; }
# With jq: id=$(echo "$media" | jq -r .id); url=$(echo "$media" | jq -r .url)
id=$(printf '%s' "$media" | grep -o '"id":"[0-9a-f]\{32\}"' | head -n 1 | cut -d '"' -f 4)
url=$(printf '%s' "$media" | grep -o '"url":"[^"]*"' | head -n 1 | cut -d '"' -f 4)
echo "Uploaded: $id $url"

# The url goes in the content's <img> (with alt text); the id is the cover_image.
curl --fail-with-body --silent --show-error \
  -X POST "$base/api/blog" \
  -H "Authorization: Bearer ${BLOGPOST_API_KEY}" \
  -H 'Content-Type: application/json' \
  -d '{
    "title": "How the Cash Value of an IUL Grows",
    "content": "<p>The cash value grows with the index, and the floor keeps it from falling with the market.</p><img src=\"'"$url"'\" alt=\"Cash value rising over twenty years\">",
    "excerpt": "A chart of how the cash value of an indexed universal life policy grows over twenty years.",
    "category": "IUL Strategies",
    "status": "Draft",
    "author": { "name": "Jane Author" },
    "cover_image": "'"$id"'",
    "cover_image_alt": "Cash value rising over twenty years"
  }'
