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

describe('the settings an operator writes', () => {
  const hours = (text: string) => parseOfficeHours(text, 'UTC');

  it('reads days as names, ranges (also across the weekend) and lists, in any case, and times from 0:00 to 24:00', () => {
    expect(hours('Mon-Fri 09:00-17:00')).toEqual({ days: [1, 2, 3, 4, 5], open: 540, close: 1020, timeZone: 'UTC' });
    expect(hours('  MONDAY-friday   9:00 -  17:30 ')).toEqual({ days: [1, 2, 3, 4, 5], open: 540, close: 1050, timeZone: 'UTC' });
    expect(hours('Fri-Mon 00:00-24:00')).toEqual({ days: [0, 1, 5, 6], open: 0, close: 1440, timeZone: 'UTC' });
    expect(hours('sat,Mon,sat 08:30-12:00')).toEqual({ days: [1, 6], open: 510, close: 720, timeZone: 'UTC' });
    expect(hours('Sun 23:00-23:59')).toEqual({ days: [0], open: 1380, close: 1439, timeZone: 'UTC' });
  });

  it('refuses what is not days and hours, and hours that close before they open', () => {
    const notHours = (text: string) => `LEAD_OFFICE_HOURS "${text}" is not days and hours: set it like Mon-Fri 09:00-17:00 (or Mon,Wed,Fri 08:30-16:00).`;
    for (const text of ['Mon-Fri', '09:00-17:00', 'Mon-Fri 09:00-17:00 daily', 'daily Mon-Fri 09:00-17:00', 'Mon-Fri 09:00-24:01', 'Mon-Fri 09:60-17:00', 'Mon-Fri 009:00-17:00', 'Mon- 09:00-17:00', 'Mon-Xyz 09:00-17:00', 'Xyz 09:00-17:00', 'Mon,,Fri 09:00-17:00', 'Mon-Fri 9h-17h']) {
      expect(hours(text), text).toBe(notHours(text));
    }
    expect(hours('Mon-Fri 09:00-09:00')).toBe('LEAD_OFFICE_HOURS closes (09:00) before it opens (09:00): set it like Mon-Fri 09:00-17:00 (or Mon,Wed,Fri 08:30-16:00).');
  });

  it('takes the first-contact minutes from 1 to a week, trimmed, and keeps the default for anything else', () => {
    expect(read({ LEAD_FIRST_CONTACT_MINUTES: ' 1 ' })).toEqual({ settings: { ...DEFAULT_FOLLOW_UP, firstContactMinutes: 1 }, problems: [] });
    expect(read({ LEAD_FIRST_CONTACT_MINUTES: '10080' }).settings.firstContactMinutes).toBe(10_080);
    expect(read({ LEAD_FIRST_CONTACT_MINUTES: '' })).toEqual({ settings: DEFAULT_FOLLOW_UP, problems: [] });
    for (const text of ['0', '10081', '5.5', '-3', '1e2', '5 minutes', 'five']) {
      const { settings, problems } = read({ LEAD_FIRST_CONTACT_MINUTES: text });
      expect(problems, text).toEqual([`LEAD_FIRST_CONTACT_MINUTES "${text}" is not a whole number of minutes from 1 to 10080: set it like 5.`]);
      expect(settings.firstContactMinutes, text).toBe(5);
    }
  });

  it('keeps the office hours in the default zone when the zone is not one, and the default hours when they are wrong', () => {
    const wrongZone = read({ LEAD_TIME_ZONE: 'Mars/Olympus', LEAD_OFFICE_HOURS: 'Mon-Fri 08:00-16:00' });
    expect(wrongZone.problems).toEqual(['LEAD_TIME_ZONE "Mars/Olympus" is not a time zone: set it like America/Chicago.']);
    expect(wrongZone.settings.officeHours).toEqual({ days: [1, 2, 3, 4, 5], open: 480, close: 960, timeZone: 'America/Chicago' });
    expect(read({ LEAD_TIME_ZONE: ' Europe/Berlin ' }).settings.officeHours).toEqual({ ...DEFAULT_OFFICE_HOURS, timeZone: 'Europe/Berlin' });
    const wrongHours = read({ LEAD_TIME_ZONE: 'Asia/Tokyo', LEAD_OFFICE_HOURS: 'weekdays' });
    expect(wrongHours.settings.officeHours).toEqual(DEFAULT_OFFICE_HOURS);
    expect(read({ LEAD_ESCALATE_TO: ' , manager@example.com ,, ' })).toEqual({ settings: { ...DEFAULT_FOLLOW_UP, escalateTo: ['manager@example.com'] }, problems: [] });
    expect(read({ LEAD_ESCALATE_TO: 'a@example.com, not an address, b' }).problems).toEqual([
      'LEAD_ESCALATE_TO has "not an address", "b", which is not an e-mail address: set it to addresses like manager@example.com, separated by commas.',
    ]);
  });

  it('writes the office hours as a visitor reads them', () => {
    const text = (hoursText: string) => officeHoursText(parseOfficeHours(hoursText, 'Europe/London') as Exclude<ReturnType<typeof parseOfficeHours>, string>);
    expect(text('Mon,Wed,Fri 08:30-12:00')).toBe('Monday, Wednesday, Friday, 8:30 AM to 12:00 PM (Europe/London time)');
    expect(text('Sat 00:00-24:00')).toBe('Saturday, 12:00 AM to 12:00 AM (Europe/London time)');
    expect(text('Tue-Thu 12:05-23:45')).toBe('Tuesday to Thursday, 12:05 PM to 11:45 PM (Europe/London time)');
    expect(text('Fri-Mon 10:00-14:00')).toBe('Sunday, Monday, Friday, Saturday, 10:00 AM to 2:00 PM (Europe/London time)');
  });

  it('is open from the opening minute up to, not at, the closing minute, on open days only', () => {
    // Wednesday 3 June 2026 in Chicago (CDT, UTC-5): 09:00 and 17:00 are 14:00 and 22:00 UTC.
    expect(isOpen(Date.parse('2026-06-03T14:00:00Z'), DEFAULT_OFFICE_HOURS)).toBe(true);
    expect(isOpen(Date.parse('2026-06-03T13:59:59Z'), DEFAULT_OFFICE_HOURS)).toBe(false);
    expect(isOpen(Date.parse('2026-06-03T21:59:59Z'), DEFAULT_OFFICE_HOURS)).toBe(true);
    expect(isOpen(Date.parse('2026-06-03T22:00:00Z'), DEFAULT_OFFICE_HOURS)).toBe(false);
    // Saturday 6 June 2026, noon.
    expect(isOpen(Date.parse('2026-06-06T17:00:00Z'), DEFAULT_OFFICE_HOURS)).toBe(false);
  });

  it('ends a deadline at the very closing minute when the minutes run out there, and refuses hours with no open day', () => {
    // Wednesday 16:55 CDT plus 5 minutes: 17:00, not the next morning.
    expect(addOfficeMinutes(new Date('2026-06-03T21:55:00Z'), 5, DEFAULT_OFFICE_HOURS).toISOString()).toBe('2026-06-03T22:00:00.000Z');
    // Wednesday 08:00 CDT: counting starts at 09:00.
    expect(addOfficeMinutes(new Date('2026-06-03T13:00:00Z'), 1, DEFAULT_OFFICE_HOURS).toISOString()).toBe('2026-06-03T14:01:00.000Z');
    expect(() => addOfficeMinutes(new Date(), 5, { ...DEFAULT_OFFICE_HOURS, days: [] })).toThrow('Office hours with no open day never reach a deadline.');
    expect(officeMsBetween(new Date('2026-06-03T13:00:00Z'), new Date('2026-06-03T14:30:00Z'), DEFAULT_OFFICE_HOURS)).toBe(30 * 60_000);
  });
});
