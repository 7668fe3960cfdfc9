/**
 * The server-side operations the `blogpost` CLI runs on a store, in one place: the CLI imports nothing
 * else of api/ (the import zones say so). Keys, demo content, the database's health and backups, the
 * request log, the Markdown post format (both ways), staff accounts and the audit log all come through here.
 */
import type * as PostMarkdown from './authoring/post-markdown';
import type * as Maintenance from './store/sql/maintenance';
import type * as ServerEnv from './server-env';
import type * as WordPressImport from './import/wordpress/run';

export { detectPostFileKind, parsePostFile, type PostFile, PostFileError, type PostFileKind, publishKeyOf, setFrontMatterFields, setFrontMatterId, withoutPublishTime } from './authoring/post-file';
export { complianceSubject, offlineFindings, placeFinding, placeKey, type PostText, type SourceFinding } from './authoring/file-findings';
export { postSourceFile, sourceKey } from './authoring/markdown-source';
/** The Markdown post format from a stored post (`blogpost get --markdown`), loaded when asked for: turndown and its HTML parser are large. */
export const loadPostMarkdown = (): Promise<typeof PostMarkdown> => import('./authoring/post-markdown');
export { DemoContentError, seedDemoPosts } from './seed/demo-posts';
export { hashApiKey, type KeyDetails, KeyError, KeyService } from './services/keys';
export { ghostSecret } from './ghost/admin-key';
export { openFileRequestLogReader as openRequestLogReader } from './request-log/file-reader';
export type { RequestLogEntry, RequestLogQuery, RequestLogReader, StatusFilter } from './request-log/request-log';
export { resolveDataDir } from './store/data-dir';
export { StoreError } from './store/store-error';
// Every store command (keys, staff, leads, audit, seed, export, import) opens the whole store: the
// SQLite database in a data directory, or PostgreSQL.
export type { AuditLog, KeyRepository, LeadQuery, LeadRepository, OutboxRepository, Store } from './store/store';
export { describeLocation, openStore, type StoreLocation, storeLocation } from './store/open-store';
export { redactedUrl } from './store/redacted-url';
// `blogpost doctor` and `blogpost backup`: the database's health, and an online copy of the SQLite file.
export { databaseFileOf } from './store/data-dir';
export type { BackupResult, DatabaseHealth } from './store/sql/maintenance';
/** The database's checks and backups, loaded when `doctor` or `backup` runs (Kysely and the drivers are large). */
export const loadMaintenance = (): Promise<typeof Maintenance> => import('./store/sql/maintenance');
export { StaffError, StaffService, type StaffSummary } from './staff/staff-service';
export { leadsCsv, leadsCsvChunks, notificationSummary, yesNo } from './services/lead-export';
// `blogpost export` and `blogpost import`: a whole store as one file, between SQLite and PostgreSQL.
export { exportStore, importStore, type TransferCounts, TransferError } from './store/transfer';
export { postHistory, type PostHistory } from './services/post-history';
// `blogpost support-bundle`: what it writes passes the request log's redaction; the server's settings
// are read as the server reads them, loaded when asked for (server-env.ts reaches the API app's defaults).
export { redact, redactSecretsAndEmails } from './request-log/redact';
export const loadServerEnv = (): Promise<typeof ServerEnv> => import('./server-env');
// `blogpost archive verify|export`: the advertising archive (decision 0028), read through the seam.
export { type ArchiveRecord, type ChainVerdict, DEFAULT_ARCHIVE_RETENTION_YEARS, retentionCutoff, verifyChain } from './store/archive';
export { archiveExportZip, type ArchiveExportQuery } from './services/archive-export';
// `blogpost import-wordpress`: a WordPress export into the store (decision 0029), loaded when it runs.
export type { ImportProgress, ImportReport } from './import/wordpress/run';
export const loadWordPressImport = (): Promise<typeof WordPressImport> => import('./import/wordpress/run');
