import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POST_IMAGE_SIZES } from '../../contract/media';
import type { MediaRecord, MediaRepository } from '../store/store';
import { pictureOf, type PostMediaSettings, referencedMediaId, resolvePostMedia } from './post-media';
import { sanitizeContent } from './sanitize';

const SITE = 'https://blog.example.com';
const PHOTO = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const LOGO = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const MISSING = 'cccccccccccccccccccccccccccccccc';
const UPLOAD_HINT = 'upload it with POST /api/media (blogpost publish does this for local files)';

function record(id: string, type: MediaRecord['type'], fallback: 'jpg' | 'png', widths: readonly number[], ratio: number): MediaRecord {
  const fallbackType: MediaRecord['type'] = fallback === 'jpg' ? 'image/jpeg' : 'image/png';
  const variants = widths.flatMap((width) => {
    const height = Math.round(width * ratio);
    return [
      { file: `${id}-${width}.webp`, width, height, type: 'image/webp' as const, bytes: width * 10 },
      { file: `${id}-${width}.avif`, width, height, type: 'image/avif' as const, bytes: width * 8 },
      { file: `${id}-${width}.${fallback}`, width, height, type: fallbackType, bytes: width * 20 },
    ];
  });
  const widest = Math.max(...widths);
  return { id, type, width: widest, height: Math.round(widest * ratio), bytes: 1000, owners: ['ada'], uploadedByKeyId: null, uploadedAt: '2026-01-01T00:00:00.000Z', variants };
}

const RECORDS = new Map([
  [PHOTO, record(PHOTO, 'image/jpeg', 'jpg', [480, 960, 1200], 2 / 3)],
  [LOGO, record(LOGO, 'image/webp', 'png', [300], 1)],
]);

/** The uploads above, counting the lookups made. */
function settings(): PostMediaSettings & { lookups: string[] } {
  const lookups: string[] = [];
  const media: MediaRepository = {
    get: (id) => {
      lookups.push(id);
      return Promise.resolve(RECORDS.get(id) ?? null);
    },
    save: () => Promise.reject(new Error('not used')),
    list: () => Promise.resolve([]),
    delete: () => Promise.resolve(false),
    read: () => Promise.resolve(null),
  };
  return { media, siteUrl: SITE, lookups };
}

const PHOTO_PICTURE = {
  src: `/media/${PHOTO}-1200.jpg`,
  srcset: `/media/${PHOTO}-480.webp 480w, /media/${PHOTO}-960.webp 960w, /media/${PHOTO}-1200.webp 1200w`,
  srcsetAvif: `/media/${PHOTO}-480.avif 480w, /media/${PHOTO}-960.avif 960w, /media/${PHOTO}-1200.avif 1200w`,
  width: 1200,
  height: 800,
};

/** The `<img>` post-media writes for the photo, with its alt text. */
const photoImg = (alt: string) =>
  `<img src="/media/${PHOTO}-1200.jpg" alt="${alt}" srcset="${PHOTO_PICTURE.srcset}" sizes="${POST_IMAGE_SIZES}" width="1200" height="800" loading="lazy" decoding="async" />`;

describe('pictureOf', () => {
  it('shows the widest fallback variant, with the WebP and AVIF variants as srcsets', () => {
    expect(pictureOf(RECORDS.get(PHOTO) as MediaRecord)).toEqual(PHOTO_PICTURE);
    expect(pictureOf(RECORDS.get(LOGO) as MediaRecord)).toMatchObject({ src: `/media/${LOGO}-300.png`, width: 300, height: 300 });
  });
});

describe('referencedMediaId', () => {
  it('reads the id of any reference shape, whatever the host', () => {
    expect(referencedMediaId(PHOTO)).toBe(PHOTO);
    expect(referencedMediaId(`/media/${PHOTO}-480.webp`)).toBe(PHOTO);
    expect(referencedMediaId(`https://elsewhere.example/media/${PHOTO}-480.webp`)).toBe(PHOTO);
    expect(referencedMediaId('https://elsewhere.example/a.png')).toBeNull();
  });
});

describe('resolvePostMedia', () => {
  it('reads nothing for a post without a cover or images', async () => {
    const deps = settings();
    const html = '<p>Text only, 1 &lt; 2.</p>';
    expect(await resolvePostMedia(deps, html, null)).toEqual({ ok: true, resolved: { content: html, coverImage: null, warnings: [] } });
    expect(deps.lookups).toEqual([]);
  });

  it('resolves a cover named by id, path or this site\'s URL', async () => {
    for (const reference of [PHOTO, `/media/${PHOTO}-480.webp`, `${SITE}/media/${PHOTO}-960.jpg`]) {
      const outcome = await resolvePostMedia(settings(), '<p>x</p>', { reference, alt: 'A harbour at dawn' });
      expect(outcome).toEqual({ ok: true, resolved: { content: '<p>x</p>', coverImage: { mediaId: PHOTO, alt: 'A harbour at dawn', ...PHOTO_PICTURE }, warnings: [] } });
    }
  });

  it('warns of a cover without alt text, and keeps it', async () => {
    const outcome = await resolvePostMedia(settings(), '<p>x</p>', { reference: PHOTO, alt: '' });
    expect(outcome).toMatchObject({ ok: true, resolved: { coverImage: { mediaId: PHOTO, alt: '' } } });
    expect(outcome.ok && outcome.resolved.warnings).toEqual([`The cover image ${PHOTO} has no alt text: send cover_image_alt describing it; a screen reader otherwise reads nothing`]);
  });

  it('refuses a cover of another host, or of no upload, saying to upload it', async () => {
    expect(await resolvePostMedia(settings(), '<p>x</p>', { reference: `https://cdn.example/media/${PHOTO}-960.jpg`, alt: 'a' })).toEqual({
      ok: false,
      problems: [{ field: 'cover_image', problem: 'invalid', message: `cover_image "https://cdn.example/media/${PHOTO}-960.jpg" is not an image uploaded to this site: ${UPLOAD_HINT}` }],
    });
    expect(await resolvePostMedia(settings(), '<p>x</p>', { reference: MISSING, alt: 'a' })).toEqual({
      ok: false,
      problems: [{ field: 'cover_image', problem: 'invalid', message: `cover_image: no uploaded image has the id ${MISSING}: ${UPLOAD_HINT}` }],
    });
  });

  it('gives every uploaded image of the content its size, srcset and loading hints, looking each up once', async () => {
    const deps = settings();
    const content = sanitizeContent(`<figure><img src="${PHOTO}" alt="Chart" width="10" loading="eager"><figcaption>c</figcaption></figure><p><img src="${SITE}/media/${PHOTO}-480.webp" alt="Again" title="t"></p>`, { siteUrl: SITE }).html;
    const outcome = await resolvePostMedia(deps, content, { reference: PHOTO, alt: 'Cover' });
    expect(outcome).toEqual({
      ok: true,
      resolved: {
        content: `<figure>${photoImg('Chart')}<figcaption>c</figcaption></figure><p>${photoImg('Again').replace('alt="Again"', 'alt="Again" title="t"')}</p>`,
        coverImage: { mediaId: PHOTO, alt: 'Cover', ...PHOTO_PICTURE },
        warnings: [],
      },
    });
    expect(deps.lookups).toEqual([PHOTO]);
  });

  it('keeps an image without alt text, with a warning naming it', async () => {
    const outcome = await resolvePostMedia(settings(), `<p><img src="/media/${LOGO}-300.png" /><img src="/media/${LOGO}-300.png" alt=" " /></p>`, null);
    expect(outcome.ok && outcome.resolved.content).toContain(`<img src="/media/${LOGO}-300.png" srcset="/media/${LOGO}-300.webp 300w"`);
    expect(outcome.ok && outcome.resolved.warnings).toEqual([`The image /media/${LOGO}-300.png has no alt text: add alt text describing it; a screen reader otherwise reads nothing`]);
  });

  it('refuses an image of no upload, naming its source', async () => {
    expect(await resolvePostMedia(settings(), `<p>a</p><img src="/media/${MISSING}-480.webp" alt="x" />`, null)).toEqual({
      ok: false,
      problems: [{ field: 'content', problem: 'invalid', message: `content has <img src="/media/${MISSING}-480.webp">, but no uploaded image has the id ${MISSING}: ${UPLOAD_HINT}` }],
    });
  });

  /** HTML around uploaded images, as posts and attackers write it. */
  const fragment = fc.constantFrom(
    '<p>', '</p>', '<figure>', '</figure>', '<figcaption>c</figcaption>', '<a href="https://x.example/?a=1&amp;b=2">', '</a>', '<br>', 'text',
    '1 < 2', 'a > b', '&amp;', '&nbsp;', '"', `<img src="${PHOTO}" alt="a &amp; b">`, `<img src="/media/${LOGO}-300.png">`,
    `<img src="${SITE}/media/${PHOTO}-480.webp" alt="x" srcset="https://evil.example/a.png 1x" onerror="alert(1)">`, '<img src="https://x.example/a.png">',
    '<code class="language-ts">x</code>', '<table><tr><td colspan="2">1</td></tr></table>', '<iframe src="https://www.youtube.com/embed/x"></iframe>',
  );

  it('is stable: a post saved again (sanitised and resolved once more) reads the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { maxLength: 14 }), async (parts) => {
        const first = await resolvePostMedia(settings(), sanitizeContent(parts.join(''), { siteUrl: SITE }).html, null);
        if (!first.ok) throw new Error('every image names an upload');
        const again = sanitizeContent(first.resolved.content, { siteUrl: SITE });
        expect(again.html).toBe(first.resolved.content);
        expect(again.warnings).toEqual([]);
        const second = await resolvePostMedia(settings(), again.html, null);
        expect(second.ok && second.resolved.content).toBe(first.resolved.content);
      }),
      { numRuns: 300 },
    );
  });
});
