#!/usr/bin/env sh
# Create a blog post with curl.
#   BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... sh create-post.sh
# -H 'Content-Type: application/json' matters: without it curl -d sends a form body, which the API refuses.
curl --fail-with-body --silent --show-error \
  -X POST "${BLOGPOST_URL:-http://localhost:3000}/api/blog" \
  -H "Authorization: Bearer ${BLOGPOST_API_KEY}" \
  -H 'Content-Type: application/json' \
  -d '{
    "title": "Understanding Indexed Universal Life Insurance",
    "content": "<h2>What is IUL?</h2><p>Indexed universal life insurance combines a death benefit with cash value that can grow with a market index, with a floor that protects against market losses.</p>",
    "excerpt": "A short introduction to indexed universal life insurance and how its cash value grows.",
    "category": "IUL Strategies",
    "tags": ["IUL", "retirement", "tax-free income"],
    "status": "Draft",
    "author": { "name": "Jane Author", "bio": "Retirement income writer.", "credentials": "CFP" },
    "trust": {
      "factCheckedBy": { "name": "John Reviewer", "credentials": "CPA", "link": "https://example.com/reviewers/john" },
      "sources": [{ "name": "IRS Publication 590-B", "url": "https://www.irs.gov/publications/p590b" }],
      "lastUpdated": "2025-01-15"
    }
  }'
