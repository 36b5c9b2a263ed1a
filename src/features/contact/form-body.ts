import type { Context } from 'hono';
import { isJsonContentType, mediaType } from '../../http/body.ts';
import type { AppEnv } from '../../http/env.ts';
import { ApiError } from '../../http/errors.ts';

const UNSUPPORTED =
  'Send the form as application/json, application/x-www-form-urlencoded or multipart/form-data.';

/**
 * The submitted fields, from a JSON object or a form (urlencoded or multipart; a name given twice
 * counts once, its first value). Files are refused (415): the contact form takes none. A browser's
 * empty file input (no name, no bytes) is not a file. The body is within the service's 1 MiB limit.
 */
export async function readContactFields(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const contentType = c.req.header('content-type');
  if (isJsonContentType(contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await c.req.text());
    } catch {
      throw new ApiError('VALIDATION_ERROR', 'The request body is not valid JSON.');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ApiError('VALIDATION_ERROR', 'The request body must be a JSON object.');
    }
    return parsed as Record<string, unknown>;
  }
  const type = mediaType(contentType);
  if (type === 'application/x-www-form-urlencoded') {
    return firstValues(new URLSearchParams(await c.req.text()));
  }
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await c.req.raw.formData();
    } catch {
      throw new ApiError('VALIDATION_ERROR', 'The multipart body could not be read.');
    }
    const fields: [string, string][] = [];
    for (const [name, value] of form) {
      if (typeof value === 'string') fields.push([name, value]);
      else if (value.size > 0 || value.name !== '') {
        throw new ApiError(
          'UNSUPPORTED_MEDIA_TYPE',
          `${name}: the contact form takes no files; send its fields only.`,
        );
      }
    }
    return firstValues(fields);
  }
  throw new ApiError('UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED);
}

function firstValues(entries: Iterable<[string, string]>): Record<string, string> {
  // No prototype: a field named `__proto__` is a field like any other.
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of entries) if (!Object.hasOwn(fields, name)) fields[name] = value;
  return fields;
}
