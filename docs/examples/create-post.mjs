// Create a blog post from Node.js 20+ (or a browser on another origin: the API answers CORS preflights).
//   BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... node create-post.mjs
const baseUrl = (process.env.BLOGPOST_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const apiKey = process.env.BLOGPOST_API_KEY ?? '';

const post = {
  title: 'Understanding Indexed Universal Life Insurance',
  content:
    '<h2>What is IUL?</h2><p>Indexed universal life insurance combines a death benefit with cash value that can grow with a market index, with a floor that protects against market losses.</p>',
  excerpt: 'A short introduction to indexed universal life insurance and how its cash value grows.',
  category: 'IUL Strategies',
  tags: ['IUL', 'retirement', 'tax-free income'],
  status: 'Draft',
  author: { name: 'Jane Author', bio: 'Retirement income writer.', credentials: 'CFP' },
  trust: {
    factCheckedBy: { name: 'John Reviewer', credentials: 'CPA', link: 'https://example.com/reviewers/john' },
    sources: [{ name: 'IRS Publication 590-B', url: 'https://www.irs.gov/publications/p590b' }],
    lastUpdated: '2025-01-15',
  },
};

const response = await fetch(`${baseUrl}/api/blog`, {
  method: 'POST',
  headers: {
    Authorization: `Bearer ${apiKey}`,
    'Content-Type': 'application/json',
    // A retry with the same key never creates the post twice.
    'Idempotency-Key': crypto.randomUUID(),
  },
  body: JSON.stringify(post),
});
const text = await response.text();
let answer;
try {
  answer = JSON.parse(text);
} catch {
  console.error(`Failed to parse response: ${text.slice(0, 300)} (status ${response.status})`);
  process.exit(1);
}
if (response.status === 201) {
  console.log(`${answer.message}: ${answer.post.slug} (${answer.post.status})`);
} else {
  console.error(`Error ${response.status}: ${answer.message}`);
  for (const line of answer.guidance ?? []) console.error(`  - ${line}`);
  process.exit(1);
}
