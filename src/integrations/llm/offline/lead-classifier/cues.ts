/**
 * Cues of the lead classifier: named patterns over the folded text (lower case, no accents, anything
 * but letters and digits a space), written from the policy in JUDGEMENT.md, in English and Spanish.
 * A cue decides nothing by itself: it is one feature whose weight the trainer learns from the labelled
 * data, and its label is how a decision names it among its reasons. They carry what 500 examples
 * cannot teach alone: that "nearshore", "outsourcing" and "staff augmentation" are one idea, or that
 * GSA and Xrumer are link-spam tools.
 */
export interface Cue {
  id: string;
  /** How a decision's reasons name it. */
  label: string;
  pattern: RegExp;
}

const rx = (source: string) => new RegExp(`\\b(?:${source})\\b`);

export const TEXT_CUES: Cue[] = [
  // Spam: mass or abusive content with no business intent towards the agency.
  {
    id: 'backlinks',
    label: 'mentions backlinks or link building',
    pattern: rx(
      'back ?links?|link ?building|do ?follow|pbns?|enlaces? (?:de calidad|entrantes|dofollow|de autoridad)|tier ?[123]',
    ),
  },
  {
    id: 'seo-tools',
    label: 'names link-spam tools',
    pattern: rx('gsa|xrumer|senuke|scrape ?box|money ?robot|rank ?er ?x|zenno\\w*|ser ?engine|web ?2 ?0'),
  },
  {
    id: 'domain-metrics',
    label: 'quotes domain metrics (DA, DR)',
    pattern: rx('(?:da|dr|pa|tf|cf) ?\\d{2}|domain (?:authority|rating)|autoridad de dominio|ahrefs|moz'),
  },
  {
    id: 'bulk',
    label: 'offers links, traffic or followers in bulk',
    pattern: rx(
      '\\d+ ?k?(?: \\d+)? ?(?:backlinks|links|enlaces|visitas|visits|visitors|traffic|followers|seguidores|likes|emails|correos)|thousands of|miles de|millions of|millones de (?:visitas|correos|seguidores)',
    ),
  },
  {
    id: 'guarantee',
    label: 'promises guaranteed results',
    pattern: rx(
      'guarantee[ds]?|guaranteed|garantiza\\w*|garantia|100 (?:safe|guaranteed|seguro|garantizado)|first page|primera pagina|page one|top (?:1|3|10) (?:of|en|de) google',
    ),
  },
  {
    id: 'crypto',
    label: 'mentions crypto or forex',
    pattern: rx(
      'bitcoin|btc|crypto\\w*|cripto\\w*|usdt|binance|forex|trading|opciones binarias|binary options',
    ),
  },
  {
    id: 'returns',
    label: 'promises investment returns',
    pattern: rx(
      'profits?|ganancias?|returns?|rendimientos?|roi|passive income|ingresos? pasivos?|double your|duplica\\w*|multiplica\\w*|invest\\w*|inversion\\w*|invierte|invertir',
    ),
  },
  {
    id: 'easy-money',
    label: 'promises easy money',
    pattern: rx(
      'make money|earn (?:up to|from home|\\d)|gana(?:r)? (?:dinero|hasta)|dinero (?:facil|rapido|extra)|work from home|trabaja desde (?:casa|tu casa)|desde la comodidad|extra income|ingresos extra',
    ),
  },
  {
    id: 'prize',
    label: 'announces a prize or gift card',
    pattern: rx(
      'you (?:have )?won|winner|congratulations|felicidades|felicitaciones|ganador\\w*|ganaste|has (?:sido )?(?:ganado|seleccionad\\w*)|premio|prize|sorteo|lottery|loteria|gift ?cards?|tarjetas? de regalo|(?:google play|itunes|apple|steam|amazon) (?:gift |cards?|codes?)|tarjetas? (?:de )?(?:google|amazon|itunes|apple|steam)|claim|reclam\\w*|selected|seleccionad\\w*',
    ),
  },
  {
    id: 'loan',
    label: 'offers loans or credit',
    pattern: rx(
      'loans?|prestamos?|creditos?|credit|approved|aprobad\\w*|pre ?aprobad\\w*|sin (?:buro|aval|fiador)|no credit check|debt|deudas?',
    ),
  },
  {
    id: 'adult',
    label: 'adult or dating content',
    pattern: rx(
      'dating|singles?|solter[oa]s?|hot (?:girls|singles|women)|chicas|girls|sexy|sex|sexo|xxx|porn\\w*|webcam|escorts?|adult\\w*|adultos|encuentros|citas (?:calientes|discretas|romanticas)|lonely|nude\\w*|desnud\\w*|conocernos|conocerte|hombre serio|mis fotos|my (?:photos|pics|pictures)|perfil privado|private profile',
    ),
  },
  {
    id: 'pharma',
    label: 'sells pills or pharma',
    pattern: rx(
      'v[i1]agra|c[i1]alis|levitra|tramadol|xanax|ozempic|pills?|pastillas?|capsulas|sin receta|without (?:a )?prescription|no prescription|pharmacy|farmacia|weight loss|bajar de peso|adelgaz\\w*|keto|disfuncion|erectil|erectile',
    ),
  },
  {
    id: 'gambling',
    label: 'mentions casino or betting',
    pattern: rx('casinos?|slots?|tragamonedas|apuestas?|betting|poker|jackpot|ruleta|roulette|bonus|bono'),
  },
  {
    id: 'phishing',
    label: 'asks to verify an account or pay a renewal',
    pattern: rx(
      'verify your|verifique|verifica tu|suspend\\w*|suspendid\\w*|bloquead\\w*|locked|password|contrasena|log ?in|inicia sesion|iniciar sesion|confirm your|confirme su|confirma tu|actualice sus datos|actualiza tus datos|expir\\w*|vencimiento|vence|renewal|renew|renovacion|renovar|invoice|factura|unusual activity|actividad inusual|mailbox|buzon|quota exceeded',
    ),
  },
  {
    id: 'impersonation',
    label: 'asks for a discreet favour (impersonation scam)',
    pattern: rx(
      'are you available|estas disponible|esta disponible|favor (?:urgente|rapido|discreto)|(?:quick|urgent|discreet) favou?r|discreet|discret[oa]|i m in a meeting|estoy en (?:una )?reunion|can t talk|no puedo hablar|(?:send|mandame|enviame|manda|envia) (?:me )?(?:the |los )?(?:codes|codigos|claims|fotos de los)',
    ),
  },
  {
    id: 'advance-fee',
    label: 'advance-fee scam wording',
    pattern: rx(
      'inheritance|herencia|beneficiary|beneficiario|million (?:dollars|usd)|millones de dolares|transfer of funds|transferencia de fondos|barrister|next of kin|consignment|diplomat\\w*|unclaimed|deceased|fallecid\\w*|processing fee|tarifa de procesamiento',
    ),
  },
  {
    id: 'urgency',
    label: 'urgency or click-bait',
    pattern: rx(
      'click here|click (?:the|this) link|haz clic|haga clic|da clic|dale clic|limited time|tiempo limitado|act now|actua ya|only today|solo hoy|hurry|ultimas? horas|expires? (?:today|soon)|free|gratis|no te lo pierdas|don t miss',
    ),
  },
  {
    id: 'unsubscribe',
    label: 'has an unsubscribe line (mass mailing)',
    pattern: rx(
      'unsubscribe|opt out|darse de baja|dar de baja|desuscrib\\w*|reply (?:stop|no|remove)|responda (?:baja|no)|responde (?:baja|no)',
    ),
  },

  // Vendor: an identifiable business or freelancer selling services to the agency.
  {
    id: 'we-offer',
    label: 'offers its services (we offer / ofrecemos)',
    pattern: rx(
      'we offer|we provide|we deliver|we supply|we specialize|we specialise|we can (?:help|provide|offer|supply|deliver|support|take|handle|build|be)|we help (?:agencies|companies|businesses|teams)|ofrecemos|le ofrecemos|les ofrecemos|te ofrecemos|brindamos|proveemos|nos especializamos|nos dedicamos|podemos (?:ayudar\\w*|ofrecer\\w*|apoyar\\w*|encargarnos|ser)',
    ),
  },
  {
    id: 'agency-intro',
    label: 'introduces itself as an agency or studio',
    pattern: rx(
      '(?:we are|we re|i am|i m|somos|soy) (?:a|an|una?|the|el|la)? ?(?:\\w+ ){0,3}(?:agency|agencies|firm|studio|consultancy|software house|software factory|dev shop|agencia|consultora|despacho|fabrica de software|estudio|freelancer?|developer|designer|desarrollador\\w*|disenador\\w*|programador\\w*)|(?:we are|we re|somos) (?:a|an|una?) (?:\\w+ ){0,2}(?:software|development|dev|marketing|seo|design|digital|it|tech|staffing) (?:company|team|house|shop|partner)|(?:somos|we are) (?:una?|a|an) (?:empresa|compania|equipo|company|team) (?:de )?(?:desarrollo|software|tecnologia|marketing|seo|diseno|ti|staffing|\\w+ digital)|(?:team of|equipo de|con) (?:xnumx|\\d+) (?:\\w+ )?(?:developers|engineers|devs|ingenieros|desarrolladores|programadores)',
    ),
  },
  {
    id: 'our-team',
    label: 'describes its own team or services',
    pattern: rx(
      'our (?:team of|developers|engineers|designers|experts|specialists|services|rates|pricing|portfolio|clients include|agency|talent|writers)|nuestr[oa]s? (?:equipo de|desarrolladores|ingenieros|disenadores|expertos|especialistas|servicios|tarifas|precios|portafolio|portfolio|agencia|talento|redactores)',
    ),
  },
  {
    id: 'your-clients',
    label: 'speaks of the agency’s clients or workload',
    pattern: rx(
      'your (?:clients|customers|agency|overflow|backlog|pipeline|workload)|agencies like yours|agencias como (?:la suya|la tuya|ustedes|la vuestra)|sus clientes|tus clientes|vuestros clientes|su agencia|tu agencia|vuestra agencia|sobrecarga|picos de (?:trabajo|demanda)|mucho (?:trabajo|laburo)',
    ),
  },
  {
    id: 'targets-agencies',
    label: 'sells to agencies',
    pattern: rx(
      '(?:for|to|with|help|helps|helping|serve|serving) (?:\\w+ ){0,2}agencies|agencies (?:like|such as)|(?:para|a|con|ayuda a|ayudamos a|trabajamos con) (?:\\w+ ){0,2}agencias|agencias (?:digitales|de desarrollo|de software|web|como)|(?:sites|apps|webs|sitios|proyectos|projects) (?:that |que )?(?:you|ustedes|vos|tu|vosotros) (?:build|develop|make|desarrollan|hacen|construyen|haceis|desarrollais)|your clients? (?:s )?projects|proyectos de (?:sus|tus|vuestros) clientes',
    ),
  },
  {
    id: 'hands-work-to-us',
    label: 'wants to hand its own work to the agency',
    pattern: rx(
      'you build|ustedes lo (?:desarrollan|programan|construyen|hacen)|we pay your|pagamos (?:su|tu|vuestra) tarifa|(?:subcontract|outsource|hand|pass) (?:\\w+ ){0,3}to you|(?:subcontratar\\w*|tercerizar\\w*|derivar\\w*|pasar\\w*)(?: el| la| los| las)? (?:\\w+ ){0,3}(?:a ustedes|con ustedes|a vos|a un estudio|a una agencia)|les (?:podemos|queremos|quisieramos) (?:subcontratar|pasar|derivar|tercerizar)|al que subcontratar|a quien subcontratar|(?:we|i) (?:don t|do not) have (?:a |an |any )?(?:in house )?(?:dev|development|developers|tech)|no tenemos (?:equipo|desarrolladores|programadores|area) (?:de )?(?:desarrollo|tecnico|tecnologia|ti|it)?|no podemos (?:hacerlo|hacer|con todo|cubrir)|can t (?:handle|take on|cover)|more than we can handle|development partner to take',
    ),
  },
  {
    id: 'be-your-partner',
    label: 'offers to become the agency’s partner or provider',
    pattern: rx(
      '(?:be|become) your (?:\\w+ ){0,3}(?:partner|provider|vendor|team|arm|extension|ally|supplier)|ser (?:su|tu|vuestro) (?:\\w+ ){0,3}(?:aliado|socio|partner|proveedor|brazo|equipo|extension)|go to (?:\\w+ ){0,2}partner|socio (?:tecnologico|de desarrollo|estrategico) de (?:su|tu|vuestra)',
    ),
  },
  {
    id: 'outsourcing',
    label: 'offers staff augmentation or outsourcing',
    pattern: rx(
      'staff augmentation|team augmentation|augment\\w* your|aumento de (?:personal|equipo|staff)|extend your team|extender (?:su|tu) equipo|nearshore|near shore|offshore|outsourc\\w*|tercerizacion|terceriz\\w*|body ?shop\\w*|bench|disponibilidad inmediata|available immediately|per hour|por hora|hourly|usd ?\\d+ ?(?:h|hr|hour|hora)|you re hiring|you are hiring|estan contratando|(?:su|tu|vuestra) (?:vacante|oferta de empleo)|your (?:job post|opening|vacancy)',
    ),
  },
  {
    id: 'freelancer',
    label: 'a freelancer offering capacity',
    pattern: rx(
      'freelance\\w*|available for (?:projects|work|hire)|disponible para (?:proyectos|trabajar|colaborar)|my (?:rate|hourly rate|portfolio|cv|resume)|mi (?:tarifa|portafolio|portfolio|cv)|(?:extra|spare) capacity|capacidad (?:extra|adicional|disponible|ociosa)|overflow|apoyarlos|apoyarles|collaborate with you|colaborar con (?:ustedes|vos|usted|su)',
    ),
  },
  {
    id: 'white-label',
    label: 'offers white-label, reselling or commissions',
    pattern: rx(
      'white ?label|marca blanca|resell\\w*|revend\\w*|reseller|under your brand|bajo (?:su|tu) marca|con (?:su|tu) marca|partner program|programa de (?:partners|socios|afiliados|referidos)|affiliate|afiliad\\w*|referral|referid\\w*|comision\\w*|commission\\w*|revenue share|rev share|distribuidor\\w*|distributors?|become (?:a |an )?(?:reseller|distributor|partner)|conviertan\\w* en',
    ),
  },
  {
    id: 'lead-gen',
    label: 'pitches lead generation',
    pattern: rx(
      'lead generation|lead gen|generacion de (?:leads|prospectos|clientes|demanda)|qualified (?:leads|appointments|meetings)|(?:leads|citas|reuniones) calificad\\w*|appointment setting|book(?:ed)? (?:meetings|calls|appointments)|agendar (?:reuniones|citas)|cold (?:email|outreach|calling)|prospeccion|outbound|new clients every|clientes nuevos cada',
    ),
  },
  {
    id: 'sponsored-post',
    label: 'sells guest posts or sponsored articles',
    pattern: rx(
      'guest ?posts?|sponsored (?:posts?|articles?|content)|articulos? patrocinad\\w*|publicaciones? patrocinad\\w*|post patrocinado|notas? patrocinad\\w*|link insertions?|insercion de enlaces?|niche edits?|publish (?:an? )?(?:article|post)|publicar (?:un |su |tu )?(?:articulo|nota)',
    ),
  },
  {
    id: 'site-pitch',
    label: 'comments on the agency’s own website (a pitch)',
    pattern: rx(
      'i (?:noticed|saw|checked|was looking at|came across|visited|reviewed|looked at) your (?:website|site|rankings)|(?:vi|revise|revisado|revisando|revisamos|analizamos|analizando|note|notamos|visite|estuve viendo|estuve mirando|mirando|echamos un vistazo a) (?:a )?(?:su|tu|vuestra|vuestro) (?:sitio|web|pagina)|(?:loved|love|liked|impressed by|admire) your (?:portfolio|work|website|site)|(?:nos|me) (?:encanto|gusto) (?:su|tu|vuestro|vuestra) (?:portafolio|portfolio|trabajo|web|sitio)|te escribo por tu web|(?:don t|doesn t|do not|does not) (?:rank|appear|show up)|no (?:rankean|aparecen|apareceis|aparece|posicionan|salen) (?:para|en|por)|your (?:website|site) (?:is not|isn t|doesn t|could|has|ranks?|loads)|(?:su|tu) (?:sitio|web|pagina) (?:no|tiene|podria|necesita|carga)|free (?:audit|seo audit|analysis|report)|auditoria (?:gratuita|gratis|sin costo)|improve your (?:ranking|rankings|seo|traffic|google)|rank your|posicionar (?:su|tu) (?:sitio|web|pagina|empresa|negocio)',
    ),
  },
  {
    id: 'sales-call',
    label: 'asks for a short sales call',
    pattern: rx(
      '(?:10|15|20|30) ?(?:min|mins|minute|minutes|minutos)|quick call|quick chat|llamada (?:rapida|breve|corta)|charla (?:rapida|breve)|calendly|book a (?:call|time|slot)|open to a (?:call|chat)|te interesa (?:agendar|una llamada)|le interesa (?:agendar|una llamada)',
    ),
  },

  // Lead: a prospect who would pay for work, however suspicious it looks.
  {
    id: 'asks-for-work',
    label: 'asks for work to be done',
    pattern: rx(
      'we need|i need|ne[cs]{1,2}e[cs]?it(?:o|amos|a|an)|we re looking for|we are looking for|i m looking for|i am looking for|we want|i want|we d like|we would like|i d like|i would like|can you (?:build|make|help|do|create|develop|fix|quote|take)|could you|do you (?:build|make|do|develop|work)|necesitamos|necesito|buscamos|busco|estamos buscando|queremos|quiero|quisiera|quisieramos|nos gustaria|me gustaria|pueden (?:hacer|ayudar\\w*|desarrollar|crear|cotizar\\w*)|podrian|ustedes (?:hacen|pueden|trabajan|desarrollan)|requerimos|requiero|ocupamos|ocupo|precisamos|preciso',
    ),
  },
  {
    id: 'asks-price',
    label: 'asks for a quote or a price',
    pattern: rx(
      'quote|quotation|estimate|how much|ballpark|cotiza\\w*|presupuesto|cuanto (?:cuesta|costaria|sale|saldria|cobran|cobrarian|seria)|what would it cost|precio aproximado',
    ),
  },
  {
    id: 'own-business',
    label: 'describes their own business',
    pattern: rx(
      '(?:our|my) (?:\\w+ ){0,2}(?:store|shop|restaurant|clinic|school|company|business|bakery|firm|practice|brand|startup|shops|stores|hotel|gym|farm|office|offices|warehouse|salon|members|patients|students|customers|donors|trucks|fleet)|(?:nuestr[oa]s?|mis?) (?:\\w+ ){0,2}?(?:tienda|tiendas|negocio|restaurante|clinica|escuela|colegio|empresa|marca|emprendimiento|pyme|consultorio|startup|hotel|gimnasio|finca|oficina|bodega|socios|pacientes|alumnos|clientes|donantes|local|locales|sucursales|salon|camiones|flota)',
    ),
  },
  {
    id: 'hacked',
    label: 'reports a hacked or infected site',
    pattern: rx(
      'hack\\w*|hacke\\w*|malware|infect\\w*|inject\\w*|inyect\\w*|compromised|comprometid\\w*|virus|defaced|redirect\\w*|redirig\\w*|redirecciona\\w*|aparecen (?:enlaces|links)|links? (?:appeared|showing|show up)',
    ),
  },
  {
    id: 'previous-provider',
    label: 'mentions a previous provider',
    pattern: rx(
      '(?:previous|former|old|last) (?:seo|agency|provider|developer|dev|freelancer|company|web guy)|(?:anterior|antigua|ex) (?:agencia|proveedor|desarrollador|programador|empresa)|(?:agencia|proveedor|programador|desarrollador|freelancer) anterior',
    ),
  },
  {
    id: 'regulated',
    label: 'says it is licensed or regulated',
    pattern: rx(
      'licensed|regulated|licencia\\w*|regulad\\w*|supervisad\\w*|cnbv|fca|cnmv|sbs|superintendencia|compliance|kyc|aml|cumplimiento normativo',
    ),
  },
];

/**
 * The cues and structural features (features.ts) that are signs of spam, and of a vendor. Their
 * absence is a feature too: a message with none of the signs is rarely spam, however short.
 */
export const SPAM_SIGNS = new Set([
  'backlinks',
  'seo-tools',
  'domain-metrics',
  'bulk',
  'guarantee',
  'crypto',
  'returns',
  'easy-money',
  'prize',
  'loan',
  'adult',
  'pharma',
  'gambling',
  'phishing',
  'impersonation',
  'advance-fee',
  'urgency',
  'unsubscribe',
  'links-3',
  'mostly-links',
  'shouting',
  'exclaims',
  'emoji',
  'handle',
  'at-handle',
  'gibberish',
  'test',
  'repeats',
  'mail-disposable',
  'mail-odd-tld',
  'name-link',
  'name-odd',
]);

export const VENDOR_SIGNS = new Set([
  'we-offer',
  'agency-intro',
  'our-team',
  'your-clients',
  'targets-agencies',
  'be-your-partner',
  'outsourcing',
  'freelancer',
  'white-label',
  'lead-gen',
  'sponsored-post',
  'site-pitch',
  'sales-call',
  'title-sales',
  'mail-sales',
]);

/** Free-mail providers: a person writing from a personal address. */
export const FREE_MAIL = new Set([
  'gmail.com',
  'googlemail.com',
  'hotmail.com',
  'hotmail.es',
  'outlook.com',
  'outlook.es',
  'live.com',
  'live.com.mx',
  'msn.com',
  'yahoo.com',
  'yahoo.es',
  'yahoo.com.mx',
  'yahoo.com.ar',
  'ymail.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.net',
  'mail.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'zoho.com',
  'rediffmail.com',
  'qq.com',
  '163.com',
]);

/** Throwaway mailboxes. */
export const DISPOSABLE_MAIL = new Set([
  'mailinator.com',
  'guerrillamail.com',
  '10minutemail.com',
  'tempmail.com',
  'temp-mail.org',
  'yopmail.com',
  'trashmail.com',
  'sharklasers.com',
  'getnada.com',
  'dispostable.com',
  'maildrop.cc',
  'throwawaymail.com',
  'fakeinbox.com',
]);

/** Top-level domains mostly seen on throwaway and bulk-mail domains. */
export const ODD_TLDS = new Set([
  'xyz',
  'top',
  'online',
  'site',
  'click',
  'ru',
  'cn',
  'buzz',
  'icu',
  'info',
  'biz',
  'live',
  'store',
  'services',
  'club',
  'win',
  'loan',
  'work',
  'vip',
]);

/** The local part of a mailbox that sends sales outreach. */
export const SALES_MAILBOX =
  /^(sales|ventas|marketing|business|bd|bizdev|partners?|partnerships|outreach|growth|comercial|seo|leads|offers?|promo\w*|noreply|no-reply)$/;

/** Words of a mail domain that name a tech, marketing or staffing firm. */
export const FIRM_DOMAIN =
  /(seo|link|lead|rank|traffic|outsourc|nearshore|offshore|staff|talent|devs?\b|software|soft\b|tech|digital|agency|agencia|marketing|media|studio|labs?\b|solutions|soluciones|hosting|growth|web)/;

/** Job titles of people who sell. */
export const SALES_TITLE = rx(
  'sales|ventas|business development|desarrollo de negocios|account (?:executive|manager)|bdm|bdr|sdr|partnerships?|alianzas|growth|outreach|comercial|ejecutiv[oa] (?:comercial|de cuentas)|seo|link ?builder|marketing (?:specialist|executive)|recruit\\w*|talent|reclutador\\w*',
);

/** Job titles of people who buy. */
export const OWNER_TITLE = rx(
  'owner|founder|co ?founder|ceo|coo|cto|cfo|president|director\\w*|head|manager|gerente|duen[oa]|propietari[oa]|fundador\\w*|socio|socia|jefe|jefa|administrador\\w*|coordinador\\w*|gerenta|encargad[oa]',
);

/** Job titles of freelancers and makers offering themselves. */
export const MAKER_TITLE = rx(
  'freelance\\w*|developer|desarrollador\\w*|programador\\w*|designer|disenador\\w*|full ?stack|front ?end|back ?end|consultant|consultor\\w*',
);
