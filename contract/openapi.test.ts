/**
 * The OpenAPI document builds without a server: it has every route of the API, takes the version and
 * server it is given, and its request schemas accept what the zod contract accepts and refuse what it
 * refuses (ajv, JSON Schema 2020-12). tests/api/openapi.test.ts checks real answers against it.
 */
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { checkCreatePostBody } from './blog';
import { buildOpenApiDocument, HTTP_METHODS } from './openapi';

const doc = buildOpenApiDocument({ version: '9.8.7', serverUrl: 'https://www.example.org' });
const post = { title: 'Hello there', content: '<p>x</p>', excerpt: 'e', category: 'Tax Benefits', status: 'Draft', author: { name: 'A' } };

function validator(component: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  return ajv.compile({ $ref: `openapi.json#/components/schemas/${component}` });
}

describe('buildOpenApiDocument', () => {
  it('documents image uploads as raw bytes or multipart form data, with their answers and errors', () => {
    const upload = doc.paths['/api/media']?.post;
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(['image/*', 'application/octet-stream', 'multipart/form-data']);
    expect(Object.keys(upload?.responses ?? {})).toEqual(expect.arrayContaining(['200', '201', '400', '401', '403', '413', '415', '422', '429', '503', '507']));
    expect(upload?.responses['422']?.description).toBe('image_unreadable: Image cannot be read. image_too_many_pixels: Image has too many pixels.');
    expect(doc.paths['/api/media/{id}']?.delete?.responses['409']?.description).toBe('media_in_use: Image still in use.');
    expect(doc.components.schemas.MediaResponse?.required).toEqual(expect.arrayContaining(['id', 'url', 'srcset', 'srcset_avif', 'variants', 'used_by', 'markdown', 'html']));
    const media = validator('MediaResponse');
    const id = 'a'.repeat(32);
    const answer = {
      id,
      type: 'image/png',
      width: 1200,
      height: 800,
      bytes: 5000,
      url: `/media/${id}-960.png`,
      srcset: `/media/${id}-480.webp 480w`,
      srcset_avif: '',
      variants: [{ url: `/media/${id}-480.webp`, width: 480, height: 320, type: 'image/webp', bytes: 100 }],
      stored_bytes: 100,
      owners: ['acme'],
      uploaded_at: '2026-11-01T10:00:00.000Z',
      used_by: [],
      markdown: `![Describe the picture](/media/${id}-960.png)`,
      html: '<img>',
    };
    expect(media(answer)).toBe(true);
    expect(media({ ...answer, id: 'not-an-id' })).toBe(false);
    expect(media({ ...answer, type: 'image/svg+xml' })).toBe(false);
  });

  it('is OpenAPI 3.1.0 with the version and server it was given', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('9.8.7');
    expect(doc.servers[0]?.url).toBe('https://www.example.org');
    expect(buildOpenApiDocument({ version: '1.0.0' }).servers[0]?.url).toBe('/');
    expect(doc.info.description).toContain('informational, not a solicitation');
  });

  it('has every operation of the API, each with an id, a summary, a tag and a success answer', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((method) => {
        const operation = item[method];
        return operation ? [{ route: `${method.toUpperCase()} ${path}`, operation }] : [];
      }),
    );
    expect(operations.map((entry) => entry.route).sort()).toEqual(
      [
        'GET /api/blog',
        'POST /api/blog',
        'POST /api/blog/validate',
        'GET /api/blog/categories',
        'GET /api/blog/{id}',
        'PATCH /api/blog/{id}',
        'PUT /api/blog/{id}',
        'DELETE /api/blog/{id}',
        'POST /api/blog/{id}/restore',
        'GET /api/blog/{id}/revisions',
        'GET /api/blog/{id}/revisions/{n}',
        'POST /api/blog/{id}/revisions/{n}/revert',
        'POST /api/blog/{id}/review',
        'GET /api/health',
        'GET /api/openapi.json',
        'POST /api/media',
        'GET /api/media',
        'GET /api/media/{id}',
        'DELETE /api/media/{id}',
      ].sort(),
    );
    for (const { route, operation } of operations) {
      expect(operation.summary, route).not.toBe('');
      expect(operation.tags.length, route).toBe(1);
      expect(Object.keys(operation.responses).some((status) => status.startsWith('2')), route).toBe(true);
    }
  });

  it('documents the error codes of each status from the catalogue, as JSON and as problem+json', () => {
    const patch = doc.paths['/api/blog/{id}']?.patch;
    expect(patch?.responses['412']?.description).toBe('precondition_failed: The post changed since you read it.');
    expect(Object.keys(patch?.responses['428']?.content ?? {})).toEqual(['application/json', 'application/problem+json']);
    expect(Object.keys(patch?.requestBody?.content ?? {})).toEqual(['application/merge-patch+json', 'application/json']);
  });

  it('has request schemas that accept what the contract accepts and refuse what it refuses', () => {
    const input = validator('PostInput');
    expect(checkCreatePostBody(post).ok).toBe(true);
    expect(input(post)).toBe(true);
    for (const bad of [{ ...post, title: 'No' }, { ...post, author: {} }, { ...post, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }]) {
      expect(checkCreatePostBody(bad).ok).toBe(false);
      expect(input(bad)).toBe(false);
    }
    const patch = validator('PostMergePatch');
    expect(patch({ excerpt: 'Only this.' })).toBe(true);
    expect(patch({ author: { name: 'B', bio: null } })).toBe(true);
    expect(patch({ title: 'No' })).toBe(false);
  });

  it('lists the query parameters of GET /api/blog from its schema, none of them required', () => {
    const names = Object.entries(doc.components.parameters)
      .filter(([name, parameter]) => parameter.in === 'query' && name.startsWith('query.'))
      .map(([, parameter]) => [parameter.name, parameter.required]);
    expect(names).toEqual(['page', 'limit', 'category', 'tag', 'author', 'status', 'mine'].map((name) => [name, false]));
    expect(doc.components.parameters['query.limit']?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
  });
});
