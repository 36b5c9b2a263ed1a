/** One search result: the chunk's text with where it came from and its full-text rank. */
export interface SearchHit {
  /** From the chunk's metadata in the spec's order: url, source, title, item key, fallback. */
  source: string;
  text: string;
  score: number;
  url: string | null;
  title: string | null;
}

/** The full-text search index over ingested chunks (SQLite FTS5 / PostgreSQL tsvector). */
export interface SearchIndex {
  search(query: string, options?: { limit?: number }): Promise<SearchHit[]>;
}
