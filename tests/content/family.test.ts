/**
 * One family history (web/content/family.ts) across the site's copy: the About page and the demo
 * articles (fixtures/posts, their bylines and bodies) name only the family's members, give each the
 * generation, credentials and joining year the history gives, count the generations the same way
 * (three since the founding, two leading today) and found the agency in the same year. The "Reviewed
 * by" line names a family member with the credentials the articles show.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { aboutContent } from '../../web/content/about';
import {
  FAMILY,
  type FamilyMember,
  GENERATION_WORDS,
  GENERATIONS,
  GENERATIONS_WORD,
  generationsLeadingTodayWord,
  leadersToday,
  SECOND_GENERATION_YEAR,
} from '../../web/content/family';
import { reviewNote } from '../../web/content/review';

const POSTS_DIR = path.join(import.meta.dirname, '../../fixtures/posts');

interface CopySource {
  name: string;
  text: string;
  /** The family member the text is by (an article's author), whose bio may say "second-generation". */
  author?: FamilyMember;
}

function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
  return into;
}

function demoPosts(): CopySource[] {
  return readdirSync(POSTS_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => {
      const text = readFileSync(path.join(POSTS_DIR, file), 'utf8');
      const authorName = /^author:\n {2}name: "?([^"\n]+)"?$/m.exec(text)?.[1];
      return { name: file, text, author: FAMILY.find((m) => m.name === authorName) };
    });
}

/** The About page's copy, one source per string, and every demo article. */
function siteCopy(): CopySource[] {
  const about = strings(aboutContent(DEFAULT_SITE_CONFIG)).map((text, index) => ({ name: `about.ts #${index}`, text }));
  return [...about, ...demoPosts()];
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).filter(Boolean);
}

function membersNamedIn(sentence: string): FamilyMember[] {
  return FAMILY.filter((m) => new RegExp(`\\b${m.firstName}\\b`).test(sentence));
}

const ORDINALS = Object.values(GENERATION_WORDS);
const ORDINAL_PATTERN = new RegExp(`\\b(${ORDINALS.join('|')})[- ]generation\\b`, 'gi');

describe('one family history', () => {
  it('has three generations, the second joining in 1976 and two leading today, each with a distinct portrait colour', () => {
    expect(GENERATIONS).toBe(3);
    expect(FAMILY.map((m) => m.generation)).toEqual([1, 2, 3]);
    expect(FAMILY.find((m) => m.generation === 2)?.joined).toBe(SECOND_GENERATION_YEAR);
    expect(FAMILY[0]?.joined).toBe(DEFAULT_SITE_CONFIG.foundedYear);
    expect(leadersToday().map((m) => m.name)).toEqual(aboutContent(DEFAULT_SITE_CONFIG).leadership.leaders.map((l) => l.name));
    expect(generationsLeadingTodayWord()).toBe('two');
    expect(new Set(FAMILY.map((m) => m.colours.background)).size).toBe(FAMILY.length);
  });

  it('names no Hartwell outside the family, in the About copy and the demo articles', () => {
    const firstNames = new Set(FAMILY.map((m) => m.firstName));
    const sources = siteCopy();
    expect(sources.filter((s) => s.author).length).toBeGreaterThan(10);
    for (const source of sources) {
      // "Catherine Hartwell", never the agency's own name ("About Hartwell Family Insurance").
      for (const match of source.text.matchAll(/\b([A-Z][a-z]+) Hartwell\b(?! Family)/g)) {
        expect(firstNames, `${source.name}: ${match[0]}`).toContain(match[1]);
      }
    }
  });

  it('gives each member the generation, credentials and joining year of the history', () => {
    for (const source of siteCopy()) {
      for (const sentence of sentences(source.text)) {
        const named = membersNamedIn(sentence);
        const ordinals = [...sentence.matchAll(ORDINAL_PATTERN)].map((m) => (m[1] ?? '').toLowerCase());
        // A sentence about one member (or an author's bio that names nobody else) and one generation.
        const subject = named.length === 1 ? named[0] : named.length === 0 && /^ {2}bio:/.test(sentence) ? source.author : undefined;
        if (subject && ordinals.length === 1) {
          expect(ordinals[0], `${source.name}: ${sentence}`).toBe(GENERATION_WORDS[subject.generation]);
        }
        const joined = /\bjoined\b[^.]*?\b(19\d\d|20\d\d)\b/.exec(sentence)?.[1];
        if (subject?.joined && joined) expect(Number(joined), `${source.name}: ${sentence}`).toBe(subject.joined);
      }
      if (source.author?.credentials) {
        const credentials = /^author:\n(?: {2}.+\n)*? {2}credentials: "?([^"\n]+)"?$/m.exec(source.text)?.[1];
        if (credentials) expect(credentials, source.name).toBe(source.author.credentials);
      }
    }
  });

  it('counts the generations one way: three since the founding, two leading today, founded in 1955', () => {
    let counted = 0;
    for (const source of siteCopy()) {
      for (const sentence of sentences(source.text)) {
        for (const match of sentence.matchAll(/\b(one|two|three|four|five|\d+) generations\b/gi)) {
          counted += 1;
          const leadingToday = /\btoday\b/i.test(sentence) && /\blead/i.test(sentence);
          const expected = leadingToday ? generationsLeadingTodayWord() : GENERATIONS_WORD;
          expect(match[1]?.toLowerCase(), `${source.name}: ${sentence}`).toBe(expected);
        }
        for (const match of sentence.matchAll(/\b(?:founded (?:in )?|(?:clients|business|family) since )(19\d\d)\b/gi)) {
          expect(Number(match[1]), `${source.name}: ${sentence}`).toBe(DEFAULT_SITE_CONFIG.foundedYear);
        }
      }
    }
    expect(counted).toBeGreaterThan(3);
  });

  it('has the education pages reviewed by a family member, with the credentials of their byline', () => {
    const note = reviewNote();
    const reviewer = FAMILY.find((m) => m.name === note.name);
    expect(reviewer?.leadsToday).toBe(true);
    expect(note.credentials).toBe(reviewer?.credentials);
    expect(note.dateLabel).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(new Date(`${note.date}T00:00:00Z`).getTime()).toBeLessThanOrEqual(Date.now());
  });
});
