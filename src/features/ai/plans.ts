import type { Language, PlanPath } from '../../integrations/llm/offline/vocabulary.ts';

export interface Plan {
  name: string;
  description: string;
  bestFor: string;
  typicalIncludes: string[];
}

/**
 * The fixed plan descriptions, keyed by path and language. The server injects them into every
 * recommendation; the model never writes them.
 */
export const PLANS: Record<PlanPath, Record<Language, Plan>> = {
  Build: {
    en: {
      name: 'Build',
      description:
        'We design and build your website: a fast, accessible site with a content system your team can edit, ready for search engines from day one.',
      bestFor: 'Businesses that need a new website, a redesign, a landing page or an online store.',
      typicalIncludes: [
        'Discovery workshop and sitemap',
        'UX and visual design',
        'Responsive development with a CMS',
        'On-page SEO and analytics set-up',
        'Launch and training',
      ],
    },
    es: {
      name: 'Build',
      description:
        'Diseñamos y construimos su sitio web: rápido, accesible, con un gestor de contenidos que su equipo puede editar y preparado para buscadores desde el primer día.',
      bestFor:
        'Empresas que necesitan un sitio web nuevo, un rediseño, una landing page o una tienda en línea.',
      typicalIncludes: [
        'Taller de descubrimiento y mapa del sitio',
        'Diseño UX y visual',
        'Desarrollo adaptable con CMS',
        'SEO on-page y configuración de analítica',
        'Lanzamiento y capacitación',
      ],
    },
  },
  Launch: {
    en: {
      name: 'Launch',
      description:
        'We take a new product from idea to first release: a focused MVP of your web or mobile application, built to be tested with real users and grown afterwards.',
      bestFor: 'Founders and teams launching a new app, SaaS or digital product.',
      typicalIncludes: [
        'Product scoping and prioritised backlog',
        'Prototype and UX validation',
        'MVP development (web or mobile)',
        'Cloud set-up, CI/CD and monitoring',
        'Release to users or app stores',
      ],
    },
    es: {
      name: 'Launch',
      description:
        'Llevamos un producto nuevo de la idea a su primera versión: un MVP enfocado de su aplicación web o móvil, listo para probarse con usuarios reales y crecer después.',
      bestFor: 'Fundadores y equipos que lanzan una app, un SaaS o un producto digital nuevo.',
      typicalIncludes: [
        'Definición del producto y backlog priorizado',
        'Prototipo y validación de UX',
        'Desarrollo del MVP (web o móvil)',
        'Infraestructura en la nube, CI/CD y monitoreo',
        'Publicación para usuarios o tiendas de aplicaciones',
      ],
    },
  },
  Scale: {
    en: {
      name: 'Scale',
      description:
        'We help an existing product grow: performance, infrastructure and cost, search visibility, ongoing maintenance, or extra engineers who join your team.',
      bestFor: 'Products and sites already in use that are slowing down, growing, or short of hands.',
      typicalIncludes: [
        'Performance and infrastructure assessment',
        'Cloud, DevOps and cost optimisation',
        'SEO and Core Web Vitals improvements',
        'Maintenance plan with monitoring and updates',
        'Dedicated developers or a full team',
      ],
    },
    es: {
      name: 'Scale',
      description:
        'Ayudamos a crecer a un producto existente: rendimiento, infraestructura y costos, visibilidad en buscadores, mantenimiento continuo o ingenieros que se suman a su equipo.',
      bestFor: 'Productos y sitios en uso que se vuelven lentos, crecen o necesitan más manos.',
      typicalIncludes: [
        'Evaluación de rendimiento e infraestructura',
        'Nube, DevOps y optimización de costos',
        'Mejoras de SEO y Core Web Vitals',
        'Plan de mantenimiento con monitoreo y actualizaciones',
        'Desarrolladores dedicados o un equipo completo',
      ],
    },
  },
  Custom: {
    en: {
      name: 'Custom',
      description:
        'We build software shaped around how your business works: integrations between your systems, workflow automation, internal tools and AI features.',
      bestFor: 'Organisations with processes or systems that off-the-shelf tools do not fit.',
      typicalIncludes: [
        'Process and systems mapping',
        'Integrations and APIs (CRM, ERP, payments, legacy systems)',
        'Workflow automation and internal tools',
        'AI and data features where they pay off',
        'Documentation and handover',
      ],
    },
    es: {
      name: 'Custom',
      description:
        'Construimos software a la medida de cómo trabaja su empresa: integraciones entre sistemas, automatización de procesos, herramientas internas y funciones de IA.',
      bestFor: 'Organizaciones con procesos o sistemas a los que no se ajustan las herramientas estándar.',
      typicalIncludes: [
        'Mapeo de procesos y sistemas',
        'Integraciones y APIs (CRM, ERP, pagos, sistemas heredados)',
        'Automatización de procesos y herramientas internas',
        'Funciones de IA y datos donde aportan valor',
        'Documentación y traspaso',
      ],
    },
  },
  'Technical Review': {
    en: {
      name: 'Technical Review',
      description:
        'A senior engineer reviews your situation, code or plans and gives you a clear, prioritised recommendation before you commit budget.',
      bestFor: 'Teams that are unsure what they need, want a second opinion, or need an audit.',
      typicalIncludes: [
        'Call to understand goals and constraints',
        'Code, architecture or security review',
        'Risks and options with rough costs',
        'Written recommendation and next steps',
      ],
    },
    es: {
      name: 'Technical Review',
      description:
        'Un ingeniero sénior revisa su situación, su código o sus planes y le entrega una recomendación clara y priorizada antes de comprometer presupuesto.',
      bestFor:
        'Equipos que no saben bien qué necesitan, quieren una segunda opinión o requieren una auditoría.',
      typicalIncludes: [
        'Llamada para entender objetivos y restricciones',
        'Revisión de código, arquitectura o seguridad',
        'Riesgos y opciones con costos aproximados',
        'Recomendación escrita y próximos pasos',
      ],
    },
  },
};

export function planFor(path: PlanPath, language: Language): Plan {
  const plan = PLANS[path][language];
  return { ...plan, typicalIncludes: [...plan.typicalIncludes] };
}
