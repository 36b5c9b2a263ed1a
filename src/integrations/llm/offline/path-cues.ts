/**
 * The framings the policy's service paths turn on (JUDGEMENT.md, "The five service paths"), as
 * patterns over the folded message, English and Spanish. The path model reads each as a feature and
 * learns its weight; the patterns only say what the words mean, never which path wins.
 */
export const PATH_CUES: Record<string, string> = {
  // Launch: getting a product to market.
  mvp: '\\bmvp|minimum viable|producto minimo|version minima',
  launchWord: '\\blaunch\\w*|\\blanz\\w*|go to market|salir al mercado|salida al mercado',
  goLive:
    '\\bgo(?:ing)? live|take (?:it|this|the \\w+) live|go-live|golive|paso a produccion|(?:poner|ponerla|ponerlo|subir|llevar)\\w* (?:a|en) produccion|salir en vivo|salir al aire|publicar\\w* en (?:la |las )?(?:app store|play store|tiendas?)|app store|play store|google play|testflight|store review|revision de apple|dominio|domain|\\bssl\\b|\\bdns\\b',
  beta: '\\bbeta\\b|beta testers?|early access|acceso anticipado|waitlist|wait list|lista de espera|public release|publicly|al publico|abrirla al publico|abrirlo al publico',
  demoDay: 'demo day|demoday|aceleradora|accelerator|incubadora|incubator|pitch',
  investors:
    'investors?|inversionistas?|inversores?|ronda|funding round|seed round|pre-?seed|pre-?semilla|serie a|series a',
  pilot: '\\bpilot\\b|\\bpiloto\\b|prueba piloto|pilot program',
  firstVersion:
    'first version|primera version|\\bv1\\b|version 1|first release|primer lanzamiento|first customers|primeros clientes|paying users|usuarios que paguen',
  productIdea: '\\bidea\\b|startup|emprendimiento|founders?|fundador\\w*',
  deadline:
    'deadline|fecha limite|before (?:the |our )?\\w+|antes de(?:l)? \\w+|by (?:january|february|march|april|may|june|july|august|september|october|november|december|q[1-4]|spring|summer|fall|autumn|winter)|\\bin \\d+ (?:weeks|months)|en \\d+ (?:semanas|meses)',
  // Not a product launch: a shop's opening, a recurring course or campaign.
  opening:
    '\\bopening|\\bopen(?:s|ing)? (?:our|a|the|my) |apertura|abrimos|abrir (?:la|el|nuestra|nuestro|un|una)|inaugur\\w*|estamos por abrir|vamos a abrir|grand opening',
  recurring:
    'every (?:month|year|season|semester|term|quarter|week)|each (?:month|year|season|semester|term)|cada (?:mes|ano|temporada|semestre|trimestre|semana)|again|otra vez|de nuevo|new edition|nueva edicion|cohort\\w*|cohorte\\w*|edicion|temporada|season',
  courseOrCampaign:
    '\\bcourses?\\b|\\bcursos?\\b|campaign\\w*|campana\\w*|webinar\\w*|promo\\w*|drops?\\b|collection|coleccion',
  // Scale: growing something that exists.
  growth:
    'growing|grow\\w*|growth|crec\\w*|expan\\w*|new (?:countries|markets|cities)|nuevos (?:paises|mercados)|nuevas ciudades|more users|mas usuarios|\\d+ ?k users|\\d+ mil usuarios|doubl\\w*|duplic\\w*|triplic\\w*',
  load: 'traffic|trafico|load|carga|peak|pico|slow\\w*|lent\\w*|crash\\w*|se cae|se caen|se cayo|caid\\w*|goes down|went down|down during|timeouts?|no aguanta|aguant\\w*|handle|soport\\w*|performance|rendimiento|latenc\\w*|servers?|servidor\\w*|scal\\w*|escal\\w*|infra\\w*|cloud|nube|aws|azure|kubernetes|database|base de datos|peta|colaps\\w*',
  capacity:
    'developers?|devs?\\b|engineers?|desarrollador\\w*|programador\\w*|ingenier\\w*|capacity|capacidad|backlog|team augmentation|extra hands|manos|contratar|hire|dedicated|dedicad\\w*|full[- ]time|tiempo completo|nearshore|outsourc\\w*',
  existing:
    '\\bour (?:app|site|website|platform|store|shop|system|backend|product)|nuestr[ao]s? (?:app|sitio|web|pagina|plataforma|tienda|sistema|producto)|\\bmi (?:app|web|pagina|tienda|sitio)|\\bla (?:app|web|pagina|plataforma) (?:ya|esta|anda|tiene)|already|\\bya (?:tenemos|esta|existe|funciona)|existing|current|actual|live with|en produccion|in production',
  // Build: something new for a business without it.
  noneYet:
    "no website|no site|don'?t have (?:a|any)|do not have (?:a|any)|no tenemos|no tengo|sin (?:pagina|web|sitio|app)|only (?:a )?(?:facebook|instagram)|solo (?:tenemos |tengo )?(?:facebook|instagram)|first (?:website|site|app)|primera (?:web|pagina|app)|from scratch|desde cero|brand[- ]new|nuev[ao]",
  redesign:
    'redesign\\w*|redisen\\w*|rebuild|rehacer|renovar|revamp|refresh|modernizar|looks old|se ve viej\\w*|anticuad\\w*|outdated',
  // Custom: integration and automation at the core.
  integration:
    'integrat\\w*|integr\\w*|connect\\w*|conect\\w*|sync\\w*|sincroniz\\w*|\\bapi\\b|webhook|erp|crm|zapier|automat\\w*|automati\\w*|se (?:genere|generen|actualice|actualicen|cree|creen|envie|envien) sol[oa]s?|sol[oa]s? automatic\\w*|by hand|a mano|manual\\w*|retyp\\w*|copy\\w* (?:them|it|orders)|copiando|copiarlos|spreadsheet|excel|planilla|\\bbot\\b|chatbot|whatsapp|iot|sensor\\w*|dashboard|tablero|panel',
  // Technical Review: unclear needs, audits, second opinions, diagnosis.
  review:
    'audit\\w*|auditor\\w*|review|revis\\w*|second opinion|segunda opinion|diagnos\\w*|assess\\w*|evalua\\w*|worth|vale la pena|rewrite|reescrib\\w*|keep or|rehacer o|mantener o|o la mantenemos|is (?:that|it) true|es cierto|what do you (?:do|offer)|que hacen|que ofrecen|servicios ofrecen',
  unsure:
    "not sure|don'?t know|do not know|no se\\b|no sabemos|no tengo claro|unclear|where to start|por donde empezar|what we need|que necesitamos|que necesito|help me understand|advice|consejo|asesor\\w*|recommend\\w*|recomiend\\w*|should we|deberiamos|conviene",
  greeting:
    '^\\s*(?:hi|hello|hey|hola|buenas|buen dia|buenos dias|buenas tardes|good (?:morning|afternoon))\\b',
  contact:
    'call|llamada|talk|hablar|hablemos|meeting|reunion|quote|cotiza\\w*|price|precio|cuanto cuesta|how much|next steps|proximos pasos|form|formulario',
};

export const PATH_CUE_PATTERNS: [string, RegExp][] = Object.entries(PATH_CUES).map(([name, source]) => [
  name,
  new RegExp(source),
]);
