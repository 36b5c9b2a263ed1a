// The rules of the answer and the site, run on every page (the table is in checks.ts).
import type { PageInput, Problem } from './report.ts';
import { blocksIndexing } from './robots.ts';

export function httpStatus(input: PageInput): Problem {
  if (input.status < 400) return null;
  return {
    severity: 'error',
    message: `The page answered HTTP ${input.status}.`,
    fix: 'Serve the page with status 200 (or remove links to it).',
  };
}

export function redirects(input: PageInput): Problem {
  const hops = input.redirects.length;
  if (hops > 1) {
    return {
      severity: 'warning',
      message: `The URL goes through ${hops} redirects before the page.`,
      fix: 'Link straight to the final URL and collapse the chain into one 301.',
    };
  }
  if (input.redirects.some((r) => r.status === 302 || r.status === 307)) {
    return {
      severity: 'notice',
      message: 'The URL is moved with a temporary redirect (302/307).',
      fix: 'Use a 301 (or 308) for a permanent move so search engines transfer the ranking.',
    };
  }
  return null;
}

export function https(input: PageInput): Problem {
  if (new URL(input.finalUrl).protocol === 'https:') return null;
  return {
    severity: 'error',
    message: 'The page is not served over HTTPS.',
    fix: 'Serve the site over HTTPS and redirect http:// to https:// with a 301.',
  };
}

export function xRobotsTag(input: PageInput): Problem {
  const header = input.headers['x-robots-tag'] ?? '';
  if (!blocksIndexing(header)) return null;
  return {
    severity: 'error',
    message: `The X-Robots-Tag header says "${header}".`,
    fix: 'Remove noindex from the X-Robots-Tag header of pages that should rank.',
  };
}

export function robotsTxt(input: PageInput): Problem {
  switch (input.robots) {
    case 'disallowed':
      return {
        severity: 'error',
        message: 'robots.txt disallows this URL for search engines.',
        fix: 'Remove or narrow the Disallow rule in robots.txt that matches this path.',
      };
    case 'missing':
      return {
        severity: 'notice',
        message: 'The site has no robots.txt.',
        fix: 'Add /robots.txt with a Sitemap: line.',
      };
    case 'unreachable':
      return {
        severity: 'warning',
        message: 'robots.txt could not be fetched.',
        fix: 'Make /robots.txt answer 200 (or 404); errors make crawlers back off.',
      };
    case 'allowed':
      return null;
  }
}

export function sitemap(input: PageInput): Problem {
  if (input.sitemap.found) return null;
  return {
    severity: 'warning',
    message: 'No XML sitemap was found (robots.txt Sitemap: or /sitemap.xml).',
    fix: 'Publish an XML sitemap and name it in robots.txt with a Sitemap: line.',
  };
}
