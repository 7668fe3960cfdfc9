/**
 * Speed to lead's settings and office-hours arithmetic: the defaults are the spec's office hours
 * (Monday to Friday, 9 to 5, Central Time) and five minutes; a wrong value is refused with what to set;
 * a deadline counts office time only (a Friday-evening request is due on Monday morning, across a
 * daylight-saving change too), and, for any start and any number of minutes, the office time between the
 * start and its deadline is exactly those minutes, and the deadline falls inside office hours.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addOfficeMinutes, DEFAULT_FOLLOW_UP, DEFAULT_OFFICE_HOURS, isOpen, officeHoursText, officeMsBetween, parseOfficeHours, readLeadFollowUpSettings, weekStart } from './follow-up-settings';

function read(env: Record<string, string>) {
  const problems: string[] = [];
  return { settings: readLeadFollowUpSettings(env, problems), problems };
}

describe('readLeadFollowUpSettings', () => {
  it('defaults to five minutes, Monday to Friday 9:00-17:00 in Chicago, escalating to LEAD_NOTIFY_TO', () => {
    expect(read({})).toEqual({ settings: DEFAULT_FOLLOW_UP, problems: [] });
    expect(officeHoursText(DEFAULT_OFFICE_HOURS)).toBe('Monday to Friday, 9:00 AM to 5:00 PM (America/Chicago time)');
  });

  it('reads every variable', () => {
    const { settings, problems } = read({ LEAD_FIRST_CONTACT_MINUTES: '15', LEAD_OFFICE_HOURS: 'Mon,Wed,Sat 08:30-12:00', LEAD_TIME_ZONE: 'Europe/Berlin', LEAD_ESCALATE_TO: 'a@example.com, b@example.com' });
    expect(problems).toEqual([]);
    expect(settings).toEqual({ firstContactMinutes: 15, officeHours: { days: [1, 3, 6], open: 510, close: 720, timeZone: 'Europe/Berlin' }, escalateTo: ['a@example.com', 'b@example.com'] });
  });

  it('refuses wrong values, saying what to set', () => {
    const { problems } = read({ LEAD_FIRST_CONTACT_MINUTES: 'five', LEAD_OFFICE_HOURS: 'weekdays', LEAD_TIME_ZONE: 'Mars/Olympus', LEAD_ESCALATE_TO: 'boss' });
    expect(problems).toEqual([
      'LEAD_FIRST_CONTACT_MINUTES "five" is not a whole number of minutes from 1 to 10080: set it like 5.',
      'LEAD_TIME_ZONE "Mars/Olympus" is not a time zone: set it like America/Chicago.',
      'LEAD_OFFICE_HOURS "weekdays" is not days and hours: set it like Mon-Fri 09:00-17:00 (or Mon,Wed,Fri 08:30-16:00).',
      'LEAD_ESCALATE_TO has "boss", which is not an e-mail address: set it to addresses like manager@example.com, separated by commas.',
    ]);
    expect(parseOfficeHours('Mon-Fri 17:00-09:00', 'UTC')).toBe('LEAD_OFFICE_HOURS closes (09:00) before it opens (17:00): set it like Mon-Fri 09:00-17:00 (or Mon,Wed,Fri 08:30-16:00).');
    expect(read({ LEAD_FIRST_CONTACT_MINUTES: '0' }).problems).toHaveLength(1);
  });
});

describe('addOfficeMinutes', () => {
  const at = (iso: string) => new Date(iso);

  it('adds plain minutes inside office hours', () => {
    // Wednesday 3 June 2026, 10:00 CDT.
    expect(addOfficeMinutes(at('2026-06-03T15:00:00Z'), 5, DEFAULT_OFFICE_HOURS).toISOString()).toBe('2026-06-03T15:05:00.000Z');
  });

  it('carries what is left at closing time to the next office day: Friday 16:58 is due Monday 09:03', () => {
    expect(addOfficeMinutes(at('2026-06-05T21:58:00Z'), 5, DEFAULT_OFFICE_HOURS).toISOString()).toBe('2026-06-08T14:03:00.000Z');
  });

  it('starts counting at opening time for a request sent at night or at the weekend', () => {
    // Saturday 7 March 2026 and the Monday after daylight saving time began (Sunday 8 March): 09:05 CDT.
    expect(addOfficeMinutes(at('2026-03-07T18:00:00Z'), 5, DEFAULT_OFFICE_HOURS).toISOString()).toBe('2026-03-09T14:05:00.000Z');
    // Tuesday 3 November 2026, 06:00 CST: 09:05 CST.
    expect(addOfficeMinutes(at('2026-11-03T12:00:00Z'), 5, DEFAULT_OFFICE_HOURS).toISOString()).toBe('2026-11-03T15:05:00.000Z');
  });

  it('for any start and minutes, counts exactly those minutes of office time and ends inside office hours', () => {
    const start = fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2028-12-31T00:00:00Z'), noInvalidDate: true });
    fc.assert(
      fc.property(start, fc.integer({ min: 1, max: 1_000 }), fc.constantFrom('America/Chicago', 'Europe/London', 'Australia/Lord_Howe', 'UTC'), (from, minutes, timeZone) => {
        const hours = { ...DEFAULT_OFFICE_HOURS, timeZone };
        const due = addOfficeMinutes(from, minutes, hours);
        expect(due.getTime()).toBeGreaterThan(from.getTime());
        expect(officeMsBetween(from, due, hours)).toBe(minutes * 60_000);
        // The deadline is office time, or the very moment a day's office time ran out.
        expect(isOpen(due.getTime() - 1, hours)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('weekStart', () => {
  it('is Monday 00:00 in the office time zone', () => {
    // Wednesday 3 June 2026, 10:00 CDT: Monday 1 June 00:00 CDT, and the Monday before.
    expect(weekStart(new Date('2026-06-03T15:00:00Z'), DEFAULT_OFFICE_HOURS).toISOString()).toBe('2026-06-01T05:00:00.000Z');
    expect(weekStart(new Date('2026-06-03T15:00:00Z'), DEFAULT_OFFICE_HOURS, 1).toISOString()).toBe('2026-05-25T05:00:00.000Z');
    // Sunday night belongs to the week that began the Monday before.
    expect(weekStart(new Date('2026-06-08T04:59:00Z'), DEFAULT_OFFICE_HOURS).toISOString()).toBe('2026-06-01T05:00:00.000Z');
  });
});
