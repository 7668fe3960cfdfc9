/**
 * Leads as a spreadsheet: every field, the consent record and where each notification stands, as CSV
 * with a header row (csv-stringify), every cell a spreadsheet would run as a formula kept as text.
 * `blogpost leads list --format csv` and the staff area's export both write it, a batch of leads at a time
 * (`leadsCsvChunks`).
 */
import { stringify } from "csv-stringify/sync";
import type { DeliveryRecord, LeadRecord } from "../../contract/leads";
import type { LeadQuery, LeadRepository, OutboxRepository } from "../store/store";

/** "email sent, webhook pending (3 tries)", or "-" when there are no notifications. */
export function notificationSummary(
  deliveries: readonly DeliveryRecord[],
): string {
  if (deliveries.length === 0) return "-";
  return deliveries
    .map((delivery) => {
      if (delivery.sentAt) return `${delivery.channel} sent`;
      return delivery.attempts === 0
        ? `${delivery.channel} pending`
        : `${delivery.channel} pending (${delivery.attempts} ${delivery.attempts === 1 ? "try" : "tries"})`;
    })
    .join(", ");
}

/** A spreadsheet runs a cell that starts with = + - @ tab or CR as a formula: a leading ' keeps it text. */
function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** yes, no, or '' when not given. */
export const yesNo = (value: boolean | null): string =>
  value === null ? "" : value ? "yes" : "no";

const CSV_COLUMNS = [
  "id",
  "status",
  "received_at",
  "updated_at",
  "name",
  "email",
  "phone",
  "preferred_contact_method",
  "age",
  "annual_contribution",
  "retirement_age",
  "current_retirement_savings",
  "health_rating",
  "tobacco_user",
  "additional_notes",
  "spam",
  "agent_notes",
  "consent_given",
  "consent_version",
  "consent_text",
  "consent_text_sha256",
  "consent_at",
  "consent_ip",
  "consent_user_agent",
  "consent_page",
  "consent_gpc",
  "contact_only_by",
  "notified",
] as const;

function csvCells(
  lead: LeadRecord,
  deliveries: readonly DeliveryRecord[],
): Record<(typeof CSV_COLUMNS)[number], string> {
  const { consent } = lead;
  return {
    id: lead.id,
    status: lead.status,
    received_at: lead.createdAt,
    updated_at: lead.updatedAt,
    name: lead.name,
    email: lead.email ?? "",
    phone: lead.phone ?? "",
    preferred_contact_method: lead.preferredContactMethod,
    age: String(lead.age),
    annual_contribution: String(lead.annualContribution),
    retirement_age: lead.retirementAge?.toString() ?? "",
    current_retirement_savings: lead.currentRetirementSavings?.toString() ?? "",
    health_rating: lead.healthRating ?? "",
    tobacco_user: yesNo(lead.tobaccoUser),
    additional_notes: lead.additionalNotes ?? "",
    spam: lead.spam ?? "",
    agent_notes: lead.agentNotes
      .map((note) => `${note.at} ${note.by}: ${note.text}`)
      .join(" | "),
    consent_given: yesNo(consent.given),
    consent_version: consent.version,
    consent_text: consent.text,
    consent_text_sha256: consent.textSha256,
    consent_at: consent.at,
    consent_ip: consent.ip,
    consent_user_agent: consent.userAgent,
    consent_page: consent.page,
    consent_gpc: yesNo(consent.globalPrivacyControl),
    contact_only_by: consent.contactOnlyBy ?? "",
    notified: notificationSummary(deliveries),
  };
}

/** The CSV's header row. */
const CSV_HEADER = stringify([[...CSV_COLUMNS]]);

/** Every field of each lead, one row each (no header); formula-like cells kept as text. */
function csvRows(
  leads: readonly LeadRecord[],
  deliveries: ReadonlyMap<string, DeliveryRecord[]>,
): string {
  const rows = leads.map((lead) => {
    const cells = csvCells(lead, deliveries.get(lead.id) ?? []);
    return CSV_COLUMNS.map((column) => neutraliseFormula(cells[column]));
  });
  return stringify(rows);
}

/** Every field of every lead, one row each, with a header; formula-like cells kept as text. */
export function leadsCsv(
  leads: readonly LeadRecord[],
  deliveries: ReadonlyMap<string, DeliveryRecord[]>,
): string {
  return CSV_HEADER + csvRows(leads, deliveries);
}

export interface CsvExport {
  /** Leads of the store's `batches` to leave out (a search the query cannot express). */
  keep?: (lead: LeadRecord) => boolean;
  /** Called once the export ends: the rows written, and whether it ran to the end (not cut off by the reader going away or an error). */
  finished?: (rows: number, complete: boolean) => Promise<void>;
}

/**
 * The same CSV as `leadsCsv`, made one batch of leads at a time as the reader takes it: its memory and
 * open files stay the same at a hundred thousand leads as at ten. Stopping early (the download
 * cancelled) stops reading the store.
 */
export async function* leadsCsvChunks(
  store: { leads: LeadRepository; outbox: OutboxRepository },
  query: LeadQuery,
  options: CsvExport = {},
): AsyncGenerator<string> {
  let rows = 0;
  let complete = false;
  try {
    yield CSV_HEADER;
    for await (const batch of store.leads.batches(query)) {
      const leads = options.keep ? batch.filter(options.keep) : batch;
      if (leads.length === 0) continue;
      const deliveries = await store.outbox.forLeads(leads.map((lead) => lead.id));
      rows += leads.length;
      yield csvRows(leads, deliveries);
    }
    complete = true;
  } finally {
    await options.finished?.(rows, complete);
  }
}
