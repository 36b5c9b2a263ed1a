// The rules of what a page declares about itself in its markup (the table is in checks.ts).
import { SEO_LIMITS } from './limits.ts';
import type { PageFacts } from './page-facts.ts';
import type { Problem } from './report.ts';
import { blocksIndexing } from './robots.ts';

export function metaRobots(page: PageFacts): Problem {
  if (blocksIndexing(page.robotsMeta)) {
    return {
      severity: 'error',
      message: `The robots meta tag says "${page.robotsMeta}".`,
      fix: 'Remove noindex from <meta name="robots"> on pages that should rank.',
    };
  }
  if (/nofollow/i.test(page.robotsMeta)) {
    return {
      severity: 'warning',
      message: 'The robots meta tag says nofollow.',
      fix: 'Drop nofollow so the page passes ranking to the pages it links.',
    };
  }
  return null;
}

export function title(page: PageFacts): Problem {
  const { min, max } = SEO_LIMITS.title;
  if (!page.title) {
    return {
      severity: 'error',
      message: 'The page has no title.',
      fix: 'Add a <title> of 30–60 characters naming the page and the brand.',
    };
  }
  if (page.titleCount > 1) {
    return {
      severity: 'warning',
      message: `The page has ${page.titleCount} <title> elements.`,
      fix: 'Keep exactly one <title> in <head>.',
    };
  }
  if (page.title.length < min || page.title.length > max) {
    return {
      severity: 'warning',
      message: `The title is ${page.title.length} characters long.`,
      fix: `Write a title of ${min}–${max} characters so it is not cut off or too vague.`,
    };
  }
  return null;
}

export function metaDescription(page: PageFacts): Problem {
  const { min, max } = SEO_LIMITS.description;
  if (!page.description) {
    return {
      severity: 'error',
      message: 'The page has no meta description.',
      fix: `Add <meta name="description"> of ${min}–${max} characters summarising the page.`,
    };
  }
  if (page.descriptionCount > 1) {
    return {
      severity: 'warning',
      message: `The page has ${page.descriptionCount} meta descriptions.`,
      fix: 'Keep exactly one meta description.',
    };
  }
  if (page.description.length < min || page.description.length > max) {
    return {
      severity: 'warning',
      message: `The meta description is ${page.description.length} characters long.`,
      fix: `Write ${min}–${max} characters so search results show it whole.`,
    };
  }
  return null;
}

export function canonical(page: PageFacts): Problem {
  if (page.canonicalCount === 0) {
    return {
      severity: 'warning',
      message: 'The page has no canonical link.',
      fix: 'Add <link rel="canonical" href="https://…"> with the page\'s absolute preferred URL.',
    };
  }
  if (page.canonicalCount > 1) {
    return {
      severity: 'error',
      message: `The page has ${page.canonicalCount} canonical links.`,
      fix: 'Keep exactly one rel="canonical"; search engines ignore conflicting ones.',
    };
  }
  const href = page.canonicalHref;
  if (!/^https?:\/\//i.test(href)) {
    return {
      severity: 'warning',
      message: `The canonical URL "${href}" is not absolute.`,
      fix: 'Write the canonical as an absolute URL with scheme and host.',
    };
  }
  let target: URL;
  try {
    target = new URL(href);
  } catch {
    return {
      severity: 'error',
      message: 'The canonical URL is invalid.',
      fix: 'Point rel="canonical" to a valid absolute URL.',
    };
  }
  if (target.pathname === '/' && page.pathname !== '/' && !target.search) {
    return {
      severity: 'error',
      message: 'The canonical of this inner page points to the home page.',
      fix: "Point the canonical to this page's own URL, not the site root.",
    };
  }
  return null;
}

export function hreflang(page: PageFacts): Problem {
  const { count, invalid, relative } = page.hreflang;
  if (count === 0) return null;
  if (invalid.length > 0) {
    return {
      severity: 'error',
      message: `Invalid hreflang value(s): ${invalid.slice(0, 5).join(', ')}.`,
      fix: 'Use ISO 639-1 language codes, optionally with an ISO 3166-1 region (en, en-GB), or x-default.',
    };
  }
  if (relative > 0) {
    return {
      severity: 'warning',
      message: `${relative} hreflang links are not absolute URLs.`,
      fix: 'Give every hreflang alternate an absolute URL.',
    };
  }
  return null;
}

export function htmlLang(page: PageFacts): Problem {
  if (page.lang) return null;
  return {
    severity: 'warning',
    message: 'The <html> element has no lang attribute.',
    fix: 'Declare the language, e.g. <html lang="en">.',
  };
}

export function viewport(page: PageFacts): Problem {
  if (page.viewport) return null;
  return {
    severity: 'error',
    message: 'The page has no viewport meta tag (not mobile-friendly).',
    fix: 'Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
  };
}

export function charset(page: PageFacts): Problem {
  if (page.charsetDeclared) return null;
  return {
    severity: 'warning',
    message: 'No character encoding is declared.',
    fix: 'Add <meta charset="utf-8"> as the first element of <head>.',
  };
}

export function openGraph(page: PageFacts): Problem {
  if (page.missingOpenGraph.length === 0) return null;
  return {
    severity: 'warning',
    message: `Open Graph tags missing: ${page.missingOpenGraph.join(', ')}.`,
    fix: 'Add the missing og: meta tags so shared links show a title, text and image.',
  };
}

export function twitterCard(page: PageFacts): Problem {
  if (page.twitterCard) return null;
  return {
    severity: 'notice',
    message: 'No twitter:card meta tag.',
    fix: 'Add <meta name="twitter:card" content="summary_large_image">.',
  };
}

export function structuredData(page: PageFacts): Problem {
  if (page.jsonLd.length === 0) {
    return {
      severity: 'notice',
      message: 'The page has no JSON-LD structured data.',
      fix: 'Describe the page with schema.org JSON-LD (Organization, Article, Product…).',
    };
  }
  for (const [i, block] of page.jsonLd.entries()) {
    let data: unknown;
    try {
      data = JSON.parse(block);
    } catch {
      return {
        severity: 'error',
        message: `JSON-LD block ${i + 1} is not valid JSON.`,
        fix: 'Fix the JSON syntax of the structured data block.',
      };
    }
    const items = (Array.isArray(data) ? data : [data]) as Record<string, unknown>[];
    for (const item of items) {
      const graph = Array.isArray(item?.['@graph']) ? (item['@graph'] as Record<string, unknown>[]) : null;
      const typed = graph ? graph.every((g) => g?.['@type']) : Boolean(item?.['@type']);
      if (!item?.['@context'] || !typed) {
        return {
          severity: 'error',
          message: `JSON-LD block ${i + 1} lacks @context or @type.`,
          fix: 'Give each structured data item "@context": "https://schema.org" and an "@type".',
        };
      }
    }
  }
  return null;
}

export function favicon(page: PageFacts): Problem {
  if (page.favicon) return null;
  return {
    severity: 'notice',
    message: 'The page declares no favicon.',
    fix: 'Add <link rel="icon" href="/favicon.svg"> (and a 180×180 apple-touch-icon).',
  };
}
