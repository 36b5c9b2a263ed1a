/**
 * `npm run ingest -- <folder | sitemap URL | page URL | wordpress>`: fills the search index of the
 * configured database (DATABASE_URL, `.env` read too). Idempotent: a document ingested again
 * replaces its chunks, an unchanged one is skipped. Nothing else ever fills the index.
 * `npm run ingest -- --remove <folder | page or sitemap URL | wordpress>` takes such documents out again.
 */
import cliProgress from 'cli-progress';
import { loadConfigOrExit } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { type IngestProgress, ingest, removeFromIndex } from './ingest.ts';
import { SqlSearchIndex } from './sql-search-index.ts';

const removing = process.argv[2] === '--remove';
const target = process.argv[removing ? 3 : 2];
if (!target || target === '--help' || target === '-h') {
  console.error('usage: npm run ingest -- <folder of .md/.html | sitemap or page URL | wordpress>');
  console.error('       npm run ingest -- --remove <folder or file | page or sitemap URL | wordpress>');
  process.exit(target ? 0 : 2);
}

const config = loadConfigOrExit();

const bar = new cliProgress.SingleBar(
  {
    format: 'ingest [{bar}] {value}/{total} {label}',
    hideCursor: true,
    clearOnComplete: false,
    stream: process.stderr,
  },
  cliProgress.Presets.shades_classic,
);
const progress: IngestProgress = {
  start: (total) => bar.start(total, 0, { label: '' }),
  tick: (label, total) => {
    if (total !== undefined) bar.setTotal(total);
    if (bar.getProgress() >= 1) bar.setTotal(bar.getTotal() + 1);
    bar.increment({ label: label.length > 50 ? `…${label.slice(-49)}` : label });
  },
  stop: () => bar.stop(),
};

const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  const index = new SqlSearchIndex(database.db);
  if (removing) {
    const removed = await removeFromIndex(index, target);
    const stats = await index.stats();
    console.log(`removed ${removed} documents of ${target}; the index holds ${stats.documents} documents.`);
  } else {
    const report = await ingest(index, target, { wordpressApiUrl: config.wordpressApiUrl, progress });
    const stats = await index.stats();
    console.log(
      `ingested ${target}: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ` +
        `${report.removed} removed, ${report.failed.length} failed; the index holds ${stats.documents} documents in ${stats.chunks} chunks.`,
    );
    for (const failure of report.failed) console.error(`  failed: ${failure.location}: ${failure.reason}`);
    if (report.failed.length > 0) process.exitCode = 1;
  }
} catch (error) {
  console.error(`ingest failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
