/**
 * Quote requests and their notifications in the data directory: `leads/<id>.json` (one per lead) and
 * `outbox/<lead id>.<channel>.json` (one per notification, kept with `sentAt` once sent). Every write is
 * durable (durable-writer.ts). Nothing is held in memory: the CLI changes leads while the server runs,
 * and there are few enough that reading the folder is quick. Changes to one lead in this process are
 * applied one at a time.
 */
import path from 'node:path';
import type { DeliveryRecord, LeadRecord } from '../../../contract/leads';
import { deliveryRecordSchema, leadRecordSchema } from '../records';
import type { LeadQuery, LeadRepository, OutboxRepository } from '../store';
import { StoreError, unwritable } from '../store-error';
import type { DurableWriter } from './durable-writer';
import { jsonNames, readJsonFile } from './json-file';

export const LEADS_DIR = 'leads';
export const OUTBOX_DIR = 'outbox';

/** What a notification id may be: a file name of its own (the PostgreSQL store checks ids with it too). */
export const SAFE_NAME = /^[A-Za-z0-9_.-]+$/;

const parseLead = (raw: unknown): LeadRecord | null => {
  const parsed = leadRecordSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};
const parseDelivery = (raw: unknown): DeliveryRecord | null => {
  const parsed = deliveryRecordSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};

export class FileOutboxRepository implements OutboxRepository {
  readonly #dir: string;
  readonly #writer: DurableWriter;

  constructor(dir: string, writer: DurableWriter) {
    this.#dir = dir;
    this.#writer = writer;
  }

  #file(id: string): string {
    if (!SAFE_NAME.test(id)) throw new StoreError('corrupt', id, `"${id}" is not a notification id.`);
    return path.join(this.#dir, `${id}.json`);
  }

  async #all(): Promise<DeliveryRecord[]> {
    const records = await Promise.all((await jsonNames(this.#dir)).map((name) => readJsonFile(path.join(this.#dir, name), parseDelivery)));
    return records.filter((record): record is DeliveryRecord => record !== null);
  }

  async pending(): Promise<DeliveryRecord[]> {
    const due = (await this.#all()).filter((record) => record.sentAt === null);
    return due.sort((a, b) => (a.nextAttemptAt ?? '').localeCompare(b.nextAttemptAt ?? '') || a.id.localeCompare(b.id));
  }

  async forLead(leadId: string): Promise<DeliveryRecord[]> {
    return (await this.#all()).filter((record) => record.leadId === leadId).sort((a, b) => a.channel.localeCompare(b.channel));
  }

  /** One server works on a data directory: the record as stored, unless it was sent or removed. */
  async claim(id: string): Promise<DeliveryRecord | null> {
    const record = await readJsonFile(this.#file(id), parseDelivery);
    return record && record.sentAt === null ? record : null;
  }

  async save(record: DeliveryRecord): Promise<void> {
    const file = this.#file(record.id);
    try {
      await this.#writer.write(file, `${JSON.stringify(record, null, 2)}\n`);
    } catch (error) {
      throw unwritable(file, error);
    }
  }

  async saveAll(records: readonly DeliveryRecord[]): Promise<void> {
    if (records.length === 0) return;
    const failures = await this.#writer.writeBatch(records.map((record) => ({ file: this.#file(record.id), text: `${JSON.stringify(record, null, 2)}\n` })));
    const failed = failures.findIndex((failure) => failure !== null);
    if (failed >= 0) {
      await Promise.all(records.map((record) => this.remove(record.id).catch(() => undefined)));
      throw unwritable(this.#file(records[failed]?.id ?? ''), failures[failed]);
    }
  }

  async remove(id: string): Promise<void> {
    await this.#writer.remove(this.#file(id));
  }
}

export class FileLeadRepository implements LeadRepository {
  readonly #dir: string;
  readonly #writer: DurableWriter;
  readonly #outbox: FileOutboxRepository;
  /** The change of each lead in progress, so changes to one lead run one after another. */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(dir: string, writer: DurableWriter, outbox: FileOutboxRepository) {
    this.#dir = dir;
    this.#writer = writer;
    this.#outbox = outbox;
  }

  #file(id: string): string | null {
    return /^lead_[A-Za-z0-9]{20}$/.test(id) ? path.join(this.#dir, `${id}.json`) : null;
  }

  #text(lead: LeadRecord): string {
    return `${JSON.stringify(lead, null, 2)}\n`;
  }

  async create(lead: LeadRecord, deliveries: readonly DeliveryRecord[]): Promise<void> {
    const file = this.#file(lead.id);
    if (!file) throw new StoreError('corrupt', lead.id, `"${lead.id}" is not a lead id.`);
    await this.#outbox.saveAll(deliveries);
    try {
      await this.#writer.write(file, this.#text(lead));
    } catch (error) {
      await Promise.all(deliveries.map((delivery) => this.#outbox.remove(delivery.id).catch(() => undefined)));
      throw unwritable(file, error);
    }
  }

  async get(id: string): Promise<LeadRecord | null> {
    const file = this.#file(id);
    return file ? readJsonFile(file, parseLead) : null;
  }

  async list(query: LeadQuery = {}): Promise<LeadRecord[]> {
    const names = await jsonNames(this.#dir);
    const leads = (await Promise.all(names.map((name) => readJsonFile(path.join(this.#dir, name), parseLead)))).filter(
      (lead): lead is LeadRecord => lead !== null,
    );
    const spam = query.spam ?? false;
    return leads
      .filter((lead) => (query.status === undefined || lead.status === query.status) && (spam === 'any' || (lead.spam !== null) === spam))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  }

  update(id: string, change: (lead: LeadRecord) => LeadRecord): Promise<LeadRecord | null> {
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(async () => {
      const file = this.#file(id);
      const lead = file ? await readJsonFile(file, parseLead) : null;
      if (!file || !lead) return null;
      const changed = { ...change(lead), id: lead.id };
      try {
        await this.#writer.write(file, this.#text(changed));
      } catch (error) {
        throw unwritable(file, error);
      }
      return changed;
    });
    this.#queues.set(id, next);
    void next.finally(() => {
      if (this.#queues.get(id) === next) this.#queues.delete(id);
    });
    return next;
  }

  async delete(id: string): Promise<boolean> {
    const file = this.#file(id);
    if (!file) return false;
    for (const delivery of await this.#outbox.forLead(id)) await this.#outbox.remove(delivery.id);
    return this.#writer.remove(file);
  }
}
