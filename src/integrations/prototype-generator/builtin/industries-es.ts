import type { IndustryId, IndustryPack } from './industry-types.ts';

/** Personas de ejemplo compartidas por las tablas y testimonios de cada sector (ficticias). */
const PEOPLE = ['Lucía Fernández', 'Mateo Rojas', 'Valentina Gómez', 'Diego Morales', 'Camila Torres'];

export const INDUSTRIES_ES: Record<IndustryId, IndustryPack> = {
  technology: {
    brand: 'Nimbus Labs',
    hero: {
      eyebrow: 'Software que crece contigo',
      title: 'Lanza más rápido con una plataforma que tu equipo amará',
      lead: 'Automatiza las tareas repetitivas, conecta tus herramientas y mira cada métrica importante en un solo espacio seguro.',
    },
    offerings: [
      {
        icon: 'zap',
        title: 'Automatización',
        text: 'Flujos que se ejecutan solos, del alta de clientes a la facturación.',
      },
      {
        icon: 'layers',
        title: 'Integraciones',
        text: 'Conecta en dos clics las más de 40 herramientas que ya usas.',
      },
      {
        icon: 'shield',
        title: 'Seguridad empresarial',
        text: 'SSO, registros de auditoría y cifrado por defecto.',
      },
    ],
    stats: [
      { value: '99,98 %', label: 'disponibilidad' },
      { value: '3×', label: 'lanzamientos más rápidos' },
      { value: '24/7', label: 'soporte experto' },
    ],
    entity: { one: 'cuenta', many: 'Cuentas' },
    kpis: [
      { label: 'Ingresos recurrentes', value: '$84,2k', delta: '+12,4 %', up: true },
      { label: 'Usuarios activos', value: '12.480', delta: '+8,1 %', up: true },
      { label: 'Cancelaciones', value: '1,9 %', delta: '-0,4 pt', up: true },
      { label: 'Tickets abiertos', value: '37', delta: '+5', up: false },
    ],
    columns: ['Cuenta', 'Plan', 'Estado', 'MRR'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Empresa', status: 'ok', amount: '$2.400' },
      { name: PEOPLE[1]!, detail: 'Crecimiento', status: 'new', amount: '$890' },
      { name: PEOPLE[2]!, detail: 'Crecimiento', status: 'ok', amount: '$890' },
      { name: PEOPLE[3]!, detail: 'Inicial', status: 'pending', amount: '$190' },
      { name: PEOPLE[4]!, detail: 'Empresa', status: 'ok', amount: '$3.100' },
    ],
    products: [
      { name: 'Inicial', price: '$19' },
      { name: 'Crecimiento', price: '$89' },
      { name: 'Empresa', price: '$240' },
    ],
    articles: [
      'Cómo redujimos a la mitad el tiempo de despliegue',
      'Guía práctica de diseño API-first',
      'Lista de seguridad para equipos en crecimiento',
    ],
    testimonials: [
      {
        quote: 'Cambiamos cuatro herramientas por una y pasamos de lanzar cada mes a cada semana.',
        author: PEOPLE[0]!,
        role: 'CTO, Brightwave',
      },
      {
        quote: 'La configuración tomó una tarde. El soporte responde en minutos, no en días.',
        author: PEOPLE[3]!,
        role: 'Jefe de Operaciones, Lumen',
      },
      {
        quote: 'Por fin un panel que toda la empresa abre cada mañana.',
        author: PEOPLE[2]!,
        role: 'Líder de producto, Orbit',
      },
    ],
    gallery: ['Panel', 'App móvil', 'Informes', 'Integraciones', 'Flujos', 'Espacios de equipo'],
    booking: 'Agenda una demo en vivo',
  },
  healthcare: {
    brand: 'Clínica CareWell',
    hero: {
      eyebrow: 'Cuidado centrado en ti',
      title: 'Salud moderna, cerca de casa',
      lead: 'Reserva tu cita en línea, consulta con especialistas de confianza y guarda tu historial en un lugar seguro.',
    },
    offerings: [
      {
        icon: 'heart',
        title: 'Medicina general',
        text: 'Chequeos, prevención y seguimiento para toda la familia.',
      },
      {
        icon: 'calendar',
        title: 'Citas en línea',
        text: 'Elige el horario que te convenga y recibe recordatorios automáticos.',
      },
      {
        icon: 'shield',
        title: 'Privacidad garantizada',
        text: 'Tus datos médicos van cifrados y solo se comparten con tu permiso.',
      },
    ],
    stats: [
      { value: '25+', label: 'especialistas' },
      { value: '4,9/5', label: 'valoración de pacientes' },
      { value: '48 h', label: 'espera media' },
    ],
    entity: { one: 'paciente', many: 'Pacientes' },
    kpis: [
      { label: 'Citas de hoy', value: '64', delta: '+9', up: true },
      { label: 'Pacientes nuevos', value: '128', delta: '+14 %', up: true },
      { label: 'Inasistencias', value: '3,2 %', delta: '-1,1 pt', up: true },
      { label: 'Espera media', value: '11 min', delta: '+2 min', up: false },
    ],
    columns: ['Paciente', 'Cita', 'Estado', 'Hora'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Chequeo general', status: 'ok', amount: '09:00' },
      { name: PEOPLE[1]!, detail: 'Cardiología', status: 'pending', amount: '09:30' },
      { name: PEOPLE[2]!, detail: 'Pediatría', status: 'new', amount: '10:15' },
      { name: PEOPLE[3]!, detail: 'Dermatología', status: 'ok', amount: '11:00' },
      { name: PEOPLE[4]!, detail: 'Fisioterapia', status: 'ok', amount: '11:45' },
    ],
    products: [
      { name: 'Chequeo anual', price: '$120' },
      { name: 'Plan familiar', price: '$39/mes' },
      { name: 'Teleconsulta', price: '$45' },
    ],
    articles: [
      'Cinco hábitos para un corazón sano',
      'Cuándo acudir a un especialista',
      'Cómo prepararte para tu primera teleconsulta',
    ],
    testimonials: [
      {
        quote: 'Reservé en dos minutos y la doctora ya había leído mi historial. Impresionante.',
        author: PEOPLE[4]!,
        role: 'Paciente desde 2021',
      },
      {
        quote: 'Personal amable, sin esperas eternas y resultados directo al móvil.',
        author: PEOPLE[1]!,
        role: 'Paciente',
      },
      {
        quote: 'Solo los recordatorios nos evitaron perder tres citas este año.',
        author: PEOPLE[2]!,
        role: 'Madre de dos',
      },
    ],
    gallery: ['Recepción', 'Consultorio', 'Pediatría', 'Laboratorio', 'Fisioterapia', 'Nuestro equipo'],
    booking: 'Reserva una cita',
  },
  finance: {
    brand: 'Ledgerly',
    hero: {
      eyebrow: 'Claridad para tu dinero',
      title: 'Decisiones financieras con total confianza',
      lead: 'Visión en tiempo real de flujo de caja, inversiones y riesgo, con asesores que explican cada cifra.',
    },
    offerings: [
      {
        icon: 'trending',
        title: 'Planificación patrimonial',
        text: 'Estrategias a largo plazo según tus metas y tu perfil de riesgo.',
      },
      {
        icon: 'pie',
        title: 'Visión de cartera',
        text: 'Cada activo, comisión y rentabilidad en una vista clara.',
      },
      {
        icon: 'lock',
        title: 'Seguridad bancaria',
        text: 'Regulados, auditados y protegidos con doble factor.',
      },
    ],
    stats: [
      { value: '$1.200 M', label: 'en activos asesorados' },
      { value: '18 años', label: 'de experiencia' },
      { value: '96 %', label: 'de clientes fieles' },
    ],
    entity: { one: 'cliente', many: 'Clientes' },
    kpis: [
      { label: 'Activos gestionados', value: '$48,6 M', delta: '+3,2 %', up: true },
      { label: 'Entradas netas (mes)', value: '$1,4 M', delta: '+18 %', up: true },
      { label: 'Rentabilidad del año', value: '7,8 %', delta: '+0,6 pt', up: true },
      { label: 'Revisiones pendientes', value: '14', delta: '+3', up: false },
    ],
    columns: ['Cliente', 'Cartera', 'Estado', 'Saldo'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Crecimiento equilibrado', status: 'ok', amount: '$412.300' },
      { name: PEOPLE[1]!, detail: 'Jubilación', status: 'pending', amount: '$268.900' },
      { name: PEOPLE[2]!, detail: 'Conservadora', status: 'ok', amount: '$97.450' },
      { name: PEOPLE[3]!, detail: 'Dinámica', status: 'new', amount: '$54.000' },
      { name: PEOPLE[4]!, detail: 'Fondo educativo', status: 'ok', amount: '$38.720' },
    ],
    products: [
      { name: 'Esencial', price: '$0' },
      { name: 'Asesoría premium', price: '$29/mes' },
      { name: 'Banca privada', price: 'A medida' },
    ],
    articles: [
      'Crea un fondo de emergencia en 6 pasos',
      'Qué significan las subidas de tipos para tus ahorros',
      'La diversificación, explicada fácil',
    ],
    testimonials: [
      {
        quote: 'Por primera vez entiendo a dónde va cada peso, y por qué.',
        author: PEOPLE[3]!,
        role: 'Empresario',
      },
      {
        quote: 'Nuestro asesor armó un plan para ahorrar para los niños y jubilarnos a tiempo.',
        author: PEOPLE[0]!,
        role: 'Cliente desde 2019',
      },
      {
        quote: 'Informes claros, comisiones justas y respuestas el mismo día.',
        author: PEOPLE[4]!,
        role: 'Directora financiera',
      },
    ],
    gallery: ['Portal de clientes', 'Informes', 'App móvil', 'Asesoría', 'Mercados', 'Eventos'],
    booking: 'Agenda una asesoría',
  },
  education: {
    brand: 'Academia Brightpath',
    hero: {
      eyebrow: 'Aprender sin límites',
      title: 'Cursos que convierten la curiosidad en habilidades',
      lead: 'Profesores expertos, proyectos prácticos y un horario flexible que se adapta a tu vida.',
    },
    offerings: [
      {
        icon: 'book',
        title: 'Clases en vivo',
        text: 'Grupos pequeños con profesores que conocen tu nombre y tus metas.',
      },
      { icon: 'award', title: 'Certificados', text: 'Credenciales reconocidas que las empresas sí valoran.' },
      { icon: 'users', title: 'Mentorías', text: 'Sesiones uno a uno para acompañarte hasta graduarte.' },
    ],
    stats: [
      { value: '12k', label: 'estudiantes' },
      { value: '140+', label: 'cursos' },
      { value: '92 %', label: 'de finalización' },
    ],
    entity: { one: 'estudiante', many: 'Estudiantes' },
    kpis: [
      { label: 'Estudiantes activos', value: '1.284', delta: '+6,5 %', up: true },
      { label: 'Cursos completados', value: '87 %', delta: '+3 pt', up: true },
      { label: 'Nota media', value: '8,4', delta: '+0,2', up: true },
      { label: 'Tareas por corregir', value: '52', delta: '+11', up: false },
    ],
    columns: ['Estudiante', 'Curso', 'Estado', 'Progreso'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Análisis de datos', status: 'ok', amount: '86 %' },
      { name: PEOPLE[1]!, detail: 'Diseño UX', status: 'pending', amount: '42 %' },
      { name: PEOPLE[2]!, detail: 'Inglés B2', status: 'ok', amount: '73 %' },
      { name: PEOPLE[3]!, detail: 'Desarrollo web', status: 'new', amount: '8 %' },
      { name: PEOPLE[4]!, detail: 'Marketing digital', status: 'ok', amount: '95 %' },
    ],
    products: [
      { name: 'Curso individual', price: '$149' },
      { name: 'Acceso total', price: '$39/mes' },
      { name: 'Empresas', price: 'A medida' },
    ],
    articles: [
      'Cómo crear un hábito de estudio que dure',
      'Las habilidades que buscan las empresas en 2027',
      'De cero a portafolio en 12 semanas',
    ],
    testimonials: [
      {
        quote: 'Los proyectos eran reales, la retroalimentación honesta y conseguí el trabajo.',
        author: PEOPLE[1]!,
        role: 'Diseñador UX, egresado',
      },
      {
        quote: 'Estudiaba después del trabajo y nunca me sentí atrasada. Los mentores son la clave.',
        author: PEOPLE[2]!,
        role: 'Estudiante',
      },
      {
        quote: 'Formamos a todo el equipo en un trimestre con resultados medibles.',
        author: PEOPLE[4]!,
        role: 'Responsable de formación',
      },
    ],
    gallery: ['Campus', 'Talleres', 'Aula virtual', 'Graduación', 'Zonas de estudio', 'Eventos'],
    booking: 'Reserva una clase de prueba',
  },
  retail: {
    brand: 'Maison Market',
    hero: {
      eyebrow: 'Nueva temporada, nuevos favoritos',
      title: 'Hecho con cuidado, directo a tu puerta',
      lead: 'Descubre piezas que conservarás por años, con devoluciones gratis y entrega en 48 horas.',
    },
    offerings: [
      {
        icon: 'truck',
        title: 'Envío rápido',
        text: 'Envío gratis desde $50, con seguimiento hasta tu puerta.',
      },
      { icon: 'tag', title: 'Precios justos', text: 'Materiales de calidad sin sobreprecio de lujo.' },
      {
        icon: 'smile',
        title: 'Devoluciones fáciles',
        text: '30 días para cambiar de opinión, sin preguntas.',
      },
    ],
    stats: [
      { value: '50k+', label: 'clientes felices' },
      { value: '4,8/5', label: 'valoración media' },
      { value: '48 h', label: 'de entrega' },
    ],
    entity: { one: 'pedido', many: 'Pedidos' },
    kpis: [
      { label: 'Ventas de hoy', value: '$6.842', delta: '+14 %', up: true },
      { label: 'Pedidos', value: '184', delta: '+22', up: true },
      { label: 'Tasa de conversión', value: '3,6 %', delta: '+0,3 pt', up: true },
      { label: 'Devoluciones', value: '9', delta: '+2', up: false },
    ],
    columns: ['Cliente', 'Pedido', 'Estado', 'Total'],
    rows: [
      { name: PEOPLE[0]!, detail: '#10482 · 3 artículos', status: 'ok', amount: '$148,00' },
      { name: PEOPLE[1]!, detail: '#10481 · 1 artículo', status: 'pending', amount: '$59,90' },
      { name: PEOPLE[2]!, detail: '#10480 · 2 artículos', status: 'new', amount: '$96,50' },
      { name: PEOPLE[3]!, detail: '#10479 · 5 artículos', status: 'ok', amount: '$231,40' },
      { name: PEOPLE[4]!, detail: '#10478 · 1 artículo', status: 'ok', amount: '$34,00' },
    ],
    products: [
      { name: 'Sobrecamisa de lino', price: '$79' },
      { name: 'Set de tazas de cerámica', price: '$42' },
      { name: 'Bolso de lona', price: '$28' },
    ],
    articles: [
      'Nuestra guía para un armario cápsula',
      'Conoce a los artesanos de nuestra cerámica',
      'Cómo elegimos materiales sostenibles',
    ],
    testimonials: [
      {
        quote: 'Llegó al día siguiente, muy bien empacado, y en persona es aún mejor.',
        author: PEOPLE[2]!,
        role: 'Compra verificada',
      },
      {
        quote: 'Devolver fue facilísimo. Sin duda volveré a comprar.',
        author: PEOPLE[3]!,
        role: 'Compra verificada',
      },
      {
        quote: 'Mi tienda favorita para regalos. Nunca me decepciona.',
        author: PEOPLE[0]!,
        role: 'Clienta fiel',
      },
    ],
    gallery: ['Novedades', 'Hogar', 'Accesorios', 'Regalos', 'Más vendidos', 'Lookbook'],
    booking: 'Reserva una asesoría de compra',
  },
  manufacturing: {
    brand: 'Forgeline Industrial',
    hero: {
      eyebrow: 'Precisión a escala',
      title: 'Socios de ingeniería del prototipo a la producción',
      lead: 'Procesos certificados, entregas puntuales y trazabilidad completa de cada pieza.',
    },
    offerings: [
      {
        icon: 'tool',
        title: 'Fabricación a medida',
        text: 'Mecanizado CNC, soldadura y ensamblaje según tus planos.',
      },
      {
        icon: 'package',
        title: 'Cadena de suministro',
        text: 'Compras, almacenaje y entregas justo a tiempo.',
      },
      {
        icon: 'award',
        title: 'Calidad certificada',
        text: 'Procesos ISO 9001 con informes de inspección completos.',
      },
    ],
    stats: [
      { value: '35 años', label: 'de trayectoria' },
      { value: '98,7 %', label: 'entregas a tiempo' },
      { value: 'ISO 9001', label: 'certificados' },
    ],
    entity: { one: 'orden de trabajo', many: 'Órdenes' },
    kpis: [
      { label: 'Unidades producidas (semana)', value: '18.420', delta: '+6,2 %', up: true },
      { label: 'Eficiencia global (OEE)', value: '84 %', delta: '+2 pt', up: true },
      { label: 'Tasa de defectos', value: '0,4 %', delta: '-0,1 pt', up: true },
      { label: 'Pedidos retrasados', value: '3', delta: '+1', up: false },
    ],
    columns: ['Cliente', 'Orden', 'Estado', 'Entrega'],
    rows: [
      { name: PEOPLE[0]!, detail: 'OT-2291 · Soportes', status: 'ok', amount: '14 mar' },
      { name: PEOPLE[1]!, detail: 'OT-2290 · Carcasas', status: 'pending', amount: '16 mar' },
      { name: PEOPLE[2]!, detail: 'OT-2288 · Ejes', status: 'ok', amount: '18 mar' },
      { name: PEOPLE[3]!, detail: 'OT-2287 · Paneles', status: 'new', amount: '21 mar' },
      { name: PEOPLE[4]!, detail: 'OT-2285 · Racores', status: 'ok', amount: '22 mar' },
    ],
    products: [
      { name: 'Serie prototipo', price: 'Desde $900' },
      { name: 'Lote pequeño', price: 'Desde $4.500' },
      { name: 'Producción', price: 'Cotizar' },
    ],
    articles: [
      'Diseño para fabricación: 7 mejoras rápidas',
      'Así es nuestra nueva línea CNC',
      'Cómo la trazabilidad reduce retiradas',
    ],
    testimonials: [
      {
        quote: 'Detectaron un fallo de diseño antes de producir y nos ahorraron semanas.',
        author: PEOPLE[3]!,
        role: 'Gerente de ingeniería',
      },
      {
        quote: 'Calidad constante en 40.000 piezas. Eso es poco común.',
        author: PEOPLE[1]!,
        role: 'Jefe de compras',
      },
      {
        quote: 'Plazos transparentes y los cumplieron todos.',
        author: PEOPLE[4]!,
        role: 'Directora de operaciones',
      },
    ],
    gallery: [
      'Línea CNC',
      'Ensamblaje',
      'Laboratorio de calidad',
      'Almacén',
      'Piezas terminadas',
      'Ingenieros',
    ],
    booking: 'Solicita una cotización',
  },
  realEstate: {
    brand: 'Keystone Inmobiliaria',
    hero: {
      eyebrow: 'Encuentra tu lugar',
      title: 'Casas que te enamoran, agentes en los que confías',
      lead: 'Explora inmuebles verificados, agenda visitas en línea y recibe asesoría desde la oferta hasta las llaves.',
    },
    offerings: [
      {
        icon: 'home',
        title: 'Comprar',
        text: 'Inmuebles seleccionados con fotos, planos y precios honestos.',
      },
      { icon: 'tag', title: 'Vender', text: 'Tasación gratuita y un plan de marketing que vende antes.' },
      {
        icon: 'briefcase',
        title: 'Alquilar y gestionar',
        text: 'Selección de inquilinos, contratos y mantenimiento resueltos.',
      },
    ],
    stats: [
      { value: '1.800+', label: 'casas vendidas' },
      { value: '21 días', label: 'de venta media' },
      { value: '4,9/5', label: 'valoración' },
    ],
    entity: { one: 'inmueble', many: 'Inmuebles' },
    kpis: [
      { label: 'Inmuebles activos', value: '142', delta: '+8', up: true },
      { label: 'Visitas esta semana', value: '86', delta: '+19 %', up: true },
      { label: 'Ofertas recibidas', value: '23', delta: '+5', up: true },
      { label: 'Días en el mercado', value: '27', delta: '+3', up: false },
    ],
    columns: ['Cliente', 'Inmueble', 'Estado', 'Precio'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Casa adosada 3 hab. · Ribera', status: 'ok', amount: '$485.000' },
      { name: PEOPLE[1]!, detail: 'Piso 2 hab. · Centro', status: 'pending', amount: '$312.000' },
      { name: PEOPLE[2]!, detail: 'Casa familiar · Robledal', status: 'new', amount: '$640.000' },
      { name: PEOPLE[3]!, detail: 'Estudio · Casco antiguo', status: 'ok', amount: '$189.000' },
      { name: PEOPLE[4]!, detail: 'Ático · Puerto', status: 'ok', amount: '$1.150.000' },
    ],
    products: [
      { name: 'Casa adosada en la Ribera', price: '$485.000' },
      { name: 'Ático en el Puerto', price: '$1,15 M' },
      { name: 'Casa familiar en Robledal', price: '$640.000' },
    ],
    articles: [
      '¿Compras por primera vez? Empieza aquí',
      'Trucos de home staging que suman valor',
      'Guía del barrio: la Ribera',
    ],
    testimonials: [
      {
        quote: 'Encontramos casa en dos fines de semana. Las visitas estaban perfectamente organizadas.',
        author: PEOPLE[2]!,
        role: 'Compradora',
      },
      {
        quote: 'Vendimos por encima del precio en 12 días. Consejos claros en cada paso.',
        author: PEOPLE[0]!,
        role: 'Vendedora',
      },
      {
        quote: 'Gestionan nuestros tres alquileres y no tenemos que preocuparnos por nada.',
        author: PEOPLE[3]!,
        role: 'Propietario',
      },
    ],
    gallery: ['Salón', 'Cocina', 'Jardín', 'Dormitorio', 'Terraza', 'El barrio'],
    booking: 'Agenda una visita',
  },
  hospitality: {
    brand: 'Casa Aurora',
    hero: {
      eyebrow: 'Fresco, de temporada, inolvidable',
      title: 'Una mesa a la que siempre querrás volver',
      lead: 'Platos de temporada, servicio cálido y un ambiente que se siente como en casa. Reserva tu mesa en segundos.',
    },
    offerings: [
      {
        icon: 'coffee',
        title: 'Menú de temporada',
        text: 'Producto local, cocinado con sencillez y servido con generosidad.',
      },
      {
        icon: 'calendar',
        title: 'Reservas fáciles',
        text: 'Elige tu hora en línea y recibe confirmación al instante.',
      },
      {
        icon: 'star',
        title: 'Eventos privados',
        text: 'Cumpleaños, cenas y celebraciones de hasta 60 personas.',
      },
    ],
    stats: [
      { value: '4,8/5', label: 'valoración de clientes' },
      { value: '15 años', label: 'de hospitalidad' },
      { value: '60', label: 'cubiertos' },
    ],
    entity: { one: 'reserva', many: 'Reservas' },
    kpis: [
      { label: 'Cubiertos esta noche', value: '112', delta: '+18', up: true },
      { label: 'Ocupación', value: '86 %', delta: '+7 pt', up: true },
      { label: 'Ticket medio', value: '$48', delta: '+$3', up: true },
      { label: 'Cancelaciones', value: '4', delta: '+1', up: false },
    ],
    columns: ['Cliente', 'Reserva', 'Estado', 'Hora'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Mesa para 2 · Terraza', status: 'ok', amount: '19:30' },
      { name: PEOPLE[1]!, detail: 'Mesa para 6 · Cumpleaños', status: 'pending', amount: '20:00' },
      { name: PEOPLE[2]!, detail: 'Mesa para 4', status: 'ok', amount: '20:15' },
      { name: PEOPLE[3]!, detail: 'Mesa para 2 · Ventana', status: 'new', amount: '21:00' },
      { name: PEOPLE[4]!, detail: 'Menú degustación para 3', status: 'ok', amount: '21:30' },
    ],
    products: [
      { name: 'Menú degustación', price: '$65' },
      { name: 'Tarjeta regalo', price: '$50' },
      { name: 'Clase de cocina', price: '$90' },
    ],
    articles: [
      'Lo que está de temporada este mes',
      'Tras el pase con nuestra jefa de cocina',
      'Maridajes para platos de primavera',
    ],
    testimonials: [
      {
        quote: 'Cada plato fue una pequeña celebración. Ya reservamos para nuestro aniversario.',
        author: PEOPLE[0]!,
        role: 'Cliente',
      },
      {
        quote: 'Reservar en línea tomó segundos y la mesa estaba lista al llegar.',
        author: PEOPLE[3]!,
        role: 'Cliente habitual',
      },
      {
        quote: 'Organizaron la cena de nuestro equipo de 40 personas sin un solo fallo.',
        author: PEOPLE[4]!,
        role: 'Organizadora de eventos',
      },
    ],
    gallery: ['Comedor', 'Terraza', 'Plato estrella', 'La cocina', 'Bodega', 'Salón privado'],
    booking: 'Reserva una mesa',
  },
  nonprofit: {
    brand: 'Terreno Común',
    hero: {
      eyebrow: 'Juntos llegamos más lejos',
      title: 'Cada aporte cambia una vida',
      lead: 'Financiamos educación, agua potable y empleo local. Mira exactamente a dónde va tu apoyo.',
    },
    offerings: [
      {
        icon: 'heart',
        title: 'Dona',
        text: 'Aportes únicos o mensuales, con certificado para tus impuestos.',
      },
      {
        icon: 'users',
        title: 'Voluntariado',
        text: 'Únete a un equipo local o aporta tus habilidades en remoto.',
      },
      { icon: 'globe', title: 'Programas', text: 'Proyectos en 14 comunidades, con informes transparentes.' },
    ],
    stats: [
      { value: '38.000', label: 'personas alcanzadas' },
      { value: '92 %', label: 'va a los programas' },
      { value: '14', label: 'comunidades' },
    ],
    entity: { one: 'donante', many: 'Donantes' },
    kpis: [
      { label: 'Recaudado este mes', value: '$42.380', delta: '+16 %', up: true },
      { label: 'Donantes mensuales', value: '1.204', delta: '+58', up: true },
      { label: 'Horas de voluntariado', value: '3.410', delta: '+9 %', up: true },
      { label: 'Donantes inactivos', value: '27', delta: '+4', up: false },
    ],
    columns: ['Donante', 'Campaña', 'Estado', 'Monto'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Agua limpia 2027', status: 'ok', amount: '$250' },
      { name: PEOPLE[1]!, detail: 'Comedores escolares', status: 'new', amount: '$40/mes' },
      { name: PEOPLE[2]!, detail: 'Fondo de emergencia', status: 'ok', amount: '$1.000' },
      { name: PEOPLE[3]!, detail: 'Comedores escolares', status: 'pending', amount: '$25/mes' },
      { name: PEOPLE[4]!, detail: 'Empleo local', status: 'ok', amount: '$500' },
    ],
    products: [
      { name: 'Alimenta una clase una semana', price: '$35' },
      { name: 'Un filtro de agua', price: '$80' },
      { name: 'Socio mensual', price: '$15/mes' },
    ],
    articles: [
      'Un año de agua limpia en San Isidro',
      'Los voluntarios detrás de los comedores',
      'Nuestro informe de impacto 2026',
    ],
    testimonials: [
      {
        quote: 'Veo cada proyecto que financia mi donación. Esa transparencia me hace seguir.',
        author: PEOPLE[1]!,
        role: 'Donante mensual',
      },
      {
        quote: 'Ser voluntaria aquí le dio propósito a mis fines de semana.',
        author: PEOPLE[2]!,
        role: 'Voluntaria',
      },
      {
        quote: 'Un aliado que cumple e informa con honestidad.',
        author: PEOPLE[4]!,
        role: 'Responsable de fundación',
      },
    ],
    gallery: ['Comunidad', 'Agua limpia', 'Comedores', 'Voluntarios', 'Talleres', 'Celebraciones'],
    booking: 'Inscríbete como voluntario',
  },
  other: {
    brand: 'Estudio Norte',
    hero: {
      eyebrow: 'Pensado para tus clientes',
      title: 'Todo lo que tus clientes necesitan, en un solo lugar',
      lead: 'Una experiencia rápida y cercana que explica lo que haces, genera confianza y convierte visitas en clientes.',
    },
    offerings: [
      {
        icon: 'star',
        title: 'Servicio de calidad',
        text: 'Personas con experiencia que cuidan cada detalle.',
      },
      { icon: 'clock', title: 'Puntualidad', text: 'Plazos claros y novedades en cada paso.' },
      {
        icon: 'smile',
        title: 'Clientes felices',
        text: 'Cientos de clientes que vuelven y nos recomiendan.',
      },
    ],
    stats: [
      { value: '500+', label: 'clientes atendidos' },
      { value: '4,9/5', label: 'satisfacción' },
      { value: '10 años', label: 'de experiencia' },
    ],
    entity: { one: 'cliente', many: 'Clientes' },
    kpis: [
      { label: 'Ingresos del mes', value: '$28.400', delta: '+9,8 %', up: true },
      { label: 'Clientes nuevos', value: '46', delta: '+12', up: true },
      { label: 'Satisfacción', value: '96 %', delta: '+1 pt', up: true },
      { label: 'Solicitudes abiertas', value: '18', delta: '+4', up: false },
    ],
    columns: ['Cliente', 'Proyecto', 'Estado', 'Valor'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Incorporación', status: 'ok', amount: '$4.200' },
      { name: PEOPLE[1]!, detail: 'Consultoría', status: 'pending', amount: '$1.800' },
      { name: PEOPLE[2]!, detail: 'Plan mensual', status: 'ok', amount: '$2.500' },
      { name: PEOPLE[3]!, detail: 'Taller', status: 'new', amount: '$900' },
      { name: PEOPLE[4]!, detail: 'Plan anual', status: 'ok', amount: '$12.000' },
    ],
    products: [
      { name: 'Básico', price: '$49' },
      { name: 'Profesional', price: '$129' },
      { name: 'Premium', price: '$299' },
    ],
    articles: [
      'Cinco preguntas antes de contratar',
      'Cómo trabajamos, paso a paso',
      'Caso de éxito: el doble de clientes recurrentes',
    ],
    testimonials: [
      {
        quote: 'Profesionales, rápidos y de verdad agradables para trabajar.',
        author: PEOPLE[0]!,
        role: 'Cliente',
      },
      { quote: 'Entendieron lo que necesitábamos mejor que nosotros.', author: PEOPLE[3]!, role: 'Fundador' },
      {
        quote: 'Precios claros y cero sorpresas. Muy recomendables.',
        author: PEOPLE[2]!,
        role: 'Gerente de operaciones',
      },
    ],
    gallery: ['Nuestro trabajo', 'El estudio', 'Proyectos', 'Detrás de escena', 'Eventos', 'El equipo'],
    booking: 'Agenda una llamada',
  },
};
