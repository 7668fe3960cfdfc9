/**
 * Reading Micropub requests and mapping their h-entry (requests.ts, h-entry.ts): any JSON body and any
 * form fields end in an action or a MicropubError(400, invalid_request) with a description, never
 * anything else (the endpoint would answer that with a 500); and what the mapping makes of a create
 * is what decision 0030 says (title from the first words, category from a site category, the others
 * tags, a future `published` scheduling, an update's replace/add/delete).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCreatePostBody } from '../../contract/blog';
import { applyUpdate, payloadFromEntry } from './h-entry';
import { MicropubError, readFormRequest, readJsonRequest } from './requests';

const NOW = new Date('2026-06-01T12:00:00Z');
const context = { authorName: 'Alice', now: NOW, uploadOf: (url: string) => (url.startsWith('/media/') ? url : null) };

/** Runs `work`; true when it returned, or threw a 400 invalid_request with a description. */
function endsWell(work: () => unknown): boolean {
  try {
    work();
    return true;
  } catch (error) {
    if (!(error instanceof MicropubError)) throw error;
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.message.length).toBeGreaterThan(10);
    return true;
  }
}

/** Reads a request and maps a create as the endpoint does, through the contract's check. */
function readAndMap(action: ReturnType<typeof readJsonRequest>): void {
  if (action.action !== 'create') return;
  const payload = payloadFromEntry(action.type, action.properties, context);
  checkCreatePostBody(payload);
}

const property = fc.oneof(fc.constantFrom('name', 'content', 'summary', 'category', 'photo', 'published', 'post-status', 'mp-slug', 'h', 'action', 'url'), fc.string());

describe('reading Micropub requests', () => {
  it('any JSON body is an action or a 400 invalid_request (property test)', () => {
    const mf2Value = fc.oneof(fc.string(), fc.record({ html: fc.string() }), fc.record({ value: fc.string(), alt: fc.string() }), fc.anything());
    const body = fc.oneof(
      fc.anything(),
      fc.record({ type: fc.oneof(fc.constant(['h-entry']), fc.anything()), properties: fc.dictionary(property, fc.oneof(fc.array(mf2Value), fc.anything())) }),
      fc.record({ action: fc.constantFrom('update', 'delete', 'undelete', 'create', 'other'), url: fc.oneof(fc.webUrl(), fc.anything()), replace: fc.anything(), add: fc.anything(), delete: fc.anything() }, { requiredKeys: ['action'] }),
    );
    fc.assert(fc.property(body, (raw) => endsWell(() => readAndMap(readJsonRequest(raw)))), { numRuns: 500 });
  });

  it('any form fields are an action or a 400 invalid_request (property test)', () => {
    const name = fc.oneof(property, property.map((text) => `${text}[]`), fc.string());
    const fields = fc.array(fc.tuple(name, fc.string()), { maxLength: 30 }).map((list) => [['h', 'entry'] as [string, string], ...list]);
    fc.assert(fc.property(fc.oneof(fields, fc.array(fc.tuple(name, fc.string()))), (list) => endsWell(() => readAndMap(readFormRequest(list)))), { numRuns: 500 });
  });

  it('a property that is not a list is refused, naming it', () => {
    expect(() => readJsonRequest({ type: ['h-entry'], properties: { content: 'hello' } })).toThrow(/"content" must be a list of values/);
  });

  it('form fields: name[] repeats, access_token is not a property', () => {
    const action = readFormRequest([['h', 'entry'], ['content', 'hi'], ['category[]', 'a'], ['category[]', 'b'], ['access_token', 'secret']]);
    expect(action).toEqual({ action: 'create', type: 'h-entry', properties: { content: ['hi'], category: ['a', 'b'] } });
  });
});

describe('the h-entry mapping', () => {
  it('without a name the title is the first 8 words, marked as cut; without a summary the excerpt is the text', () => {
    const payload = payloadFromEntry('h-entry', { content: ['One two three four five six seven eight nine ten.'] }, context);
    expect(payload.title).toBe('One two three four five six seven eight…');
    expect(payload.excerpt).toBe('One two three four five six seven eight nine ten.');
    expect(payloadFromEntry('h-entry', { content: ['Hi'] }, context).title).toBe('Note of 2026-06-01');
  });

  it('the first category naming a site category sets it; the others are tags', () => {
    const payload = payloadFromEntry('h-entry', { content: ['x y z'], category: ['caps', 'tax benefits', 'IUL Strategies'] }, context);
    expect(payload.category).toBe('tax-benefits');
    expect(payload.tags).toEqual(['caps', 'IUL Strategies']);
    expect(payloadFromEntry('h-entry', { content: ['x y z'], category: ['caps'] }, context).category).toBe('uncategorized');
  });

  it('published in the future schedules the post; in the past back-dates it; a draft ignores it', () => {
    expect(payloadFromEntry('h-entry', { content: ['x y z'], published: ['2026-07-01T09:00:00Z'] }, context)).toMatchObject({ status: 'scheduled', publish_at: '2026-07-01T09:00:00Z' });
    expect(payloadFromEntry('h-entry', { content: ['x y z'], published: ['2020-07-01T09:00:00Z'] }, context)).toMatchObject({ status: 'published', publish_at: '2020-07-01T09:00:00Z' });
    expect(payloadFromEntry('h-entry', { content: ['x y z'], published: ['2026-07-01T09:00:00Z'], 'post-status': ['draft'] }, context)).not.toHaveProperty('publish_at');
  });

  it('text content is escaped and its paragraphs wrapped; html content is kept for the cleaner', () => {
    expect(payloadFromEntry('h-entry', { content: ['a <b> c'] }, context).content).toBe('<p>a &lt;b&gt; c</p>');
    expect(payloadFromEntry('h-entry', { content: [{ html: '<p>a <b>c</b></p>' }] }, context).content).toBe('<p>a <b>c</b></p>');
  });

  it('replace, add and delete (by name and by value) apply in that order', () => {
    const { properties, touched } = applyUpdate(
      { content: ['old'], category: ['a', 'b'], summary: ['s'] },
      { replace: { content: ['new'] }, add: { category: ['c'] }, delete: { category: ['a'] } },
    );
    expect(properties).toEqual({ content: ['new'], category: ['b', 'c'], summary: ['s'] });
    expect([...touched].sort()).toEqual(['category', 'content']);
    expect(applyUpdate({ summary: ['s'], content: ['c'] }, { replace: {}, add: {}, delete: ['summary'] }).properties).toEqual({ content: ['c'] });
  });
});
