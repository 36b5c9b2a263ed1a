import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeServices, loadConfig, secretValues } from './config.ts';

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration', () => {
  it('has the defaults of contract.md', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8787);
    expect(config.host).toBe('0.0.0.0');
    expect(config.databaseUrl).toBe('sqlite:./data/app.db');
    expect(config.publicBaseUrl).toBe('http://localhost:8787');
    expect(config.siteOrigin).toBe('http://localhost:5173');
    expect(config.wwwSiteOrigin).toBeNull();
    expect(config.wizardUrl).toBe('http://localhost:5173/wizard');
    expect(config.ai).toBeNull();
    expect(config.captcha).toEqual({
      secret: undefined,
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      minScore: 0.5,
    });
    expect(config.pipedrive.apiUrl).toBe('https://api.pipedrive.com');
    expect(config.postsCacheTtlSeconds).toBe(300);
    expect(config.prototypes.monthlyLimit).toBe(2);
    expect(config.filters).toEqual({ spam: true, vendor: true });
    expect(config.trustProxy).toBe('none');
    expect(config.fetchAllowHosts).toEqual([]);
    expect(config.corsOrigins).toEqual(['http://localhost:5173', 'http://localhost:3000']);
  });

  it('derives the www origin and the CORS allowlist from SITE_ORIGIN', () => {
    const config = loadConfig({ SITE_ORIGIN: 'https://agency.example', PORT: '9000' });
    expect(config.wwwSiteOrigin).toBe('https://www.agency.example');
    expect(config.corsOrigins).toEqual([
      'https://agency.example',
      'https://www.agency.example',
      'http://localhost:5173',
      'http://localhost:3000',
    ]);
    expect(config.wizardUrl).toBe('https://agency.example/wizard');
    expect(config.publicBaseUrl).toBe('http://localhost:9000');
  });

  it('disables a filter only for the exact string false', () => {
    expect(loadConfig({ SPAM_FILTER_ENABLED: 'false' }).filters.spam).toBe(false);
    expect(loadConfig({ SPAM_FILTER_ENABLED: 'no' }).filters.spam).toBe(true);
    expect(loadConfig({ VENDOR_FILTER_ENABLED: 'false' }).filters.vendor).toBe(false);
  });

  it.each([
    [{ ADMIN_API_SECRET: 'same', CHAT_API_SECRET: 'same' }, 'ADMIN_API_SECRET'],
    [{ CACHE_API_SECRET: 'same', CHAT_API_SECRET: 'same' }, 'CACHE_API_SECRET'],
    [{ METRICS_API_SECRET: 'same', CHAT_API_SECRET: 'same' }, 'METRICS_API_SECRET'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ AI_BASE_URL: 'not a url', AI_MODEL: 'm' }, 'AI_BASE_URL'],
    [{ AI_BASE_URL: 'http://llm.local/v1' }, 'AI_MODEL'],
    [{ SALES_AGENT_WS_URL: 'http://agent' }, 'SALES_AGENT_WS_URL'],
    [{ CAPTCHA_MIN_SCORE: '2' }, 'CAPTCHA_MIN_SCORE'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
    [{ PROTOTYPE_GENERATOR: 'gpt' }, 'PROTOTYPE_GENERATOR'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SUPPORT_EMAIL: 'nope' }, 'SUPPORT_EMAIL'],
    [{ SUPPORT_EMAIL: 'support@' }, 'SUPPORT_EMAIL'],
    [{ MAIL_FROM: 'not-an-email' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'Agency <not-an-email>' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'Agency hello@agency.example' }, 'MAIL_FROM'],
    [{ CRM_BCC_EMAIL: 'nope' }, 'CRM_BCC_EMAIL'],
    [{ SMTP_URL: 'smtp://mailer:50%off@smtp.example:587' }, 'SMTP_URL'],
    [{ FETCH_ALLOW_HOSTS: 'http://x/' }, 'FETCH_ALLOW_HOSTS'],
    [{ FETCH_ALLOW_HOSTS: 'ok.test, localhost:8080' }, 'FETCH_ALLOW_HOSTS'],
    [{ FETCH_ALLOW_HOSTS: 'intranet/path' }, 'FETCH_ALLOW_HOSTS'],
    [{ NODE_ENV: 'production' }, 'CAPTCHA_SECRET'],
    // fetch() cannot send credentials written into a URL: such a service is never reached.
    [{ WORDPRESS_API_URL: 'http://wpuser:wppass-xyz@wp.example/wp-json/wp/v2' }, 'WORDPRESS_API_URL'],
    [{ PIPEDRIVE_API_URL: 'https://token@api.pipedrive.example' }, 'PIPEDRIVE_API_URL'],
    [{ AI_BASE_URL: 'https://k:s@llm.example/v1', AI_MODEL: 'm' }, 'AI_BASE_URL'],
  ])('refuses %o naming %s', (env, variable) => {
    const error = refusal(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(variable)).toBe(true);
  });

  it('names a service URL with credentials without its password', () => {
    const error = refusal({ WORDPRESS_API_URL: 'http://wpuser:wppass-xyz@wp.example/wp-json/wp/v2' });
    expect(error.message).toMatch(/must not hold a user name or password/);
    expect(error.message).not.toContain('wppass-xyz');
  });

  it('names SMTP_URL without its password when refusing a bare %', () => {
    const error = refusal({ SMTP_URL: 'smtp://mailer:50%off@smtp.example:587' });
    expect(error.message).not.toContain('50%off');
  });

  it('reads an SMTP_URL password that is percent-encoded (a bare % is refused above)', () => {
    const config = loadConfig({ SMTP_URL: 'smtp://mailer:50%25off@smtp.example:587' });
    expect(secretValues(config)).toContain('50%off');
  });

  it('treats an empty or blank enum-like variable as unset', () => {
    const config = loadConfig({ TRUST_PROXY: '', PROTOTYPE_GENERATOR: ' ', LOG_LEVEL: '' });
    expect(config.trustProxy).toBe('none');
    expect(config.prototypes.generator).toBe('builtin');
    expect(config.logLevel).toBe('info');
    expect(loadConfig({ TRUST_PROXY: 'cloudflare', LOG_LEVEL: 'debug' })).toMatchObject({
      trustProxy: 'cloudflare',
      logLevel: 'debug',
    });
  });

  it('accepts e-mail addresses, and MAIL_FROM also as Name <address>', () => {
    const mail = loadConfig({
      MAIL_FROM: 'Agency <hello@agency.example>',
      SUPPORT_EMAIL: 'support@localhost',
      CRM_BCC_EMAIL: 'crm+bcc@agency.example',
    }).mail;
    expect(mail).toMatchObject({
      from: 'Agency <hello@agency.example>',
      supportEmail: 'support@localhost',
      crmBccEmail: 'crm+bcc@agency.example',
    });
    expect(loadConfig({ MAIL_FROM: 'hello@agency.example' }).mail.from).toBe('hello@agency.example');
    expect(loadConfig({ MAIL_FROM: '"Agency, Inc." <hello@agency.example>' }).mail.from).toBe(
      '"Agency, Inc." <hello@agency.example>',
    );
    expect(loadConfig({ SUPPORT_EMAIL: '', CRM_BCC_EMAIL: '' }).mail).toMatchObject({
      supportEmail: 'support@localhost',
      crmBccEmail: undefined,
    });
  });

  it('accepts host names and IP literals in FETCH_ALLOW_HOSTS', () => {
    expect(
      loadConfig({ FETCH_ALLOW_HOSTS: ' 127.0.0.1, Intranet.Example , my_service, ::1, [fd00::1], ' })
        .fetchAllowHosts,
    ).toEqual(['127.0.0.1', 'intranet.example', 'my_service', '::1', '[fd00::1]']);
  });

  it('lets production run without CAPTCHA only when CAPTCHA_DISABLED=true', () => {
    expect(loadConfig({ NODE_ENV: 'production', CAPTCHA_DISABLED: 'true' }).captcha.secret).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'production', CAPTCHA_SECRET: 's' }).captcha.secret).toBe('s');
  });

  it('makes the personal-data listings private in production unless PUBLIC_PERSONAL_DATA_LISTS=true, and says so', () => {
    const production = { NODE_ENV: 'production', CAPTCHA_DISABLED: 'true' };
    const lists = (env: Record<string, string>) => loadConfig(env).privacy.personalDataLists;
    expect(lists({})).toBe('public');
    expect(lists(production)).toBe('admin');
    expect(lists({ ...production, PUBLIC_PERSONAL_DATA_LISTS: 'true' })).toBe('public');
    expect(lists({ PUBLIC_PERSONAL_DATA_LISTS: 'false' })).toBe('admin');
    expect(refusal({ PUBLIC_PERSONAL_DATA_LISTS: 'yes' }).variable).toBe('PUBLIC_PERSONAL_DATA_LISTS');
    expect(describeServices(loadConfig(production)).personalDataLists).toMatch(/^need X-Admin-Api-Key/);
    expect(describeServices(loadConfig({})).personalDataLists).toMatch(/^open to anyone/);
  });

  it('reads the retention periods with their defaults; the audit secret is a secret apart from the chat one', () => {
    expect(loadConfig({}).privacy.retentionDays).toEqual({
      spam: 30,
      mail: 90,
      chat: 180,
      tickets: 730,
      messages: 730,
      leads: 0,
    });
    expect(loadConfig({ RETENTION_CHAT_DAYS: '7' }).privacy.retentionDays.chat).toBe(7);
    expect(refusal({ RETENTION_MAIL_DAYS: '-1' }).variable).toBe('RETENTION_MAIL_DAYS');
    expect(refusal({ RETENTION_SPAM_DAYS: '36501' }).variable).toBe('RETENTION_SPAM_DAYS');
    expect(refusal({ CHAT_API_SECRET: 'same', PRIVACY_AUDIT_SECRET: 'same' }).variable).toBe(
      'PRIVACY_AUDIT_SECRET',
    );
    expect(secretValues(loadConfig({ PRIVACY_AUDIT_SECRET: 'audit-key' }))).toContain('audit-key');
  });

  it('exits non-zero with one line naming the variable', () => {
    const result = spawnSync(process.execPath, ['src/main.js'], {
      env: { PATH: process.env.PATH, ADMIN_API_SECRET: 'x', CHAT_API_SECRET: 'x' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ADMIN_API_SECRET');
    expect(result.stderr).not.toContain('x x');
  });
});

describe('README configuration table', () => {
  it('matches the config schema', async () => {
    const { readFile } = await import('node:fs/promises');
    const { configurationTable } = await import('./config.ts');
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const section = /<!-- config-table:start[^>]*-->\n([\s\S]*?)\n<!-- config-table:end -->/.exec(
      readme,
    )?.[1];
    // Cells compared trimmed: the formatter pads Markdown tables.
    const cells = (table: string) =>
      table.split('\n').map((row) => row.split('|').map((cell) => cell.trim().replace(/^-+$/, '---')));
    expect(cells(section ?? ''), 'run `npm run config:table` and paste its output into README.md').toEqual(
      cells(configurationTable()),
    );
  });
});
