/**
 * Leads as a spreadsheet: every field, the consent record and where each notification stands, as CSV
 * with a header row (csv-stringify), every cell a spreadsheet would run as a formula kept as text.
 * `blogpost leads list --format csv` and the staff area's export both write it.
 */
import { stringify } from "csv-stringify/sync";
import type { DeliveryRecord, LeadRecord } from "../../contract/leads";

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

/** Every field of every lead, one row each, with a header; formula-like cells kept as text. */
export function leadsCsv(
  leads: readonly LeadRecord[],
  deliveries: ReadonlyMap<string, DeliveryRecord[]>,
): string {
  const rows = leads.map((lead) => {
    const cells = csvCells(lead, deliveries.get(lead.id) ?? []);
    return CSV_COLUMNS.map((column) => neutraliseFormula(cells[column]));
  });
  return stringify([[...CSV_COLUMNS], ...rows]);
}
