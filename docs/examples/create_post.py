"""Create a blog post through the blog API with Python's requests library.

    BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... python3 create_post.py

The key must hold blog:write. Send the post as a dict with json=post: requests serialises it and sets
Content-Type: application/json. (data=post sends form fields, json=json.dumps(post) sends a string:
the API refuses both and says why.)
"""
import os
import sys

import requests

BASE_URL = os.environ.get("BLOGPOST_URL", "http://localhost:3000").rstrip("/")
API_KEY = os.environ.get("BLOGPOST_API_KEY", "")

post = {
    "title": "Understanding Indexed Universal Life Insurance",
    "content": "<h2>What is IUL?</h2><p>Indexed universal life insurance combines a death benefit with cash value that can grow with a market index, with a floor that protects against market losses.</p>",
    "excerpt": "A short introduction to indexed universal life insurance and how its cash value grows.",
    "category": "IUL Strategies",
    "tags": ["IUL", "retirement", "tax-free income"],
    "status": "Draft",
    "author": {
        "name": "Jane Author",
        "bio": "Retirement income writer.",
        "credentials": "CFP",
    },
    "trust": {
        "factCheckedBy": {"name": "John Reviewer", "credentials": "CPA", "link": "https://example.com/reviewers/john"},
        "sources": [{"name": "IRS Publication 590-B", "url": "https://www.irs.gov/publications/p590b"}],
        "lastUpdated": "2025-01-15",
    },
}

headers = {
    "Authorization": f"Bearer {API_KEY}",
    "Content-Type": "application/json",
    "User-Agent": "python-requests/blog-example",
}

response = requests.post(f"{BASE_URL}/api/blog", json=post, headers=headers, timeout=30)
try:
    answer = response.json()
except ValueError:
    print(f"Failed to parse response: {response.text[:300]} (status {response.status_code})")
    sys.exit(1)

if response.status_code == 201:
    print(f"{answer['message']}: {answer['post']['slug']} ({answer['post']['status']})")
else:
    print(f"Error {response.status_code}: {answer.get('message')}")
    for line in answer.get("guidance", []):
        print(f"  - {line}")
    sys.exit(1)
