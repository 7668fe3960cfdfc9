/**
 * Staff accounts in `DATA_DIR/staff.json` (`{ format: 'blogpost-staff', version: 1, staff: [...] }`,
 * checked with zod on every read). `blogpost staff` changes the file while the server runs, so nothing
 * is held in memory: every call reads the file. A change is a read-modify-write, run one at a time in
 * this process and under a lock shared with other processes (file-lock.ts, as blog.json does), and
 * written durably. Accounts hold password hashes only (api/staff/passwords.ts), never a password.
 */
import { z } from 'zod';
import type { StaffRecord } from '../../../contract/staff';
import type { StaffPatch, StaffRepository } from '../store';
import { StoreError, unwritable } from '../store-error';
import type { DurableWriter } from './durable-writer';
import { withFileLock } from './file-lock';
import { readJsonFile } from './json-file';

export const STAFF_FILE = 'staff.json';
const FORMAT = 'blogpost-staff';
const VERSION = 1;

/** A staff account as stored (the PostgreSQL store and `blogpost import` check records with it too). */
export const staffRecordSchema = z.object({
  id: z.string().regex(/^stf_[A-Za-z0-9]{16}$/),
  email: z.string().min(3),
  name: z.string(),
  passwordHash: z.string(),
  createdAt: z.string(),
  passwordChangedAt: z.string(),
  disabledAt: z.string().nullable(),
}) satisfies z.ZodType<StaffRecord>;

const staffDocumentSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  staff: z.array(staffRecordSchema),
});

type StaffDocument = z.infer<typeof staffDocumentSchema>;

const parseDocument = (raw: unknown): StaffDocument | null => {
  const parsed = staffDocumentSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export class FileStaffRepository implements StaffRepository {
  readonly #file: string;
  readonly #writer: DurableWriter;
  /** The change in progress, so this process's changes run one after another. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string, writer: DurableWriter) {
    this.#file = file;
    this.#writer = writer;
  }

  async #read(): Promise<StaffRecord[]> {
    return (await readJsonFile(this.#file, parseDocument))?.staff ?? [];
  }

  /** Runs `change` on the accounts as stored, and writes what it returns (unless null), one change at a time. */
  #change<T>(change: (staff: StaffRecord[]) => { staff: StaffRecord[] | null; result: T }): Promise<T> {
    const next = this.#queue.catch(() => undefined).then(() =>
      withFileLock(`${this.#file}.lock`, async () => {
        const { staff, result } = change(await this.#read());
        if (staff) await this.#write(staff);
        return result;
      }).catch((error: unknown) => {
        throw error instanceof StoreError ? error : unwritable(this.#file, error);
      }),
    );
    this.#queue = next;
    return next;
  }

  async #write(staff: StaffRecord[]): Promise<void> {
    const document: StaffDocument = { format: FORMAT, version: VERSION, staff };
    await this.#writer.write(this.#file, `${JSON.stringify(document, null, 2)}\n`);
  }

  async list(): Promise<StaffRecord[]> {
    return this.#read();
  }

  async findById(id: string): Promise<StaffRecord | undefined> {
    return (await this.#read()).find((record) => record.id === id);
  }

  async findByEmail(email: string): Promise<StaffRecord | undefined> {
    return (await this.#read()).find((record) => sameEmail(record.email, email));
  }

  add(record: StaffRecord): Promise<void> {
    return this.#change((staff) => {
      const taken = staff.find((existing) => existing.id === record.id || sameEmail(existing.email, record.email));
      if (taken) {
        const what = taken.id === record.id ? `the id ${record.id}` : `the e-mail ${record.email}`;
        throw new StoreError('conflict', this.#file, `A staff account with ${what} exists already.`);
      }
      return { staff: [...staff, { ...record }], result: undefined };
    });
  }

  update(id: string, patch: StaffPatch): Promise<StaffRecord | undefined> {
    return this.#change((staff) => {
      const current = staff.find((record) => record.id === id);
      if (!current) return { staff: null, result: undefined };
      // A field given as undefined keeps its value, as if it were not in the patch.
      const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as StaffPatch;
      const updated: StaffRecord = { ...current, ...given, id: current.id };
      return { staff: staff.map((record) => (record.id === id ? updated : record)), result: updated };
    });
  }
}
