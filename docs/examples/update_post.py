"""Change a post through the blog API with Python's requests library: read its ETag, then PATCH with If-Match.

    BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... python3 update_post.py <post id> [etag]

Without an etag it reads the current one (GET /api/blog/<id>). Pass the ETag of your own earlier read
instead (a create answers with one too), and a post that someone changed since is not overwritten: the
API answers 412 with what changed, field by field, and this script prints it and exits 1.
PATCH is a JSON merge patch: fields left out stay as they are, tags (like every list) is replaced as a
whole, and None removes an optional field. The key must hold blog:write and be the post owner's.
"""
import json
import os
import sys

import requests

BASE_URL = os.environ.get("BLOGPOST_URL", "http://localhost:3000").rstrip("/")
API_KEY = os.environ.get("BLOGPOST_API_KEY", "")

args = sys.argv[1:]
post_id = args[0] if args else os.environ.get("BLOGPOST_POST_ID", "")
etag = args[1] if len(args) > 1 else os.environ.get("BLOGPOST_ETAG", "")
if not post_id:
    print("Usage: python3 update_post.py <post id> [etag]   (or set BLOGPOST_POST_ID and BLOGPOST_ETAG)")
    sys.exit(2)

changes = {
    "excerpt": "A short introduction to indexed universal life insurance: how its cash value grows, and what protects it from market losses.",
    "tags": ["IUL", "retirement", "cash value"],
}

headers = {
    "Authorization": f"Bearer {API_KEY}",
    "User-Agent": "python-requests/blog-example",
}
url = f"{BASE_URL}/api/blog/{post_id}"


def answer_of(response):
    try:
        return response.json()
    except ValueError:
        print(f"Failed to parse response: {response.text[:300]} (status {response.status_code})")
        sys.exit(1)


def fail(response, answer):
    print(f"Error {response.status_code}: {answer.get('message')}")
    for line in answer.get("guidance", []):
        print(f"  - {line}")
    sys.exit(1)


if not etag:
    response = requests.get(url, headers=headers, timeout=30)
    answer = answer_of(response)
    if response.status_code != 200:
        fail(response, answer)
    etag = response.headers["ETag"]

response = requests.patch(url, json=changes, headers={**headers, "If-Match": etag}, timeout=30)
answer = answer_of(response)

if response.status_code == 200:
    print(f"{answer['message']} {answer['post']['slug']} now has the ETag {answer['etag']}; changed:")
    for change in answer["changed"]:
        print(f"  {change['field']}: {json.dumps(change['before'])} -> {json.dumps(change['after'])}")
elif response.status_code == 412:
    print(f"Not applied: {answer['message']}")
    print("Changed since your version:")
    for change in answer.get("changes") or []:
        print(f"  {change['field']}: {json.dumps(change['before'])} -> {json.dumps(change['after'])}")
    print(f"Read the post again (its ETag is now {answer['current_etag']}), apply your change to it and send it again.")
    sys.exit(1)
else:
    fail(response, answer)
