/**
 * Referrer sources: which host names are which search engine, social network or AI assistant. A
 * small table written by hand for this service (no maintained npm list exists: `referer-parser` is
 * a decade old), after the groups Plausible shows (its RefInspector list and its channel names).
 * A host matches an entry, or a parent domain of one (`m.facebook.com` → `facebook.com`);
 * `brands` match any country domain (`google.de`, `google.co.uk`). Anything else is reported by its
 * host name. `aliases` name the same sources as UTM tags spell them (`utm_source=fb`).
 */
export type SourceCategory = 'search' | 'social' | 'ai' | 'email' | 'referral' | 'campaign' | 'direct';

export interface SourceEntry {
  name: string;
  category: SourceCategory;
  hosts?: string[];
  brands?: string[];
  aliases?: string[];
}

export const SOURCE_TABLE: SourceEntry[] = [
  { name: 'Google', category: 'search', brands: ['google'], aliases: ['google', 'adwords', 'googleads'] },
  { name: 'Bing', category: 'search', hosts: ['bing.com', 'cn.bing.com'], aliases: ['bing'] },
  { name: 'DuckDuckGo', category: 'search', hosts: ['duckduckgo.com'], aliases: ['duckduckgo', 'ddg'] },
  { name: 'Yahoo!', category: 'search', brands: ['yahoo'], hosts: ['search.yahoo.com'], aliases: ['yahoo'] },
  { name: 'Yandex', category: 'search', brands: ['yandex'], hosts: ['ya.ru'], aliases: ['yandex'] },
  { name: 'Baidu', category: 'search', hosts: ['baidu.com'], aliases: ['baidu'] },
  { name: 'Ecosia', category: 'search', hosts: ['ecosia.org'], aliases: ['ecosia'] },
  { name: 'Brave', category: 'search', hosts: ['search.brave.com'], aliases: ['brave'] },
  { name: 'Qwant', category: 'search', hosts: ['qwant.com'], aliases: ['qwant'] },
  { name: 'Startpage', category: 'search', hosts: ['startpage.com'], aliases: ['startpage'] },
  { name: 'Naver', category: 'search', hosts: ['naver.com'], aliases: ['naver'] },
  {
    name: 'Facebook',
    category: 'social',
    hosts: ['facebook.com', 'fb.com', 'fb.me', 'messenger.com'],
    aliases: ['facebook', 'fb', 'meta'],
  },
  { name: 'Instagram', category: 'social', hosts: ['instagram.com'], aliases: ['instagram', 'ig'] },
  {
    name: 'X (Twitter)',
    category: 'social',
    hosts: ['twitter.com', 't.co', 'x.com'],
    aliases: ['twitter', 'x'],
  },
  { name: 'LinkedIn', category: 'social', hosts: ['linkedin.com', 'lnkd.in'], aliases: ['linkedin'] },
  { name: 'Reddit', category: 'social', hosts: ['reddit.com', 'redd.it'], aliases: ['reddit'] },
  { name: 'YouTube', category: 'social', hosts: ['youtube.com', 'youtu.be'], aliases: ['youtube', 'yt'] },
  { name: 'Pinterest', category: 'social', brands: ['pinterest'], hosts: ['pin.it'], aliases: ['pinterest'] },
  { name: 'TikTok', category: 'social', hosts: ['tiktok.com'], aliases: ['tiktok'] },
  { name: 'WhatsApp', category: 'social', hosts: ['whatsapp.com', 'wa.me'], aliases: ['whatsapp'] },
  { name: 'Telegram', category: 'social', hosts: ['telegram.org', 't.me'], aliases: ['telegram'] },
  { name: 'Mastodon', category: 'social', hosts: ['mastodon.social'], aliases: ['mastodon'] },
  { name: 'Bluesky', category: 'social', hosts: ['bsky.app'], aliases: ['bluesky', 'bsky'] },
  { name: 'Threads', category: 'social', hosts: ['threads.net', 'threads.com'], aliases: ['threads'] },
  { name: 'Hacker News', category: 'social', hosts: ['news.ycombinator.com'], aliases: ['hackernews', 'hn'] },
  { name: 'GitHub', category: 'referral', hosts: ['github.com'], aliases: ['github'] },
  {
    name: 'ChatGPT',
    category: 'ai',
    hosts: ['chatgpt.com', 'chat.openai.com'],
    aliases: ['chatgpt', 'chatgpt.com'],
  },
  { name: 'Perplexity', category: 'ai', hosts: ['perplexity.ai'], aliases: ['perplexity'] },
  { name: 'Gemini', category: 'ai', hosts: ['gemini.google.com'], aliases: ['gemini'] },
  { name: 'Claude', category: 'ai', hosts: ['claude.ai'], aliases: ['claude'] },
  { name: 'Copilot', category: 'ai', hosts: ['copilot.microsoft.com'], aliases: ['copilot'] },
  { name: 'Gmail', category: 'email', hosts: ['mail.google.com'], aliases: ['gmail'] },
  {
    name: 'Outlook',
    category: 'email',
    hosts: ['outlook.live.com', 'outlook.office.com'],
    aliases: ['outlook'],
  },
  { name: 'Newsletter', category: 'email', aliases: ['newsletter', 'email', 'e-mail', 'mailchimp'] },
];
