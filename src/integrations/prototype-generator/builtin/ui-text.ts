import type { PrototypeLanguage } from '../types.ts';

/** The prototype's interface wording in English and Spanish (industry wording lives in industries-*.ts). */
export interface UiText {
  ribbon: { label: string; preparedFor: string; goal: string };
  nav: {
    services: string;
    book: string;
    shop: string;
    work: string;
    pricing: string;
    blog: string;
    about: string;
    faq: string;
    contact: string;
    login: string;
  };
  cta: Record<'b2b' | 'b2c' | 'youngAudience' | 'specializedProfessionals' | 'generalAudience', string>;
  secondaryCta: string;
  servicesTitle: string;
  servicesLead: string;
  learnMore: string;
  booking: { lead: string; service: string; date: string; time: string; name: string; confirm: string };
  shop: { title: string; lead: string; add: string; bestSeller: string };
  blog: { title: string; lead: string; read: string; minutes: string };
  gallery: { title: string; lead: string };
  testimonials: { title: string; lead: string };
  pricing: {
    title: string;
    lead: string;
    month: string;
    popular: string;
    choose: string;
    tiers: { name: string; price: string; items: string[] }[];
  };
  team: { title: string; lead: string; roles: string[] };
  faq: { title: string; items: { q: string; a: string }[] };
  newsletter: { title: string; lead: string; placeholder: string; button: string };
  map: { title: string; address: string; hours: string; hoursValue: string; directions: string };
  contact: {
    title: string;
    lead: string;
    name: string;
    email: string;
    message: string;
    send: string;
    phone: string;
  };
  chatBubble: string;
  band: { title: string; lead: string };
  footer: { rights: string; privacy: string; terms: string; tagline: string };
  highlights: string;
  app: {
    dashboard: string;
    reports: string;
    calendar: string;
    messages: string;
    products: string;
    invoices: string;
    content: string;
    team: string;
    settings: string;
    help: string;
    search: string;
    greeting: string;
    overview: string;
    newItem: string;
    menu: string;
    export: string;
    recent: string;
    viewAll: string;
    status: Record<'ok' | 'pending' | 'new', string>;
    chartTitle: string;
    thisPeriod: string;
    lastPeriod: string;
    months: string[];
    upcoming: string;
    activity: string;
    activityItems: string[];
    goals: string;
    goalItems: string[];
    plan: string;
    upgrade: string;
    loggedAs: string;
  };
}

const EN: UiText = {
  ribbon: { label: 'Prototype', preparedFor: 'Prepared for', goal: 'Goal' },
  nav: {
    services: 'Services',
    book: 'Book',
    shop: 'Shop',
    work: 'Gallery',
    pricing: 'Pricing',
    blog: 'Blog',
    about: 'About',
    faq: 'FAQ',
    contact: 'Contact',
    login: 'Log in',
  },
  cta: {
    b2b: 'Request a demo',
    b2c: 'Get started',
    youngAudience: 'Join now',
    specializedProfessionals: 'Talk to an expert',
    generalAudience: 'Get started',
  },
  secondaryCta: 'See how it works',
  servicesTitle: 'What we do best',
  servicesLead: 'Everything you need, without the complexity.',
  learnMore: 'Learn more',
  booking: {
    lead: 'Choose a time that works for you. You will get a confirmation straight away.',
    service: 'Service',
    date: 'Date',
    time: 'Time',
    name: 'Your name',
    confirm: 'Confirm booking',
  },
  shop: {
    title: 'Popular right now',
    lead: 'Hand-picked favourites, ready to ship.',
    add: 'Add to cart',
    bestSeller: 'Best seller',
  },
  blog: {
    title: 'Latest stories',
    lead: 'Ideas, guides and news from our team.',
    read: 'Read article',
    minutes: 'min read',
  },
  gallery: { title: 'A closer look', lead: 'A glimpse of what we do, every day.' },
  testimonials: { title: 'Loved by our clients', lead: 'Real words from people we work with.' },
  pricing: {
    title: 'Simple, transparent pricing',
    lead: 'No hidden fees. Change or cancel at any time.',
    month: '/month',
    popular: 'Most popular',
    choose: 'Choose plan',
    tiers: [
      { name: 'Starter', price: '$29', items: ['Core features', 'Email support', '1 location'] },
      {
        name: 'Professional',
        price: '$79',
        items: ['Everything in Starter', 'Priority support', 'Up to 5 locations', 'Reports'],
      },
      {
        name: 'Business',
        price: '$149',
        items: ['Everything in Professional', 'Dedicated manager', 'Unlimited locations'],
      },
    ],
  },
  team: {
    title: 'The people behind it',
    lead: 'A small team with a lot of experience.',
    roles: ['Founder & CEO', 'Head of Operations', 'Lead Designer', 'Customer Success'],
  },
  faq: {
    title: 'Frequently asked questions',
    items: [
      {
        q: 'How quickly can I get started?',
        a: 'Most clients are up and running the same day. We guide you through every step.',
      },
      {
        q: 'Can I change my plan later?',
        a: 'Yes. You can upgrade, downgrade or cancel at any time from your account.',
      },
      {
        q: 'Is my information safe?',
        a: 'We encrypt your data and never share it with third parties without your consent.',
      },
      { q: 'Do you offer support in Spanish?', a: 'Of course. Our team answers in English and Spanish.' },
    ],
  },
  newsletter: {
    title: 'Stay in the loop',
    lead: 'One short email a month with news, tips and offers.',
    placeholder: 'you@example.com',
    button: 'Subscribe',
  },
  map: {
    title: 'Visit us',
    address: 'Address',
    hours: 'Opening hours',
    hoursValue: 'Mon–Fri 9:00–18:00 · Sat 10:00–14:00',
    directions: 'Get directions',
  },
  contact: {
    title: 'Let’s talk',
    lead: 'Tell us what you need and we will reply within one business day.',
    name: 'Name',
    email: 'Email',
    message: 'How can we help?',
    send: 'Send message',
    phone: 'Phone',
  },
  chatBubble: 'Hi! How can we help you today?',
  band: { title: 'Ready when you are', lead: 'Take the first step today. It only takes a minute.' },
  footer: { rights: 'All rights reserved.', privacy: 'Privacy', terms: 'Terms', tagline: 'Made with care.' },
  highlights: 'Highlights',
  app: {
    dashboard: 'Dashboard',
    reports: 'Reports',
    calendar: 'Calendar',
    messages: 'Messages',
    products: 'Products',
    invoices: 'Invoices',
    content: 'Content',
    team: 'Team',
    settings: 'Settings',
    help: 'Help',
    search: 'Search…',
    greeting: 'Good morning',
    overview: 'Here is what is happening today.',
    newItem: 'Add',
    menu: 'Menu',
    export: 'Export',
    recent: 'Recent',
    viewAll: 'View all',
    status: { ok: 'Confirmed', pending: 'Pending', new: 'New' },
    chartTitle: 'Performance',
    thisPeriod: 'This year',
    lastPeriod: 'Last year',
    months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
    upcoming: 'Upcoming',
    activity: 'Activity',
    activityItems: ['updated a record', 'left a comment', 'completed a task', 'uploaded a file'],
    goals: 'Monthly goals',
    goalItems: ['Growth target', 'Satisfaction', 'Response time'],
    plan: 'Pro plan',
    upgrade: 'Manage plan',
    loggedAs: 'Administrator',
  },
};

const ES: UiText = {
  ribbon: { label: 'Prototipo', preparedFor: 'Preparado para', goal: 'Objetivo' },
  nav: {
    services: 'Servicios',
    book: 'Reservas',
    shop: 'Tienda',
    work: 'Galería',
    pricing: 'Precios',
    blog: 'Blog',
    about: 'Nosotros',
    faq: 'Preguntas',
    contact: 'Contacto',
    login: 'Ingresar',
  },
  cta: {
    b2b: 'Solicita una demo',
    b2c: 'Empieza ahora',
    youngAudience: 'Únete ya',
    specializedProfessionals: 'Habla con un experto',
    generalAudience: 'Empieza ahora',
  },
  secondaryCta: 'Cómo funciona',
  servicesTitle: 'Lo que mejor hacemos',
  servicesLead: 'Todo lo que necesitas, sin complicaciones.',
  learnMore: 'Saber más',
  booking: {
    lead: 'Elige el horario que mejor te venga. Recibirás la confirmación al instante.',
    service: 'Servicio',
    date: 'Fecha',
    time: 'Hora',
    name: 'Tu nombre',
    confirm: 'Confirmar reserva',
  },
  shop: {
    title: 'Lo más buscado',
    lead: 'Favoritos seleccionados, listos para enviar.',
    add: 'Añadir al carrito',
    bestSeller: 'Más vendido',
  },
  blog: {
    title: 'Últimas publicaciones',
    lead: 'Ideas, guías y novedades de nuestro equipo.',
    read: 'Leer artículo',
    minutes: 'min de lectura',
  },
  gallery: { title: 'Más de cerca', lead: 'Un vistazo a lo que hacemos cada día.' },
  testimonials: {
    title: 'Lo que dicen nuestros clientes',
    lead: 'Palabras reales de personas con las que trabajamos.',
  },
  pricing: {
    title: 'Precios simples y transparentes',
    lead: 'Sin costos ocultos. Cambia o cancela cuando quieras.',
    month: '/mes',
    popular: 'Más elegido',
    choose: 'Elegir plan',
    tiers: [
      { name: 'Inicial', price: '$29', items: ['Funciones esenciales', 'Soporte por email', '1 sede'] },
      {
        name: 'Profesional',
        price: '$79',
        items: ['Todo lo del plan Inicial', 'Soporte prioritario', 'Hasta 5 sedes', 'Informes'],
      },
      {
        name: 'Empresa',
        price: '$149',
        items: ['Todo lo del plan Profesional', 'Gestor dedicado', 'Sedes ilimitadas'],
      },
    ],
  },
  team: {
    title: 'Las personas detrás',
    lead: 'Un equipo pequeño con mucha experiencia.',
    roles: ['Fundadora y CEO', 'Director de operaciones', 'Diseñadora principal', 'Atención al cliente'],
  },
  faq: {
    title: 'Preguntas frecuentes',
    items: [
      {
        q: '¿Cuánto tardo en empezar?',
        a: 'La mayoría de nuestros clientes empieza el mismo día. Te acompañamos en cada paso.',
      },
      {
        q: '¿Puedo cambiar de plan más adelante?',
        a: 'Sí. Puedes subir, bajar o cancelar tu plan cuando quieras desde tu cuenta.',
      },
      {
        q: '¿Mi información está segura?',
        a: 'Ciframos tus datos y nunca los compartimos con terceros sin tu consentimiento.',
      },
      { q: '¿Atienden en inglés?', a: 'Claro. Nuestro equipo responde en español e inglés.' },
    ],
  },
  newsletter: {
    title: 'Mantente al día',
    lead: 'Un correo breve al mes con novedades, consejos y ofertas.',
    placeholder: 'tu@correo.com',
    button: 'Suscribirme',
  },
  map: {
    title: 'Visítanos',
    address: 'Dirección',
    hours: 'Horario',
    hoursValue: 'Lun–Vie 9:00–18:00 · Sáb 10:00–14:00',
    directions: 'Cómo llegar',
  },
  contact: {
    title: 'Hablemos',
    lead: 'Cuéntanos qué necesitas y te responderemos en un día hábil.',
    name: 'Nombre',
    email: 'Correo',
    message: '¿En qué podemos ayudarte?',
    send: 'Enviar mensaje',
    phone: 'Teléfono',
  },
  chatBubble: '¡Hola! ¿En qué podemos ayudarte hoy?',
  band: { title: 'Listos cuando tú lo estés', lead: 'Da el primer paso hoy. Solo toma un minuto.' },
  footer: {
    rights: 'Todos los derechos reservados.',
    privacy: 'Privacidad',
    terms: 'Términos',
    tagline: 'Hecho con cariño.',
  },
  highlights: 'Destacados',
  app: {
    dashboard: 'Panel',
    reports: 'Informes',
    calendar: 'Agenda',
    messages: 'Mensajes',
    products: 'Productos',
    invoices: 'Facturas',
    content: 'Contenido',
    team: 'Equipo',
    settings: 'Ajustes',
    help: 'Ayuda',
    search: 'Buscar…',
    greeting: 'Buenos días',
    overview: 'Esto es lo que está pasando hoy.',
    newItem: 'Añadir',
    menu: 'Menú',
    export: 'Exportar',
    recent: 'Recientes',
    viewAll: 'Ver todo',
    status: { ok: 'Confirmado', pending: 'Pendiente', new: 'Nuevo' },
    chartTitle: 'Rendimiento',
    thisPeriod: 'Este año',
    lastPeriod: 'Año pasado',
    months: ['Ene', 'Feb', 'Mar', 'Abr', 'May', 'Jun', 'Jul', 'Ago', 'Sep', 'Oct', 'Nov', 'Dic'],
    upcoming: 'Próximamente',
    activity: 'Actividad',
    activityItems: ['actualizó un registro', 'dejó un comentario', 'completó una tarea', 'subió un archivo'],
    goals: 'Metas del mes',
    goalItems: ['Meta de crecimiento', 'Satisfacción', 'Tiempo de respuesta'],
    plan: 'Plan Pro',
    upgrade: 'Gestionar plan',
    loggedAs: 'Administración',
  },
};

export function uiText(language: PrototypeLanguage): UiText {
  return language === 'es' ? ES : EN;
}

export type AudienceId = keyof UiText['cta'];

export function audienceFor(value: string | null | undefined): AudienceId {
  const key = (value ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  if (key === 'b2b' || /business|empresa|company|corporat/.test(key)) return 'b2b';
  if (key === 'b2c' || /consumer|cliente|customer/.test(key)) return 'b2c';
  if (/young|joven|student|teen|genz/.test(key)) return 'youngAudience';
  if (/special|professional|expert|profesional/.test(key)) return 'specializedProfessionals';
  return 'generalAudience';
}
