/**
 * The server-side operations the `blogpost` CLI runs on a data directory, in one place: the CLI
 * imports nothing else of api/ (the import zones say so). Keys, demo content, the store's health, the
 * request log, the Markdown post format (both ways), staff accounts and the audit log all come through here.
 */
import type * as PostMarkdown from './authoring/post-markdown';

export { detectPostFileKind, parsePostFile, type PostFile, PostFileError, type PostFileKind, setFrontMatterFields, setFrontMatterId } from './authoring/post-file';
/** The Markdown post format from a stored post (`blogpost get --markdown`), loaded when asked for: turndown and its HTML parser are large. */
export const loadPostMarkdown = (): Promise<typeof PostMarkdown> => import('./authoring/post-markdown');
export { DemoContentError, seedDemoPosts } from './seed/demo-posts';
export { hashApiKey, type KeyDetails, KeyError, KeyService } from './services/keys';
export { openFileRequestLogReader as openRequestLogReader } from './request-log/file-reader';
export type { RequestLogEntry, RequestLogQuery, RequestLogReader, StatusFilter } from './request-log/request-log';
export { checkDataDir, type DataDirCheck, openFileStore, openKeyStore, restoreCommand } from './store/file-store';
export { resolveDataDir } from './store/data-dir';
export type { KeyRepository, QuarantinedFile } from './store/store';
export { StoreError } from './store/store-error';
// `blogpost leads`: the quote requests and their notifications, beside a running server.
export { openLeadStore } from './store/file-store';
export type { LeadQuery, LeadRepository, OutboxRepository } from './store/store';
// `blogpost staff` and `blogpost audit`: staff accounts, their sessions and the audit log, beside a running server.
export { openAuditLog, openStaffStore, type StaffStore } from './store/file-store';
export { StaffError, StaffService, type StaffSummary } from './staff/staff-service';
export type { AuditQuery, AuditRead, FileAuditLog } from './store/file/audit-file';
export { leadsCsv, notificationSummary, yesNo } from './services/lead-export';
// `blogpost export` and `blogpost import`: a whole store as one file, between the file store and PostgreSQL.
export { describeLocation, openStore, type StoreLocation, storeLocation } from './store/open-store';
export { redactedUrl } from './store/pg/redacted-url';
export { exportStore, importStore, type TransferCounts, TransferError } from './store/transfer';
