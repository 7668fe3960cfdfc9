/**
 * The shapes the store keeps on disk, checked with zod when read back so a hand-edited or damaged file
 * is reported instead of half-loaded. Only the store modules import this: it is the file format.
 */
import { z } from 'zod';
import { STORED_POST_STATUSES } from '../../contract/blog';
import type { BlogAuthor, BlogTrust } from '../../contract/blog-reader';
import { type CoverImage, MEDIA_TYPES, type MediaType } from '../../contract/media';
import { apiPermissionSchema } from '../../contract/keys';
import { CONTACT_CHANNELS, CONTACT_OUTCOMES, type ConsentRecord, type DeliveryRecord, type LeadRecord } from '../../contract/leads';
import { AUDIT_ACTIONS, type AuditEntry, type StaffRecord } from '../../contract/staff';
import { CONTACT_METHODS, HEALTH_RATINGS, LEAD_STATUSES } from '../../contract/quote-request';

export const STORE_FORMAT = 'blogpost-store';
export const STORE_VERSION = 1;

const authorSchema = z.object({
  name: z.string(),
  bio: z.string().optional(),
  credentials: z.string().optional(),
}) satisfies z.ZodType<BlogAuthor>;

/** In the order the post service writes the fields (api/services/posts.ts trustFrom): a record read through this schema (an import) keeps the same JSON. */
const trustSchema = z.object({
  sources: z.array(z.object({ name: z.string(), url: z.string() })),
  factCheckedBy: z.object({ name: z.string(), credentials: z.string().optional(), link: z.string().optional() }).optional(),
  lastUpdated: z.string().optional(),
}) satisfies z.ZodType<BlogTrust>;

export const idempotencySchema = z.object({
  /** Hash of the API key id and the Idempotency-Key header. */
  scope: z.string(),
  /** Hash of the request body. */
  fingerprint: z.string(),
  expiresAt: z.string(),
});
export type IdempotencyRecord = z.infer<typeof idempotencySchema>;

/** A post's compliance review while it waits for a staff member, or after it was sent back. */
export const reviewRecordSchema = z.object({
  state: z.enum(['pending', 'returned']),
  /** The status the post gets when approved. */
  requestedStatus: z.enum(['published', 'scheduled']),
  requestedPublishAt: z.string().nullable(),
  submittedAt: z.string(),
  /** The rules whose high findings held it. */
  rules: z.array(z.string()),
  /** The reviewer's note when sent back. */
  note: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** `staff:<email>` of the reviewer who sent it back. */
  decidedBy: z.string().nullable(),
});
export type ReviewRecord = z.infer<typeof reviewRecordSchema>;

/**
 * How a version of a post came to be: who made it, when, which fields it changed from the version
 * before, and why when there is a reason to give. Kept on every version, so a kept revision tells its
 * own story and a client holding an older revision learns what happened since without a second log.
 */
export const versionOriginSchema = z.object({
  /** The actor as the audit log names it: `key:<id>`, `staff:<email>`, `scheduler` or `site`. */
  by: z.string(),
  at: z.string(),
  /** The fields changed from the version before, by the names the API uses (none for the trash). */
  fields: z.array(z.string()),
  /** Why, where there is a reason: the reviewer's note, "went live on schedule", "moved to the trash". */
  why: z.string().nullable(),
});
export type VersionOrigin = z.infer<typeof versionOriginSchema>;

const coverImageSchema = z.object({
  mediaId: z.string(),
  alt: z.string(),
  src: z.string(),
  srcset: z.string(),
  srcsetAvif: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
}) satisfies z.ZodType<CoverImage>;

export const postRecordSchema = z.object({
  id: z.string().min(1),
  /** Creation order; newest first means highest first. */
  seq: z.number().int().nonnegative(),
  slug: z.string().min(1),
  title: z.string(),
  excerpt: z.string(),
  /** Sanitised HTML. */
  content: z.string(),
  /**
   * The Markdown file the post was written as, when it was (decision 0022): the text exactly as sent and
   * the uploads its local pictures name. `content` is rendered from it. Kept beside the content, out of
   * the index entry.
   */
  source: z.object({ format: z.literal('markdown'), text: z.string(), images: z.record(z.string(), z.string()) }).nullable().optional(),
  categorySlug: z.string(),
  tags: z.array(z.string()),
  author: authorSchema,
  isNewsArticle: z.boolean(),
  trust: trustSchema.nullable(),
  /** Shown above the post, on its cards and as its Open Graph image; resolved from an upload (contract/media.ts). */
  coverImage: coverImageSchema.nullable().default(null),
  status: z.enum(STORED_POST_STATUSES),
  /** Set while the post waits for a compliance review (status in_review) or was sent back (draft). */
  review: reviewRecordSchema.nullable().default(null),
  /** Compliance findings the author accepted, with their reasons (contract/compliance.ts). */
  complianceAccept: z.array(z.object({ rule: z.string(), reason: z.string() })).default([]),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
  /** When a scheduled post goes live (ISO 8601, UTC). */
  publishAt: z.string().nullable().default(null),
  /** Grows by one with every change (the ETag names it). Files from before updates lack it: 1. */
  revision: z.number().int().positive().default(1),
  /** Set while the post is in the trash. */
  deletedAt: z.string().nullable().default(null),
  /** Slugs the post had before, each answering 301 to the current one. */
  previousSlugs: z.array(z.string()).default([]),
  /** The owner of the key that created it: keys of the same owner may change it. */
  owner: z.string().nullable().default(null),
  /** Public id of the API key that created the post. */
  createdByKeyId: z.string().nullable(),
  /** Public id of the API key that made the latest change. */
  updatedByKeyId: z.string().nullable().default(null),
  /** What the server changed on the way in, replayed with an idempotent retry. */
  warnings: z.array(z.string()),
  /** How this version came to be; absent on versions stored before it was recorded. */
  origin: versionOriginSchema.nullable().optional(),
  /**
   * The compliance approval the post went live under (decision 0028): the code (typed by the reviewer,
   * a carrier's, or generated like ADV-2026-0042), who approved it, when, and until when it holds.
   * Absent on posts never approved in review.
   */
  approval: z.object({ code: z.string(), by: z.string(), at: z.string(), expiresAt: z.string() }).nullable().optional(),
  idempotency: idempotencySchema.nullable(),
});
export type PostRecord = z.infer<typeof postRecordSchema>;

/** What the store keeps in memory for every post: all but the body and its Markdown source, which stay on disk. */
export type PostIndexEntry = Omit<PostRecord, 'content' | 'source'>;

/** The Markdown source a post keeps (decision 0022). */
export type PostSourceRecord = NonNullable<PostRecord['source']>;

/** What lists hold of a post: everything but its body and its source. */
export function withoutContent(record: PostRecord): PostIndexEntry {
  const { content: _content, source: _source, ...entry } = record;
  return entry;
}

/**
 * A post as a service hands it to the store; the store assigns id, order, slug and times (a
 * `publishedAt` given keeps an imported post's date).
 */
export type NewPost = Omit<PostRecord, 'id' | 'seq' | 'slug' | 'createdAt' | 'updatedAt' | 'publishedAt' | 'idempotency' | 'revision' | 'deletedAt' | 'previousSlugs' | 'updatedByKeyId' | 'review' | 'complianceAccept' | 'coverImage'> & {
  publishedAt?: string | null;
  coverImage?: CoverImage | null;
  review?: ReviewRecord | null;
  complianceAccept?: PostRecord['complianceAccept'];
};

export const REVISIONS_FORMAT = 'blogpost-revisions';

/** A version of a post that a later change replaced. */
export const storedRevisionSchema = z.object({
  /** When the next version replaced it. */
  replacedAt: z.string(),
  /** The fields the next version changed. */
  changed: z.array(z.string()),
  record: postRecordSchema.omit({ idempotency: true, warnings: true }),
});
export type StoredRevision = z.infer<typeof storedRevisionSchema>;

/** A version of a post as a revision keeps it: without the create's Idempotency-Key claim and warnings. */
export function withoutBookkeeping(record: PostRecord): StoredRevision['record'] {
  const { idempotency: _idempotency, warnings: _warnings, ...kept } = record;
  return kept;
}

/** What every store's create makes of a new post, given the order, slug, time and claim it decided. */
export function newPostRecord(post: NewPost, decided: { id: string; seq: number; slug: string; at: string; idempotency: PostRecord['idempotency'] }): PostRecord {
  return {
    ...post,
    review: post.review ?? null,
    complianceAccept: post.complianceAccept ?? [],
    coverImage: post.coverImage ?? null,
    id: decided.id,
    seq: decided.seq,
    slug: decided.slug,
    createdAt: decided.at,
    updatedAt: decided.at,
    publishedAt: post.publishedAt ?? (post.status === 'published' ? decided.at : null),
    revision: 1,
    deletedAt: null,
    previousSlugs: [],
    updatedByKeyId: null,
    idempotency: decided.idempotency,
  };
}

/** `revisions/<id>.json`: a post's earlier versions, newest first. */
export const revisionsFileSchema = z.object({
  format: z.literal(REVISIONS_FORMAT),
  postId: z.string(),
  revisions: z.array(storedRevisionSchema),
});

export const keyRecordSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  permissions: z.array(apiPermissionSchema),
  /** `sha256:` + hex digest of the whole key; the key itself is never stored. */
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** The last request that named this key and failed (wrong secret, revoked, missing permission). Optional: older files lack it. */
  lastFailedAt: z.string().nullable().optional(),
  /** That request's error code. */
  lastFailureCode: z.string().nullable().optional(),
  /** Who revoked the key (`cli:<user>`, a staff account). */
  revokedBy: z.string().nullable().optional(),
  /** Why, when they said. */
  revokeReason: z.string().nullable().optional(),
  /** Whose posts the key may change; older files lack it (the key's name is its owner). */
  owner: z.string().min(1).optional(),
  /** A key issued to an app through IndieAuth (decision 0030): the app's client_id and the scopes granted. */
  indieAuth: z.object({ clientId: z.string(), scope: z.string() }).nullable().optional(),
  /** A Ghost Admin API key (decision 0033): its id is 24 hex digits, its secret derived, never stored. */
  ghost: z.boolean().optional(),
});
export type KeyRecord = z.infer<typeof keyRecordSchema>;

export const manifestSchema = z.object({
  format: z.literal(STORE_FORMAT),
  version: z.literal(STORE_VERSION),
  createdAt: z.string(),
  /** When the demo key of a fresh install was created (so it is created, and printed, only once). */
  demoKeyIssuedAt: z.string().nullable(),
  keys: z.array(keyRecordSchema),
});
export type Manifest = z.infer<typeof manifestSchema>;

const consentRecordSchema = z.object({
  given: z.boolean(),
  text: z.string(),
  version: z.string(),
  textSha256: z.string(),
  at: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  page: z.string(),
  globalPrivacyControl: z.boolean(),
  contactOnlyBy: z.enum(CONTACT_METHODS).nullable(),
}) satisfies z.ZodType<ConsentRecord>;

export const leadRecordSchema = z.object({
  id: z.string().regex(/^lead_[A-Za-z0-9]{20}$/),
  /** Absent on requests stored before references (decision 0018). */
  reference: z.string().optional(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  preferredContactMethod: z.enum(CONTACT_METHODS),
  age: z.number(),
  annualContribution: z.number(),
  retirementAge: z.number().nullable(),
  currentRetirementSavings: z.number().nullable(),
  healthRating: z.enum(HEALTH_RATINGS).nullable(),
  tobaccoUser: z.boolean().nullable(),
  additionalNotes: z.string().nullable(),
  status: z.enum(LEAD_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  agentNotes: z.array(z.object({ at: z.string(), by: z.string(), text: z.string() })),
  spam: z.enum(['honeypot', 'too-fast', 'no-form-time']).nullable(),
  consent: consentRecordSchema,
  // Speed to lead (issue 40); absent on leads stored before it.
  assignee: z.object({ staffId: z.string(), name: z.string(), email: z.string(), at: z.string(), by: z.string() }).nullable().optional(),
  contactAttempts: z
    .array(z.object({ at: z.string(), by: z.string(), channel: z.enum(CONTACT_CHANNELS), outcome: z.enum(CONTACT_OUTCOMES), note: z.string().nullable() }))
    .optional(),
  optOut: z.object({ at: z.string(), channel: z.enum(['email-link', 'phone']), by: z.string() }).nullable().optional(),
  escalatedAt: z.string().nullable().optional(),
}) satisfies z.ZodType<LeadRecord>;

export const deliveryRecordSchema = z.object({
  id: z.string(),
  leadId: z.string(),
  channel: z.enum(['email', 'webhook', 'acknowledgement', 'assignee', 'escalation']),
  createdAt: z.string(),
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
}) satisfies z.ZodType<DeliveryRecord>;

const mediaTypeSchema = z.enum(Object.keys(MEDIA_TYPES) as [MediaType, ...MediaType[]]);

/** An uploaded image (media/<id>.json beside its variants): what was uploaded, and every file made from it. */
export const mediaRecordSchema = z.object({
  /** The first 32 hex digits of the SHA-256 of the bytes uploaded. */
  id: z.string().regex(/^[0-9a-f]{32}$/),
  /** The upload's type, decided from its bytes. */
  type: mediaTypeSchema,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** The upload's size. */
  bytes: z.number().int().nonnegative(),
  /** The owners of the keys that uploaded it (the same picture uploaded again by another owner adds them). */
  owners: z.array(z.string()),
  /** Public id of the key that uploaded it first (null: the CLI on the data directory). */
  uploadedByKeyId: z.string().nullable(),
  uploadedAt: z.string(),
  variants: z.array(z.object({
    /** `<id>-<width>.<ext>` (contract/media.ts mediaFileName). */
    file: z.string(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    type: z.enum(['image/webp', 'image/avif', ...(Object.keys(MEDIA_TYPES) as MediaType[])]),
    bytes: z.number().int().nonnegative(),
  })),
});
export type MediaRecord = z.infer<typeof mediaRecordSchema>;

/** A staff account as stored (and as `blogpost export` writes it). */
export const staffRecordSchema = z.object({
  id: z.string().regex(/^stf_[A-Za-z0-9]{16}$/),
  email: z.string().min(3),
  name: z.string(),
  passwordHash: z.string(),
  createdAt: z.string(),
  passwordChangedAt: z.string(),
  disabledAt: z.string().nullable(),
  takesLeads: z.boolean().optional(),
}) satisfies z.ZodType<StaffRecord>;

/** What an audit entry must be to be logged. */
export const auditEntrySchema = z.object({
  at: z.string().refine((at) => !Number.isNaN(Date.parse(at)), 'an ISO time'),
  actor: z.string().min(1),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  ip: z.string().nullable(),
}) satisfies z.ZodType<AuditEntry>;
