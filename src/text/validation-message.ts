import type { ZodError } from 'zod';

/** A readable one-line summary of a validation failure: `personal.email_address: Invalid email`. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is invalid.';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  return `${describeIssue(issue)}${more}`;
}

/** One validation issue as a sentence naming the field: zod's own wording about types rephrased. */
export function describeIssue(issue: ZodError['issues'][number]): string {
  const name = issue.path.join('.');
  // "Invalid input: expected object, received array" → "fields must be an object."
  const wrongType = /^Invalid input: expected (\w+), received (\w+)$/.exec(issue.message);
  if (wrongType) {
    const subject = name === '' ? 'The request body' : name;
    const expected = TYPE_NAMES[wrongType[1]!] ?? wrongType[1]!;
    return `${subject} ${wrongType[2] === 'undefined' ? 'is required and must be' : 'must be'} ${expected}.`;
  }
  if (name === '' || issue.message.startsWith(name)) return issue.message;
  return `${name}: ${issue.message}`;
}

const TYPE_NAMES: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};
