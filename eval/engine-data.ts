import { PATH_CUE_PATTERNS } from '../src/integrations/llm/offline/path-cues.ts';
import { fold } from '../src/integrations/llm/offline/text.ts';
import type { TrainingData } from '../src/integrations/llm/offline/train.ts';
import type { AiSet } from './sets.ts';

/**
 * How the labelled sets become the engine's training data. The older sets (written before
 * JUDGEMENT.md was the law) label some things differently from the policy: any new app as Launch,
 * patients who book as a b2c audience. Their weight was chosen by cross-validation on the newer set.
 */
export const OLDER_SET_WEIGHT = { path: 1, fields: 0 };

const LAUNCH_FRAMING = new Set([
  'mvp',
  'launchWord',
  'goLive',
  'beta',
  'demoDay',
  'investors',
  'pilot',
  'firstVersion',
  'deadline',
]);
/** An older set's Launch label with no launch framing in the message: the policy calls that Build. */
function olderConvention(message: string, path: string): boolean {
  if (path !== 'Launch') return false;
  const folded = fold(message);
  return !PATH_CUE_PATTERNS.some(([name, re]) => LAUNCH_FRAMING.has(name) && re.test(folded));
}

const isOlder = (set: AiSet) => !set.name.startsWith('ai/') && !set.name.includes('/ai/');

export function trainingData(sets: AiSet[], weights = OLDER_SET_WEIGHT): TrainingData {
  const data: TrainingData = { recommend: [], refine: [] };
  for (const set of sets) {
    const older = isOlder(set);
    for (const item of set.recommend) {
      const weight = older ? weights.path : 1;
      if (weight <= 0 || (older && olderConvention(item.message, item.path))) continue;
      data.recommend.push({
        id: item.id,
        message: item.message,
        path: item.path,
        ...(item.fields ? { facts: item.fields } : {}),
        weight,
      });
    }
    for (const item of set.refine) {
      const weight = older ? weights.fields : 1;
      if (weight <= 0) continue;
      data.refine.push({
        id: item.id,
        message: item.message,
        fields: item.fields,
        ...(item.sections ? { sections: item.sections } : {}),
        weight,
      });
    }
  }
  return data;
}
