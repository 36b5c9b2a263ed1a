/**
 * Words that signal the role of a phrase in a project description, from the policy's definitions of
 * refine's sections (JUDGEMENT.md): a goal is an outcome or purpose, constraints are budget, deadline,
 * required technology, team size and duration, context is the current situation or history. The
 * section tagger reads them as features; the training data decides how much each role counts.
 *
 * Entry syntax: `word` matches the folded word exactly, `stem*` any word starting with the stem.
 */
export type SectionRole =
  | 'purpose'
  | 'decision'
  | 'outcome'
  | 'money'
  | 'time'
  | 'duration'
  | 'technology'
  | 'team'
  | 'requirement'
  | 'current'
  | 'history'
  | 'stage'
  | 'segment'
  | 'look';

export const SECTION_CUES: Record<SectionRole, string> = {
  purpose: 'so because order goal goals aim objective purpose para fin objetivo meta metas proposito lograr',
  decision:
    'whether decide decid* deciding choose choos* choice should worth sense conviene convenga decidir elegir ' +
    'elijo opinion option* opcion* alternativ* validate validar valid* tell true cierto sentido',
  outcome:
    'more mas grow* crec* increas* aument* reach lleg* attract* atra* get consegu* find* encuentr* rank* ' +
    'sell* vend* reduc* cut stop* dejar deje* less menos depend* surviv* aguant* cope* copes improv* mejor* ' +
    'save* ahorr* avoid* evit* convert* conversion* booking* reserva* sales ventas leads clientes customers ' +
    'visib* position* posicion* presence presencia',
  money:
    'budget* presupuesto* usd eur euros dollars dolares pesos soles gbp pounds libras mil thousand k cost* ' +
    'costo* price* precio* afford* barato cheap tight ajustado acotado',
  time:
    'before antes by until hasta deadline plazo* date fecha asap urgent* urgente soon pronto next proxim* ' +
    'launch* lanzamiento when cuando season temporada january february march april may june july august ' +
    'september october november december enero febrero marzo abril mayo junio julio agosto septiembre ' +
    'setiembre octubre noviembre diciembre q1 q2 q3 q4 trimestre quarter christmas navidad semester semestre',
  duration:
    'days day week weeks month months year years dias dia semana semanas mes meses ano anos max maximo ' +
    'within dentro ongoing continu* permanent* full time tiempo completo medio half',
  technology:
    'react node nodejs django python php laravel rails ruby java kotlin swift flutter unity wordpress magento ' +
    'shopify woocommerce aws azure gcp postgres postgresql mysql mongodb android ios iphone net dotnet vue ' +
    'angular nextjs next go golang typescript javascript kubernetes docker salesforce hubspot sap odoo ' +
    'english spanish portuguese french ingles espanol portugues frances multilingual multilingue multi* ' +
    'offline internet integrate integrar',
  team: 'devs dev developers developer desarrolladores desarrollador engineers ingenieros programadores designer disenador qa team equipo people personas person',
  requirement: 'must need needs require* tiene debe deben has have necesit* obligatori* mandatory',
  current:
    'already ya currently actual* current now ahora today hoy existing existe exist* live vivo produccion ' +
    'using usamos use uses usa run runs corre managed maneja manag* built hecha hecho hizo made works funciona',
  history:
    'since desde last pasado ago hace quit left dejo renuncio desaparecio borro previous anterior former old vieja viejo ' +
    'used solia broke rompio years anos',
  stage:
    'startup pre seed semilla series serie revenue ingresos bootstrapped founders fundadores employees empleados ' +
    'staff small pequena chica mediana grande large family familiar growing creciendo users usuarios clients',
  segment:
    'for para aimed dirigido dirigida enfocado sell vendemos venden supply abastec* serve servimos used usan usado ' +
    'customers clientes buyers compradores audience publico users usuarios',
  look:
    'look looks feel style estilo design diseno clean limpio limpia minimal* modern* moderno moderna elegant* ' +
    'colour* color* bright vivo vivos bold llamativ* fun divertid* playful luxur* lujo lujos* corporate ' +
    'corporativ* serious serio seria professional profesional',
};

const EXACT = new Map<string, SectionRole[]>();
const PREFIX = new Map<string, SectionRole[]>();
for (const [role, words] of Object.entries(SECTION_CUES) as [SectionRole, string][]) {
  for (const entry of words.split(/\s+/)) {
    if (!entry) continue;
    const map = entry.endsWith('*') ? PREFIX : EXACT;
    const key = entry.replace(/\*$/, '');
    const roles = map.get(key) ?? [];
    if (!roles.includes(role)) roles.push(role);
    map.set(key, roles);
  }
}

const cache = new Map<string, SectionRole[]>();

/** The roles a folded word signals (memoised). */
export function rolesOf(word: string): SectionRole[] {
  const cached = cache.get(word);
  if (cached) return cached;
  const roles = [...(EXACT.get(word) ?? [])];
  for (let n = Math.min(word.length, 12); n >= 3; n--) {
    for (const role of PREFIX.get(word.slice(0, n)) ?? []) if (!roles.includes(role)) roles.push(role);
  }
  if (cache.size < 20_000) cache.set(word, roles);
  return roles;
}
