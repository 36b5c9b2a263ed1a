import type { Audience, Industry, Service, Style } from './vocabulary.ts';

/**
 * Word-level evidence: a bilingual lexicon of stems and synonyms, read one word at a time. Where the
 * phrase cues of lexicon.ts need the visitor to use a known phrasing, this layer catches the same
 * intent in other words ("takes forever", "se congela", "outrank", "patched"): each word of the
 * folded message is looked up once (exact form, plural stripped, then its longest known stem), so
 * the cost is a few Map lookups per word whatever the size of the lexicon.
 *
 * Entry syntax: `word` matches the word and its plural (`s`/`es`); `stem*` matches any word that
 * starts with the stem (at least 3 letters).
 */
export type Target =
  | Service
  | `industry:${Industry}`
  | `audience:${Audience}`
  | `style:${Style}`
  | 'custom'
  | 'advice'
  | 'uncertain'
  | 'create'
  | 'problem';

const LEXICON: [Target, number, string][] = [
  // Something new to make: a website.
  [
    'build-website',
    1.5,
    'website* webpage* homepage* page landing* storefront* microsite* pagina* paginita* sitio* sitioweb web webs ' +
      'brochure* squarespace wix webflow framer catalogo* catalog* wordpress',
  ],
  ['build-website', 1, 'online internet linea menu* showcase* portafolio*'],
  // Something new to make: an application or product.
  [
    'build-application',
    1.5,
    'app apps phone* aplicacion* aplicativo* appstore android* ios iphone* smartphone* celular* movil* mobile* ' +
      'saas mvp marketplace* plataforma* platform* portal* juego* game* videojuego*',
  ],
  [
    'build-application',
    1,
    'prototyp* prototip* startup* emprendimiento* producto* product* tool herramienta* software',
  ],
  // Performance, load, infrastructure.
  [
    'infrastructure-scale',
    1.5,
    'slow* lent* forever eterno* tarda* demora* congel* freez* colaps* crash* caid* caer cae cayo cuelg* ' +
      'timeout* latenc* bottleneck* overload* sobrecarg* saturad* satura* concurren* simultane* ' +
      'escal* scalab* scaling* performan* rendimiento* uptime downtime outage* servidor* server* ' +
      'aws azure gcp cloud nube kubernet* docker* devops hosting* infra* deploy* despliegu* cdn cach* ' +
      'database* 503 500 502',
  ],
  [
    'infrastructure-scale',
    0.75,
    'traffic* trafico* peak* pico* load* carga* shoppers hundred* thousand* miles cientos',
  ],
  // Search visibility.
  [
    'seo-services',
    2,
    'seo bing index* indexa* indexe* rank* outrank* posicion* keyword* organic* organico* ' +
      'serp* backlink* visibil*',
  ],
  ['seo-services', 1.5, 'google*'],
  ['seo-services', 0.75, 'search* busca* busque* aparec* aparez* encuentr*'],
  // Ongoing care.
  [
    'maintenance-plans',
    2,
    'maintenance mantenimiento* mantener* mantenga* mantien* patch* parche* backup* respaldo* ' +
      'upkeep cuid* cuida* retainer* monitoreo* monitor*',
  ],
  ['maintenance-plans', 1, 'update* updat* actualiz* upgrade* plugin* monthly mensual* uptodate'],
  // Fixing and extending an existing product.
  [
    'development-support',
    1.5,
    'bug* glitch* broken break* breaking breaks fix* arregl* corrig* corrij* falla* fallo* error* ' +
      'romp* rompe* roto* cierra cierre crashe* buggy',
  ],
  ['development-support', 1, 'support* soporte* freelanc* inherit* hered* legacy maintainer* handover'],
  // Integrations, automation, internal tools.
  [
    'workflow-automation',
    2,
    'automat* automatiz* automatic* zapier n8n webhook* integrat* integra* integrac* sincroniz* sync* ' +
      'retyp* copying copypaste manually manual* amano hubspot salesforce pipedrive xero quickbooks netsuite ' +
      'odoo sap erp crm contpaq siigo alegra',
  ],
  [
    'workflow-automation',
    1,
    'copy* copia* copiar* retype* hook* connect* conect* enlaz* vincul* spreadsheet* excel* planilla* ' +
      'hoja* form forms formulario* notif* avis* alert* approv* aprob* workflow* flujo* stripe slack jira trello ' +
      'mail* email* correo* invoice* factur* accounting contable* stock inventari* inventory* dashboard* tablero*',
  ],
  // Developers joining the visitor's team.
  [
    'dedicated-team',
    2,
    'developers devs engineers programadores desarrolladores backend frontend fullstack ' +
      'staffing outsourc* nearshore tercer* subcontrat* headcount',
  ],
  [
    'dedicated-team',
    1,
    'senior* junior* hire hiring contratar contrat* months meses year ano squad developer engineer programador desarrollador',
  ],
  // Strategy.
  [
    'strategic-consultation',
    2,
    'strategy* strategic* estrategi* roadmap* prioriti* prioridad* priorizar* transformacion transformation ' +
      'workshop*',
  ],
  [
    'strategic-consultation',
    1,
    'plan planes planning planificar invest* invert* inversion* abordar digital*',
  ],
  // Expert assessment.
  [
    'technical-advisory',
    2,
    'audit* auditor* assess* evaluac* evalua* review* revis* opinion* secure insegur* vulnerab* ' +
      'pentest* worth merece vale compliance cumplimiento',
  ],
  [
    'technical-advisory',
    1,
    'sensible* sound quality calidad architecture arquitectura stack framework* ' +
      'migrat* migra* rewrite* reescrib* rehacer',
  ],
  // Bespoke software: AI, integrations.
  [
    'custom',
    2,
    'ai ia gpt chatgpt openai llm chatbot* bot bots asistente* assistant* inteligencia machinelearning ' +
      'integrat* integra* integrac* bespoke custom',
  ],
  ['custom', 1, 'sync* sincroniz* erp crm api apis medida'],
  // The visitor asks for guidance.
  [
    'advice',
    1.5,
    'advice advise* whether recommend* recomiend* recomend* aconsej* orient* suggest* sugier* sugerenc* consult* ' +
      'asesor* guidance opinion*',
  ],
  // The visitor does not know yet.
  ['uncertain', 1, 'unsure unclear confused perdid* clue clueless'],
  // Intent to make something new.
  [
    'create',
    1,
    'new nuevo* nueva* build* create crear creat* make hacer haga hagan develop* desarroll* launch* ' +
      'lanzar lanz* sacar montar armar arme idea start* empezar scratch cero',
  ],
  // Something that exists is failing.
  ['problem', 1, 'problem* issue* problema* quej* complain*'],

  // Industries.
  [
    'industry:healthcare',
    2,
    'clinic* clinica* hospital* patient* paciente* medic* doctor* nurse* enfermer* dental* dentist* ' +
      'odontolog* health* salud therap* terap* psicolog* psycholog* veterinar* laborator* farmac* pharma*',
  ],
  [
    'industry:finance',
    2,
    'bank* banco* fintech* loan* prestamo* insur* asegurador* seguros accountant* ' +
      'contador* credit* credito* financ* invest* broker* tax* impuesto*',
  ],
  [
    'industry:education',
    2,
    'school* escuela* colegio* universi* student* estudiant* alumn* teacher* profesor* tutor* course* ' +
      'curso* academ* classroom* lesson* leccion* aula* educa* e-learning elearning bootcamp*',
  ],
  [
    'industry:retail',
    2,
    'shop* tienda* store* retail* ecommerce commerce bakery* panader* ropa clothing* fashion* ' +
      'moda zapat* shoe* jewel* joyer* furniture* mueble* ferreter* bike* bicis bicicle* tiendanube ' +
      'shopify woocommerce magento abarrot* supermarket* supermercado*',
  ],
  [
    'industry:manufacturing',
    2,
    'factory* fabrica* manufactur* industrial* plant planta* valve* valvula* machin* maquin* ' +
      'assembly ensambl* plc*',
  ],
  [
    'industry:realEstate',
    2,
    'realestate realtor* inmobiliar* property properties propiedad* apartment* apartamento* depto* ' +
      'departamento* rental* alquiler* arriendo* inquilin* tenant* landlord* condo* condominio*',
  ],
  [
    'industry:hospitality',
    2,
    'hotel* hostel* hostal* restaurant* restaurante* cafe cafeteria* bar bares diner* comensal* ' +
      'catering* food comida* taco* taqueria* pizz* menu* guest* huesped* tourism turism* travel* viaje*',
  ],
  [
    'industry:nonprofit',
    2,
    'nonprofit* charity* charities ngo ong fundacion foundation donat* donac* volunteer* voluntari* refugee*',
  ],
  ['industry:technology', 1, 'saas software-company techcompany'],
  [
    'industry:other',
    1.5,
    'lawyer* abogad* law attorney* architect arquitecto arquitecta photograph* fotograf* tattoo* tatuaj* gym* ' +
      'gimnasio* yoga* salon* peluquer* barber* barberia* festival* concert* concierto* musica music* ' +
      'band banda wedding* boda* logistic* logistica* construct* construc* plumb* plomer* mechanic* ' +
      'mecanic* agricult* agro farm* granja* grooming church iglesia* beauty estetica',
  ],

  // Audiences.
  [
    'audience:b2b',
    2,
    'b2b wholesale* mayorista* distributor* distribuidor* procurement* empresas companies businesses',
  ],
  [
    'audience:b2c',
    1.5,
    'b2c consumer* consumidor* shopper* diner* comensal* guest* huesped* patient* paciente* families ' +
      'familias people gente public publico',
  ],
  ['audience:b2c', 0.75, 'customer* client* cliente* buyer* comprador*'],
  [
    'audience:youngAudience',
    2,
    'teen* kid* child* nino* nina* jovenes youth adolesc* student* estudiant* alumn* genz chavos pelados',
  ],
  ['audience:specializedProfessionals', 1, 'professional* profesional* specialist* especialist*'],
  ['audience:generalAudience', 1, 'everyone everybody todos cualquiera'],

  // Styles.
  [
    'style:modernMinimalist',
    2,
    'modern moderno moderna modernos modernas minimal* clean limpi* uncluttered sleek despejad*',
  ],
  [
    'style:boldColorful',
    2,
    'bold colorful colourful colour* color* colorid* vibrant* vivid* bright* llamativ* eyecatching ' +
      'striking* neon vistos* chillon*',
  ],
  [
    'style:elegantSophisticated',
    2,
    'elegan* sophisticat* sofisticad* luxur* lujo* lujos* premium classy refined refinad* upscale chic ' +
      'exclusiv* distinguid*',
  ],
  [
    'style:funCreative',
    2,
    'fun playful creative creativ* quirky whimsical divertid* ludic* copad* desenfadad* alegre* ' +
      'juguet* original* colorinche*',
  ],
  [
    'style:professionalCorporate',
    2,
    'corporate corporativ* professional-looking serious serio seria formal sobri* institucional* trustworthy',
  ],
];

interface Entry {
  target: Target;
  w: number;
}

const EXACT = new Map<string, Entry[]>();
const PREFIX = new Map<string, Entry[]>();
let longestPrefix = 3;

for (const [target, w, words] of LEXICON) {
  for (const raw of words.split(/\s+/)) {
    if (!raw) continue;
    const isPrefix = raw.endsWith('*');
    const key = raw.replace(/\*$/, '').replace(/-/g, '');
    const map = isPrefix && key.length >= 3 ? PREFIX : EXACT;
    const list = map.get(key) ?? [];
    // One entry per target and key, at its strongest weight.
    const existing = list.find((e) => e.target === target);
    if (existing) existing.w = Math.max(existing.w, w);
    else list.push({ target, w });
    map.set(key, list);
    if (map === PREFIX) longestPrefix = Math.max(longestPrefix, key.length);
  }
}

const NO_ENTRIES: Entry[] = [];
const lookupCache = new Map<string, Entry[]>();

/** The lexicon entries a folded word belongs to (memoised: a site's visitors reuse their words). */
export function entriesOf(word: string): Entry[] {
  const cached = lookupCache.get(word);
  if (cached) return cached;
  let found = EXACT.get(word);
  if (!found && word.length > 3 && word.endsWith('s')) found = EXACT.get(word.slice(0, -1));
  if (!found && word.length > 4 && word.endsWith('es')) found = EXACT.get(word.slice(0, -2));
  const byPrefix = longestPrefixEntries(word);
  let result = found ?? NO_ENTRIES;
  if (byPrefix) {
    result = [...result];
    for (const e of byPrefix) if (!result.some((r) => r.target === e.target)) result.push(e);
  }
  if (lookupCache.size < 20_000) lookupCache.set(word, result);
  return result;
}

function longestPrefixEntries(word: string): Entry[] | undefined {
  for (let n = Math.min(word.length, longestPrefix); n >= 3; n--) {
    const entries = PREFIX.get(word.slice(0, n));
    if (entries) return entries;
  }
  return undefined;
}

export interface WordHit {
  target: Target;
  start: number;
  end: number;
  w: number;
}

const WORD = /[a-z0-9]+/g;

/** Every lexicon hit of a folded message, in message order: one pass over its words. */
export function wordHits(folded: string): WordHit[] {
  const out: WordHit[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(folded); match !== null; match = WORD.exec(folded)) {
    const end = match.index + match[0].length;
    for (const e of entriesOf(match[0])) out.push({ target: e.target, start: match.index, end, w: e.w });
  }
  return out;
}
