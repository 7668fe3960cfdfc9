/**
 * The server's settings from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, the rate limits, the
 * quote form's limits, COMPLIANCE_MODE, MEDIA_MAX_BYTES…), each checked with an error that says what to
 * set. Kept out of main.ts, which starts the server when it is imported, so that tests read the
 * settings without starting one.
 */
import { ANALYTICS_DEFAULT_RETENTION_DAYS } from '../contract/analytics';
import { COMPLIANCE_MODES, type ComplianceMode } from '../contract/compliance';
import { type ApprovalSettings, DEFAULT_APPROVAL_SETTINGS } from './services/approvals';
import { DEFAULT_MEDIA_MAX_BYTES } from '../contract/media';
import { SiteConfigError } from '../contract/site-config-env';
import { type ApiSettings, DEFAULT_API_SETTINGS } from './http/app';
import { type CorsOrigins, parseCorsOrigins } from './http/cors';
import { parseProxyTrust, type ProxyTrust } from './http/proxy-trust';
import { DEFAULT_LEAD_INTAKE, type LeadIntakeSettings } from './services/lead-intake';
import type { ServiceSettings } from './services/services';
import { resolveDataDir } from './store/data-dir';
import { type StoreLocation, storeLocation } from './store/open-store';

export interface ServerEnv {
  port: number;
  host: string;
  /** DATA_DIR: the SQLite database and images (when DATABASE_URL is unset) and this server's request logs. */
  dataDir: string;
  /** DATABASE_URL selects PostgreSQL (several app servers on one database); else SQLite in DATA_DIR. */
  store: StoreLocation;
  /** CORS_ORIGINS: `*` (default) or a comma-separated list of origins. */
  corsOrigins: CorsOrigins;
  /** RATE_LIMIT_WRITES_PER_MINUTE: successful writes a minute per API key (default 60, 0 for no limit). */
  writesPerMinute: number;
  /** RATE_LIMIT_VALIDATIONS_PER_MINUTE: validations a minute per key or IP (default 120, 0 for no limit). */
  validationsPerMinute: number;
  /** SEED_DEMO_CONTENT: load the demo articles into an empty data directory (default true). */
  seedDemoContent: boolean;
  /** REQUEST_LOG_RETENTION_DAYS: days of request log files kept (default 14). */
  requestLogRetentionDays: number;
  /** LEAD_MIN_FILL_SECONDS and LEAD_REQUESTS_PER_HOUR: the quote form's spam and abuse limits. */
  leadIntake: LeadIntakeSettings;
  /** COMPLIANCE_MODE: warn (default), review or block. */
  complianceMode: ComplianceMode;
  /** MEDIA_MAX_BYTES: the largest image upload taken (default 10 MB, DEFAULT_MEDIA_MAX_BYTES). */
  mediaMaxBytes: number;
  /** TRUST_PROXY: off (default), a hop count or the proxies' addresses (api/http/proxy-trust.ts). */
  trustProxy: ProxyTrust;
  /** APPROVAL_VALID_MONTHS (default 12) and APPROVAL_EXPIRED (review, default, or unpublish): decision 0028. */
  approvals: ApprovalSettings;
  /** ANALYTICS_RETENTION_DAYS: raw page views kept this many days (1 or more), then rolled up (decision 0032). */
  analyticsRetentionDays: number;
}

function approvalSettings(env: NodeJS.ProcessEnv): ApprovalSettings {
  const months = env.APPROVAL_VALID_MONTHS?.trim();
  const validMonths = months ? Number(months) : DEFAULT_APPROVAL_SETTINGS.validMonths;
  if (!Number.isInteger(validMonths) || validMonths < 1 || validMonths > 120) {
    throw new SiteConfigError(`APPROVAL_VALID_MONTHS must be a whole number of months from 1 to 120, not "${months}"; leave it unset for ${DEFAULT_APPROVAL_SETTINGS.validMonths}`);
  }
  const expired = env.APPROVAL_EXPIRED?.trim().toLowerCase() || DEFAULT_APPROVAL_SETTINGS.onExpiry;
  if (expired !== 'review' && expired !== 'unpublish') {
    throw new SiteConfigError(`APPROVAL_EXPIRED must be review (a post whose approval ran out goes back to the review queue) or unpublish (it becomes a draft), not "${env.APPROVAL_EXPIRED}"`);
  }
  return { validMonths, onExpiry: expired };
}

function complianceMode(env: NodeJS.ProcessEnv): ComplianceMode {
  const text = env.COMPLIANCE_MODE?.trim().toLowerCase() || 'warn';
  const mode = COMPLIANCE_MODES.find((known) => known === text);
  if (!mode) throw new SiteConfigError(`COMPLIANCE_MODE must be one of ${COMPLIANCE_MODES.join(', ')}, not "${env.COMPLIANCE_MODE}" (docs/compliance.md says what each does)`);
  return mode;
}

/** The largest MEDIA_MAX_BYTES taken: an upload is held in memory while it is checked. */
export const MEDIA_MAX_BYTES_CEILING = 100 * 1024 * 1024;

function mediaMaxBytes(env: NodeJS.ProcessEnv): number {
  const text = env.MEDIA_MAX_BYTES?.trim();
  const value = text ? Number(text) : DEFAULT_MEDIA_MAX_BYTES;
  if (!Number.isInteger(value) || value < 1 || value > MEDIA_MAX_BYTES_CEILING) {
    throw new SiteConfigError(
      `MEDIA_MAX_BYTES must be a whole number of bytes from 1 to ${MEDIA_MAX_BYTES_CEILING} (100 MB), not "${text}"; leave it unset for the default, ${DEFAULT_MEDIA_MAX_BYTES} (10 MB)`,
    );
  }
  return value;
}

export const DEFAULT_REQUEST_LOG_RETENTION_DAYS = 14;

function retentionDays(env: NodeJS.ProcessEnv): number {
  const text = env.REQUEST_LOG_RETENTION_DAYS?.trim();
  const value = text ? Number(text) : DEFAULT_REQUEST_LOG_RETENTION_DAYS;
  if (!Number.isInteger(value) || value < 1 || value > 3650) {
    throw new SiteConfigError(`REQUEST_LOG_RETENTION_DAYS must be a whole number of days from 1 to 3650, not "${text}"`);
  }
  return value;
}

/** A whole number from the environment, 0 or more; `unit` says what it counts in the error. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, unit: string): number {
  const text = env[name]?.trim();
  const value = text ? Number(text) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new SiteConfigError(`${name} must be a whole number of ${unit}, not "${text}"`);
  return value;
}

/** A rate limit from the environment: a whole number, 0 for no limit. */
function perMinute(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return wholeNumber(env, name, fallback, 'requests a minute (0 for no limit)');
}

function analyticsRetentionDays(env: NodeJS.ProcessEnv): number {
  const days = wholeNumber(env, 'ANALYTICS_RETENTION_DAYS', ANALYTICS_DEFAULT_RETENTION_DAYS, 'days (1 or more)');
  if (days < 1) throw new SiteConfigError(`ANALYTICS_RETENTION_DAYS must be a whole number of days (1 or more), not "${env.ANALYTICS_RETENTION_DAYS?.trim()}"`);
  return days;
}

export function readServerEnv(env: NodeJS.ProcessEnv): ServerEnv {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SiteConfigError(`PORT must be a whole number from 0 to 65535, not "${env.PORT}"`);
  }
  const writesPerMinute = perMinute(env, 'RATE_LIMIT_WRITES_PER_MINUTE', DEFAULT_API_SETTINGS.writesPerMinute);
  const validationsPerMinute = perMinute(env, 'RATE_LIMIT_VALIDATIONS_PER_MINUTE', DEFAULT_API_SETTINGS.validationsPerMinute);
  return {
    port,
    host: env.HOST ?? 'localhost',
    dataDir: resolveDataDir(env),
    store: storeLocation(env),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    writesPerMinute,
    validationsPerMinute,
    seedDemoContent: !/^(0|false|no|off)$/i.test(env.SEED_DEMO_CONTENT?.trim() ?? ''),
    requestLogRetentionDays: retentionDays(env),
    leadIntake: {
      minFillMs: wholeNumber(env, 'LEAD_MIN_FILL_SECONDS', DEFAULT_LEAD_INTAKE.minFillMs / 1000, 'seconds (0 turns the check off)') * 1000,
      perHour: wholeNumber(env, 'LEAD_REQUESTS_PER_HOUR', DEFAULT_LEAD_INTAKE.perHour, 'requests an hour per address (0 for no limit)'),
    },
    complianceMode: complianceMode(env),
    mediaMaxBytes: mediaMaxBytes(env),
    trustProxy: parseProxyTrust(env.TRUST_PROXY),
    approvals: approvalSettings(env),
    analyticsRetentionDays: analyticsRetentionDays(env),
  };
}

/** The HTTP API's settings (api/http/app.ts). */
export function apiSettingsFrom(env: ServerEnv): Partial<ApiSettings> {
  return { corsOrigins: env.corsOrigins, writesPerMinute: env.writesPerMinute, validationsPerMinute: env.validationsPerMinute };
}

/** The services' settings that come from the environment (api/services/services.ts). */
export function serviceSettingsFrom(env: ServerEnv): Pick<ServiceSettings, 'complianceMode' | 'mediaMaxBytes' | 'leadIntake' | 'approvals' | 'analyticsRetentionDays'> {
  return { complianceMode: env.complianceMode, mediaMaxBytes: env.mediaMaxBytes, leadIntake: env.leadIntake, approvals: env.approvals, analyticsRetentionDays: env.analyticsRetentionDays };
}
