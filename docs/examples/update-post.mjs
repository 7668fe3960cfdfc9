// Change a post from Node.js 20+: read its ETag, then PATCH the fields to change with If-Match.
//   BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... node update-post.mjs <post id> [etag]
// Without an etag it reads the current one (GET). Pass the ETag of your own earlier read instead, and a post
// that someone changed since is not overwritten: the API answers 412 with what changed, and this exits 1.
// PATCH is a JSON merge patch: fields left out stay as they are; tags (like every list) is replaced whole.
const baseUrl = (process.env.BLOGPOST_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const apiKey = process.env.BLOGPOST_API_KEY ?? '';
const postId = process.argv[2] ?? process.env.BLOGPOST_POST_ID ?? '';
let etag = process.argv[3] ?? process.env.BLOGPOST_ETAG ?? '';
if (!postId) {
  console.error('Usage: node update-post.mjs <post id> [etag]   (or set BLOGPOST_POST_ID and BLOGPOST_ETAG)');
  process.exit(2);
}

const changes = {
  excerpt: 'A short introduction to indexed universal life insurance: how its cash value grows, and what protects it from market losses.',
  tags: ['IUL', 'retirement', 'cash value'],
};

const url = `${baseUrl}/api/blog/${encodeURIComponent(postId)}`;
const authorization = `Bearer ${apiKey}`;

async function answerOf(response) {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    console.error(`Failed to parse response: ${text.slice(0, 300)} (status ${response.status})`);
    process.exit(1);
  }
}

function fail(response, answer) {
  console.error(`Error ${response.status}: ${answer.message}`);
  for (const line of answer.guidance ?? []) console.error(`  - ${line}`);
  process.exit(1);
}

const show = (change) => `  ${change.field}: ${JSON.stringify(change.before)} -> ${JSON.stringify(change.after)}`;

if (!etag) {
  const response = await fetch(url, { headers: { Authorization: authorization } });
  const answer = await answerOf(response);
  if (response.status !== 200) fail(response, answer);
  etag = response.headers.get('ETag');
}

const response = await fetch(url, {
  method: 'PATCH',
  headers: { Authorization: authorization, 'Content-Type': 'application/json', 'If-Match': etag },
  body: JSON.stringify(changes),
});
const answer = await answerOf(response);
if (response.status === 200) {
  console.log(`${answer.message} ${answer.post.slug} now has the ETag ${answer.etag}; changed:`);
  for (const change of answer.changed) console.log(show(change));
} else if (response.status === 412) {
  console.error(`Not applied: ${answer.message}`);
  console.error('Changed since your version:');
  for (const change of answer.changes ?? []) console.error(show(change));
  console.error(`Read the post again (its ETag is now ${answer.current_etag}), apply your change to it and send it again.`);
  process.exit(1);
} else {
  fail(response, answer);
}
