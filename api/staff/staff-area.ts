/**
 * The staff area's server side for one request (contract/staff-area.ts): who is signed in, signing in
 * and out with the session cookie, the dashboard's figures, and the work on leads. Every operation
 * but signing in needs the session the request carried, checked here again (the pages' loaders check
 * first), and every change is written to the audit log with the staff member's e-mail. Changes to
 * posts go through the server's post service (api/services/post-service.ts), as the API's do: the same
 * checks, the same COMPLIANCE_MODE, and the audit entry written there. Leads are personal data: nothing
 * here logs them; the audit names a lead by id only.
 */
import type { LeadRecord } from '../../contract/leads';
import type { LeadStatus } from '../../contract/quote-request';
import type { AuditAction } from '../../contract/staff';
import type { DashboardSummary, LeadChangeOutcome, LeadListQuery, StaffArea } from '../../contract/staff-area';
import { archiveExportZip } from '../services/archive-export';
import { CONTACT_CHANNELS, CONTACT_OUTCOME_LABELS, CONTACT_OUTCOMES } from '../../contract/leads';
import type { LeadFollowUp } from '../services/lead-follow-up';
import type { RequestLogReader } from '../request-log/request-log';
import { leadsCsvChunks } from '../services/lead-export';
import { KeyError } from '../services/keys';
import { ApiError } from '../../contract/errors';
import { parseIfMatch, postEtag } from '../../contract/post-lifecycle';
import { type FindingTally, type PostChangeOutcome, type ReviewDetail, type ReviewItem, STAFF_REASON_MAX, type StaffPost, type StaffPostListQuery, type StaffPostPage, type StaffPostRow } from '../../contract/staff-area';
import { type Actor, staffActor } from '../services/actors';
import { htmlFindingsOf } from '../services/compliance-gate';
import { presentPost, presentReview } from '../services/presenters';
import { previewTokens } from '../services/post-preview';
import { postEditor } from './post-editor';
import { analyticsCsv, analyticsReport } from '../analytics/report';
import type { PostPreview } from '../../contract/post-preview';
import type { Services } from '../services/services';
import { ghostSecret } from '../ghost/admin-key';
import type { PostIndexEntry, PostRecord } from '../store/store';
import {
  type ActiveSession,
  type Client,
  clearedSessionCookie,
  csrfTokenFor,
  loginCookie,
  loginTokenFor,
  newRandomId,
  sameToken,
  sessionCookie,
  deviceCookie,
} from './sessions';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest note on a contact attempt (a longer story is an agent note). */
const ATTEMPT_NOTE_LIMIT = 1000;

export interface StaffRequest {
  /** The session the request's cookie named, when still good. */
  active: ActiveSession | null;
  /** The value of the sign-in form's cookie, when the request had one. */
  loginCookieValue: string | undefined;
  /** The value of the device cookie an earlier sign-in on this browser left, when it had one. */
  deviceCookieValue?: string | undefined;
  client: Client;
  /** The site is served over HTTPS: cookies get Secure and the __Host- prefix. */
  secure: boolean;
}

export interface StaffAreaDeps {
  /** The server's services (api/services/services.ts); the settings' COMPLIANCE_MODE is shown on the review queue. */
  services: Pick<Services, 'store' | 'posts' | 'keys' | 'sessions' | 'clock' | 'settings'> & Partial<Pick<Services, 'followUp' | 'analytics'>>;
  requestLog?: RequestLogReader;
}

function staffPost(entry: PostIndexEntry): StaffPost {
  return {
    id: entry.id,
    title: entry.title,
    slug: entry.slug,
    status: entry.status,
    deletedAt: entry.deletedAt,
    author: entry.author.name,
    owner: entry.owner,
    createdByKeyId: entry.createdByKeyId,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    publishedAt: entry.publishedAt,
    revision: entry.revision,
  };
}

/** The If-Match a page showing this revision of the post stands for. */
function etagOf(id: string, revision: number) {
  return parseIfMatch(postEtag(id, revision));
}

function reviewItem(post: PostRecord): ReviewItem {
  const review = post.review ?? { state: 'pending' as const, requestedStatus: 'published' as const, requestedPublishAt: null, submittedAt: post.updatedAt, rules: [], note: null, decidedAt: null, decidedBy: null };
  return { post: staffPost(post), review: presentReview(review), findings: htmlFindingsOf(post), acceptances: post.complianceAccept.map((acceptance) => ({ ...acceptance })) };
}

/** Whether a post's title, slug, author, owner or id holds the searched text (any case); no text: every post. */
function matchesText(entry: PostIndexEntry, text: string | undefined): boolean {
  const needle = text?.trim().toLowerCase() ?? '';
  return !needle || [entry.title, entry.slug, entry.author.name, entry.owner ?? '', entry.id].some((value) => value.toLowerCase().includes(needle));
}

/** Findings by severity of a post version, kept by id and revision (a revision's text never changes). */
const tallies = new Map<string, FindingTally>();
const TALLIES_KEPT = 20_000;

function tallyOf(post: PostRecord): FindingTally {
  const key = `${post.id}@${post.revision}`;
  const known = tallies.get(key);
  if (known) return known;
  const tally: FindingTally = { high: 0, medium: 0, info: 0 };
  for (const finding of htmlFindingsOf(post)) tally[finding.severity] += 1;
  if (tallies.size >= TALLIES_KEPT) tallies.clear();
  tallies.set(key, tally);
  return tally;
}

/** A post as its public page will show it, with its status for the preview's banner. */
function previewOf(post: PostRecord): PostPreview {
  return { post: presentPost(post), status: post.status, publishAt: post.publishAt, deletedAt: post.deletedAt };
}

export const STAFF_POSTS_PER_PAGE = 25;

export class NotSignedInError extends Error {
  constructor() {
    super('Sign in at /admin/login to do this.');
    this.name = 'NotSignedInError';
  }
}

function matches(lead: LeadRecord, q: string): boolean {
  const needle = q.trim().toLowerCase();
  if (!needle) return true;
  return [lead.id, lead.reference ?? '', lead.name, lead.email ?? '', lead.phone ?? ''].some((value) => value.toLowerCase().includes(needle));
}

function speedToLead(followUp: LeadFollowUp, leads: readonly LeadRecord[], now: Date): NonNullable<DashboardSummary['speedToLead']> {
  const thisWeek = followUp.firstContact(leads, 0);
  const lastWeek = followUp.firstContact(leads, 1);
  const waiting = leads.filter((lead) => followUp.isWaiting(lead));
  const overdue = waiting.filter((lead) => followUp.dueAt(lead.createdAt) <= now).length;
  return { firstContactMinutes: followUp.settings.firstContactMinutes, thisWeek, lastWeek, waiting: waiting.length, overdue };
}

export function staffArea(deps: StaffAreaDeps, request: StaffRequest): StaffArea {
  const { store, posts: postService, keys: keyService, sessions, clock: now } = deps.services;
  const { active, client, secure } = request;
  const tokens = previewTokens(() => store.audit.pseudonymKey());

  const signedIn = (): ActiveSession => {
    if (!active) throw new NotSignedInError();
    return active;
  };

  const record = (action: AuditAction, target: string, detail: Record<string, string | number | boolean | null> = {}) =>
    store.audit.append({ at: now().toISOString(), actor: `staff:${signedIn().staff.email}`, action, target, detail, ip: client.ip });

  const followUp = deps.services.followUp;
  /** The inbox's filters beyond status and spam: the search, waiting for a first contact, the week received. */
  const keeps = (query: LeadListQuery) => {
    const week = query.week === 'this' ? 0 : query.week === 'last' ? 1 : null;
    return (lead: LeadRecord) =>
      (!query.q || matches(lead, query.q)) && (!query.waiting || !followUp || followUp.isWaiting(lead)) && (week === null || !followUp || followUp.inWeek(lead, week));
  };
  const listLeads = async (query: LeadListQuery) => {
    signedIn();
    const leads = await store.leads.list({ ...(query.status ? { status: query.status } : {}), spam: query.spam ?? false });
    return leads.filter(keeps(query));
  };

  /** A lead change of speed to lead, as the lead page reports it. */
  const leadChange = async (change: () => Promise<LeadRecord | null | 'no-staff'>): Promise<LeadChangeOutcome> => {
    signedIn();
    if (!followUp) return { ok: false, status: 400, message: 'Speed to lead is not set up on this server.' };
    const changed = await change();
    if (changed === 'no-staff') return { ok: false, status: 400, message: 'Choose an active staff member from the list.' };
    return changed ? { ok: true, lead: changed } : { ok: false, status: 404, message: 'That quote request no longer exists.' };
  };

  const changeLead = async (id: string, change: (lead: LeadRecord) => LeadRecord) => store.leads.update(id, (lead) => ({ ...change(lead), updatedAt: now().toISOString() }));

  /** Runs a post change as the signed-in staff member; its message, or the API's reason for refusing it. */
  const changePost = async (change: (actor: Actor) => Promise<{ message: string }>): Promise<PostChangeOutcome> => {
    const actor = staffActor(signedIn().staff.email, client.ip);
    try {
      return { ok: true, message: (await change(actor)).message };
    } catch (error) {
      if (error instanceof ApiError) {
        const stale = error.code === 'precondition_failed';
        const problems = error.code === 'validation_failed' && error.errors?.length ? error.errors.map((problem) => problem.message).join('; ') : null;
        return { ok: false, message: stale ? 'Someone changed this post since this page was loaded: look at it again, then decide.' : (problems ?? error.message) };
      }
      throw error;
    }
  };

  return {
    viewer: active ? { id: active.staff.id, email: active.staff.email, name: active.staff.name, csrfToken: csrfTokenFor(active.sessionId) } : null,

    loginToken() {
      const existing = request.loginCookieValue;
      if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { token: loginTokenFor(existing), setCookie: null };
      const value = newRandomId();
      return { token: loginTokenFor(value), setCookie: loginCookie(value, secure) };
    },

    async signIn({ email, password, loginToken }) {
      const cookieValue = request.loginCookieValue;
      if (!cookieValue || !sameToken(loginTokenFor(cookieValue), loginToken)) {
        return { ok: false, message: 'This sign-in form has expired. Load the page again and sign in.', retryAfterSeconds: null };
      }
      const result = await sessions.signIn(email, password, client, request.deviceCookieValue);
      if (result.ok) return { ok: true, setCookies: [sessionCookie(result.sessionId, secure), deviceCookie(result.deviceToken, secure)] };
      if (result.retryAfterSeconds !== null) {
        const minutes = Math.ceil(result.retryAfterSeconds / 60);
        return {
          ok: false,
          message: `Too many sign-in attempts. Wait ${result.retryAfterSeconds < 90 ? `${result.retryAfterSeconds} seconds` : `${minutes} minutes`} and try again, or ask an administrator to reset your password.`,
          retryAfterSeconds: result.retryAfterSeconds,
        };
      }
      return { ok: false, message: 'That e-mail and password do not match an active staff account. Check both and try again.', retryAfterSeconds: null };
    },

    async signOut(everywhere) {
      await sessions.signOut(signedIn(), everywhere, client);
      return clearedSessionCookie(secure);
    },

    archive: {
      async timeline(postId) {
        signedIn();
        const records = await store.archive.list({ subject: postId });
        const newest = records.at(-1);
        if (!newest) return null;
        return {
          title: newest.title,
          entries: records.map((record) => ({
            seq: record.seq,
            event: record.event,
            title: record.title,
            path: record.path,
            liveFrom: record.liveFrom,
            liveTo: record.liveTo,
            madeBy: record.madeBy,
            approver: record.approver,
            approvalCode: record.approvalCode,
            findings: record.findings.map((finding) => ({ rule: finding.rule, severity: finding.severity })),
            contentHash: record.contentHash,
            hash: record.hash,
          })),
        };
      },
      async exportZip(query) {
        signedIn();
        return (await archiveExportZip(store.archive, query, now())).zip;
      },
    },

    async dashboard(): Promise<DashboardSummary> {
      signedIn();
      const dayAgo = new Date(now().getTime() - DAY_MS);
      const [fresh, posts, keys, failed] = await Promise.all([
        store.leads.list({ status: 'new' }),
        store.posts.list({ status: 'any', limit: 5 }),
        store.keys.list(),
        deps.requestLog ? deps.requestLog.find({ since: dayAgo }).catch(() => []) : Promise.resolve([]),
      ]);
      return {
        newLeads: fresh.length,
        latestLeads: fresh.slice(0, 5),
        recentPosts: posts.entries.map((post) => ({ id: post.id, title: post.title, slug: post.slug, status: post.status, updatedAt: post.updatedAt, author: post.author.name })),
        keysUsedLastDay: keys
          .filter((key) => key.lastUsedAt !== null && key.lastUsedAt >= dayAgo.toISOString())
          .map((key) => ({ id: key.id, name: key.name, owner: key.owner ?? key.name, lastUsedAt: key.lastUsedAt ?? '' })),
        failedRequestsLastDay: failed.filter((entry) => entry.status >= 400).length,
        inReview: (await store.posts.counts()).inReview,
        expiringApprovals: await postService.expiringApprovals(),
        ...(followUp ? { speedToLead: speedToLead(followUp, await store.leads.list(), now()) } : {}),
      };
    },

    leads: {
      list: listLeads,
      async get(id) {
        signedIn();
        const lead = await store.leads.get(id);
        if (!lead) return null;
        const takers = (await store.staff.list())
          .filter((staff) => staff.disabledAt === null)
          .map((staff) => ({ id: staff.id, name: staff.name, email: staff.email, takesLeads: staff.takesLeads !== false }));
        const due = followUp && followUp.isWaiting(lead) ? followUp.dueAt(lead.createdAt).toISOString() : null;
        const conversion = await store.analytics.conversion(id);
        const attribution = conversion ? { landing: conversion.landing, articles: conversion.articles, utmSource: conversion.utmSource } : null;
        return { lead, notifications: await store.outbox.forLead(id), takers, firstContactDueAt: due, attribution };
      },
      async recordAttempt(id, attempt) {
        const viewer = signedIn();
        const channel = CONTACT_CHANNELS.find((known) => known === attempt.channel);
        const outcome = CONTACT_OUTCOMES.find((known) => known === attempt.outcome);
        if (!channel) return { ok: false, status: 400, message: `Choose how you tried to reach them: ${CONTACT_CHANNELS.join(', ')}.` };
        if (!outcome) return { ok: false, status: 400, message: `Choose what came of it: ${CONTACT_OUTCOMES.map((known) => CONTACT_OUTCOME_LABELS[known]).join(', ')}.` };
        const note = attempt.note.trim();
        if (note.length > ATTEMPT_NOTE_LIMIT) return { ok: false, status: 400, message: `A note on an attempt can be at most ${ATTEMPT_NOTE_LIMIT} characters; add the rest as an agent note.` };
        return leadChange(() => followUp?.recordAttempt(id, { channel, outcome, note: note || null }, viewer.staff.email, client.ip) ?? Promise.resolve(null));
      },
      async assign(id, staffId) {
        const viewer = signedIn();
        return leadChange(() => followUp?.assign(id, staffId, `staff:${viewer.staff.email}`, client.ip) ?? Promise.resolve(null));
      },
      async recordOptOut(id) {
        const viewer = signedIn();
        return leadChange(() => followUp?.recordOptOut(id, 'phone', `staff:${viewer.staff.email}`, client.ip) ?? Promise.resolve(null));
      },
      async setStatus(id, status: LeadStatus) {
        signedIn();
        let from: LeadStatus | null = null;
        const changed = await changeLead(id, (lead) => {
          from = lead.status;
          return { ...lead, status };
        });
        if (changed && from !== status) await record('lead.status_changed', id, { from, to: status });
        return changed;
      },
      async addNote(id, text) {
        const viewer = signedIn();
        const changed = await changeLead(id, (lead) => ({ ...lead, agentNotes: [...lead.agentNotes, { at: now().toISOString(), by: viewer.staff.email, text }] }));
        if (changed) await record('lead.noted', id);
        return changed;
      },
      async delete(id) {
        signedIn();
        const deleted = await store.leads.delete(id);
        if (deleted) await record('lead.deleted', id);
        return deleted;
      },
      async csv(query) {
        signedIn();
        const filtered = Boolean(query.q || query.waiting || query.week);
        const chunks = leadsCsvChunks(store, { ...(query.status ? { status: query.status } : {}), spam: query.spam ?? false }, {
          ...(filtered ? { keep: keeps(query) } : {}),
          finished: (count, complete) => record('leads.exported', 'leads', { count, status: query.status ?? null, spam: query.spam ?? false, ...(complete ? {} : { complete }) }),
        });
        const encoder = new TextEncoder();
        // Made a chunk at a time as the response is read; a cancelled download ends the reading (and audits it).
        return new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              const next = await chunks.next();
              if (next.done) controller.close();
              else controller.enqueue(encoder.encode(next.value));
            },
            async cancel() {
              await chunks.return(undefined);
            },
          },
          { highWaterMark: 0 },
        );
      },
    },

    posts: {
      async page(query: StaffPostListQuery): Promise<StaffPostPage> {
        signedIn();
        const [listed, counts] = await Promise.all([store.posts.list({ status: query.status ?? 'any', limit: 1_000_000 }), store.posts.counts()]);
        const authors = [...new Set(listed.entries.map((entry) => entry.author.name))].sort((a, b) => a.localeCompare(b));
        let entries = listed.entries.filter((entry) => matchesText(entry, query.q) && (!query.author || entry.author.name === query.author) && (!query.category || entry.categorySlug === query.category));
        const tallyById = new Map<string, FindingTally>();
        const tallyFor = async (entry: PostIndexEntry): Promise<FindingTally> => {
          const known = tallies.get(`${entry.id}@${entry.revision}`);
          if (known) return known;
          const post = await store.posts.getById(entry.id);
          return post ? tallyOf(post) : { high: 0, medium: 0, info: 0 };
        };
        if (query.findings) {
          const kept: PostIndexEntry[] = [];
          for (const entry of entries) {
            const tally = await tallyFor(entry);
            tallyById.set(entry.id, tally);
            if ((tally.high + tally.medium + tally.info > 0) === (query.findings === 'yes')) kept.push(entry);
          }
          entries = kept;
        }
        const perPage = Math.max(1, Math.min(query.perPage ?? STAFF_POSTS_PER_PAGE, 200));
        const pages = Math.max(1, Math.ceil(entries.length / perPage));
        const page = Math.min(Math.max(1, Math.floor(query.page ?? 1)), pages);
        const shown = entries.slice((page - 1) * perPage, page * perPage);
        const posts: StaffPostRow[] = await Promise.all(
          shown.map(async (entry) => ({ ...staffPost(entry), categorySlug: entry.categorySlug, findings: tallyById.get(entry.id) ?? (await tallyFor(entry)) })),
        );
        return { posts, total: entries.length, page, pages, perPage, authors, counts };
      },
      async byIds(ids) {
        signedIn();
        const found = await Promise.all([...new Set(ids)].map((id) => store.posts.getById(id)));
        return found.filter((post): post is PostRecord => post !== null).map((post) => staffPost(post));
      },
      async list(query) {
        signedIn();
        const page = await store.posts.list({ status: query.status ?? 'any', limit: 10_000 });
        return page.entries.filter((entry) => matchesText(entry, query.q)).map(staffPost);
      },
      unpublish: (id, revision) => changePost((actor) => postService.unpublish(id, etagOf(id, revision), actor)),
      trash: (id, revision) => changePost((actor) => postService.trash(id, etagOf(id, revision), actor)),
      restore: (id) => changePost((actor) => postService.restore(id, actor)),
    },

    reviews: {
      mode: deps.services.settings.complianceMode,
      async list() {
        signedIn();
        const page = await store.posts.list({ status: 'in_review', limit: 10_000 });
        const items = await Promise.all(page.entries.map(async (entry) => {
          const post = await store.posts.getById(entry.id);
          return post ? reviewItem(post) : null;
        }));
        return items.filter((item): item is ReviewItem => item !== null).sort((a, b) => (a.review.submitted_at < b.review.submitted_at ? -1 : 1));
      },
      async get(id) {
        signedIn();
        const post = await store.posts.getById(id);
        if (!post || post.deletedAt || post.status !== 'in_review') return null;
        const item = reviewItem(post);
        const detail: ReviewDetail = { ...item, excerpt: post.excerpt, content: post.content, author: post.author, trust: post.trust, isNewsArticle: post.isNewsArticle };
        return detail;
      },
      approve: async (id, revision, reason = '', approval = {}) => {
        signedIn();
        const why = reason.trim();
        if (why.length > STAFF_REASON_MAX) return { ok: false, message: `A reason can be at most ${STAFF_REASON_MAX} characters: shorten it.` };
        const post = await store.posts.getById(id);
        const high = post && post.revision === revision ? htmlFindingsOf(post).filter((finding) => finding.severity === 'high' && !finding.accepted).length : 0;
        if (high > 0 && !why) {
          return { ok: false, message: `This post still has ${high} high finding${high === 1 ? '' : 's'} the author did not accept. To approve it anyway, write why in "Reason for approving"; it is kept in the audit log and the post's history.` };
        }
        return changePost((actor) => postService.approve(id, revision, actor, high > 0 ? why : undefined, approval));
      },
      sendBack: async (id, revision, note) => {
        const text = note.trim();
        if (text.length < 10) return { ok: false, message: 'Write the author a note of at least 10 characters: what to change, and why.' };
        return changePost((actor) => postService.sendBack(id, revision, text, actor));
      },
      edit: (id, revision, edit) => changePost((actor) => postService.reviewEdit(id, revision, edit, actor)),
    },

    previews: {
      async get(id) {
        signedIn();
        const post = await store.posts.getById(id);
        return post ? previewOf(post) : null;
      },
      async makeLink(id) {
        signedIn();
        const post = await store.posts.getById(id);
        if (!post) return null;
        const made = await tokens.make(post.id, now());
        await record('post.preview_link_made', post.id, { expiresAt: made.expiresAt.toISOString() });
        return { path: `/preview/${made.token}`, expiresAt: made.expiresAt.toISOString() };
      },
      async open(token) {
        const checked = await tokens.check(token, now());
        if (checked.kind === 'bad') return { kind: 'invalid' };
        if (checked.kind === 'expired') return { kind: 'expired' };
        const post = await store.posts.getById(checked.postId);
        if (!post || post.deletedAt) return { kind: 'deleted' };
        if (post.status === 'published') return { kind: 'published', slug: post.slug };
        return { kind: 'post', preview: previewOf(post), expiresAt: checked.expiresAt.toISOString() };
      },
    },

    editor: postEditor({ store: store.posts, posts: postService, actor: () => staffActor(signedIn().staff.email, client.ip), authorName: () => signedIn().staff.name, now }),

    async audit(limit) {
      signedIn();
      return (await store.audit.list({ limit })).reverse();
    },

    keys: {
      async list() {
        signedIn();
        const keys = await keyService.details();
        return Promise.all(
          keys.map(async (key) => {
            const [latest] = deps.requestLog && key.lastUsedAt ? await deps.requestLog.find({ keyId: key.id, limit: 1 }).catch(() => []) : [];
            return { ...key, lastClient: latest?.client ?? null };
          }),
        );
      },
      async get(id) {
        signedIn();
        const key = (await keyService.details()).find((candidate) => candidate.id === id);
        return key ? { ...key, lastClient: null } : null;
      },
      async create(input) {
        signedIn();
        try {
          const { ghost, ...fields } = input;
          const created = ghost ? await keyService.createGhost(fields, async (id) => ghostSecret(await store.audit.pseudonymKey(), id)) : await keyService.create(fields);
          await record('key.created', created.key.id, { name: created.key.name, owner: created.key.owner, permissions: created.key.permissions.join(' '), ...(ghost ? { kind: 'ghost' } : {}) });
          return { ok: true, key: created.key, secret: created.secret };
        } catch (error) {
          if (error instanceof KeyError) return { ok: false, message: error.message };
          throw error;
        }
      },
      async revoke(id, reason) {
        const viewer = signedIn();
        const why = reason.trim();
        if (!why) return { ok: false, message: 'Write why the key is revoked (for example "laptop lost" or "integration retired"): the audit log keeps the reason.' };
        if (why.length > STAFF_REASON_MAX) return { ok: false, message: `A reason can be at most ${STAFF_REASON_MAX} characters: shorten it.` };
        try {
          const result = await keyService.revoke(id, { by: `staff:${viewer.staff.email}`, reason: why });
          if (!result.alreadyRevoked) await record('key.revoked', result.key.id, { name: result.key.name, reason: why });
          return { ok: true, key: { ...result.key, lastClient: null }, alreadyRevoked: result.alreadyRevoked };
        } catch (error) {
          if (error instanceof KeyError) return { ok: false, message: error.message };
          throw error;
        }
      },
    },

    async analytics() {
      signedIn();
      await deps.services.analytics?.flush();
      return analyticsReport(store.analytics, store.leads, now());
    },

    async analyticsCsv() {
      signedIn();
      await deps.services.analytics?.flush();
      return analyticsCsv(await analyticsReport(store.analytics, store.leads, now()));
    },
  };
}
