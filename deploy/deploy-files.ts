/**
 * Readers of the deployment files for the tests beside them (Docker cannot run on the development
 * machines): the Dockerfile's stages, `.env.example`, compose.yaml's app environment, and which files of
 * the checkout the image's COPY lines take past `.dockerignore`.
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { parse as parseYaml } from 'yaml';

export const ROOT = new URL('../', import.meta.url).pathname;
export const read = (file: string) => readFileSync(ROOT + file, 'utf8');

export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** The Dockerfile's stages, continuation lines joined and comments dropped. */
export function dockerfileStages(text = read('Dockerfile')): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    const continued = /\\\s*$/.test(line);
    pending += `${line.replace(/\\\s*$/, '')} `;
    if (!continued) {
      if (pending.trim()) logical.push(pending.trim().replace(/\s+/g, ' '));
      pending = '';
    }
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(' ');
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const [from = '', , name] = args.replace(/--platform=\S+\s*/, '').split(' ');
      stages.push({ from, name, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** The image's environment: every `ENV` of the final stage (`K=V` pairs, double quotes allowed). */
export function imageEnvironment(stage = dockerfileStages().at(-1)!): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== 'ENV') continue;
    for (const [, name = '', quoted, bare] of args.matchAll(
      /([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|(\S*))/g,
    )) {
      env[name] = quoted ?? bare ?? '';
    }
  }
  return env;
}

/**
 * The exec-form command of a CMD, ENTRYPOINT or HEALTHCHECK instruction (`CMD ["node", "dist/main.js"]`,
 * `--interval=15s CMD ["node", …]`), as an argument list.
 */
export function execForm({ args }: Instruction): string[] {
  return JSON.parse(args.slice(args.indexOf('['))) as string[];
}

/** What `.env.example` sets (commented lines are not set). */
export function envExample(text = read('.env.example')): Record<string, string> {
  return parseEnv(text) as Record<string, string>;
}

/** Every variable `.env.example` names, set or commented out (`# NAME=…`). */
export function envExampleNames(text = read('.env.example')): string[] {
  return [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
}

type ComposeService = {
  build?: unknown;
  env_file?: (string | { path: string; required?: boolean })[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: unknown;
};
export type ComposeFile = { services: Record<string, ComposeService> };

export function composeFile(text = read('compose.yaml')): ComposeFile {
  return parseYaml(text) as ComposeFile;
}

/** The services built from this repository's Dockerfile. */
export function appServices(compose = composeFile()): [string, ComposeService][] {
  return Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
}

/**
 * Compose's interpolation of `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?error}` and
 * `${NAME?error}` (and `$$`), from `.env`'s values as compose reads them. Throws compose's refusal.
 */
export function interpolate(value: string, variables: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, name?: string, colon?: string, operator?: string, word?: string, bareName?: string) => {
      if (whole === '$$') return '$';
      const key = (name ?? bareName)!;
      const value = variables[key];
      const missing = value === undefined || (colon === ':' && value === '');
      if (!missing) return value;
      if (operator === '?') throw new Error(`required variable ${key} is missing a value: ${word}`);
      return operator === '-' ? (word ?? '') : '';
    },
  );
}

/** Every variable compose.yaml interpolates. */
export function composeVariables(text = read('compose.yaml')): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!))];
}

/** An app service's `environment`, interpolated with the variables of `.env`. */
export function serviceEnvironment(
  service: ComposeService,
  dotEnv: Record<string, string>,
): Record<string, string> {
  const entries = Array.isArray(service.environment)
    ? service.environment.map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1)] as const;
      })
    : Object.entries(service.environment ?? {}).map(([k, v]) => [k, String(v ?? '')] as const);
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(v, dotEnv)]));
}

/** `.dockerignore`'s rules, read as Docker does: last match wins, `!` re-includes, a folder covers its files. */
export function dockerignore(text = read('.dockerignore')): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = (negated ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
      return { negated, regex: globToRegex(pattern) };
    });
  return (path) => {
    const prefixes = path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) {
      if (prefixes.some((prefix) => rule.regex.test(prefix))) excluded = !rule.negated;
    }
    return excluded;
  };
}

function globToRegex(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      // `**/` is any number of folders (none included); a trailing `**` is anything.
      source += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * The files the final stage's COPY lines take from the build context (`files`: the checkout's paths),
 * as paths inside the image's WORKDIR (`COPY src ./src` keeps `src/…`).
 */
export function imageFiles(files: string[], stage = dockerfileStages().at(-1)!): string[] {
  const ignored = dockerignore();
  const copied = new Set<string>();
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== 'COPY' || /--from=/.test(args)) continue;
    const parts = args.split(' ').filter((part) => !part.startsWith('--'));
    const destination = parts.pop()!.replace(/^\.\//, '').replace(/\/$/, '');
    for (const source of parts) {
      for (const file of files) {
        if (ignored(file)) continue;
        if (file === source) copied.add(destination === '.' || destination === '' ? file : destination);
        else if (file.startsWith(`${source}/`))
          copied.add(`${destination}/${file.slice(source.length + 1)}`.replace(/^\.\//, ''));
      }
    }
  }
  return [...copied].sort();
}
