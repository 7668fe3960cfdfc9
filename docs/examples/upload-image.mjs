// Upload an image from Node.js 20+ (or a browser: use the File of an <input type="file"> as the Blob),
// then create a draft post that shows it in its content and as its cover.
//   BLOGPOST_URL=http://localhost:3000 BLOGPOST_API_KEY=bpk_... node upload-image.mjs cash-value-chart.png
// A FormData body is sent as multipart form data with the image in the field "file": do not set
// Content-Type yourself, fetch adds it with the boundary. The answer (201, or 200 when the site had the
// same picture already) gives the image's id and url.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const baseUrl = (process.env.BLOGPOST_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const apiKey = process.env.BLOGPOST_API_KEY ?? '';
const TYPES = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.avif': 'image/avif', '.gif': 'image/gif' };

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

const file = process.argv[2];
if (!file) {
  console.error('Usage: node upload-image.mjs <image file>');
  process.exit(2);
}
const form = new FormData();
const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
form.append('file', new Blob([await readFile(file)], { type }), path.basename(file));

const upload = await fetch(`${baseUrl}/api/media`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: form });
const media = await answerOf(upload);
if (upload.status !== 201 && upload.status !== 200) fail(upload, media);
console.log(`Uploaded: ${media.id} ${media.url} (${media.width}x${media.height}, ${upload.status === 200 ? 'already stored' : 'stored'})`);

// The url goes in the content's <img> (with alt text); the id is the cover_image.
const post = {
  title: 'How the Cash Value of an IUL Grows',
  content: `<p>The cash value grows with the index, and the floor keeps it from falling with the market.</p><img src="${media.url}" alt="Cash value rising over twenty years">`,
  excerpt: 'A chart of how the cash value of an indexed universal life policy grows over twenty years.',
  category: 'IUL Strategies',
  status: 'Draft',
  author: { name: 'Jane Author' },
  cover_image: media.id,
  cover_image_alt: 'Cash value rising over twenty years',
};
const created = await fetch(`${baseUrl}/api/blog`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
  body: JSON.stringify(post),
});
const answer = await answerOf(created);
if (created.status !== 201) fail(created, answer);
console.log(`${answer.message}: ${answer.post.slug} with cover image ${answer.post.cover_image.id}`);
