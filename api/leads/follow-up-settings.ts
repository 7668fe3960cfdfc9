/**
 * Speed to lead's settings, read once at start from the environment: how soon a new lead must get its
 * first contact (LEAD_FIRST_CONTACT_MINUTES, default 5, counted in office hours only), the office hours
 * (LEAD_OFFICE_HOURS, default `Mon-Fri 09:00-17:00`, in LEAD_TIME_ZONE, default America/Chicago: the
 * spec's "Monday to Friday 9:00 AM to 5:00 PM Central Time"), and who gets the escalation when nobody
 * made it (LEAD_ESCALATE_TO, else LEAD_NOTIFY_TO). `addOfficeMinutes` turns a lead's arrival into its
 * deadline: a request at 16:58 on a Friday is due at 09:03 on Monday.
 */
import { z } from 'zod';

export interface OfficeHours {
  /** Days open, 0 = Sunday ... 6 = Saturday. */
  days: readonly number[];
  /** Minutes after local midnight the office opens and closes (close > open). */
  open: number;
  close: number;
  /** An IANA time zone. */
  timeZone: string;
}

export interface LeadFollowUpSettings {
  firstContactMinutes: number;
  officeHours: OfficeHours;
  /** Who gets escalations; empty: LEAD_NOTIFY_TO's addresses (the e-mail settings' `to`). */
  escalateTo: string[];
}

export const DEFAULT_OFFICE_HOURS: OfficeHours = { days: [1, 2, 3, 4, 5], open: 9 * 60, close: 17 * 60, timeZone: 'America/Chicago' };
export const DEFAULT_FOLLOW_UP: LeadFollowUpSettings = { firstContactMinutes: 5, officeHours: DEFAULT_OFFICE_HOURS, escalateTo: [] };

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const HOURS_EXAMPLE = 'Mon-Fri 09:00-17:00 (or Mon,Wed,Fri 08:30-16:00)';
const EMAIL = z.email();

function clock(text: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  return hours <= 24 && minutes < 60 && hours * 60 + minutes <= 24 * 60 ? hours * 60 + minutes : null;
}

function dayList(text: string): number[] | null {
  const days = new Set<number>();
  for (const part of text.toLowerCase().split(',')) {
    const [from, to] = part.split('-').map((name) => DAY_NAMES.indexOf(name.trim().slice(0, 3)));
    if (from === undefined || from < 0 || (to !== undefined && to < 0)) return null;
    for (let day = from; ; day = (day + 1) % 7) {
      days.add(day);
      if (to === undefined || day === to) break;
    }
  }
  return [...days].sort();
}

/** `Mon-Fri 09:00-17:00` as office hours in `timeZone`, or the reason it is not. */
export function parseOfficeHours(text: string, timeZone: string): OfficeHours | string {
  const match = /^\s*(\S+)\s+(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})\s*$/.exec(text);
  const days = match?.[1] ? dayList(match[1]) : null;
  const open = match?.[2] ? clock(match[2]) : null;
  const close = match?.[3] ? clock(match[3]) : null;
  if (!days || open === null || close === null) return `LEAD_OFFICE_HOURS "${text}" is not days and hours: set it like ${HOURS_EXAMPLE}.`;
  if (close <= open) return `LEAD_OFFICE_HOURS closes (${match?.[3]}) before it opens (${match?.[2]}): set it like ${HOURS_EXAMPLE}.`;
  return { days, open, close, timeZone };
}

function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The settings of this start; each problem is added to `problems` (the defaults stand in for what is wrong). */
export function readLeadFollowUpSettings(env: NodeJS.ProcessEnv, problems: string[]): LeadFollowUpSettings {
  const minutesText = env.LEAD_FIRST_CONTACT_MINUTES?.trim();
  let firstContactMinutes = DEFAULT_FOLLOW_UP.firstContactMinutes;
  if (minutesText) {
    const minutes = Number(minutesText);
    if (!/^\d+$/.test(minutesText) || minutes < 1 || minutes > 10_080) {
      problems.push(`LEAD_FIRST_CONTACT_MINUTES "${minutesText}" is not a whole number of minutes from 1 to 10080: set it like 5.`);
    } else firstContactMinutes = minutes;
  }
  const zoneText = env.LEAD_TIME_ZONE?.trim() || DEFAULT_OFFICE_HOURS.timeZone;
  const known = knownTimeZone(zoneText);
  if (!known) problems.push(`LEAD_TIME_ZONE "${zoneText}" is not a time zone: set it like America/Chicago.`);
  const timeZone = known ? zoneText : DEFAULT_OFFICE_HOURS.timeZone;
  const hoursText = env.LEAD_OFFICE_HOURS?.trim();
  const parsed = hoursText ? parseOfficeHours(hoursText, timeZone) : { ...DEFAULT_OFFICE_HOURS, timeZone };
  if (typeof parsed === 'string') problems.push(parsed);
  const escalateTo = (env.LEAD_ESCALATE_TO ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
  const wrong = escalateTo.filter((address) => !EMAIL.safeParse(address).success);
  if (wrong.length > 0) problems.push(`LEAD_ESCALATE_TO has ${wrong.map((address) => `"${address}"`).join(', ')}, which is not an e-mail address: set it to addresses like manager@example.com, separated by commas.`);
  return { firstContactMinutes, officeHours: typeof parsed === 'string' ? DEFAULT_OFFICE_HOURS : parsed, escalateTo };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The weekday (0 = Sunday) and the minutes since local midnight (with fractions) at `ms` in `zone`. */
export function localTime(ms: number, zone: string): { weekday: number; minute: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  const weekday = DAY_NAMES.indexOf(String(parts.weekday).toLowerCase().slice(0, 3));
  const minute = Number(parts.hour) * 60 + Number(parts.minute) + Number(parts.second) / 60 + (ms % 1000) / 60_000;
  return { weekday, minute };
}

/** Whether the office is open at `ms`. */
export function isOpen(ms: number, hours: OfficeHours): boolean {
  const local = localTime(ms, hours.timeZone);
  return hours.days.includes(local.weekday) && local.minute >= hours.open && local.minute < hours.close;
}

const MINUTE_MS = 60_000;

/**
 * The moment `minutes` of office time have passed since `start` (time outside office hours does not
 * count). Steps from window to window; a daylight-saving change is met as it comes, since every step is
 * measured again in local time.
 */
export function addOfficeMinutes(start: Date, minutes: number, hours: OfficeHours): Date {
  if (hours.days.length === 0) throw new Error('Office hours with no open day never reach a deadline.');
  let at = start.getTime();
  let remaining = minutes * MINUTE_MS;
  for (let step = 0; step < 10_000; step++) {
    const local = localTime(at, hours.timeZone);
    const openDay = hours.days.includes(local.weekday);
    if (openDay && local.minute >= hours.open && local.minute < hours.close) {
      const untilClose = Math.round((hours.close - local.minute) * MINUTE_MS);
      if (remaining <= untilClose) return new Date(at + remaining);
      remaining -= untilClose;
      at += untilClose;
    } else if (openDay && local.minute < hours.open) {
      at += Math.max(1, Math.round((hours.open - local.minute) * MINUTE_MS));
    } else {
      // To the next local midnight (a day of 23 or 25 hours is corrected by the next step).
      at += Math.max(MINUTE_MS, Math.round((24 * 60 - local.minute) * MINUTE_MS));
    }
  }
  throw new Error('Office hours too short to reach the deadline.');
}

/** The office time (ms) between `from` and `to`: what the first-contact promise counts. */
export function officeMsBetween(from: Date, to: Date, hours: OfficeHours): number {
  let at = from.getTime();
  const end = to.getTime();
  let counted = 0;
  for (let step = 0; at < end && step < 100_000; step++) {
    const local = localTime(at, hours.timeZone);
    const openDay = hours.days.includes(local.weekday);
    if (openDay && local.minute >= hours.open && local.minute < hours.close) {
      const span = Math.min(end - at, Math.max(1, Math.round((hours.close - local.minute) * MINUTE_MS)));
      counted += span;
      at += span;
    } else if (openDay && local.minute < hours.open) {
      at += Math.max(1, Math.round((hours.open - local.minute) * MINUTE_MS));
    } else {
      at += Math.max(MINUTE_MS, Math.round((24 * 60 - local.minute) * MINUTE_MS));
    }
  }
  return counted;
}

/** The start of the week (Monday 00:00 in the office's zone) that holds `at`, `weeksBack` weeks before. */
export function weekStart(at: Date, hours: OfficeHours, weeksBack = 0): Date {
  const local = localTime(at.getTime(), hours.timeZone);
  const midnight = at.getTime() - Math.round(local.minute * MINUTE_MS);
  const daysSinceMonday = (local.weekday + 6) % 7;
  return new Date(midnight - (daysSinceMonday + 7 * weeksBack) * 24 * 60 * MINUTE_MS);
}

/** "Mon-Fri 9:00 AM to 5:00 PM (America/Chicago)": the office hours as a visitor reads them. */
export function officeHoursText(hours: OfficeHours): string {
  const names = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const time = (minutes: number) => {
    const h = Math.floor(minutes / 60) % 24;
    const m = minutes % 60;
    return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
  };
  const days = hours.days;
  const consecutive = days.every((day, index) => index === 0 || day === (days[index - 1] ?? -2) + 1);
  const first = days[0] ?? 1;
  const last = days.at(-1) ?? 5;
  const dayText = consecutive && days.length > 1 ? `${names[first]} to ${names[last]}` : days.map((day) => names[day]).join(', ');
  return `${dayText}, ${time(hours.open)} to ${time(hours.close)} (${hours.timeZone} time)`;
}
