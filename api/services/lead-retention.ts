/**
 * Keeps leads no longer than the privacy policy says (contract/leads.ts LEAD_RETENTION): requests kept
 * aside as spam go after 30 days, closed requests seven years after their last change. Open requests
 * are never deleted by time. Run at start and then hourly by the server; deleting one removes its
 * notifications too. The same run forgets the quote form's tokens past their day (decision 0018).
 */
import { LEAD_RETENTION } from '../../contract/leads';
import type { LeadRepository } from '../store/store';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Deletes the leads past their keeping time; how many. */
export async function purgeExpiredLeads(leads: LeadRepository, now: Date): Promise<number> {
  const spamCutoff = new Date(now.getTime() - LEAD_RETENTION.spamDays * DAY_MS).toISOString();
  const closedCutoff = new Date(now);
  closedCutoff.setUTCFullYear(closedCutoff.getUTCFullYear() - LEAD_RETENTION.closedYears);
  const expired = (await leads.list({ spam: 'any' })).filter((lead) =>
    lead.spam !== null ? lead.createdAt < spamCutoff : lead.status === 'closed' && lead.updatedAt < closedCutoff.toISOString(),
  );
  let deleted = 0;
  for (const lead of expired) if (await leads.delete(lead.id)) deleted += 1;
  return deleted;
}

export interface LeadRetention {
  /** Purges now, then every `everyMs`. */
  start(): void;
  stop(): void;
}

/** Purges when started and then every `everyMs` (an hour); errors go to `onError`, never stop the server. */
export function leadRetention(leads: LeadRepository, options: { now?: () => Date; log: (line: string) => void; onError: (message: string, error: unknown) => void; everyMs?: number }): LeadRetention {
  const now = options.now ?? (() => new Date());
  const purge = async () => {
    const at = now();
    const count = await purgeExpiredLeads(leads, at);
    if (count > 0) options.log(`Deleted ${count} quote request(s) past their keeping time (spam after ${LEAD_RETENTION.spamDays} days, closed requests after ${LEAD_RETENTION.closedYears} years).`);
    await leads.purgeExpiredIntents(at.getTime());
  };
  const run = () => purge().catch((error: unknown) => options.onError('Deleting expired quote requests failed', error));
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      clearInterval(timer);
      void run();
      timer = setInterval(() => void run(), options.everyMs ?? 60 * 60 * 1000);
      timer.unref();
    },
    stop: () => clearInterval(timer),
  };
}
