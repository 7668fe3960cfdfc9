/**
 * The one history of the family behind the agency (SPEC section 1: founded in 1955, a second generation
 * joining in 1976, three generations of leadership, about 70 years of combined experience). The About
 * page, the "Reviewed by" line and the demo articles' author bios all name the family from here;
 * tests/content/family.test.ts checks that no copy names a member, a generation or a count differently.
 */

/** The year the second generation joined the agency (SPEC section 1). */
export const SECOND_GENERATION_YEAR = 1976;
/** Generations that have led the agency since it was founded (SPEC section 1). */
export const GENERATIONS = 3;
/** Combined experience the agency claims, "about 70 years" (SPEC section 1). */
export const COMBINED_EXPERIENCE_YEARS = 70;

export type Generation = 1 | 2 | 3;

export interface FamilyMember {
  id: string;
  name: string;
  firstName: string;
  generation: Generation;
  /** The year the member joined the agency, where the history states one. */
  joined?: number;
  /** True for the members who lead the agency today (the About page's leadership team). */
  leadsToday: boolean;
  role: string;
  /** Professional designations, as the articles' bylines show them. */
  credentials?: string;
  /** The portrait's colours (About page avatar): a background and an accent. */
  colours: { background: string; accent: string };
  /** The drawn portrait's hair: the one feature that tells the silhouettes apart. */
  hair: 'short' | 'short-grey' | 'long';
}

/** Ordinal words of the generations, as the copy writes them. */
export const GENERATION_WORDS: Record<Generation, string> = { 1: 'first', 2: 'second', 3: 'third' };

/** Number words for the counts the copy spells out. */
export const NUMBER_WORDS: Record<number, string> = { 1: 'one', 2: 'two', 3: 'three', 4: 'four' };

export const FAMILY: readonly FamilyMember[] = [
  {
    id: 'walter-hartwell',
    name: 'Walter Hartwell',
    firstName: 'Walter',
    generation: 1,
    joined: 1955,
    leadsToday: false,
    role: 'Founder',
    colours: { background: '#e6ddc8', accent: '#6b4e17' },
    hair: 'short-grey',
  },
  {
    id: 'robert-hartwell',
    name: 'Robert Hartwell',
    firstName: 'Robert',
    generation: 2,
    joined: SECOND_GENERATION_YEAR,
    leadsToday: true,
    role: 'Chairman and Senior Advisor',
    credentials: 'LUTCF',
    colours: { background: '#d7e6f3', accent: '#0b3b60' },
    hair: 'short-grey',
  },
  {
    id: 'catherine-hartwell',
    name: 'Catherine Hartwell',
    firstName: 'Catherine',
    generation: 3,
    leadsToday: true,
    role: 'President and Retirement Income Specialist',
    credentials: 'CLU, ChFC',
    colours: { background: '#f6e3d8', accent: '#8c3b1f' },
    hair: 'long',
  },
];

/** The member with this id; throws on an unknown id, so a typo fails the build's tests. */
export function familyMember(id: string): FamilyMember {
  const member = FAMILY.find((m) => m.id === id);
  if (!member) throw new Error(`No family member with id ${id}`);
  return member;
}

/** The members who lead the agency today, oldest generation first. */
export function leadersToday(): FamilyMember[] {
  return FAMILY.filter((m) => m.leadsToday);
}

/** "Second generation", "Third generation": the label the About page shows for a member. */
export function generationLabel(member: Pick<FamilyMember, 'generation'>): string {
  const word = GENERATION_WORDS[member.generation];
  return `${word.charAt(0).toUpperCase()}${word.slice(1)} generation`;
}

/** "two": how many generations lead the agency today, spelled as the copy writes it. */
export function generationsLeadingTodayWord(): string {
  const count = new Set(leadersToday().map((m) => m.generation)).size;
  return NUMBER_WORDS[count] ?? String(count);
}

/** The number of generations since the founding, spelled: "three". */
export const GENERATIONS_WORD = NUMBER_WORDS[GENERATIONS] ?? String(GENERATIONS);

/** The two-letter monogram of a name: "Catherine Hartwell" is "CH". */
export function monogram(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('')
    .slice(0, 2);
}
