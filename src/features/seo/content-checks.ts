// The rules of a page's content: headings, images, links, text (the table is in checks.ts).
import { SEO_LIMITS } from './limits.ts';
import type { PageFacts } from './page-facts.ts';
import type { Problem } from './report.ts';

export function h1(page: PageFacts): Problem {
  if (page.h1Count === 0) {
    return {
      severity: 'error',
      message: 'The page has no <h1>.',
      fix: 'Add one <h1> that states what the page is about.',
    };
  }
  if (page.h1Count > 1) {
    return {
      severity: 'warning',
      message: `The page has ${page.h1Count} <h1> elements.`,
      fix: 'Keep exactly one <h1>; use <h2>–<h6> below it.',
    };
  }
  if (!page.h1Text) {
    return {
      severity: 'error',
      message: 'The <h1> is empty.',
      fix: "Put the page's main heading text in the <h1>.",
    };
  }
  return null;
}

export function headingOrder(page: PageFacts): Problem {
  const levels = page.headingLevels;
  const skip = levels.findIndex((level, i) => i > 0 && level > (levels[i - 1] ?? 0) + 1);
  if (skip <= 0) return null;
  return {
    severity: 'warning',
    message: `Heading levels skip from h${levels[skip - 1]} to h${levels[skip]}.`,
    fix: 'Nest headings one level at a time (h2 under h1, h3 under h2).',
  };
}

export function imgAlt(page: PageFacts): Problem {
  if (page.images.withoutAlt === 0) return null;
  return {
    severity: 'warning',
    message: `${page.images.withoutAlt} of ${page.images.total} images have no alt attribute.`,
    fix: 'Give every <img> an alt text (alt="" for purely decorative images).',
  };
}

export function linkText(page: PageFacts): Problem {
  if (page.genericLinks === 0) return null;
  return {
    severity: 'warning',
    message: `${page.genericLinks} links have generic text such as "click here" or "read more".`,
    fix: 'Use link text that says where the link goes.',
  };
}

export function linkHref(page: PageFacts): Problem {
  if (page.linksWithoutHref === 0) return null;
  return {
    severity: 'warning',
    message: `${page.linksWithoutHref} links have no real href (missing, "#" or javascript:).`,
    fix: 'Give links a crawlable href, or use <button> for actions.',
  };
}

export function wordCount(page: PageFacts): Problem {
  if (page.wordCount >= SEO_LIMITS.minWords) return null;
  return {
    severity: 'warning',
    message: `The page has ${page.wordCount} words of text.`,
    fix: `Write at least ${SEO_LIMITS.minWords} words of useful content; thin pages rank poorly.`,
  };
}

export function linkCount(page: PageFacts): Problem {
  if (page.links.total > SEO_LIMITS.maxLinks) {
    return {
      severity: 'warning',
      message: `The page has ${page.links.total} links.`,
      fix: `Keep under ${SEO_LIMITS.maxLinks} links so each one carries weight.`,
    };
  }
  if (page.links.internal === 0) {
    return {
      severity: 'warning',
      message: 'The page links to no other page of the site.',
      fix: 'Link to related pages of the site so crawlers and visitors can go on.',
    };
  }
  return null;
}
