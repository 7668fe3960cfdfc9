"""Upload an image through the blog API with Python's requests library, then create a draft post that
shows it in its content and as its cover.

    BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... python3 upload_image.py cash-value-chart.png

files={"file": ...} sends multipart form data with the image in the field "file". Do not set
Content-Type yourself: requests adds it with the boundary. The answer (201, or 200 when the site had
the same picture already) gives the image's id and url.
"""
import mimetypes
import os
import sys

import requests

BASE_URL = os.environ.get("BLOGPOST_URL", "http://localhost:3000").rstrip("/")
API_KEY = os.environ.get("BLOGPOST_API_KEY", "")
HEADERS = {"Authorization": f"Bearer {API_KEY}", "User-Agent": "python-requests/blog-example"}


def fail(response):
    try:
        answer = response.json()
    except ValueError:
        print(f"Error {response.status_code}: {response.text[:300]}")
        sys.exit(1)
    print(f"Error {response.status_code}: {answer.get('message')}")
    for line in answer.get("guidance", []):
        print(f"  - {line}")
    sys.exit(1)


if len(sys.argv) < 2:
    print("Usage: python3 upload_image.py <image file>", file=sys.stderr)
    sys.exit(2)
image_path = sys.argv[1]
content_type = mimetypes.guess_type(image_path)[0] or "application/octet-stream"

with open(image_path, "rb") as image:
    response = requests.post(
        f"{BASE_URL}/api/media",
        files={"file": (os.path.basename(image_path), image, content_type)},
        headers=HEADERS,
        timeout=60,
    )
if response.status_code not in (200, 201):
    fail(response)
media = response.json()
stored = "already stored" if response.status_code == 200 else "stored"
print(f"Uploaded: {media['id']} {media['url']} ({media['width']}x{media['height']}, {stored})")

# The url goes in the content's <img> (with alt text); the id is the cover_image.
post = {
    "title": "How the Cash Value of an IUL Grows",
    "content": f'<p>The cash value grows with the index, and the floor keeps it from falling with the market.</p><img src="{media["url"]}" alt="Cash value rising over twenty years">',
    "excerpt": "A chart of how the cash value of an indexed universal life policy grows over twenty years.",
    "category": "IUL Strategies",
    "status": "Draft",
    "author": {"name": "Jane Author"},
    "cover_image": media["id"],
    "cover_image_alt": "Cash value rising over twenty years",
}
response = requests.post(f"{BASE_URL}/api/blog", json=post, headers=HEADERS, timeout=30)
if response.status_code != 201:
    fail(response)
answer = response.json()
print(f"{answer['message']}: {answer['post']['slug']} with cover image {answer['post']['cover_image']['id']}")
