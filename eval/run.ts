/**
 * `npm run eval -- …`: `classify …` scores lead/spam/vendor classification (eval/classify/score.ts);
 * anything else goes to the AI routes' scorer (eval/score-ai.ts) with the same arguments.
 */
const [first, ...rest] = process.argv.slice(2);
if (first === 'classify') {
  const { scoreClassification } = await import('./classify/score.ts');
  await scoreClassification(rest);
} else {
  await import('./score-ai.ts');
}
