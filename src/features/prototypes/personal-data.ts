import { inChunks, LINKED, type PersonalDataPart } from '../../db/personal-data.ts';

const ATTEMPT = 'prototype_attempt';
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * The prototypes generated for a person's leads (made from their answers: the page may carry their
 * company and goal) and their progress events. Found through the leads; the attempt ids link the
 * queue's jobs that watch them (`watch:<attemptId>`).
 */
export const prototypePersonalData: PersonalDataPart = {
  name: 'prototypes',
  async find(db, scope) {
    for (const chunk of inChunks(scope.ids(LINKED.lead))) {
      const rows = await db
        .selectFrom('prototype_attempts')
        .select('id')
        .where('lead_id', 'in', chunk)
        .execute();
      scope.add(
        ATTEMPT,
        rows.map((r) => r.id),
        { keysOthers: true },
      );
    }
  },

  async export(db, scope) {
    const prototypes = [];
    for (const chunk of inChunks(scope.ids(LINKED.lead))) {
      const attempts = await db
        .selectFrom('prototype_attempts')
        .selectAll()
        .where('lead_id', 'in', chunk)
        .orderBy('generating_at')
        .execute();
      const events = await db
        .selectFrom('prototype_events')
        .select(['attempt_id', 'seq', 'event', 'data', 'created_at'])
        .where('lead_id', 'in', chunk)
        .orderBy('seq')
        .execute();
      for (const a of attempts) {
        prototypes.push({
          id: a.id,
          leadId: a.lead_id,
          attempt: Number(a.attempt),
          status: a.status,
          kind: a.kind,
          language: a.language,
          generator: a.generator,
          startedAt: iso(a.generating_at),
          completedAt: iso(a.completed_at),
          failedAt: iso(a.failed_at),
          error: a.error,
          demoUrl: a.demo_url,
          html: a.html,
          files: a.files ? (JSON.parse(a.files) as unknown) : null,
          events: events
            .filter((e) => e.attempt_id === a.id)
            .map((e) => ({ event: e.event, data: JSON.parse(e.data) as unknown, at: iso(e.created_at) })),
        });
      }
    }
    return { prototypes };
  },

  async erase(tx, scope) {
    let prototypeAttempts = 0;
    let prototypeEvents = 0;
    for (const chunk of inChunks(scope.ids(LINKED.lead))) {
      const events = await tx.deleteFrom('prototype_events').where('lead_id', 'in', chunk).executeTakeFirst();
      prototypeEvents += Number(events.numDeletedRows);
      const attempts = await tx
        .deleteFrom('prototype_attempts')
        .where('lead_id', 'in', chunk)
        .executeTakeFirst();
      prototypeAttempts += Number(attempts.numDeletedRows);
    }
    return { prototypeAttempts, prototypeEvents };
  },
};
