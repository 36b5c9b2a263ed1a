import type { Audience, Industry, Service, Style } from './vocabulary.ts';

/**
 * The offline engine's bilingual vocabulary. Patterns are matched on folded text (lower case, no
 * accents, punctuation → space), on word boundaries; `w` is the weight of one match. English and
 * Spanish (with Latin American and Spanish regional usage) live side by side.
 */
export interface Cue {
  re: RegExp;
  w: number;
  /**
   * The first letters (up to 3) a word must start with for the cue to match at all, one per
   * alternative; `null` when some alternative cannot be reduced to such a prefix. Lets the analyzer
   * skip a cue without running its regex when the message has no word starting that way.
   */
  starts: readonly string[] | null;
}

/** Cues by the word starts they need (cues without a known start are always run). */
const CUES_BY_START = new Map<string, Cue[]>();

/** Plural forms (`s`, `es`) of every alternative match too. */
const cue = (source: string, w = 1): Cue => {
  const made: Cue = { re: new RegExp(`\\b(?:${source})(?:s|es)?\\b`, 'g'), w, starts: startsOf(source) };
  for (const start of made.starts ?? []) {
    const list = CUES_BY_START.get(start);
    if (list) list.push(made);
    else CUES_BY_START.set(start, [made]);
  }
  return made;
};

/** The cues that may match a folded text whose words start with these 1–3 letter prefixes. */
export function possibleCues(wordStarts: Iterable<string>): Set<Cue> {
  const out = new Set<Cue>();
  for (const start of wordStarts) for (const c of CUES_BY_START.get(start) ?? []) out.add(c);
  return out;
}

/** The literal start (≤ 3 letters) of every top-level alternative of a pattern, or null. */
export function startsOf(source: string): string[] | null {
  const out = new Set<string>();
  let depth = 0;
  let alternativeStart = 0;
  for (let i = 0; i <= source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (i === source.length || (ch === '|' && depth === 0)) {
      const alternative = source.slice(alternativeStart, i);
      alternativeStart = i + 1;
      if (alternative.startsWith('(?:')) {
        // A leading group: the starts of its own alternatives, unless the group is optional.
        const close = closingParen(alternative);
        const after = alternative[close + 1];
        const inner =
          close > 0 && after !== '?' && after !== '*' && after !== '{'
            ? startsOf(alternative.slice(3, close))
            : null;
        if (!inner) return null;
        for (const start of inner) out.add(start);
        continue;
      }
      const literal = /^[a-z0-9]+/.exec(alternative)?.[0] ?? '';
      // A letter followed by a quantifier is optional: it is not part of the required start.
      const next = alternative[literal.length];
      const required = next === '?' || next === '*' || next === '{' ? literal.slice(0, -1) : literal;
      if (required.length === 0) return null;
      out.add(required.slice(0, 3));
    }
  }
  return [...out];
}

function closingParen(source: string): number {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

export const SERVICE_CUES: Record<Service, Cue[]> = {
  'build-website': [
    cue(
      '(?:sell|vend\\w*)(?: \\w+){0,2} (?:online|en linea|por internet|en internet)|(?:place|spot|presence|lugar|sitio) (?:on|in|en) (?:the )?(?:internet|web|linea)',
      2,
    ),
    cue(
      '(?:buy|order|shop)(?: \\w+){0,3} online|sell(?: \\w+){0,2} online|compr\\w*(?: \\w+){0,2} (?:online|por internet|en linea)|vender online|find us online|nos encuentre',
      1.5,
    ),
    cue(
      'one ?pager|one page site|somewhere online|web presence|company site|business site|brochure site|squarespace|wix|webflow|pagina de aterrizaje|pagina corporativa|web corporativa|catalogo (?:online|en linea)',
      2,
    ),
    cue('web ?sites?|webpages?|web pages?|home ?page|landing(?: pages?)?|microsites?|portfolio(?: site)?', 2),
    cue('sites?|sitios?(?: web)?|paginas?(?: web)?|pagina|webs?|blog', 1.5),
    cue(
      'online (?:store|shop)|web ?shop|e ?commerce(?: site)?|tienda (?:online|en linea|virtual|web)|vender (?:por|en) internet|online presence|presencia (?:en linea|online|digital|en internet)',
      1.5,
    ),
    cue('redesign|rediseno|redisenar|relaunch|revamp|refresh|renovar|renovacion|makeover|rebuild', 1),
    cue('brochure|corporate site|sitio corporativo|portal de propiedades|listings? site', 2),
  ],
  'build-application': [
    cue(
      'portal|members only|area de socios|zona privada|exclusivo para socios|client area|area de clientes',
      1.5,
    ),
    cue(
      'subscription app|mobile|movil|extension|producto digital|idea (?:for|para) (?:an? |una? )?app|tengo una idea|software (?:for|para)',
      1.5,
    ),
    cue('apps?|applications?|aplicacion(?:es)?|aplicativo|mobile app|app movil|ios|android|app stores?', 2),
    cue(
      'mvp|saas|marketplace|plataforma de cursos|course platform|web app|webapp|portal (?:de|para) clientes|games?|juegos?|videojuegos?|iphone|tablets?|telemedicin\\w*',
      2,
    ),
    cue(
      '(?:develop|build|create|make|launch|desarrollar|crear|hacer|montar|lanzar) (?:a |an |our |una |un |nuestra |nuestro )?(?:\\w+ )?(?:platform|plataforma|system|sistema|tool|software|product|producto)|sistema de (?:turnos|reservas|citas|pedidos)|booking (?:system|platform)',
      2,
    ),
    cue('platform|plataforma|product|producto|startup|emprendimiento|prototype|prototipo', 0.5),
    cue('launch|lanzar|sacar|v1|first version|primera version', 0.5),
  ],
  'infrastructure-scale': [
    cue(
      'at once|at the same time|al mismo tiempo|a la vez|simultaneous\\w*|(?:response|load|loading) times?|tiempos? de (?:respuesta|carga)|cuellos? de botella|falls? (?:apart|over|down)|(?:hundreds|thousands|cientos|miles) of (?:users|people|visitors|shoppers)',
      1.5,
    ),
    cue(
      '(?:seconds|segundos) (?:to load|en cargar)|takes? (?:\\w+ ){0,3}to load|tarda(?:n)? (?:\\w+ ){0,3}en cargar|loading|optimi[sz]\\w*|se traba|se cuelga|caidas|outages?|latency|latencia|queries|consultas lentas|peaks?|picos|concurren\\w*|docker|ci ?cd|pipelines?|migrat\\w* (?:to|a) (?:the )?(?:cloud|nube|aws|azure|gcp)',
      1.5,
    ),
    cue(
      'slow|slowly|lento|lenta|lentisim[oa]|lentitud|performance|rendimiento|bottleneck|cuello de botella|speed up|faster|mas rapid[oa]|under load|uptime|load times?|tiempos? de carga',
      1.5,
    ),
    cue(
      'scale|scaling|escalar|escalarla|escalabilidad|traffic spikes?|no aguanta|se (?:nos )?cae|goes down|breaks|crashes under|downtime|times? out',
      1.5,
    ),
    cue(
      'servers?|servidor(?:es)?|cloud|nube|aws|azure|gcp|heroku|kubernetes|k8s|devops|deploys?|despliegues?|infra(?:structure|estructura)?|hosting',
      1.5,
    ),
    cue(
      '(?:cloud|aws|server|hosting) (?:bill|costs?)|costs? (?:are )?out of control|sale carisim[oa]|pagamos de servidores',
      1,
    ),
    cue('database|base de datos|visitors a day|usuarios concurrentes|con tanto usuario', 1),
  ],
  'seo-services': [
    cue(
      'traffic (?:\\w+ ){0,2}(?:from|de) google|trafico (?:\\w+ ){0,4}google|(?:find|finds|see|sees) us (?:on|in) google',
      2.5,
    ),
    cue(
      'first page|primera pagina|(?:when|cuando) (?:people |la gente )?(?:search|busca|buscan)|show up (?:on|in|when)|aparecer (?:en|cuando)',
      2.5,
    ),
    cue(
      'search engines?|buscadores?|get found|be found|encuentren|google (?:nos|los|me) muestre|show up (?:on|in) google|keywords?|palabras clave|backlinks?|meta tags?|posicionar\\w*',
      2.5,
    ),
    cue(
      'seo|posicionamiento|organic traffic|trafico organico|search rankings?|ranking on google|rank (?:higher|better|first)|salir (?:primeros?|primeras?)(?: en google)?|first page of google|primera pagina de google|visibility on google|visibilidad en google',
      3,
    ),
    cue(
      '(?:dropped|drop|disappeared) (?:off|from) google|no aparecemos en google|aparecer en google|google rankings?',
      2.5,
    ),
  ],
  'maintenance-plans': [
    cue(
      'keep (?:it|them|the site|our site) (?:up to date|updated|secure)|plugin updates?|actualizar plugins|monitoring|monitoreo|hosting and updates',
      1.5,
    ),
    cue(
      'maintenance|maintain|maintaining|mantenimiento|mantener|mantenga|look after|take care of|security patches|parches de seguridad|al dia',
      2,
    ),
    cue('updates|actualizaciones|backups?|copias? de seguridad|monthly|mensual|retainer|care plan', 1),
  ],
  'development-support': [
    cue(
      '(?:developer|dev|freelancer|programador|desarrollador|agency|agencia|el que la hizo|el que lo hizo|who built it)(?: \\w+){0,2} (?:quit|left|is leaving|moving on|is moving on|se fue|se va|renuncio|desaparecio|se borro|ya no (?:contesta|responde|esta))|keep adding|seguir agregando',
      2,
    ),
    cue(
      'broken|no funciona|arreglar|fix (?:the|our|some)|new features? (?:to|for|in) (?:our|the)|add(?:ing)? features?|nuevas funcionalidades|ayud\\w* con el desarrollo|take over|hacerse cargo|issues|problemas',
      1.5,
    ),
    cue(
      'bugs?|crash(?:es|ing)?|errores|fallos|se (?:nos )?(?:esta )?cayendo|corrija|corregir|fix(?:es|ing)?',
      1.5,
    ),
    cue('(?:developer|desarrollador)(?: \\w+)? (?:quit|left|se fue)|support|soporte|keep it running', 1.5),
  ],
  'workflow-automation': [
    cue(
      '(?:tied|linked|hooked|plugged|wired|connected) (?:in)?to|(?:land|lands|end up|go) (?:straight )?in(?:to)? (?:our|the) \\w+|lleguen? (?:directo|solos?|solas?) (?:al?|a la)|pasen? sol[oa]s?',
      2,
    ),
    cue(
      'when (?:a|an|someone|the|un|una|alguien|el|la) \\w+ (?:\\w+ ){0,3}(?:it|they|se|should|must|we want)|should (?:land|go|be sent|show up|appear|trigger|create)|triggers?|webhooks?|zapier|make com|n8n|slack|pipedrive|quickbooks|odoo|notify|notifique|notificar|avis(?:e|ar)|registren solas|se registr\\w* sol[oa]s|data entry|copy (?:and )?paste|copiar y pegar|flujos?',
      2,
    ),
    cue(
      'automat\\w*|automatic\\w*|sin (?:laburo|trabajo) manual|by hand|a mano|manual(?:ly)? (?:work|entry)|se sincronice solo|on its own|by itself|se cargue solo|solo en el sistema|copies? (?:\\w+ ){0,3}into|copiamos|pasamos a mano|instead of doing it',
      2.5,
    ),
    cue(
      'integrat\\w*|integra(?:r|cion|ciones)?|sync\\w*|sincroniz\\w*|connect (?:our|the) \\w+ (?:with|to)|conectar',
      2,
    ),
    cue('erp|crm|sap|pms|api|docusign|asana|zapier|salesforce|hubspot|plcs?|mercado libre', 1),
    cue(
      'internal tool|herramienta interna|spreadsheet|excel|hoja de calculo|planilla|workflow|flujo de trabajo|dashboard|tablero|approvals?|aprobaciones',
      1.5,
    ),
  ],
  'dedicated-team': [
    cue(
      'extend (?:our|the) (?:\\w+ )?team|ampliar (?:nuestro|el) equipo|sumar (?:\\w+ ){0,5}(?:a|al) (?:nuestro )?equipo|join (?:our|the) (?:\\w+ )?team|unirse a (?:nuestro|el) equipo|qa engineer|tester',
      2.5,
    ),
    cue(
      '(?:need|hire|hiring|contratar|necesito|necesitamos|buscamos) (?:\\w+ ){0,2}(?:devs|developers|engineers|programmers|programadores|desarrolladores)|outsourc\\w*|nearshore|tercerizar|full ?time|tiempo completo|staff',
      2.5,
    ),
    cue(
      'dedicated team|equipo dedicado|team of (?:\\d+ )?(?:\\d+ )?developers|developers to join|staff augmentation|extend our team|reforzar (?:nuestro|el) (?:equipo|producto)|embedded (?:with|in) our team|(?:engineers|developers|programadores|desarrolladores) (?:\\w+ ){0,2}(?:con|with|en|in) (?:nuestro|our) equipo|(?:engineers|developers|programmers|programadores|desarrolladores) (?:\\w+ ){0,3}(?:team|equipo)',
      3,
    ),
    cue('hire developers|contratar desarrolladores|long term|largo plazo|durante un ano', 0.5),
  ],
  'strategic-consultation': [
    cue('(?:what|which|que|cuales|cual) (?:\\w+ ){0,3}(?:first|primero)', 2),
    cue(
      'spend it wisely|where to invest|en que invertir|priorit\\w*|prioridades|what to do first|que conviene hacer primero|business plan|plan digital|digital plans?',
      2,
    ),
    cue(
      'strategy|strategic|estrategia|estrategica|roadmap|hoja de ruta|transformacion digital|digital transformation',
      2.5,
    ),
    cue('build buy or drop|what to build|modernize|modernizar', 0.5),
  ],
  'technical-advisory': [
    cue(
      'whether (?:to|we|i|it|our)|worth (?:it|the)|merece la pena|vale la pena|(?:use|go with|pick|elegir|usar) \\w+ (?:or|o) ',
      2,
    ),
    cue('proposal|propuesta|independent|independiente|quote|cotizacion|due diligence', 2),
    cue(
      'assessment|evaluat\\w*|evaluacion|evaluar|revision|review (?:our|the) \\w+|(?:software|system|systems|technical|current|our|the app s|la|nuestra) (?:architecture|arquitectura)|arquitectura actual|pentest\\w*|compliance|cumplimiento|security risks?|riesgos de seguridad|vs|versus|compare|comparar|choose between|elegir entre|que es mejor',
      2,
    ),
    cue(
      'audit|auditoria|security review|revision de seguridad|code review|review (?:of )?(?:our )?(?:code|codebase|architecture)|codebase',
      3,
    ),
    cue(
      '(?:look at|revise|revisar|review) (?:el |our |the )?(?:codigo|code|codebase|plataforma|platform)|sanity check|quote from another|presupuesto de otra|tech stack|stack tecnologico|which (?:technology|framework|stack)|que tecnologia|opinion sobre si|si migrar',
      2,
    ),
    cue(
      'expert opinion|second opinion|segunda opinion|is it better|conviene|should we|deberiamos|o mantenerlo|or keep',
      2,
    ),
    cue('consultoria|consulting|advice|advisory|asesoria|asesoramiento', 1),
  ],
};

/** Bespoke-software cues: integrations and AI push an app or site request to the Custom path. */
export const CUSTOM_CUES: Cue[] = [
  cue('integrat\\w*|integra(?:r|cion|ciones)?|sync\\w*|sincroniz\\w*', 1.5),
  cue('property management system|pms|erp|door locks?|cerraduras|legacy system|sistema heredado|opera', 1),
  cue(
    'chat ?bot|ai|ia|inteligencia artificial|machine learning|gpt|llm|agente humano|support agents?|asistente virtual|virtual assistant',
    2,
  ),
  cue('custom|a medida|bespoke|internal tool|herramienta interna', 1.5),
];

/** The visitor asks for guidance. */
export const ADVICE_CUES: Cue[] = [
  cue(
    'how (?:do|should|can) we|como (?:podemos|deberiamos|hacemos)|what should we|que deberiamos|que conviene|wisely|recommend|recomiendan|recomiendas|recomendarian|recomendacion|advice|advise|aconsejan|orientan|orientacion|sanity check|opinion|which (?:\\w+ ){0,3}should|que (?:\\w+ ){0,2}deberiamos|how does this work|como funciona',
    2,
  ),
  cue(
    'where (?:should|do) we (?:begin|start)|por donde empezar|what would you suggest|que nos sugieren|opinion',
    2,
  ),
  cue('consult\\w*|asesoria|asesoramiento|strategy session|review|revise|revisar|audit\\w*', 1),
];

/** The visitor says they do not know what they need. */
export const UNCERTAINTY_CUES: Cue[] = [
  cue(
    'where (?:\\w+ ){0,3}(?:begin|start)|por donde (?:\\w+ ){0,2}(?:empezar|empiezo|empezamos|arrancar|arranco|arrancamos|comenzar)',
    2,
  ),
  cue(
    'not sure (?:what|where|how)|no idea (?:what|where|if)|don t know (?:what|where)|nobody knows|no (?:se|sabemos) (?:bien )?(?:que|por donde|como)|ni idea|por donde (?:arrancar|empezar|comenzar)|where to (?:start|begin)',
    2,
  ),
  cue('messy|mess|desorden|caos|lio', 1),
];

/** Cues that mark a clause as secondary ("later maybe a portal"). */
export const LATER_CUES =
  /\b(?:later|maybe|eventually|in the future|more adelante|mas adelante|despues(?! del? \w)|a futuro|quizas|tal vez|after launch)\b/;
export const PRIORITY_CUES = /\b(?:first|priority|primero|prioridad|main|principal)\b/;

export const INDUSTRY_CUES: Record<Industry, Cue[]> = {
  technology: [
    cue('saas|software company|tech company|empresa de software|empresa de tecnologia|it company', 2),
  ],
  healthcare: [
    cue(
      'clinic|clinica|dental|dentist|odontolog\\w*|consultorio|telemedicin\\w*|prescriptions?|hospital|patients?|pacientes?|medical|medic[oa]s?|health ?care|salud|hipaa|historias clinicas|veterinari[ao]|pharmacy|farmacia',
      2,
    ),
  ],
  finance: [
    cue('estudio contable|despacho contable|accounting practice', 2),
    cue(
      'bank|banco|fintech|budgeting|presupuesto personal|personal finance|loans?|prestamos|accounting firm|accountants?|firma contable|contadores|insurance|aseguradora|seguros|cooperativa de ahorro|credit union|finance|finanzas|financier[ao]',
      2,
    ),
  ],
  education: [
    cue(
      'school|schools|colegio|escuela|tutors?|tutores|profesores particulares|lessons|clases particulares|university|universidad|universitarios|students?|estudiantes|alumnos|e ?learning|courses?|cursos|academy|academia|teachers?|profesores|learning|aprendizaje|campus|matriculas?',
      2,
    ),
  ],
  retail: [
    cue(
      'shopify|woocommerce|online store|tienda|bakery|panaderia|wines?|vinos?|vineyard|vina|bodega|store|shop|e ?commerce|retail|furniture|muebles|ferreteria|we sell|vendemos|vender por internet|product pages|fichas de producto|ropa|clothing|fashion|moda|joyeria|jewel\\w*|magento',
      2,
    ),
  ],
  manufacturing: [
    cue(
      'factory|fabrica|manufactur\\w*|plcs?|planta de produccion|production line|linea de produccion|maquinas|machines',
      2,
    ),
  ],
  realEstate: [
    cue(
      'real estate|edificio|condominio|vecinos|propiedad horizontal|hoa|landlords?|inquilinos|tenants|rentals?|alquiler\\w*|inmobiliaria|properties|property listings|propiedades|bienes raices|realtors?|agentes inmobiliarios',
      2,
    ),
  ],
  hospitality: [
    cue(
      'hotels?|hoteles|restaurants?|restaurante|coffee|cafeteria|catering|food|guests|huespedes|hospitality|hosteleria|turismo|tourism|cafe|bar|comida',
      2,
    ),
  ],
  nonprofit: [
    cue(
      'non ?profit|charity|ngo|ong|fundacion|foundation|donations?|donaciones|refugees|sin fines de lucro|sin animo de lucro',
      2,
    ),
  ],
  other: [
    cue(
      'law firm|lawyers?|attorneys?|abogados|despacho|architecture studio|estudio de arquitectura|arquitectos|taller mecanico|mecanic[oa]|plumb\\w*|plomer\\w*|photography|photographer|fotografia|fotografo|tattoo|tatuajes|engineering|ingenieria|construction|construccion|agricultur\\w*|agro|logistics|logistica|automotive|automotriz|gym|gimnasio|salon|peluqueria|yoga|fitness studio|farmers?|agricultores?|beauty|estetica|mechanic',
      1.5,
    ),
  ],
};

export const AUDIENCE_CUES: Record<Audience, Cue[]> = {
  b2b: [
    cue(
      'b2b|for businesses|small businesses|pequenas empresas|pymes|empresas clientes|companies|procurement|other businesses',
      2,
    ),
  ],
  b2c: [
    cue('people|personas|families|familias|vecinos|members|socios|fans', 2),
    cue('customers|clientes|users|usuarios|sales|ventas', 0.75),
    cue(
      'b2c|patients|pacientes|customers complain|guests|huespedes|shoppers|consumers|consumidores|pet owners|duenos de mascotas|la gente|the public buying|online store|tienda online|tienda en linea|vender por internet|shopify|reservas de citas|book appointments',
      2,
    ),
  ],
  youngAudience: [
    cue(
      'teen\\w*|kids|children|ninos|jovenes|young people|youth|students|estudiantes|alumnos|gen z|adolescentes',
      2,
    ),
  ],
  specializedProfessionals: [
    cue(
      '(?:for|aimed at|dirigid[oa] a|para) (?:\\w+ ){0,2}(?:professionals|profesionales|engineers|ingenieros|clinicians|doctors|medicos|specialists|especialistas|architects|arquitectos|lawyers|abogados)|procurement managers|gerentes de compras',
      2,
    ),
  ],
  generalAudience: [
    cue(
      'general public|publico general|for everyone|para todo el mundo|todo publico|para cualquier persona',
      2,
    ),
  ],
};

export const STYLE_CUES: Record<Style, Cue[]> = {
  modernMinimalist: [cue('modern[oa]?|minimal\\w*|clean|limpi[oa]', 2)],
  boldColorful: [
    cue('bold|colou?rful|colou?rs|vibrant|bright|colorid[oa]|llamativ[oa]|colores vivos|vistos[oa]', 2),
  ],
  elegantSophisticated: [
    cue(
      'elegan\\w*|sophisticated|sofisticad[oa]|luxury|lujo|premium|refined|refinad[oa]|understated|classy|beautifully',
      2,
    ),
  ],
  funCreative: [cue('fun|playful|creative|creativ[oa]|divertid[oa]|ludic[oa]|copad[oa]|original|quirky', 2)],
  professionalCorporate: [
    cue('corporate|corporativ[oa]|professional|profesional|serious|formal|sobri[oa]', 2),
  ],
};

/** Feature phrases (noun phrases the visitor wants built in). */
export const FEATURE_CUES: Cue[] = [
  cue(
    'book(?:ing)? appointments?|appointments?|bookings?|reservas?(?: de citas)?|citas|check ?in|room keys?',
    1,
  ),
  cue(
    'payments?|pagos?|pague|checkout|billing|facturacion|invoices?|facturas?|donation button|donations?|donaciones',
    1,
  ),
  cue('log ?in|accounts?|cuentas|multi ?tenant|user profiles?|perfiles', 1),
  cue('map search|buscador por mapa|search|buscador|filters|filtros|listings', 1),
  cue('video lessons|videos?|quizzes|examenes|certificados|certificates|progress tracking', 1),
  cue(
    'dashboards?|tablero|notifications?|notificaciones|whatsapp|chat|mensajes automaticos|welcome email|correo de bienvenida',
    1,
  ),
  cue('three languages|tres idiomas|multilingual|multilingue|\\d+ languages|\\d+ idiomas|blog|cms', 1),
];

/** Goal phrasing: what the visitor wants to achieve. */
export const GOAL_CUES: Cue[] = [
  cue(
    'so that|para que|in order to|want to|quiero que|queremos que|goal|objetivo|to get|conseguir|lograr|more (?:organic )?traffic|mas trafico|sell|vender|grow|crecer|launch|lanzar|modernize|modernizar',
    1,
  ),
];

/** Constraints: time, money, technology the solution must live with. */
export const CONSTRAINT_CUES: Cue[] = [
  cue(
    'by (?:spring|summer|autumn|fall|winter|january|february|march|april|may|june|july|august|september|october|november|december)|in (?:june|september|march|spring)|next (?:month|week|quarter)|asap|urgent\\w*|deadline|before the|antes de|para la feria|para marzo|en septiembre|el proximo mes|cuanto antes',
    1,
  ),
  cue('budget|presupuesto|cost|costo|precio|pricing|cheap|barat[oa]', 1),
  cue(
    'wordpress|shopify|react|node|sap|aws|heroku|kubernetes|opera|hipaa|gdpr|ios and android|ios y android|has to integrate|must (?:sync|integrate)|tiene que',
    1,
  ),
];

/** Context: the visitor's current situation. */
export const CONTEXT_CUES: Cue[] = [
  cue(
    'we have|we run|we are|our (?:current|previous|only)|previous agency|tenemos|somos|ya tenemos|actualmente|hoy lo hacemos|ahora mismo|since the last|desde|\\d+ ?k? (?:visitors|hotels|usuarios|empleados|employees)',
    1,
  ),
];

/** A short question about what the agency does ("do you do websites or apps?"): an inquiry, not a brief. */
export const INQUIRY_CUES: Cue[] = [
  cue(
    'do you (?:guys )?(?:do|make|build|offer|work)|what do you (?:do|offer)|hacen|ofrecen|trabajan con|what services|que servicios',
    2,
  ),
];
